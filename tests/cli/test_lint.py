"""``tooltape lint``: each kind of finding, on small synthetic cassettes in tmp folders."""

from __future__ import annotations

import base64
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import FAKE_KEY, REPO, Run, clean_interaction, interaction, write_cassette

from tooltape.testing.cassette import find_secrets, load_cassette


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


def test_a_live_key_of_no_known_shape_is_found_by_its_value(
    cli: Callable[..., Run], project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A compatible provider's key (32 hex characters) matches no key shape: the
    environment's value of it is what finds it, and the output still never shows it."""
    live_key = "3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e"  # synthetic
    write_cassette(
        project / "cassettes" / "imported" / "echoed.json",
        interaction(
            {"json": {"model": "gpt-5", "input": "hi"}},
            {"json": {"error": {"message": f"Invalid API key: {live_key}"}}},
        ),
    )
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert cli("lint").code == 0  # without the key in the environment nothing can tell

    monkeypatch.setenv("OPENAI_API_KEY", live_key)
    run = cli("lint")
    assert run.code == 1
    assert ("secret", "/interactions/0/response/body/json/error/message") in _findings(run.out)
    assert "the value of $OPENAI_API_KEY" in run.out
    assert live_key not in run.out


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
            {
                "json": {
                    "output": [
                        {
                            "type": "function_call",
                            "call_id": "call_synthetic",
                            "name": "weather",
                            "arguments": '{"city": "Paris"}',
                        }
                    ]
                }
            },
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
        "def test_named():\n    pass\n\n"
        "@pytest.mark.default_cassette('kept_from_pytest_recording.yaml')\n"
        "def test_named_as_before():\n    pass\n",
        encoding="utf-8",
    )
    cassettes = project / "cassettes"
    used = [
        "tests/unit/test_api/test_kept.json",
        "tests/unit/test_api/test_param[1.5].json",
        "tests/unit/test_api/TestGroup.test_method.json",
        "tests/unit/test_api/shared_name.json",
        "tests/unit/test_api/kept_from_pytest_recording.json",  # the plugin's name for .yaml
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


def test_lint_of_the_project_root_skips_what_is_not_a_cassette(
    cli: Callable[..., Run], project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / "pyproject.toml").write_text("[tool.tooltape]\n", encoding="utf-8")
    (project / "tests").mkdir()
    (project / "tests" / "test_api.py").write_text("def test_kept():\n    pass\n")
    write_cassette(
        project / "cassettes" / "tests" / "test_api" / "test_kept.json", clean_interaction()
    )
    not_cassettes = {
        ".venv/lib/sbom.json": "{}",
        "venv/share/schema.json": "{}",
        "tests/__snapshots__/test_api/test_kept.json": "[]",
        "cassettes/specs/web_search.json": '{"kind": "web_search", "spec": {}}',
        ".github/workflow.yml": "on: push",
    }
    for name, text in not_cassettes.items():
        path = project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (project / "venv" / "pyvenv.cfg").write_text("home = /usr\n")
    run = cli("lint", ".")
    assert run.code == 0, run.out
    assert "1 cassette in ." in run.out


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


# --- secrets as the write gate sees them ------------------------------------------------

CANARY = "canary-5e1d"
SPLIT_KEY = "sk_live_" + "51HqLx2eZvKYlo2C0aBcDeFg"  # synthetic, Stripe-shaped
ESCAPED_KEY = "xoxb-" + "2468013579-1357924680-AbCdEfGhIjKl"  # synthetic, Slack-shaped
BASE64_KEY = "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz012345"  # synthetic, Hugging Face-shaped
KEY_AS_KEY = "glpat-" + "xY7wV6uT5sR4qP3oN2mL"  # synthetic, GitLab-shaped, used as a dict key


def _delta(text: str) -> dict[str, object]:
    return {
        "event": "response.output_text.delta",
        "data": {"type": "response.output_text.delta", "item_id": "msg_1", "delta": text},
    }


def _raw_canaries() -> dict[str, object]:
    """One interaction holding, unscrubbed, every canary the recorder must never write."""
    arguments = json.dumps({"note": "first\n" + ESCAPED_KEY})
    document = base64.b64encode(f"token = {BASE64_KEY}".encode()).decode()
    mcp = {
        "type": "mcp",
        "server_label": "tickets",
        "server_url": f"https://mcp.example.test/mcp?token={CANARY}",
        "headers": {"X-Tenant": CANARY},
    }
    raw = interaction(
        {"json": {"model": "gpt-5", "tools": [mcp], "input": "data:text/plain;base64," + document}},
        {"sse": [_delta("key: "), _delta(SPLIT_KEY[:10]), _delta(SPLIT_KEY[10:])]},
        request_headers={"content-type": ["application/json"], "x-custom-auth": [CANARY]},
        uri=f"https://user:{CANARY}@gateway.example.test/v1/responses?custom_q={CANARY}",
    )
    raw["response"]["headers"]["x-upstream-key"] = [CANARY]
    raw["response"]["body"]["sse"].append(
        {
            "event": "response.output_item.done",
            "data": {"item": {"type": "function_call", "arguments": arguments, KEY_AS_KEY: 1}},
        }
    )
    return raw


EXPECTED_SECRETS = {
    "/interactions/0/request/uri",
    "/interactions/0/request/headers/x-custom-auth/0",
    "/interactions/0/request/body/json/tools/0/server_url",
    "/interactions/0/request/body/json/tools/0/headers",
    "/interactions/0/request/body/json/input",
    "/interactions/0/response/headers/x-upstream-key/0",
    "/interactions/0/response/body/sse/1/data/delta",
    "/interactions/0/response/body/sse/3/data/item/arguments",
    "/interactions/0/response/body/sse/3/data/item/<masked>",
}


def _secret_locations(out: str) -> set[str]:
    return {line.split()[1] for line in out.splitlines() if line.startswith("  secret ")}


def test_a_raw_cassette_holding_each_canary_is_flagged_without_showing_one(
    cli: Callable[..., Run], project: Path
) -> None:
    path = write_cassette(project / "cassettes" / "imported" / "raw.json", _raw_canaries())

    run = cli("lint")

    assert run.code == 1
    assert _secret_locations(run.out) == EXPECTED_SECRETS
    for value in (CANARY, SPLIT_KEY[:10], SPLIT_KEY[10:], ESCAPED_KEY, BASE64_KEY, KEY_AS_KEY):
        assert value not in run.out + run.err
    # lint reports exactly what the recorder's write gate refuses
    gate = {finding.location for finding in find_secrets(load_cassette(path))}
    assert gate == EXPECTED_SECRETS


def test_keys_an_encoder_spelled_in_a_hand_edited_cassette_are_found(
    cli: Callable[..., Run], project: Path
) -> None:
    """No live value finds these (nothing is set): only the key's shape, seen through
    character references, percent-encoding and quoted-printable soft line breaks."""
    references = "".join(f"&#{ord(char)};" for char in FAKE_KEY)
    percent = "".join(f"%{byte:02X}" for byte in FAKE_KEY.encode())
    mail = "Your key, keep it safe: " + "x " * 24 + FAKE_KEY[:3] + "=\r\n" + FAKE_KEY[3:]
    path = write_cassette(
        project / "cassettes" / "imported" / "edited.json",
        interaction(
            {"json": {"input": f"<p>{references}</p>"}},
            {"text": mail},
            uri=f"https://api.openai.com/v1/files/{percent}/content",
        ),
    )

    run = cli("lint")

    assert run.code == 1
    assert _secret_locations(run.out) == {
        "/interactions/0/request/uri",
        "/interactions/0/request/body/json/input",
        "/interactions/0/response/body/text",
    }
    for spelling in (FAKE_KEY, references, percent, FAKE_KEY[3:]):
        assert spelling not in run.out + run.err
    assert {f.kind for f in find_secrets(load_cassette(path))} == {"OpenAI-style key"}


def test_an_already_masked_value_is_not_a_finding(cli: Callable[..., Run], project: Path) -> None:
    masked = clean_interaction()
    masked["request"]["headers"]["authorization"] = ["Bearer REDACTED"]
    masked["response"]["headers"]["openai-organization"] = ["REDACTED"]
    masked["response"]["headers"]["openai-project"] = ["XXXXXX"]
    write_cassette(project / "cassettes" / "imported" / "masked.json", masked)
    run = cli("lint")
    assert run.code == 0, run.out
    assert "no findings" in run.out


def test_each_fix_is_said_once_for_all_files(cli: Callable[..., Run], project: Path) -> None:
    leaky = interaction(
        {"json": {"input": f"my key is {FAKE_KEY}"}},
        {"json": {"status": "completed", "output": []}},
    )
    for name in ("one.json", "two.json", "three.json"):
        write_cassette(project / "cassettes" / "imported" / name, leaky)
    run = cli("lint")
    assert run.code == 1
    assert run.out.count("fix (secret):") == 1
    assert "3 findings in 3 files" in run.out


def test_a_folder_without_cassettes_says_so(cli: Callable[..., Run], project: Path) -> None:
    (project / "cassettes" / "notes.txt").write_text("nothing recorded yet")
    run = cli("lint")
    assert run.code == 0
    assert run.out.strip().startswith("no cassettes in cassettes: nothing to lint")


def test_temp_files_left_by_an_interrupted_write_are_reported(
    cli: Callable[..., Run], project: Path
) -> None:
    folder = project / "cassettes" / "test_api"
    write_cassette(folder / "test_x.json", clean_interaction())
    (folder / ".test_x.json.0a1b2c-999999999-k2j4h5g6.tmp").write_text('{"half": ')
    run = cli("lint")
    assert run.code == 1
    line = next(line for line in run.out.splitlines() if line.startswith("  stray temp file"))
    assert "left by an interrupted write" in line
    assert "cassettes/test_api/.test_x.json.0a1b2c-999999999-k2j4h5g6.tmp" in run.out
    assert run.out.count("fix (stray temp file): delete it") == 1


def test_the_projects_scrub_settings_decide_what_is_a_secret(
    cli: Callable[..., Run], project: Path
) -> None:
    (project / "pyproject.toml").write_text(
        "[tool.tooltape.scrub]\n"
        'safe_headers = ["x-trace-id"]\n'
        'secret_patterns = ["acme_[0-9a-f]{16}"]\n'
    )
    recorded = interaction(
        {"json": {"input": "acme_0123456789abcdef"}},
        None,
        request_headers={"x-trace-id": ["trace-77"]},
    )
    write_cassette(project / "cassettes" / "imported" / "custom.json", recorded)
    run = cli("lint")
    assert _secret_locations(run.out) == {"/interactions/0/request/body/json/input"}
    assert "project secret pattern #1" in run.out


def test_a_hostile_cassette_is_an_unreadable_finding(
    cli: Callable[..., Run], project: Path
) -> None:
    deep = project / "cassettes" / "imported" / "deep.yaml"
    deep.parent.mkdir(parents=True)
    deep.write_text("interactions:\n- " + "[" * 100_000 + "]" * 100_000 + "\n")
    run = cli("lint")
    assert run.code == 1
    assert "unreadable" in run.out and "refused: nested deeper than" in run.out


@pytest.mark.parametrize("command", ["lint", "check"])
def test_a_cassette_dir_that_is_a_file_is_a_usage_error(
    cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.tooltape]\ncassette_dir = "recorded"\n')
    (tmp_path / "recorded").write_text("not a folder")
    monkeypatch.chdir(tmp_path)
    run = cli(command)
    assert run.code == 2, run.out
    assert "recorded" in run.err and "is not a folder" in run.err
    assert "pyproject.toml" in run.err, "it says where the setting came from"


def test_pytest_recordings_own_folder_is_linted_by_its_own_layout(
    cli: Callable[..., Run], project: Path
) -> None:
    # <module folder>/cassettes/<module>/<test>.yaml: a YAML there belongs to that module's
    # test, which pytest-recording (or tooltape, through a vcr_cassette_dir fixture) reads.
    tests = project / "tests"
    (tests / "cassettes" / "test_api").mkdir(parents=True)
    (tests / "test_api.py").write_text("def test_kept():\n    pass\n", encoding="utf-8")
    real = REPO / "tests" / "data" / "real-cassettes" / "openai-responses"
    for name in ("test_kept", "test_gone"):
        shutil.copy(
            real / "model_http_error.yaml", tests / "cassettes" / "test_api" / f"{name}.yaml"
        )

    run = cli("lint", "tests/cassettes")

    assert run.code == 1, run.out
    unused = [line for line in run.out.splitlines() if "unused cassette  " in line]
    assert len(unused) == 1, run.out
    assert "tests/cassettes/test_api/test_gone.yaml" in run.out
    assert "tests/test_api.py defines no test test_gone" in run.out
    assert "test_kept.yaml" not in run.out


# Synthetic answers a client cannot read, each one hand-edit away from a clean exchange.
_REQUEST = {"json": {"model": "gpt-5", "input": "Say hi."}}
_UNREADABLE_ANSWERS = {
    "body_null": (None, "no body"),
    "body_string": ({"json": "not a dict"}, "the JSON body is str, not a Response object"),
    "output_string": (
        {"json": {"id": "resp_synthetic", "status": "completed", "output": "oops"}},
        "output is str, not a list of items",
    ),
    "call_id_list": (
        {
            "json": {
                "id": "resp_synthetic",
                "status": "completed",
                "output": [
                    {"type": "function_call", "name": "f", "arguments": "{}", "call_id": []}
                ],
            }
        },
        "output[0].call_id: a list, not a string",
    ),
}


@pytest.mark.parametrize("name", list(_UNREADABLE_ANSWERS))
def test_an_answer_a_client_cannot_read_is_a_finding(
    cli: Callable[..., Run], project: Path, name: str
) -> None:
    body, problem = _UNREADABLE_ANSWERS[name]
    write_cassette(
        project / "cassettes" / "imported" / f"{name}.json",
        clean_interaction(),
        interaction(_REQUEST, body),
    )

    run = cli("lint")

    assert run.code == 1
    assert f"cassettes/imported/{name}.json" in run.out
    assert "unreadable answer" in run.out
    line = next(line for line in run.out.splitlines() if problem in line)
    assert "/interactions/1/response/body" in line  # the interaction, not the clean one
    assert "interaction #1" in line


def test_an_error_answer_without_a_body_is_no_finding(
    cli: Callable[..., Run], project: Path
) -> None:
    write_cassette(
        project / "cassettes" / "imported" / "error.json",
        clean_interaction(),
        interaction(_REQUEST, None, status=500),
    )
    assert cli("lint").code == 0


@pytest.mark.parametrize("status", ['"200"', "200.0", "true"])
def test_a_status_code_that_is_not_an_integer_is_unreadable(
    cli: Callable[..., Run], project: Path, status: str
) -> None:
    path = write_cassette(project / "cassettes" / "imported" / "status.json", clean_interaction())
    path.write_text(
        path.read_text(encoding="utf-8").replace('"status_code": 200', f'"status_code": {status}'),
        encoding="utf-8",
    )

    run = cli("lint")

    assert run.code == 1
    assert "/interactions/0/response/status_code: expected an integer" in run.out


def test_a_number_json_has_not_is_unreadable(cli: Callable[..., Run], project: Path) -> None:
    path = write_cassette(project / "cassettes" / "imported" / "nan.json", clean_interaction())
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"status": "completed"', '"status": NaN'), encoding="utf-8")

    run = cli("lint")

    assert run.code == 1
    assert "/interactions/0/response/body/json/status" in run.out
    assert "write null" in run.out
