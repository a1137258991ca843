"""Load ``"module.py:function"`` specs, for function tools and hooks declared as text."""

from __future__ import annotations

import dataclasses
import importlib.util
import inspect
import itertools
import sys
import typing
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

_counter = itertools.count()


class ToolLoadError(ValueError):
    """A ``"module.py:function"`` spec could not be turned into a callable."""


def _resolve_class_annotations(module: ModuleType) -> None:
    """Replace string annotations of the module's classes by the types they name.

    pydantic resolves a dataclass's string annotations (``from __future__ import
    annotations``) in ``sys.modules[cls.__module__]``, which a loaded module is
    deliberately not left in; resolved here, while it still is, a params
    dataclass defined in a loaded file stays usable. Annotations that cannot be
    resolved yet (``TYPE_CHECKING`` imports) are left as they are.
    """
    for value in list(vars(module).values()):
        if not isinstance(value, type) or value.__module__ != module.__name__:
            continue
        own = inspect.get_annotations(value)
        if not any(isinstance(a, str) for a in own.values()):
            continue
        try:
            hints = typing.get_type_hints(value, include_extras=True)
        except Exception:
            continue
        value.__annotations__ = {name: hints.get(name, a) for name, a in own.items()}
        if dataclasses.is_dataclass(value):
            for field in dataclasses.fields(value):
                if field.name in hints:
                    field.type = hints[field.name]


def load_callable(spec: str, *, base_path: str | Path | None = None) -> Callable[..., Any]:
    """Load ``function`` from ``module.py`` as named by ``spec``.

    A relative path is resolved against ``base_path`` (the current directory
    when none). Each load executes the module afresh under a unique name that
    is not left in ``sys.modules``, so two cards with a ``tools.py`` each never
    collide.
    """
    if not isinstance(spec, str) or spec.count(":") != 1:
        raise ToolLoadError(
            f"Spec {spec!r} is malformed; write it as 'path/to/module.py:function_name'."
        )
    module_part, attribute = (part.strip() for part in spec.split(":"))
    if not module_part.endswith(".py") or not attribute.isidentifier():
        raise ToolLoadError(
            f"Spec {spec!r} is malformed; write it as 'path/to/module.py:function_name' "
            "(a .py file and a Python identifier)."
        )
    base = Path(base_path) if base_path is not None else Path.cwd()
    path = Path(module_part)
    resolved = (path if path.is_absolute() else base / path).resolve()
    if not resolved.is_file():
        raise ToolLoadError(
            f"Spec {spec!r}: no file at {resolved} (resolved against {base}); "
            "check the path or the base directory."
        )
    module_name = f"_tooltape_loaded_{resolved.stem}_{next(_counter)}"
    module_spec = importlib.util.spec_from_file_location(module_name, resolved)
    if module_spec is None or module_spec.loader is None:
        raise ToolLoadError(f"Spec {spec!r}: {resolved} cannot be imported as a module.")
    module = importlib.util.module_from_spec(module_spec)
    # Registered only while the module body runs: dataclasses and typing look
    # the module up by name during class creation.
    sys.modules[module_name] = module
    try:
        module_spec.loader.exec_module(module)
        _resolve_class_annotations(module)
    except (Exception, SystemExit) as exc:  # KeyboardInterrupt still interrupts
        raise ToolLoadError(
            f"Spec {spec!r}: importing {resolved} failed: {type(exc).__name__}: {exc}"
        ) from exc
    finally:
        sys.modules.pop(module_name, None)
    if not hasattr(module, attribute):
        available = sorted(n for n in vars(module) if not n.startswith("_"))
        raise ToolLoadError(
            f"Spec {spec!r}: {resolved} has no attribute {attribute!r}; "
            f"it defines {', '.join(available) or 'nothing public'}."
        )
    target = getattr(module, attribute)
    if not callable(target):
        raise ToolLoadError(
            f"Spec {spec!r}: {attribute!r} in {resolved} is a {type(target).__name__}, "
            "not a callable."
        )
    return target
