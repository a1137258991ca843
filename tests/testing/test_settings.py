"""[tool.tooltape] project settings, and the pytest ini options that mirror them."""

from __future__ import annotations

from pathlib import Path

import pytest
from folder_refusal import refuse_reading

from tooltape.testing.settings import (
    DEFAULT_MODEL,
    ProjectSettings,
    ScrubSettings,
    SettingsError,
    UnreadableSettingsError,
    load_settings,
)


def _project(tmp_path: Path, pyproject: str) -> Path:
    (tmp_path / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    return tmp_path


def test_no_configuration_gives_the_defaults(tmp_path: Path) -> None:
    settings = load_settings(tmp_path)
    assert settings == ProjectSettings(root=tmp_path)
    assert settings.cassette_path == tmp_path / "cassettes"
    assert settings.model == DEFAULT_MODEL
    assert settings.describe() == "tooltape's defaults"


def test_every_key_is_read(tmp_path: Path) -> None:
    root = _project(
        tmp_path,
        """
[tool.tooltape]
cassette_dir = "tests/cassettes"
model = "gpt-5"
required_kinds = ["web_search", "mcp"]
strict = true
codecs = ["myproject.codecs:SEARCH"]
volatile = ["metadata.run_id"]

[tool.tooltape.scrub]
safe_headers = ["x-trace-id"]
safe_query_params = ["page"]
secret_body_fields = ["password"]
secret_patterns = ["acme_[0-9a-f]{32}"]
""",
    )
    settings = load_settings(root)
    assert settings.cassette_path == root / "tests" / "cassettes"
    assert settings.model == "gpt-5"
    assert settings.required_kinds == ("web_search", "mcp")
    assert settings.strict is True
    assert settings.codecs == ("myproject.codecs:SEARCH",)
    assert settings.volatile == ("metadata.run_id",)
    assert settings.scrub == ScrubSettings(
        safe_headers=("x-trace-id",),
        safe_query_params=("page",),
        secret_body_fields=("password",),
        secret_patterns=("acme_[0-9a-f]{32}",),
    )
    assert settings.describe() == f"[tool.tooltape] in {root / 'pyproject.toml'}"


@pytest.mark.parametrize(
    ("table", "names"),
    [
        ('cassete_dir = "x"', ["'cassete_dir'", "cassette_dir"]),
        ("required_kinds = 3", ["required_kinds must be a list of strings"]),
        ('required_kinds = "mcp"', ["required_kinds must be a list", 'required_kinds = ["mcp"]']),
        ('strict = "yes"', ["strict must be true or false"]),
        ('model = ""', ["model must be a non-empty string"]),
        ('cassette_dir = "cass\\u0000ettes"', ["cassette_dir", "NUL character"]),
        ("[tool.tooltape.scrub]\nsafe_header = []", ["'safe_header'", "safe_headers"]),
        ('[tool.tooltape.scrub]\nsecret_patterns = ["("]', ["secret_patterns", "'('"]),
        ('[tool.tooltape.scrub]\nsecret_patterns = [""]', ["secret_patterns", "matches empty"]),
        ('[tool.tooltape.scrub]\nsecret_patterns = ["k?"]', ["'k?'", "matches empty"]),
        # re.compile raises OverflowError, not re.error, for a repeat count past a C long.
        (
            '[tool.tooltape.scrub]\nsecret_patterns = ["a{99999999999}"]',
            ["secret_patterns entry 'a{99999999999}' is not a regular expression"],
        ),
        # Every os call on a name past 255 bytes fails (ENAMETOOLONG): refused here, by key.
        (f'cassette_dir = "tests/{"c" * 256}"', ["cassette_dir", "folder name of 256 bytes"]),
        # The example stays one line of TOML when the value holds a line break or a quote.
        ('codecs = "a\\n\\"b"', ['codecs = ["a\\n\\"b"]']),
    ],
)
def test_a_bad_key_names_the_file_the_key_and_the_fix(
    tmp_path: Path, table: str, names: list[str]
) -> None:
    root = _project(tmp_path, f"[tool.tooltape]\n{table}\n")
    with pytest.raises(SettingsError) as caught:
        load_settings(root)
    message = str(caught.value)
    assert str(root / "pyproject.toml") in message
    for name in names:
        assert name in message


def test_broken_toml_is_named(tmp_path: Path) -> None:
    root = _project(tmp_path, "[tool.tooltape\n")
    with pytest.raises(SettingsError, match="is not valid TOML"):
        load_settings(root)


def test_pytest_ini_options_mirror_the_settings(tmp_path: Path) -> None:
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\ntooltape_cassette_dir = recordings\ntooltape_model = gpt-5\n"
        "tooltape_volatile =\n    metadata.a\n    metadata.b\n",
        encoding="utf-8",
    )
    settings = load_settings(tmp_path)
    assert settings.cassette_dir == Path("recordings")
    assert settings.model == "gpt-5"
    assert settings.volatile == ("metadata.a", "metadata.b")


def test_pyproject_pytest_options_are_read_too(tmp_path: Path) -> None:
    root = _project(tmp_path, '[tool.pytest.ini_options]\ntooltape_cassette_dir = "tapes"\n')
    assert load_settings(root).cassette_dir == Path("tapes")


def test_a_value_given_twice_must_agree(tmp_path: Path) -> None:
    root = _project(
        tmp_path,
        '[tool.tooltape]\ncassette_dir = "a"\n\n[tool.pytest.ini_options]\n'
        'tooltape_cassette_dir = "b"\n',
    )
    with pytest.raises(SettingsError, match="disagrees with tooltape_cassette_dir"):
        load_settings(root)
    same = _project(
        tmp_path,
        '[tool.tooltape]\ncassette_dir = "a"\n\n[tool.pytest.ini_options]\n'
        'tooltape_cassette_dir = "a"\n',
    )
    assert load_settings(same).cassette_dir == Path("a")


@pytest.mark.parametrize("value", ["5", '"tests/cassettes"', '["cassettes"]'])
def test_a_tooltape_key_that_is_not_a_table_is_an_error_not_ignored(
    tmp_path: Path, value: str
) -> None:
    root = _project(tmp_path, f"[tool]\ntooltape = {value}\n")
    with pytest.raises(SettingsError) as caught:
        load_settings(root)
    message = str(caught.value)
    assert str(root / "pyproject.toml") in message
    assert "tool.tooltape must be a table" in message
    assert "[tool.tooltape]" in message


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("pyproject.toml", '[tool.tooltape]\ncassette_dir = "tests/cassettes"\n'),
        ("pytest.ini", "[pytest]\ntooltape_cassette_dir = tests/cassettes\n"),
        ("tox.ini", "[pytest]\ntooltape_cassette_dir = tests/cassettes\n"),
    ],
)
def test_a_settings_file_the_system_will_not_open_is_named_with_the_permission_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str
) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    refuse_reading(monkeypatch, tmp_path / name)
    with pytest.raises(UnreadableSettingsError) as caught:
        load_settings(tmp_path)
    message = str(caught.value)
    assert message.startswith(f"{tmp_path / name} cannot be read (Permission denied): ")
    assert f"`chmod u+r {tmp_path / name}`" in message
    assert "TOML" not in message
