"""Bounds on what reading a cassette or a body may cost: nesting depth and alias expansion.

A cassette is read from a file anyone can edit and a body from whatever a
provider sends, so neither may decide how deep the parsers and the tree
walkers after them recurse, nor how far a YAML alias multiplies a small file.
Every tree tooltape keeps is checked here once, when it is parsed.
"""

from __future__ import annotations

import json
import math
from typing import cast

from pydantic_core import from_json

from tooltape.testing.cassette._errors import pointer

__all__ = [
    "MAX_BODY_DEPTH",
    "MAX_DOCUMENT_DEPTH",
    "MAX_EXPANDED_CHARS",
    "MAX_EXPANDED_NODES",
    "NON_FINITE_HINT",
    "NonFiniteNumberError",
    "TreeLimitError",
    "check_tree",
    "check_finite",
    "parse_json_text",
]

MAX_BODY_DEPTH = 200
"""Deepest JSON body kept as a tree; a deeper one is kept as text (real bodies nest ~15 deep)."""

MAX_DOCUMENT_DEPTH = MAX_BODY_DEPTH + 24
"""Deepest cassette document read: a body at its deepest plus the document around it."""

MAX_EXPANDED_NODES = 100_000
"""How many values YAML aliases may add to a document when expanded."""

MAX_EXPANDED_CHARS = 10_000_000
"""How many characters of text YAML aliases may add to a document when expanded."""


class TreeLimitError(ValueError):
    """A parsed tree (or a text about to be parsed) beyond one of the bounds above."""


def _children(node: dict[object, object] | list[object]) -> list[object]:
    return list(node.values()) if isinstance(node, dict) else node


def _own_size(node: dict[object, object] | list[object]) -> tuple[int, int]:
    """Values and characters a container holds itself (its scalars and keys, not its containers)."""
    nodes, chars = 1, 0
    for child in _children(node):
        if not isinstance(child, (dict, list)):
            nodes += 1
            chars += len(child) if isinstance(child, (str, bytes)) else 0
    if isinstance(node, dict):
        chars += sum(len(key) for key in node if isinstance(key, (str, bytes)))
    return nodes, chars


def check_tree(tree: object, *, max_depth: int = MAX_DOCUMENT_DEPTH) -> None:
    """Raise :class:`TreeLimitError` unless ``tree`` is at most ``max_depth`` deep and any
    values it shares (YAML aliases) add at most ``MAX_EXPANDED_NODES`` values and
    ``MAX_EXPANDED_CHARS`` characters when expanded.

    The walk visits every container once, however often it is referred to, and
    never recurses, so it costs as much as the tree as stored, not as expanded.
    """
    if not isinstance(tree, (dict, list)):
        return
    # Per container id: (values, characters, levels) of its expansion.
    expanded: dict[int, tuple[int, int, int]] = {}
    stored_nodes = stored_chars = 0
    path: set[int] = set()  # the containers open above the one being walked
    stack: list[tuple[dict[object, object] | list[object], bool]] = [
        (cast("dict[object, object] | list[object]", tree), False)
    ]
    while stack:
        node, walked = stack.pop()
        key = id(node)
        if not walked:
            if key in expanded:
                continue
            if key in path:
                raise TreeLimitError("a YAML alias refers to a value that contains it")
            path.add(key)
            if len(path) > max_depth:
                raise TreeLimitError(f"nested deeper than {max_depth} levels")
            stack.append((node, True))
            stack.extend(
                (cast("dict[object, object] | list[object]", child), False)
                for child in _children(node)
                if isinstance(child, (dict, list))
            )
            continue
        path.discard(key)
        own_nodes, own_chars = _own_size(node)
        stored_nodes += own_nodes
        stored_chars += own_chars
        nodes, chars, levels = own_nodes, own_chars, 1
        for child in _children(node):
            if isinstance(child, (dict, list)):
                child_nodes, child_chars, child_levels = expanded[id(cast(object, child))]
                nodes += child_nodes
                chars += child_chars
                levels = max(levels, child_levels + 1)
        if levels > max_depth:
            raise TreeLimitError(f"nested deeper than {max_depth} levels")
        # What is stored so far includes all of this container: more than that is aliasing.
        if nodes - stored_nodes > MAX_EXPANDED_NODES:
            raise TreeLimitError(
                f"YAML aliases expand it by more than {MAX_EXPANDED_NODES:,} values"
            )
        if chars - stored_chars > MAX_EXPANDED_CHARS:
            raise TreeLimitError(
                f"YAML aliases expand it by more than {MAX_EXPANDED_CHARS:,} characters"
            )
        expanded[key] = (nodes, chars, levels)


NON_FINITE_HINT = (
    "JSON has no NaN or Infinity, and a number past a double (about 1.8e308) cannot be read "
    'back as itself: write null, a finite number, or the value as a string ("NaN") instead'
)
"""What to do about a number JSON cannot hold."""


class NonFiniteNumberError(ValueError):
    """JSON holding ``NaN``, ``Infinity``, ``-Infinity`` or a number past a double (``1e400``).

    Python reads each as a non-finite float and would write it back as a word
    JSON does not have (or as another value). ``where`` is the JSON pointer of
    the first one in the parsed value (``""`` for the value itself).
    """

    def __init__(self, where: str, value: float) -> None:
        self.where = where
        self.value = value
        spelled = "NaN" if math.isnan(value) else ("-Infinity" if value < 0 else "Infinity")
        self.problem = f"{spelled} (or a number past a double) is not a JSON number"
        super().__init__(f"{where or '/'}: {self.problem}")


def _all_finite(tree: object) -> bool:
    stack = [tree]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is dict:
            stack.extend(cast("dict[str, object]", node).values())
        elif kind is list:
            stack.extend(cast("list[object]", node))
        elif kind is float and not math.isfinite(cast(float, node)):
            return False
    return True


def check_finite(tree: object) -> None:
    """Raise :class:`NonFiniteNumberError` naming the first non-finite number in ``tree``."""
    if _all_finite(tree):
        return
    stack: list[tuple[object, str]] = [(tree, "")]
    while stack:
        node, where = stack.pop()
        if isinstance(node, dict):
            items = cast("dict[object, object]", node).items()
            stack.extend((value, pointer(where, str(key))) for key, value in reversed(items))
        elif isinstance(node, list):
            listed = cast("list[object]", node)
            stack.extend((listed[i], f"{where}/{i}") for i in reversed(range(len(listed))))
        elif isinstance(node, float) and not math.isfinite(node):
            raise NonFiniteNumberError(where, node)


_TOO_DEEP = "recursion limit exceeded"


def parse_json_text(text: str | bytes, *, max_depth: int = MAX_BODY_DEPTH) -> object:
    """The JSON value ``text`` holds, at most ``max_depth`` deep.

    Raises ``ValueError`` for text that is not JSON, :class:`TreeLimitError`
    (a ``ValueError`` too) for JSON nested deeper, and :class:`NonFiniteNumberError`
    (also one) for ``NaN``, ``Infinity`` or a number past a double. pydantic-core
    parses it when it can (fast, and bounded at about 200 levels); the standard
    library takes what only it accepts (lone surrogate escapes, and ``NaN``,
    which is then refused with where it is) and the result is then checked.
    """
    try:
        tree: object = from_json(text, allow_inf_nan=False)
    except (ValueError, TypeError) as error:
        # TypeError: pydantic-core takes no text holding a lone surrogate (an event's
        # data read from a cassette that escaped one); the standard library reads it.
        if _TOO_DEEP in str(error) and max_depth <= MAX_BODY_DEPTH:
            raise TreeLimitError(f"nested deeper than {max_depth} levels") from None
        try:
            tree = json.loads(text)
        except RecursionError:
            raise TreeLimitError(f"nested deeper than {max_depth} levels") from None
        check_tree(tree, max_depth=max_depth)
        check_finite(tree)
        return tree
    if max_depth < MAX_BODY_DEPTH:
        check_tree(tree, max_depth=max_depth)
    check_finite(tree)
    return tree
