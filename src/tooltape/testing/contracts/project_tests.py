"""The project's test modules and conftests, and the cassette names they hold as strings."""

from __future__ import annotations

import ast
import os
from collections.abc import Collection, Iterator
from pathlib import Path

SKIPPED_DIRS = frozenset(
    {"node_modules", "site-packages", "__pycache__", "build", "dist", "venv", "env"}
)
"""Folders that hold no test of the project (hidden folders are skipped too)."""


def project_test_files(root: Path) -> Iterator[Path]:
    """Every ``test_*.py`` and ``conftest.py`` under ``root``, folder by folder, in name
    order; hidden, virtual environment and build folders are skipped, and so are folders
    the system will not list."""
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS)
        for name in sorted(files):
            if name == "conftest.py" or (name.startswith("test_") and name.endswith(".py")):
                yield Path(folder) / name


def project_test_texts(root: Path) -> Iterator[tuple[Path, str]]:
    """Each file of :func:`project_test_files` with its text; one that cannot be read, or
    is not UTF-8, is passed by."""
    for path in project_test_files(root):
        try:
            yield path, path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue


def named_cassettes(root: Path, names: Collection[str]) -> frozenset[str]:
    """The file names among ``names`` (``x.yaml``) that a test module or conftest under
    ``root`` holds as a string, alone or after a folder (``"common/x.yaml"``), as
    ``@pytest.mark.vcr("x.yaml")`` names a shared cassette.

    Only a file whose text holds one of the names is parsed; a name in a comment does
    not count.
    """
    wanted = frozenset(names)
    found: set[str] = set()
    if not wanted:
        return frozenset()
    for path, text in project_test_texts(root):
        if not any(name in text for name in wanted - found):
            continue
        try:
            tree = ast.parse(text, filename=str(path))
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                name = node.value.replace("\\", "/").rpartition("/")[2]
                if name in wanted:
                    found.add(name)
        if wanted <= found:
            break
    return frozenset(found)
