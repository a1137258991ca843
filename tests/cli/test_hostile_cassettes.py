"""``tooltape inspect`` and ``tooltape check`` refuse a hostile cassette with its file named.

The inputs are small synthetic files: deep nesting and a YAML alias bomb.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import REPO, Run

HOSTILE = {
    "deep.yaml": ("interactions:\n- " + "[" * 100_000 + "]" * 100_000 + "\n", "nested deeper"),
    "laughs.yaml": (
        "a0: &a0 [lol]\n"
        + "".join(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]\n" for i in range(1, 10))
        + "interactions: *a9\n",
        "YAML aliases expand it",
    ),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_inspect_refuses_a_hostile_cassette_with_a_clear_error(
    cli: Callable[..., Run], tmp_path: Path, name: str
) -> None:
    text, reason = HOSTILE[name]
    path = tmp_path / name
    path.write_text(text)
    run = cli("inspect", str(path))
    assert run.code == 1
    assert f"cassette {path}: refused: {reason}" in run.err
    assert "Traceback" not in run.out + run.err


def test_check_lists_a_hostile_cassette_as_unreadable(
    cli: Callable[..., Run], tmp_path: Path
) -> None:
    corpus = Path(shutil.copytree(REPO / "cassettes", tmp_path / "cassettes"))
    for name, (text, _) in HOSTILE.items():
        (corpus / "imported" / name).write_text(text)
    run = cli("check", str(corpus))
    assert run.code == 1
    for name, (_, reason) in HOSTILE.items():
        assert f"{corpus / 'imported' / name}: refused: {reason}" in run.out
    assert "2 cassettes unreadable" in run.out
