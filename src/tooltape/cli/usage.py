"""Cassettes no test uses: ``<DIR>/<module path>/<test name>.json`` without that test.

The plugin writes one cassette per test under a folder that is the test
module's path from the project root without ``.py`` (``tests/a/test_api``), or
where the project's own ``vcr_cassette_dir`` fixture says,
named like pytest-recording names them: ``test_name[param]`` or
``Class.test_name[param]``. A cassette is in use when that module defines the
test (in that class), or names the cassette in a string
(``@pytest.mark.default_cassette("...")``). Folders not named like a test
module (``imported/``, ``specs/``) are not checked. Each module is read once.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tooltape.cli.terminal import display_path
from tooltape.testing.contracts.project_tests import project_test_files, project_test_texts


@dataclass(frozen=True, slots=True)
class ModuleTests:
    """What one test module defines: functions, ``Class.method`` pairs and string constants."""

    path: Path
    functions: frozenset[str]
    methods: frozenset[str]
    strings: frozenset[str] = field(default_factory=frozenset[str])


def _strings(tree: ast.AST) -> frozenset[str]:
    return frozenset(
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) < 300
    )


def _definitions(body: Sequence[ast.stmt], owner: str | None) -> Iterator[tuple[str | None, str]]:
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield owner, node.name
        elif isinstance(node, ast.ClassDef):
            yield from _definitions(node.body, node.name)
        elif isinstance(node, ast.If | ast.Try | ast.With):
            # Tests defined under `if sys.version_info...:` or `try:` still run.
            for block in (node.body, getattr(node, "orelse", [])):
                yield from _definitions(block, owner)


def read_test_module(path: Path) -> ModuleTests | None:
    """Parse ``path``; ``None`` when it is not valid Python."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return None
    pairs = list(_definitions(tree.body, None))
    return ModuleTests(
        path=path,
        functions=frozenset(name for owner, name in pairs if owner is None),
        methods=frozenset(f"{owner}.{name}" for owner, name in pairs if owner is not None),
        strings=_strings(tree),
    )


_OWN_FOLDER_FIXTURE = re.compile(r"^\s*(?:async\s+)?def\s+vcr_cassette_dir\s*\(", re.MULTILINE)


def defines_cassette_dir(root: Path) -> bool:
    """Whether a ``conftest.py`` or test module under ``root`` defines pytest-recording's
    ``vcr_cassette_dir`` fixture: then the project, not the plugin's layout, says which
    folder holds a test's cassettes."""
    return any(_OWN_FOLDER_FIXTURE.search(text) for _, text in project_test_texts(root))


def find_test_modules(root: Path) -> dict[str, list[Path]]:
    """Every ``test_*.py`` under ``root`` by module name (hidden and venv folders skipped)."""
    modules: dict[str, list[Path]] = {}
    for path in project_test_files(root):
        if path.name != "conftest.py":
            modules.setdefault(path.stem, []).append(path)
    return modules


def named_test(stem: str) -> tuple[str | None, str]:
    """``(class or None, function)`` a cassette stem names: ``Class.test_x[a.b]`` ->
    ``("Class", "test_x")``."""
    base = stem.split("[", 1)[0]
    owner, dot, name = base.rpartition(".")
    return (owner or None, name) if dot else (None, base)


# How a test names its cassette: as is, or with the suffix the plugin gives or replaces.
_NAMED = ("", ".json", ".yaml", ".yml")


def defines(module: ModuleTests, stem: str) -> bool:
    """Whether ``module`` defines the test that records the cassette ``stem``."""
    owner, name = named_test(stem)
    if any(f"{stem}{suffix}" in module.strings for suffix in _NAMED):
        return True
    if owner is None:
        return name in module.functions or any(m.endswith(f".{name}") for m in module.methods)
    return f"{owner}.{name}" in module.methods


@dataclass(frozen=True, slots=True)
class UnusedCassette:
    """A cassette whose test module or test is gone, and what was searched."""

    path: Path
    module: str
    reason: str


def _is_module_folder(name: str) -> bool:
    return name.startswith("test_") or name.endswith("_test")


def unused_cassettes(
    directory: Path,
    files: Sequence[Path],
    root: Path,
    modules: Mapping[str, list[Path]] | None = None,
) -> list[UnusedCassette]:
    """The cassettes among ``files`` that sit in a test-module folder of ``directory`` but
    whose test module (``root/<module path>.py``) does not define their test. In a project
    with a ``vcr_cassette_dir`` fixture of its own, a folder named after a test module
    that lies elsewhere belongs to it (the fixture may have put it there)."""
    parsed: dict[Path, ModuleTests | None] = {}
    found = modules
    own_folders: bool | None = None
    unused: list[UnusedCassette] = []
    base = directory.resolve()
    for path in files:
        recorded_by = _pytest_recording_module(path)
        if recorded_by is not None:  # <module folder>/cassettes/<module>/<test>.yaml
            module_name = display_path(recorded_by.with_suffix(""))
            gone = _undefined(parsed, recorded_by, path.stem)
            if gone is not None:
                unused.append(UnusedCassette(path, module_name, gone))
            continue
        try:
            folder = path.parent.resolve().relative_to(base)
        except ValueError:
            continue  # not laid out from ``directory``
        if not folder.parts or not _is_module_folder(folder.name):
            continue
        module_path = root.joinpath(*folder.parts).with_suffix(".py")
        module_name = folder.as_posix()
        if not module_path.is_file():
            if found is None:
                found = find_test_modules(root)
            elsewhere = found.get(folder.name, [])
            if elsewhere and own_folders is None:
                own_folders = defines_cassette_dir(root)
            if elsewhere and own_folders:
                # the project's vcr_cassette_dir fixture lays cassettes out by module name
                gone = [_undefined(parsed, module, path.stem) for module in elsewhere]
                if all(reason is not None for reason in gone):
                    unused.append(UnusedCassette(path, module_name, str(gone[0])))
                continue
            if elsewhere:
                moved = ", ".join(
                    display_path(directory / p.relative_to(root).with_suffix("")) + "/"
                    for p in elsewhere
                )
                reason = (
                    f"no {module_name}.py under {display_path(root)}; cassettes of "
                    f"{', '.join(display_path(p) for p in elsewhere)} live in {moved}"
                )
            else:
                reason = f"no {module_name}.py under {display_path(root)}"
            unused.append(UnusedCassette(path, module_name, reason))
            continue
        gone = _undefined(parsed, module_path, path.stem)
        if gone is not None:
            unused.append(UnusedCassette(path, module_name, gone))
    return unused


def _undefined(parsed: dict[Path, ModuleTests | None], module_path: Path, stem: str) -> str | None:
    """Why the module does not define the test of cassette ``stem``; ``None`` if it does
    (or may: a module that does not parse raises no false alarm)."""
    if module_path not in parsed:
        parsed[module_path] = read_test_module(module_path)
    module = parsed[module_path]
    if module is None or defines(module, stem):
        return None
    owner, name = named_test(stem)
    return f"{display_path(module_path)} defines no test {f'{owner}.{name}' if owner else name}"


def _pytest_recording_module(path: Path) -> Path | None:
    """The test module whose pytest-recording cassette the YAML ``path`` is, at
    pytest-recording's own place (``<module folder>/cassettes/<module>/<test>.yaml``)."""
    if path.suffix not in (".yaml", ".yml") or path.parent.parent.name != "cassettes":
        return None
    module = path.parent.parent.parent / f"{path.parent.name}.py"
    return module if module.is_file() else None
