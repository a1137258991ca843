"""Read vcrpy / pytest-recording YAML cassettes (libyaml's C loader when present)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import yaml

from tooltape.testing.cassette._limits import MAX_DOCUMENT_DEPTH, TreeLimitError, check_tree

__all__ = ["YamlProblem", "load_yaml"]

# libyaml's composer recurses in C: tens of thousands of levels crash the
# process. Nesting needs one structural character per level, so a text with
# fewer of them than this cannot get near that, whatever it holds.
_SAFE_STRUCTURE = 5_000
_STRUCTURE = "[{-?:\n"


def _as_string(loader: Any, node: Any) -> str:
    return str(loader.construct_scalar(node))


def _as_tuple(loader: Any, node: Any) -> tuple[Any, ...]:
    return tuple(loader.construct_sequence(node))


def _as_bytes(loader: Any, node: Any) -> bytes:
    """An old vcrpy ``BytesIO`` request body, rebuilt as plain bytes (never a file object)."""
    mapping: dict[str, Any] = loader.construct_mapping(node, deep=True)
    state: Any = mapping.get("state") or (b"",)
    # vcrpy wrote the state BytesIO pickles: (its bytes, the position, its __dict__).
    data: object = cast("Any", state)[0] if isinstance(state, (list, tuple)) else state
    if isinstance(data, str):
        return data.encode("utf-8")
    if data is None or isinstance(data, bytes):
        return data or b""
    # Never bytes(data): an integer there would allocate that many bytes.
    raise yaml.constructor.ConstructorError(
        None,
        None,
        "a BytesIO body's state must start with its bytes (a !!binary value), "
        f"not {type(data).__name__}",
        node.start_mark,
    )


_MERGE_TAG = "tag:yaml.org,2002:merge"


def _flatten_without_merges(loader: Any, node: Any) -> None:
    """Refuse YAML merge keys (``<<``): each copies whole mappings into another, so a few
    lines of them expand without bound while loading. No vcrpy cassette uses them."""
    for key_node, _ in node.value:
        if key_node.tag == _MERGE_TAG:
            raise TreeLimitError("it uses YAML merge keys (<<), which cassettes never need")
    yaml.SafeLoader.flatten_mapping(loader, node)


def _make_loader() -> Any:
    """A safe loader (C-accelerated when libyaml is present) plus the harmless
    Python tags old vcrpy cassettes carry. Timestamps stay strings: a body tree
    must remain plain JSON.
    """
    base: Any = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader
    loader: Any = type("CassetteLoader", (base,), {"flatten_mapping": _flatten_without_merges})
    loader.add_constructor("tag:yaml.org,2002:timestamp", _as_string)
    loader.add_constructor("tag:yaml.org,2002:python/str", _as_string)
    loader.add_constructor("tag:yaml.org,2002:python/unicode", _as_string)
    loader.add_constructor("tag:yaml.org,2002:python/tuple", _as_tuple)
    loader.add_constructor("tag:yaml.org,2002:python/object/new:_io.BytesIO", _as_bytes)
    return loader


_LOADER: Any = _make_loader()


class YamlProblem(ValueError):
    """A YAML syntax error with its 1-based position when known.

    ``limit`` is true when the text parsed but is beyond tooltape's bounds
    (too deep, or aliases expanding too far).
    """

    def __init__(
        self, problem: str, line: int | None, column: int | None, *, limit: bool = False
    ) -> None:
        self.problem = problem
        self.line = line
        self.column = column
        self.limit = limit
        super().__init__(problem)


def _check_depth(text: str) -> None:
    """Refuse a text nested deeper than a document may be, before the C composer sees it.

    Only texts with many structural characters are walked, as a stream of
    parser events (libyaml's parser keeps its own stack and never recurses).
    """
    if sum(text.count(char) for char in _STRUCTURE) < _SAFE_STRUCTURE:
        return
    depth = 0
    parse: Any = yaml.parse  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    events: Iterator[object] = parse(text, Loader=_LOADER)
    too_deep = f"nested deeper than {MAX_DOCUMENT_DEPTH} levels"
    try:
        for event in events:
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DOCUMENT_DEPTH:
                    raise TreeLimitError(too_deep)
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.MarkedYAMLError as error:
        # Newer libyaml scans ahead and stops at its own limit (1000 levels) before
        # the parser has given the events that reach ours: the same refusal.
        if "maximum nesting depth" in (error.problem or ""):
            raise TreeLimitError(too_deep) from None
        raise


def load_yaml(text: str) -> object:
    """Parse ``text`` safely; raises :class:`YamlProblem` on any YAML error.

    Nesting depth and alias expansion are bounded (see ``_limits``): a
    billion-laughs document is refused after a walk of its few stored values.
    """
    try:
        _check_depth(text)
        tree: object = yaml.load(text, Loader=_LOADER)
        check_tree(tree)
        return tree
    except TreeLimitError as error:
        raise YamlProblem(str(error), None, None, limit=True) from None
    except (ValueError, RecursionError, OverflowError) as error:
        # A constructor's own failure, e.g. an integer of thousands of digits.
        raise YamlProblem(_unreadable(error), None, None) from None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        problem = ", ".join(part for part in (error.problem, error.context) if part)
        if mark is None:
            raise YamlProblem(problem or str(error), None, None) from None
        raise YamlProblem(problem or str(error), mark.line + 1, mark.column + 1) from None
    except yaml.YAMLError as error:
        raise YamlProblem(str(error), None, None) from None


def _unreadable(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    if "integer string conversion" in text:
        return "a number has more digits than can be read (over 4300)"
    return f"a value cannot be read ({text if len(text) <= 120 else text[:117] + '...'})"
