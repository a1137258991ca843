"""``tooltape import``: real recordings become scrubbed tooltape cassettes that lint clean."""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import REAL_FILES, REPO, Run

from tooltape.testing.cassette import dump_cassette, import_cassette, load_cassette


def _digests() -> dict[Path, str]:
    return {path: hashlib.sha256(path.read_bytes()).hexdigest() for path in REAL_FILES}


def test_import_the_real_recordings_then_lint_finds_nothing(
    cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _digests()
    out = tmp_path / "imported"

    run = cli("import", *map(str, REAL_FILES), "--out", str(out))

    assert run.code == 0, run.out + run.err
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{p.stem}.json" for p in REAL_FILES)
    for source in REAL_FILES:
        target = out / f"{source.stem}.json"
        assert f"imported {source} -> " in run.out
        assert target.read_text(encoding="utf-8") == dump_cassette(import_cassette(source))
        assert load_cassette(target) == import_cassette(source)
    assert f"{len(REAL_FILES)} cassettes written" in run.out
    assert _digests() == before  # the sources are only read

    monkeypatch.chdir(tmp_path)
    lint = cli("lint", str(out))
    assert lint.code == 0, lint.out
    assert "no findings" in lint.out


def test_existing_files_are_kept_unless_forced(cli: Callable[..., Run], tmp_path: Path) -> None:
    source = next(p for p in REAL_FILES if p.name == "model_http_error.yaml")
    target = tmp_path / "model_http_error.json"
    target.write_text("keep me")

    refused = cli("import", str(source), "--out", str(tmp_path))
    assert refused.code == 1
    assert "exists; pass --force to overwrite it" in refused.out
    assert target.read_text() == "keep me"

    forced = cli("import", str(source), "--out", str(tmp_path), "--force")
    assert forced.code == 0
    assert load_cassette(target) == import_cassette(source)


def test_provenance_text_is_kept(cli: Callable[..., Run], tmp_path: Path) -> None:
    source = REAL_FILES[0]
    run = cli("import", str(source), "--out", str(tmp_path), "--provenance", "from the vendor demo")
    assert run.code == 0
    header = load_cassette(tmp_path / f"{source.stem}.json").header
    assert header.provenance == "from the vendor demo"
    assert header.source == "import"


def test_a_folder_imports_every_cassette_under_it_keeping_subfolders(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    folder = tmp_path / "src"
    (folder / "test_module").mkdir(parents=True)
    (folder / "notes.md").write_text("# not a cassette\n")
    shutil.copy(REAL_FILES[0], folder / REAL_FILES[0].name)
    shutil.copy(REAL_FILES[1], folder / "test_module" / REAL_FILES[1].name)
    out = tmp_path / "out"

    run = cli("import", str(folder), "--out", str(out))

    assert run.code == 0, run.out
    written = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert written == sorted(
        [f"{REAL_FILES[0].stem}.json", f"test_module/{REAL_FILES[1].stem}.json"]
    )
    nested = out / "test_module" / f"{REAL_FILES[1].stem}.json"
    assert load_cassette(nested).interactions == import_cassette(REAL_FILES[1]).interactions


def test_a_folder_without_cassettes_is_a_usage_error(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    (tmp_path / "notes.md").write_text("nothing here\n")
    run = cli("import", str(tmp_path), "--out", str(tmp_path / "out"))
    assert run.code == 2
    assert "holds no .yaml/.yml/.json cassette" in run.err
    assert not (tmp_path / "out").exists()


def test_bad_sources_are_reported_and_the_rest_imported(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    garbage = tmp_path / "garbage.yaml"
    garbage.write_text("interactions: [unclosed\n")
    run = cli("import", str(garbage), str(REAL_FILES[0]), "--out", str(tmp_path / "out"))
    assert run.code == 1
    assert f"skipped  {garbage}: invalid YAML" in run.out
    assert (tmp_path / "out" / f"{REAL_FILES[0].stem}.json").is_file()
    assert "1 cassette written" in run.out and "1 not" in run.out


def test_a_source_that_is_not_there_is_refused_before_any_is_imported(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    # A typo, as a folder that does not exist for check: fixed and run again, the import
    # starts afresh rather than skipping what a first run already wrote.
    missing = tmp_path / "missing.yaml"
    run = cli("import", str(missing), str(REAL_FILES[0]), "--out", str(tmp_path / "out"))
    assert run.code == 2
    assert f"{missing}: no such file: pass cassette files or folders of them" in run.err
    assert "nothing imported" in run.err
    assert not (tmp_path / "out").exists()


def test_usage_errors(cli: Callable[..., Run], tmp_path: Path) -> None:
    copy = tmp_path / "elsewhere"
    copy.mkdir()
    shutil.copy(REAL_FILES[0], copy / REAL_FILES[0].name)
    clash = cli(
        "import", str(REAL_FILES[0]), str(copy / REAL_FILES[0].name), "--out", str(tmp_path)
    )
    assert clash.code == 2 and "two sources would write the same file" in clash.err

    assert cli("import", str(REAL_FILES[0])).code == 2  # --out is required
    a_file = tmp_path / "file.txt"
    a_file.write_text("")
    not_a_folder = cli("import", str(REAL_FILES[0]), "--out", str(a_file))
    assert not_a_folder.code == 2 and "is a file" in not_a_folder.err


def test_hostile_sources_are_skipped_with_the_reason(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(
        "x0: &x0 {k: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}\n"
        + "".join(f"x{i}: &x{i} [" + ", ".join([f"*x{i - 1}"] * 10) + "]\n" for i in range(1, 7))
        + "interactions:\n- request: {method: POST, uri: 'https://x.test/v1/r'}\n"
        "  response: {status: {code: 200, message: OK}, parsed_body: *x6}\n"
    )
    deep = tmp_path / "deep.yaml"
    deep.write_text("interactions:\n- " + "[" * 100_000 + "]" * 100_000 + "\n")
    run = cli("import", str(bomb), str(deep), "--out", str(tmp_path / "out"))
    assert run.code == 1
    assert f"skipped  {bomb}: refused: YAML aliases expand it" in run.out
    assert f"skipped  {deep}: refused: nested deeper than" in run.out
    assert "Traceback" not in run.out + run.err


def test_import_follows_the_projects_scrub_settings(
    cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tooltape.scrub]\nsafe_headers = ["x-trace-id"]\nsecret_body_fields = ["pin"]\n'
    )
    source = tmp_path / "src.yaml"
    source.write_text(
        "interactions:\n"
        "- request:\n"
        "    method: POST\n"
        "    uri: https://api.example.test/v1/responses\n"
        "    headers: {x-trace-id: [trace-77], x-tenant: [acme]}\n"
        '    body: \'{"input": "hi", "pin": "4321"}\'\n'
        "  response: {status: {code: 200, message: OK}, headers: {}, body: {string: ''}}\n"
    )
    monkeypatch.chdir(tmp_path)
    run = cli("import", str(source), "--out", "out")
    assert run.code == 0, run.out
    [interaction] = load_cassette(tmp_path / "out" / "src.json").interactions
    assert interaction.request.headers["x-trace-id"] == ("trace-77",)
    assert interaction.request.headers["x-tenant"] == ("REDACTED",)
    assert json.loads(interaction.request.body.to_bytes()) == {"input": "hi", "pin": "REDACTED"}


def test_the_environments_live_key_is_redacted_by_value_whatever_its_shape(
    cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    live_key = "0c4e8a2f6b1d5c9e3a7f0b4d8c2e6a1f"  # synthetic, a compatible provider's shape
    source = tmp_path / "echoed.yaml"
    source.write_text(
        "interactions:\n"
        "- request:\n"
        "    method: POST\n"
        "    uri: https://api.example.test/v1/responses\n"
        "    headers: {}\n"
        f'    body: \'{{"input": "proxy {live_key}"}}\'\n'
        "  response:\n"
        "    status: {code: 401, message: Unauthorized}\n"
        "    headers: {}\n"
        f"    body: {{string: 'Invalid API key: {live_key}'}}\n"
    )
    monkeypatch.setenv("OPENAI_API_KEY", live_key)
    monkeypatch.chdir(tmp_path)
    run = cli("import", str(source), "--out", "out")
    assert run.code == 0, run.out
    assert "1 source still holds credentials the imported copies do not: echoed.yaml" in run.out
    assert live_key not in run.out + run.err
    written = (tmp_path / "out" / "echoed.json").read_text()
    assert live_key not in written
    [interaction] = load_cassette(tmp_path / "out" / "echoed.json").interactions
    assert json.loads(interaction.request.body.to_bytes()) == {"input": "proxy sk-REDACTED"}
    assert interaction.response.body.to_bytes() == b"Invalid API key: sk-REDACTED"


_PLAIN_SOURCE = (
    "interactions:\n"
    "- request:\n"
    "    method: POST\n"
    "    uri: https://api.example.test/v1/responses\n"
    "    headers: {}\n"
    "    body: '{}'\n"
    "  response:\n"
    "    status: {code: 200, message: OK}\n"
    "    headers: {}\n"
    "    body: {string: '{}'}\n"
)


@pytest.mark.parametrize("where", ["option", "note", "source header"])
def test_a_credential_in_the_provenance_is_redacted_and_lint_finds_one_left(
    cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    token = "svc." + "Pv5" * 8  # synthetic; no shape tooltape knows
    monkeypatch.setenv("PROVENANCE_SERVICE_TOKEN", token)
    monkeypatch.chdir(tmp_path)
    source = tmp_path / "sources" / "plain.yaml"
    source.parent.mkdir()
    source.write_text(_PLAIN_SOURCE)
    option: tuple[str, ...] = ()
    if where == "option":
        option = ("--provenance", f"recorded with {token}")
    elif where == "note":
        (source.parent / "PROVENANCE.md").write_text(f"Recorded with {token}.\n")
    else:
        header = {"version": "0.1.0", "source": "live", "provenance": f"with {token}"}
        document = {"tooltape": header, "interactions": []}
        source = source.with_name("plain.json")
        source.write_text(json.dumps(document))
    run = cli("import", str(source), "--out", "out", *option)
    assert run.code == 0, run.out + run.err
    written = (tmp_path / "out" / source.with_suffix(".json").name).read_text()
    assert token not in written and "REDACTED" in written
    assert token not in run.out + run.err

    leaky = json.loads(written)
    leaky["tooltape"]["provenance"] = f"edited by hand: {token}"
    (tmp_path / "out" / "leaky.json").write_text(json.dumps(leaky))
    lint = cli("lint", "out")
    assert lint.code == 1
    assert "leaky.json" in lint.out and "/tooltape/provenance" in lint.out
    assert token not in lint.out + lint.err


def test_a_source_whose_name_holds_a_credential_is_not_written(
    cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = "svc." + "Nm6" * 8
    monkeypatch.setenv("NAMED_SERVICE_TOKEN", token)
    monkeypatch.chdir(tmp_path)
    (tmp_path / f"for_{token}.yaml").write_text(_PLAIN_SOURCE)
    (tmp_path / "plain.yaml").write_text(_PLAIN_SOURCE)
    run = cli("import", f"for_{token}.yaml", "plain.yaml", "--out", "out")
    assert run.code == 1
    assert "its name holds a credential" in run.out + run.err
    assert sorted(path.name for path in (tmp_path / "out").iterdir()) == ["plain.json"]
    assert token not in run.out + run.err


def test_a_write_that_fails_names_the_file(cli: Callable[..., Run], tmp_path: Path) -> None:
    folder = tmp_path / "src"
    (folder / "test_module").mkdir(parents=True)
    shutil.copy(REAL_FILES[0], folder / "test_module" / REAL_FILES[0].name)
    out = tmp_path / "out"
    out.mkdir()
    (out / "test_module").write_text("a file where a folder should be")
    run = cli("import", str(folder), "--out", str(out))
    assert run.code == 1
    target = out / "test_module" / f"{REAL_FILES[0].stem}.json"
    assert f"could not write {target}" in run.out
    assert "Traceback" not in run.out + run.err


def _pytest_recording_project(root: Path) -> Path:
    """A project pytest-recording recorded: ``tests/cassettes/<module>/<test>.yaml``."""
    (root / "pyproject.toml").write_text("[tool.tooltape]\n")
    (root / "tests" / "api").mkdir(parents=True)
    (root / "tests" / "test_legacy.py").write_text("def test_x():\n    pass\n")
    (root / "tests" / "api" / "test_nested.py").write_text("def test_y():\n    pass\n")
    for folder, stem in (("tests", "test_legacy"), ("tests/api", "test_nested")):
        (root / folder / "cassettes" / stem).mkdir(parents=True)
        shutil.copy(REAL_FILES[0], root / folder / "cassettes" / stem / REAL_FILES[0].name)
    return root


def test_importing_pytest_recordings_folder_elsewhere_says_where_the_plugin_reads(
    cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(_pytest_recording_project(tmp_path))
    stem = REAL_FILES[0].stem

    run = cli("import", "tests/cassettes", "tests/api/cassettes", "--out", "cassettes")

    # --out is where the files go, sub-folders kept, as documented...
    assert run.code == 0, run.out
    assert (tmp_path / "cassettes" / "test_legacy" / f"{stem}.json").is_file()
    assert (tmp_path / "cassettes" / "test_nested" / f"{stem}.json").is_file()
    # ...and the output says that the plugin reads them elsewhere, and how to import them there.
    assert (
        "tooltape's pytest plugin reads the cassettes of tests/test_legacy.py from "
        "cassettes/tests/test_legacy, not cassettes/test_legacy" in run.out
    )
    assert "    tooltape import tests/cassettes --out cassettes/tests\n" in run.out
    assert "    tooltape import tests/api/cassettes --out cassettes/tests/api\n" in run.out

    again = cli("import", "tests/cassettes", "--out", "cassettes/tests")
    assert again.code == 0, again.out
    assert (tmp_path / "cassettes" / "tests" / "test_legacy" / f"{stem}.json").is_file()
    assert "tooltape's pytest plugin reads" not in again.out


def test_a_pytest_recording_cassette_imported_alone_gets_the_folder_to_import_it_to(
    cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(_pytest_recording_project(tmp_path))
    source = f"tests/api/cassettes/test_nested/{REAL_FILES[0].name}"

    run = cli("import", source, "--out", "cassettes/imported")
    assert run.code == 0, run.out
    assert "tests/api/test_nested.py from cassettes/tests/api/test_nested" in run.out
    assert "    tooltape import tests/api/cassettes --out cassettes/tests/api\n" in run.out

    there = cli("import", source, "--out", "cassettes/tests/api/test_nested")
    assert there.code == 0, there.out
    assert "tooltape's pytest plugin reads" not in there.out


def test_a_cassette_folder_inside_pytest_recordings_is_not_imported_into_itself(
    cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(_pytest_recording_project(tmp_path))
    (tmp_path / "pyproject.toml").write_text('[tool.tooltape]\ncassette_dir = "tests/cassettes"\n')

    run = cli("import", "tests/cassettes", "--out", "tests/cassettes")
    assert run.code == 0, run.out
    suggested = (
        "    tooltape import tests/cassettes/test_legacy --out tests/cassettes/tests/test_legacy\n"
    )
    assert suggested in run.out
    assert "--out tests/cassettes/tests\n" not in run.out


def test_sources_that_still_hold_credentials_are_named_after_the_import(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    clean = next(p for p in REAL_FILES if p.name == "model_http_error.yaml")
    # synthetic: the real recording with the header a project that filtered nothing keeps
    leaky = tmp_path / "sources" / "leaky.yaml"
    leaky.parent.mkdir()
    key = "sk-proj-" + "Xy7" * 16
    leaky.write_text(
        clean.read_text().replace(
            "    headers:\n      accept:\n",
            f"    headers:\n      authorization:\n      - Bearer {key}\n      accept:\n",
            1,
        )
    )
    shutil.copy(clean, leaky.parent / "clean.yaml")

    run = cli("import", str(leaky.parent), "--out", str(tmp_path / "out"))

    assert run.code == 0, run.out + run.err
    assert "2 cassettes written" in run.out
    assert f"1 source still holds credentials the imported copies do not: {leaky}\n" in run.out
    assert "revoke the credentials" in run.out
    assert key not in run.out + run.err
    assert key not in (tmp_path / "out" / "leaky.json").read_text()

    again = cli("import", str(clean), "--out", str(tmp_path / "again"))
    assert again.code == 0 and "credentials" not in again.out


def test_the_import_says_its_cassettes_replay_without_comparing_bodies_until_recorded_again(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    source = next(p for p in REAL_FILES if p.name == "model_http_error.yaml")

    run = cli("import", str(source), "--out", str(tmp_path))

    assert run.code == 0, run.out + run.err
    assert "imported cassettes replay matched on method and path" in run.out
    assert "pytest --record-mode=rewrite" in run.out
    assert "`body` in the match_on of your vcr_config" in run.out

    nothing = cli("import", str(source), "--out", str(tmp_path))  # exists: nothing written
    assert "matched on method and path" not in nothing.out


def test_an_existing_cassette_the_plugin_recorded_is_kept_and_said_to_be_a_recording(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    source = next(p for p in REAL_FILES if p.name == "model_web_search_tool.yaml")
    recorded = REPO / "cassettes" / "tests" / "contracts" / "test_recorded_contracts"
    target = tmp_path / "model_web_search_tool.json"
    shutil.copy(recorded / "test_hosted_kind_round_trip[web_search].json", target)
    before = target.read_bytes()

    run = cli("import", str(source), "--out", str(tmp_path))

    assert run.code == 1
    assert f"{target} exists, recorded by tooltape's plugin (loopback): kept" in run.out
    assert "pass --force only to replace that recording with this import" in run.out
    assert target.read_bytes() == before


def test_a_source_holding_a_body_still_encoded_is_not_written(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    # Synthetic: a vcrpy cassette recorded without decoding, whose reply is under a coding
    # tooltape cannot undo, so scrubbing could not read what it holds.
    compressed = base64.b64encode(bytes(range(256)) * 4).decode()
    source = tmp_path / "encoded.yaml"
    source.write_text(
        "interactions:\n"
        "- request:\n"
        "    method: POST\n"
        "    uri: https://api.openai.com/v1/responses\n"
        "    headers: {}\n"
        "    body: '{}'\n"
        "  response:\n"
        "    status: {code: 200, message: OK}\n"
        "    headers: {Content-Encoding: [x-custom]}\n"
        "    body:\n"
        "      string: !!binary |\n"
        f"        {compressed}\n"
    )
    run = cli("import", str(source), "--out", str(tmp_path / "out"))
    assert run.code == 1, run.out
    assert f"skipped  {source}:" in run.out
    assert "still encoded, never scanned for secrets" in run.out
    assert "/interactions/0/response: POST https://api.openai.com/v1/responses" in run.out
    assert "content-encoding x-custom: tooltape has no decoder for 'x-custom'" in run.out
    assert "install the decoder named and import it again" in run.out
    assert not (tmp_path / "out" / "encoded.json").exists()
