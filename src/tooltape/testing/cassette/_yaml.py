"""Read vcrpy / pytest-recording YAML cassettes (libyaml's C loader when present)."""

from __future__ import annotations

from typing import Any

import yaml

__all__ = ["YamlProblem", "load_yaml"]


def _as_string(loader: Any, node: Any) -> str:
    return str(loader.construct_scalar(node))


def _as_tuple(loader: Any, node: Any) -> tuple[Any, ...]:
    return tuple(loader.construct_sequence(node))


def _as_bytes(loader: Any, node: Any) -> bytes:
    """An old vcrpy ``BytesIO`` request body, rebuilt as plain bytes (never a file object)."""
    mapping: dict[str, Any] = loader.construct_mapping(node, deep=True)
    state: Any = mapping.get("state") or (b"",)
    data: Any = state[0] if state else b""
    if isinstance(data, str):
        return data.encode("utf-8")
    return bytes(data or b"")


def _make_loader() -> Any:
    """A safe loader (C-accelerated when libyaml is present) plus the harmless
    Python tags old vcrpy cassettes carry. Timestamps stay strings: a body tree
    must remain plain JSON.
    """
    base: Any = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader
    loader: Any = type("CassetteLoader", (base,), {})
    loader.add_constructor("tag:yaml.org,2002:timestamp", _as_string)
    loader.add_constructor("tag:yaml.org,2002:python/str", _as_string)
    loader.add_constructor("tag:yaml.org,2002:python/unicode", _as_string)
    loader.add_constructor("tag:yaml.org,2002:python/tuple", _as_tuple)
    loader.add_constructor("tag:yaml.org,2002:python/object/new:_io.BytesIO", _as_bytes)
    return loader


_LOADER: Any = _make_loader()


class YamlProblem(ValueError):
    """A YAML syntax error with its 1-based position when known."""

    def __init__(self, problem: str, line: int | None, column: int | None) -> None:
        self.problem = problem
        self.line = line
        self.column = column
        super().__init__(problem)


def load_yaml(text: str) -> object:
    """Parse ``text`` safely; raises :class:`YamlProblem` on any YAML error."""
    try:
        return yaml.load(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        problem = ", ".join(part for part in (error.problem, error.context) if part)
        if mark is None:
            raise YamlProblem(problem or str(error), None, None) from None
        raise YamlProblem(problem or str(error), mark.line + 1, mark.column + 1) from None
    except yaml.YAMLError as error:
        raise YamlProblem(str(error), None, None) from None
