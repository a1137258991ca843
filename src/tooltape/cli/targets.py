"""Resolve ``MODULE:ATTR`` to a prompt and its parameters, for ``tooltape specs``.

``MODULE`` is a dotted module importable from the current directory (as with
``python -m``) or a ``path/to/file.py``; ``ATTR`` (dotted for nested
attributes) is a ``Prompt`` or a zero-argument callable returning a ``Prompt``
or a ``(Prompt, *params)`` tuple.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import itertools
import sys
from collections.abc import Generator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, cast

from tooltape.cli.errors import CliError, UsageError
from tooltape.prompt import Prompt
from tooltape.testing.cassette._paths import irregular_file_error

_FORM = "MODULE:ATTR (e.g. `myproject.prompts:support_prompt` or `prompts.py:build`)"
_WANT = "a Prompt, or a zero-argument callable returning a Prompt or a (Prompt, *params) tuple"
_counter = itertools.count()


@dataclass(frozen=True, slots=True)
class PromptTarget:
    """A resolved target: the prompt and the parameters to render it with."""

    prompt: Prompt[Any]
    params: tuple[object, ...]


def split_target(spec: str) -> tuple[str, str]:
    """``"pkg.mod:attr"`` -> ``("pkg.mod", "attr")``; a malformed spec is a usage error."""
    module, colon, attribute = spec.rpartition(":")
    if not colon or not module or not attribute:
        raise UsageError(f"{spec!r} is not {_FORM}")
    if not all(part.isidentifier() for part in attribute.split(".")):
        raise UsageError(f"{spec!r}: {attribute!r} is not a Python attribute name; write {_FORM}")
    return module, attribute


def _is_file(module: str) -> bool:
    return module.endswith(".py") or "/" in module or "\\" in module


@contextmanager
def _on_path(folder: Path) -> Generator[None, None, None]:
    entry = str(folder)
    sys.path.insert(0, entry)
    try:
        yield
    finally:
        if entry in sys.path:
            sys.path.remove(entry)


def _raised(exc: BaseException) -> str:
    if isinstance(exc, SystemExit):  # sys.exit() in the module: it stops the import, not us
        return (
            f"SystemExit({exc.code!r}): it exits when imported; keep what runs as a script "
            'under `if __name__ == "__main__":`'
        )
    return f"{type(exc).__name__}: {exc}"


def _import_file(spec: str, module: str) -> ModuleType:
    try:
        path = Path(module).resolve()
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop (Python < 3.13)
        raise UsageError(f"{spec!r}: {module} cannot be resolved ({exc}); check the path") from None
    if not path.is_file():
        irregular = irregular_file_error(module)  # the path as given: a link is named as such
        if irregular is not None:
            raise UsageError(
                f"{spec!r}: {module} {irregular.problem}; pass a path/to/file.py or a dotted "
                "module name"
            )
        raise UsageError(f"{spec!r}: no file {path}; check the path (relative to {Path.cwd()})")
    name = f"_tooltape_specs_{path.stem}_{next(_counter)}"
    loader_spec = importlib.util.spec_from_file_location(name, path)
    if loader_spec is None or loader_spec.loader is None:
        raise CliError(f"{spec!r}: {path} cannot be imported as a Python module")
    loaded = importlib.util.module_from_spec(loader_spec)
    # Left registered: dataclasses and pydantic look a module up by name when
    # they resolve the parameter types the prompt renders with.
    sys.modules[name] = loaded
    with _on_path(path.parent):  # like `python file.py`: its siblings import
        try:
            loader_spec.loader.exec_module(loaded)
        except (Exception, SystemExit) as exc:  # KeyboardInterrupt still interrupts
            sys.modules.pop(name, None)
            raise CliError(
                f"{spec!r}: importing {path} failed: {_raised(exc)}; fix the module"
            ) from exc
    return loaded


def _import_dotted(spec: str, module: str) -> ModuleType:
    with _on_path(Path.cwd()):  # like `python -m`: the current directory comes first
        try:
            return importlib.import_module(module)
        except ModuleNotFoundError as exc:
            missing = exc.name or ""
            if missing and (module == missing or module.startswith(missing + ".")):
                raise UsageError(
                    f"{spec!r}: no module named {missing!r} (looked in {Path.cwd()} and "
                    "sys.path); check the name, install the package, or pass a path/to/file.py"
                ) from None
            raise CliError(
                f"{spec!r}: importing {module} failed: {exc}; install what it needs"
            ) from exc
        except (Exception, SystemExit) as exc:
            raise CliError(
                f"{spec!r}: importing {module} failed: {_raised(exc)}; fix the module"
            ) from exc


def _prompts_in(module: ModuleType) -> list[str]:
    return sorted(
        name
        for name, value in vars(module).items()
        if not name.startswith("_") and isinstance(value, Prompt)
    )


def _attribute(spec: str, module: ModuleType, attribute: str, where: str) -> object:
    value: object = module
    for part in attribute.split("."):
        if not hasattr(value, part):
            prompts = _prompts_in(module)
            hint = f"prompts it defines: {', '.join(prompts)}" if prompts else "check the name"
            raise UsageError(f"{spec!r}: {where} has no attribute {attribute!r}; {hint}")
        value = getattr(value, part)
    return value


def _call(spec: str, target: Any) -> object:
    try:
        inspect.signature(target).bind()
    except TypeError:
        raise CliError(
            f"{spec!r} needs arguments, and specs calls it with none: give its parameters "
            f"defaults, or point at {_WANT}"
        ) from None
    except ValueError:
        pass  # no signature to check (a builtin): just call it
    try:
        return target()
    except (Exception, SystemExit) as exc:
        raise CliError(
            f"{spec!r}: calling it raised {type(exc).__name__}: {exc}; fix it so it returns "
            "a Prompt"
        ) from exc


def _prompt(value: object) -> Prompt[Any] | None:
    return cast("Prompt[Any]", value) if isinstance(value, Prompt) else None


def _as_target(spec: str, value: object) -> PromptTarget:
    kind = type(value).__name__
    prompt = _prompt(value)
    if prompt is not None:
        return PromptTarget(prompt, ())
    if isinstance(value, tuple):
        items = cast("tuple[object, ...]", value)
        first = _prompt(items[0]) if items else None
        if first is not None:
            return PromptTarget(first, items[1:])
    raise CliError(f"{spec!r} gave a value of type {kind}, not a Prompt: point at {_WANT}")


def resolve_target(spec: str) -> PromptTarget:
    """The prompt (and parameters) ``spec`` names; errors say what was asked and what to do."""
    module_name, attribute = split_target(spec)
    if _is_file(module_name):
        module, where = _import_file(spec, module_name), module_name
    else:
        module, where = _import_dotted(spec, module_name), f"module {module_name}"
    value = _attribute(spec, module, attribute, where)
    if _prompt(value) is None and callable(value):
        return _as_target(spec, _call(spec, value))
    return _as_target(spec, value)
