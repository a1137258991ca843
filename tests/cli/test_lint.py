"""``tooltape lint``: each kind of finding, on small synthetic cassettes in tmp folders."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import REPO, Run, clean_interaction, interaction, write_cassette

# Synthetic, key-shaped (not a real key): the scanner must still catch it.
FAKE_KEY = "sk-proj-" + "synthetic0123456789abcdefABCDEF"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project root (the current directory) with a ``cassettes/`` folder."""
    (tmp_path / "cassettes").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _findings(out: str) -> list[tuple[str, str]]:
    """``(kind, location)`` of every finding line in the output."""
    pairs: list[tuple[str, str]] = []
    for line in out.splitlines():
        parts = line.split()
        if line.startswith("  ") and not line.startswith("  fix") and len(parts) >= 2:
            kind = " ".join(parts[:2]) if parts[0] in ("escaped", "binary", "unused") else parts[0]
            rest = line.strip()[len(kind) :].split()
            pairs.append((kind, rest[0] if rest else ""))
    return pairs


def test_a_clean_folder_exits_0(cli: Callable[..., Run], project: Path) -> None:
    write_cassette(project / "cassettes" / "imported" / "clean.json", clean_interaction())
    run = cli("lint")
    assert run.code == 0
    assert run.out.strip() == "1 cassette in cassettes: no findings"


def test_secrets_in_headers_and_bodies(cli: Callable[..., Run], project: Path) -> None:
    path = write_cassette(
        project / "cassettes" / "imported" / "leaky.json",
        interaction(
            {"json": {"model": "gpt-5", "input": f"my key is {FAKE_KEY}"}},
            {"json": {"status": "completed", "output": []}},
            request_headers={"authorization": [f"Bearer {FAKE_KEY}"]},
        ),
    )

    run = cli("lint")

    assert run.code == 1
    assert "cassettes/imported/leaky.json" in run.out
    found = _findings(run.out)
    assert ("secret", "/interactions/0/request/headers/authorization/0") in found
    assert ("secret", "/interactions/0/request/body/json/input") in found
    assert FAKE_KEY not in run.out  # excerpts are masked
    assert "fix (secret):" in run.out and "revoke" in run.out
    assert "in 1 file" in run.out
    assert str(path.name) in run.out


def test_escaped_json_bodies(cli: Callable[..., Run], project: Path) -> None:
    tree = {"id": "resp_synthetic", "status": "completed", "output": []}
    write_cassette(
        project / "cassettes" / "imported" / "escaped.json",
        interaction({"text": json.dumps({"model": "gpt-5"})}, {"json": json.dumps(tree)}),
        interaction(
            {"json": {"model": "gpt-5", "stream": True}},
            {"sse": [{"event": "response.completed", "data": json.dumps({"type": "x"})}]},
        ),
        # Not findings: multipart text, and wire fields that are JSON text by definition.
        interaction(
            {"text": '--b\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nx\r\n--b--'},
            {"json": {"output": [{"type": "function_call", "arguments": '{"city": "Paris"}'}]}},
        ),
    )

    run = cli("lint")

    assert run.code == 1
    assert sorted(_findings(run.out)) == [
        ("escaped JSON", "/interactions/0/request/body/text"),
        ("escaped JSON", "/interactions/0/response/body/json"),
        ("escaped JSON", "/interactions/1/response/body/sse/0/data"),
    ]
    assert "store it as a data tree" in run.out


def test_binary_bodies(cli: Callable[..., Run], project: Path) -> None:
    blob = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(range(256))).decode()
    write_cassette(
        project / "cassettes" / "imported" / "binary.json",
        interaction({"json": {"model": "gpt-5"}}, {"base64": blob}),
    )
    run = cli("lint")
    assert run.code == 1
    assert _findings(run.out) == [("binary body", "/interactions/0/response/body/base64")]
    assert "264 bytes stored as base64" in run.out
    assert "cannot be reviewed in a diff" in run.out


def test_unreadable_cassettes(cli: Callable[..., Run], project: Path) -> None:
    (project / "cassettes" / "imported").mkdir()
    (project / "cassettes" / "imported" / "torn.json").write_text('{"interactions": [')
    run = cli("lint")
    assert run.code == 1
    assert "cassettes/imported/torn.json" in run.out
    assert "unreadable" in run.out and "invalid JSON" in run.out and "git checkout" in run.out


def test_cassettes_no_test_uses(cli: Callable[..., Run], project: Path) -> None:
    tests = project / "tests" / "unit"
    tests.mkdir(parents=True)
    (tests / "test_api.py").write_text(
        "import pytest\n\n"
        "def test_kept():\n    pass\n\n"
        "@pytest.mark.parametrize('x', [1.5])\n"
        "def test_param(x):\n    pass\n\n"
        "class TestGroup:\n    def test_method(self):\n        pass\n\n"
        "@pytest.mark.default_cassette('shared_name')\n"
        "def test_named():\n    pass\n",
        encoding="utf-8",
    )
    cassettes = project / "cassettes"
    used = [
        "tests/unit/test_api/test_kept.json",
        "tests/unit/test_api/test_param[1.5].json",
        "tests/unit/test_api/TestGroup.test_method.json",
        "tests/unit/test_api/shared_name.json",
        "imported/whatever.json",  # not a test-module folder: never checked
    ]
    unused = [
        "tests/unit/test_api/test_gone.json",
        "tests/unit/test_api/TestOther.test_method.json",
        "tests/unit/test_missing/test_anything.json",
        "test_api/test_kept.json",  # the module lives in tests/unit, not at the root
    ]
    for name in used + unused:
        write_cassette(cassettes / name, clean_interaction())

    run = cli("lint")

    assert run.code == 1
    reported = sorted(
        line.split()[0] for line in run.out.splitlines() if line.startswith("cassettes/")
    )
    assert reported == sorted(f"cassettes/{name}" for name in unused)
    assert "defines no test test_gone" in run.out
    assert "defines no test TestOther.test_method" in run.out
    assert "no tests/unit/test_missing.py under" in run.out
    # a cassette of the old one-folder-per-module-name layout says where it belongs now
    assert "no test_api.py under" in run.out
    assert "live in cassettes/tests/unit/test_api/" in run.out
    assert "fix (unused cassette): delete it" in run.out


def test_a_sub_folder_of_the_cassettes_is_laid_out_from_the_project_folder(
    cli: Callable[..., Run], project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / "pyproject.toml").write_text("[tool.tooltape]\n", encoding="utf-8")
    tests = project / "tests"
    tests.mkdir()
    (tests / "test_api.py").write_text("def test_kept():\n    pass\n", encoding="utf-8")
    write_cassette(
        project / "cassettes" / "tests" / "test_api" / "test_kept.json", clean_interaction()
    )
    assert cli("lint", "cassettes/tests").code == 0
    monkeypatch.chdir(tests)  # from a sub-folder, the project root is found as pytest finds it
    run = cli("lint", "../cassettes")
    assert run.code == 0, run.out
    assert cli("lint").code == 0


def test_the_projects_own_cassettes_are_clean(
    cli: Callable[..., Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    run = cli("lint")
    assert run.code == 0, run.out
    assert "no findings" in run.out


def test_no_folder_is_a_usage_error(
    cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    run = cli("lint")
    assert run.code == 2
    assert "no cassette folder cassettes (the default)" in run.err and "tooltape lint" in run.err


@pytest.mark.parametrize(
    ("config_file", "text"),
    [
        ("pyproject.toml", '[tool.pytest.ini_options]\ntooltape_cassette_dir = "tests/tapes"\n'),
        ("pytest.ini", "[pytest]\ntooltape_cassette_dir = tests/tapes\n"),
        ("tox.ini", "[pytest]\ntooltape_cassette_dir = tests/tapes\n"),
        ("setup.cfg", "[tool:pytest]\ntooltape_cassette_dir = tests/tapes\n"),
    ],
)
def test_the_default_folder_follows_the_plugins_ini_option(
    cli: Callable[..., Run], project: Path, config_file: str, text: str
) -> None:
    (project / config_file).write_text(text)
    leaky = interaction(
        {"json": {"model": "gpt-5", "input": f"my key is {FAKE_KEY}"}},
        {"json": {"status": "completed", "output": []}},
    )
    write_cassette(project / "tests" / "tapes" / "imported" / "leaky.json", leaky)
    write_cassette(project / "cassettes" / "imported" / "clean.json", clean_interaction())

    run = cli("lint")

    assert run.code == 1, run.out
    assert "leaky.json" in run.out and "1 cassette in tests/tapes" in run.out


def test_a_pytest_section_without_the_option_keeps_cassettes(
    cli: Callable[..., Run], project: Path
) -> None:
    (project / "pytest.ini").write_text("[pytest]\naddopts = -q\n")
    (project / "pyproject.toml").write_text(
        '[tool.pytest.ini_options]\ntooltape_cassette_dir = "elsewhere"\n'
    )  # pytest.ini wins, as in pytest
    write_cassette(project / "cassettes" / "imported" / "clean.json", clean_interaction())
    run = cli("lint")
    assert run.code == 0, run.out + run.err
    assert "1 cassette in cassettes" in run.out


def test_a_broken_pyproject_is_named(cli: Callable[..., Run], project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.pytest.ini_options\n")
    run = cli("lint")
    assert run.code == 2
    assert "pyproject.toml is not valid TOML" in run.err
