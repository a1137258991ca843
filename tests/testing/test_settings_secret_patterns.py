"""A secret pattern that matches ordinary words is refused when the settings are read.

Each ``scrub.secret_patterns`` entry is tried on a few texts every cassette or
tooltape's own output holds ("cassettes", "response", "application/json", a short
path...). One that matches them would redact prose and paths, flag every cassette
and slow scrubbing to a crawl, so it is an error naming the entry and what it matched.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tooltape.cli import main
from tooltape.testing.settings import SettingsError, load_settings

_README = Path(__file__).parents[2] / "README.md"


def _project(root: Path, patterns: str) -> Path:
    (root / "pyproject.toml").write_text(
        f"[tool.tooltape.scrub]\nsecret_patterns = {patterns}\n", encoding="utf-8"
    )
    return root


@pytest.mark.parametrize(
    ("pattern", "matched"),
    [
        ("[a-z]{6}", "'casset' in 'cassettes'"),
        (".", "'c' in 'cassettes'"),
        ("\\\\w+", "'cassettes'"),
        ("test", "'test' in 'tests/test_api.py'"),
        ("json", "'json' in 'application/json'"),
        ("(?i)redacted", "'REDACTED'"),
        ("[A-Z]{4,}", "'REDACTED'"),
    ],
)
def test_a_pattern_matching_ordinary_text_names_the_entry_and_what_it_matched(
    tmp_path: Path, pattern: str, matched: str
) -> None:
    root = _project(tmp_path, f'["acme_[0-9a-f]{{32}}", "{pattern}"]')
    with pytest.raises(SettingsError) as caught:
        load_settings(root)
    message = str(caught.value)
    entry = pattern.replace("\\\\", "\\")
    assert message.startswith(
        f"{root / 'pyproject.toml'}: scrub.secret_patterns entry {entry!r} matches {matched}, "
    )
    assert "application/json" in message  # the texts it is tried on are shown
    assert "\n" not in message


@pytest.mark.parametrize(
    "pattern",
    [
        "acme_[0-9a-f]{32}",
        "acme_[0-9a-f]{16}",
        "sk-[A-Za-z0-9]{20,}",
        "AKIA[0-9A-Z]{16}",
        "ghp_[A-Za-z0-9]{36}",
        "xox[bp]-[0-9A-Za-z-]{10,}",
        "(?i)bearer [a-z0-9._-]{20,}",
        "\\\\b[0-9]{6}\\\\b",
    ],
)
def test_patterns_of_secret_shapes_are_kept(tmp_path: Path, pattern: str) -> None:
    root = _project(tmp_path, f'["{pattern}"]')
    assert load_settings(root).scrub.secret_patterns == (pattern.replace("\\\\", "\\"),)


def test_every_settings_example_of_the_readme_loads(tmp_path: Path) -> None:
    blocks = re.findall(r"```toml\n(.*?)```", _README.read_text(encoding="utf-8"), re.DOTALL)
    examples = [block for block in blocks if "[tool.tooltape" in block]
    assert any("secret_patterns" in block for block in examples)
    for block in examples:
        (tmp_path / "pyproject.toml").write_text(block, encoding="utf-8")
        load_settings(tmp_path)


def test_lint_refuses_the_pattern_before_reading_a_cassette(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _project(tmp_path, '["[a-z]{6}"]')
    folder = tmp_path / "cassettes" / "tests"
    folder.mkdir(parents=True)
    (folder / "test_api.json").write_text('{"tooltape": {"version": "0.1.0"}, "interactions": []}')
    monkeypatch.chdir(tmp_path)
    assert main(["lint"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("tooltape lint: error: ")
    assert "'[a-z]{6}' matches 'casset' in 'cassettes'" in captured.err
