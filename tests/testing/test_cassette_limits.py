"""Reading is bounded: hostile cassettes are refused with their file named, nothing else.

Each input is a small synthetic file built the way an attacker (or an unlucky
merge) would: deep nesting, YAML alias and merge-key bombs, numbers of
thousands of digits. How long refusing them takes is measured by
``benchmarks/bench_hostile.py``, not here.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tooltape.testing.cassette import (
    Cassette,
    CassetteError,
    CassetteHeader,
    EmptyBody,
    Interaction,
    JsonBody,
    RecordedRequest,
    RecordedResponse,
    TextBody,
    import_cassette,
    load_cassette,
    save_cassette,
    scrub_body,
)
from tooltape.testing.cassette._bodies import body_from_bytes

DEPTH = 100_000


def _laughs(levels: int = 9) -> str:
    lines = ["a0: &a0 [lol]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels + 1)]
    return "\n".join([*lines, f"interactions: *a{levels}", ""])


HOSTILE = {
    "deep.json": '{"tooltape": {"version": "1", "source": "live"}, "interactions": '
    + "[" * DEPTH
    + "]" * DEPTH
    + "}",
    "deep.yaml": "interactions:\n- " + "[" * DEPTH + "]" * DEPTH + "\n",
    "laughs.yaml": _laughs(),
    "parsed_body_bomb.yaml": textwrap.dedent(
        """\
        x0: &x0 {k: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}
        x1: &x1 [*x0, *x0, *x0, *x0, *x0, *x0, *x0, *x0, *x0, *x0]
        x2: &x2 [*x1, *x1, *x1, *x1, *x1, *x1, *x1, *x1, *x1, *x1]
        x3: &x3 [*x2, *x2, *x2, *x2, *x2, *x2, *x2, *x2, *x2, *x2]
        x4: &x4 [*x3, *x3, *x3, *x3, *x3, *x3, *x3, *x3, *x3, *x3]
        x5: &x5 [*x4, *x4, *x4, *x4, *x4, *x4, *x4, *x4, *x4, *x4]
        interactions:
        - request: {method: POST, uri: 'https://api.example.test/v1/responses', headers: {}}
          response:
            status: {code: 200, message: OK}
            headers: {content-type: [application/json]}
            parsed_body: *x5
        """
    ),
    "merge_keys.yaml": textwrap.dedent(
        """\
        a0: &a0 {k0: 0, k1: 1, k2: 2, k3: 3, k4: 4, k5: 5, k6: 6, k7: 7, k8: 8}
        a1: &a1 {<<: [*a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0]}
        a2: &a2 {<<: [*a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1]}
        a3: &a3 {<<: [*a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2]}
        a4: &a4 {<<: [*a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3]}
        a5: &a5 {<<: [*a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4]}
        a6: &a6 {<<: [*a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5]}
        interactions: []
        """
    ),
    "self_reference.yaml": "a: &a [*a]\ninteractions: *a\n",
    "status_digits.json": json.dumps(
        {
            "tooltape": {"version": "1", "source": "live"},
            "interactions": [
                {
                    "request": {"method": "GET", "uri": "https://x.test/v1/r", "headers": {}},
                    "response": {"status_code": "CODE", "reason": "OK", "headers": {}},
                }
            ],
        }
    ).replace('"CODE"', "7" * 5000),
    "status_digits_text.json": json.dumps(
        {
            "tooltape": {"version": "1", "source": "live"},
            "interactions": [
                {
                    "request": {"method": "GET", "uri": "https://x.test/v1/r", "headers": {}},
                    "response": {"status_code": "7" * 5000, "reason": "OK", "headers": {}},
                }
            ],
        }
    ),
    "status_digits.yaml": "interactions:\n- request: {method: GET, uri: 'https://x.test/v1/r'}\n"
    "  response: {status: {code: " + "7" * 5000 + ", message: OK}, body: {string: ''}}\n",
}

EXPECTED = {
    "deep.json": "nested deeper than",
    "deep.yaml": "nested deeper than",
    "laughs.yaml": "YAML aliases expand it",
    "parsed_body_bomb.yaml": "YAML aliases expand it",
    "merge_keys.yaml": "YAML merge keys",
    "self_reference.yaml": "refers to a value that contains it",
    "status_digits.json": "more digits than can be read",
    "status_digits_text.json": "expected an integer",
    "status_digits.yaml": "more digits than can be read",
}


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    for name, text in HOSTILE.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("name", sorted(set(HOSTILE) - {"deep.yaml"}))
def test_a_hostile_cassette_is_refused_with_its_file_named(hostile: Path, name: str) -> None:
    with pytest.raises(CassetteError) as refused:
        load_cassette(hostile / name)
    message = str(refused.value)
    assert str(hostile / name) in message
    assert EXPECTED[name] in message
    assert len(message) < 1000  # nothing expanded into the message


def test_deep_yaml_is_refused_before_the_c_loader_can_crash(hostile: Path) -> None:
    # libyaml's composer recurses in C: a crash would take the test process with it.
    script = (
        "import sys\n"
        "from tooltape.testing.cassette import CassetteError, load_cassette\n"
        "try:\n    load_cassette(sys.argv[1])\n"
        "except CassetteError as error:\n    print(error)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(hostile / "deep.yaml")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-500:]
    assert "deep.yaml: refused: nested deeper than" in done.stdout


@pytest.mark.parametrize("name", ["parsed_body_bomb.yaml", "laughs.yaml"])
def test_import_refuses_an_alias_bomb_too(hostile: Path, name: str) -> None:
    with pytest.raises(CassetteError, match="YAML aliases expand it"):
        import_cassette(hostile / name)


def test_a_few_ordinary_aliases_still_load(tmp_path: Path) -> None:
    # PyYAML writes &id001 / *id001 when one object appears twice, as vcrpy cassettes show.
    path = tmp_path / "shared.yaml"
    path.write_text(
        textwrap.dedent(
            """\
            interactions:
            - request:
                method: GET
                uri: 'https://x.test/v1/models'
                headers: &id001 {accept: [application/json]}
              response: {status: {code: 200, message: OK}, headers: {}, body: {string: ''}}
            - request: {method: GET, uri: 'https://x.test/v1/models', headers: *id001}
              response: {status: {code: 200, message: OK}, headers: {}, body: {string: ''}}
            """
        ),
        encoding="utf-8",
    )
    cassette = load_cassette(path)
    assert [i.request.headers for i in cassette.interactions] == [
        {"accept": ("application/json",)}
    ] * 2


def test_a_body_nested_too_deep_for_a_tree_is_kept_as_text() -> None:
    text = "[" * 5000 + "]" * 5000
    body = body_from_bytes({"content-type": ("application/json",)}, text.encode())
    assert body == TextBody(text)
    assert scrub_body(body) is body  # the scrubber reads it as text, never as a tree


def test_a_body_as_deep_as_a_tree_may_be_is_recorded_and_read_back(tmp_path: Path) -> None:
    text = "[" * 200 + "]" * 200
    body = body_from_bytes({"content-type": ("application/json",)}, text.encode())
    assert isinstance(body, JsonBody)
    cassette = Cassette(
        CassetteHeader("0.1.0", "synthetic", "synthetic: test_cassette_limits"),
        (
            Interaction(
                RecordedRequest("GET", "https://x.test/v1/r", {}, EmptyBody()),
                RecordedResponse(200, "OK", {}, body),
            ),
        ),
    )
    save_cassette(tmp_path / "deepest.json", cassette)
    [interaction] = load_cassette(tmp_path / "deepest.json").interactions
    assert interaction.response.body.to_bytes() == text.encode()


def test_an_error_describing_a_value_never_shows_a_key(tmp_path: Path) -> None:
    key = "sk-proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8t"
    path = tmp_path / "typo.json"
    path.write_text(
        json.dumps(
            {
                "tooltape": {"version": "1", "source": "live"},
                "interactions": [
                    {
                        "request": {"method": "GET", "uri": "https://x.test/v1/r", "headers": {}},
                        "response": {"status_code": f"Bearer {key}", "reason": "OK"},
                    }
                ],
            }
        )
    )
    with pytest.raises(CassetteError) as refused:
        load_cassette(path)
    assert "expected an integer, got str" in str(refused.value)
    assert key[8:16] not in str(refused.value)
