"""Semantic request matching: the wire-drift alarm.

``diff_json`` compares two JSON documents the way a server reads them (object
key order is irrelevant, array order is not, ``1 == 1.0``) and returns one
``FieldDifference`` per differing field. ``format_differences`` turns them into
a short, stable report. ``tooltape.testing.vcr.matchers`` builds vcrpy request
matchers on them.

Volatile path patterns (``tooltape.testing.volatile``) name fields to ignore.
"""

from __future__ import annotations

import difflib
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import cast

from tooltape.testing.volatile import (
    PathPart,
    States,
    VolatileFields,
    VolatileWalk,
    volatile_walk,
)

__all__ = [
    "DEFAULT_VOLATILE_FIELDS",
    "DifferenceKind",
    "FieldDifference",
    "diff_json",
    "format_differences",
    "match_key",
    "format_path",
]

DEFAULT_VOLATILE_FIELDS: tuple[str, ...] = (
    "metadata",
    "user",
    "safety_identifier",
    "prompt_cache_key",
    "**.encrypted_content",
)
"""Responses API request fields that vary between runs without changing what is asked.

``metadata``, ``user``, ``safety_identifier`` and ``prompt_cache_key`` are
caller bookkeeping (run ids, hashed user ids, cache routing) that the model
never reads. ``encrypted_content`` is an opaque reasoning blob echoed back in
follow-up turns; it differs on every recording and is redacted in cassettes.
"""


class DifferenceKind(StrEnum):
    """How a field differs between the recorded and the current document."""

    CHANGED = "changed"
    ADDED = "added"
    REMOVED = "removed"
    TYPE_CHANGED = "type changed"


@dataclass(frozen=True, slots=True)
class FieldDifference:
    """One differing field.

    ``parts`` is the path as keys and indexes (``("tools", 0, "type")``);
    ``recorded`` is ``None`` for an added field and ``current`` is ``None`` for
    a removed one (``kind`` says which). An added array item carries its index
    in the current array, a removed one its index in the recorded array.
    """

    parts: tuple[PathPart, ...]
    kind: DifferenceKind
    recorded: object = None
    current: object = None

    @property
    def path(self) -> str:
        """The path as text, e.g. ``tools[0].filters.allowed_domains[1]``."""
        return format_path(self.parts)


_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$-]*\Z")


def format_path(parts: Sequence[PathPart]) -> str:
    """``("tools", 0, "type")`` as ``tools[0].type``; odd keys are quoted: ``metadata["a.b"]``."""
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _IDENTIFIER.match(part):
            text += f".{part}" if text else part
        else:
            text += f"[{json.dumps(part, ensure_ascii=False)}]"
    return text


# --- comparison --------------------------------------------------------------


def _kind_of(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


def _same_scalar(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def _canonical(value: object, path: tuple[PathPart, ...], volatile: VolatileFields) -> str:
    """A string equal for semantically equal values (volatile fields masked)."""
    if volatile(path):
        return "~"
    kind = _kind_of(value)
    if kind == "object":
        items = cast("Mapping[str, object]", value)
        inner = ",".join(
            f"{json.dumps(str(k))}:{_canonical(items[k], (*path, k), volatile)}"
            for k in sorted(items, key=str)
        )
        return "{" + inner + "}"
    if kind == "array":
        seq = cast("Sequence[object]", value)
        return "[" + ",".join(_canonical(v, (*path, i), volatile) for i, v in enumerate(seq)) + "]"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if kind in ("null", "boolean", "number", "string"):
        return json.dumps(value)
    return repr(value)


def match_key(document: object, *, volatile: Iterable[str] = ()) -> str:
    """A string that is the same for any two documents ``diff_json`` finds equal.

    Volatile fields are left out, object keys sorted, ``1`` and ``1.0`` written
    alike. An array in which some index may be volatile is written as ``[~]``
    whatever it holds, so two documents with different keys always differ;
    equal keys without ``~`` mean the documents are equal, equal keys with it
    only that they may be (``diff_json`` decides). Used
    to index recorded requests: a request is compared only with the recorded
    ones that share its key.
    """
    patterns = (volatile,) if isinstance(volatile, str) else tuple(volatile)
    walk = volatile_walk(patterns)
    if walk.accepts(walk.start):
        return "~"
    return _key(document, walk.start, walk)


def _key(value: object, states: States, walk: VolatileWalk) -> str:
    if isinstance(value, Mapping):
        items = cast("Mapping[object, object]", value)
        parts: list[str] = []
        for name in sorted(items, key=str):
            inner, volatile = walk.step(states, str(name))
            if not volatile:  # a volatile field is ignored whether it is there or not
                parts.append(f"{json.dumps(str(name))}:{_key(items[name], inner, walk)}")
        return "{" + ",".join(parts) + "}"
    if isinstance(value, (list, tuple)):
        if walk.may_ignore_an_index(states):
            return "[~]"
        seq = cast("Sequence[object]", value)
        return (
            "["
            + ",".join(_key(v, walk.step(states, str(i))[0], walk) for i, v in enumerate(seq))
            + "]"
        )
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if value is None or isinstance(value, (bool, int, float, str)):
        return json.dumps(value)
    return repr(value)


class _Differ:
    __slots__ = ("_out", "_volatile")

    def __init__(self, volatile: VolatileFields) -> None:
        self._volatile = volatile
        self._out: list[FieldDifference] = []

    def run(self, recorded: object, current: object) -> tuple[FieldDifference, ...]:
        self._compare(recorded, current, ())
        return tuple(self._out)

    def _compare(self, recorded: object, current: object, path: tuple[PathPart, ...]) -> None:
        if self._volatile(path):
            return
        kind_r, kind_c = _kind_of(recorded), _kind_of(current)
        if kind_r != kind_c:
            self._out.append(FieldDifference(path, DifferenceKind.TYPE_CHANGED, recorded, current))
        elif kind_r == "object":
            self._objects(
                cast("Mapping[str, object]", recorded), cast("Mapping[str, object]", current), path
            )
        elif kind_r == "array":
            self._arrays(
                cast("Sequence[object]", recorded), cast("Sequence[object]", current), path
            )
        elif not _same_scalar(recorded, current):
            self._out.append(FieldDifference(path, DifferenceKind.CHANGED, recorded, current))

    def _added(self, path: tuple[PathPart, ...], value: object) -> None:
        if not self._volatile(path):
            self._out.append(FieldDifference(path, DifferenceKind.ADDED, None, value))

    def _removed(self, path: tuple[PathPart, ...], value: object) -> None:
        if not self._volatile(path):
            self._out.append(FieldDifference(path, DifferenceKind.REMOVED, value, None))

    def _objects(
        self,
        recorded: Mapping[str, object],
        current: Mapping[str, object],
        path: tuple[PathPart, ...],
    ) -> None:
        for key in sorted({*recorded, *current}, key=str):
            child = (*path, key)
            if key not in current:
                self._removed(child, recorded[key])
            elif key not in recorded:
                self._added(child, current[key])
            else:
                self._compare(recorded[key], current[key], child)

    def _arrays(
        self, recorded: Sequence[object], current: Sequence[object], path: tuple[PathPart, ...]
    ) -> None:
        # Same length: items changed in place. Otherwise align the arrays so an
        # inserted or dropped item is reported once, not as a shift of the rest.
        if len(recorded) == len(current):
            for index, (old, new) in enumerate(zip(recorded, current, strict=True)):
                self._compare(old, new, (*path, index))
            return
        keys_r = [_canonical(v, (*path, i), self._volatile) for i, v in enumerate(recorded)]
        keys_c = [_canonical(v, (*path, i), self._volatile) for i, v in enumerate(current)]
        matcher = difflib.SequenceMatcher(None, keys_r, keys_c, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                continue  # equal canonical keys: nothing but volatile fields differ
            paired = min(i2 - i1, j2 - j1)
            for offset in range(paired):
                self._compare(recorded[i1 + offset], current[j1 + offset], (*path, j1 + offset))
            for i in range(i1 + paired, i2):
                self._removed((*path, i), recorded[i])
            for j in range(j1 + paired, j2):
                self._added((*path, j), current[j])


def _maybe_parse(value: object) -> object:
    if isinstance(value, (bytes, bytearray)):
        try:
            value = bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            return bytes(value)
    if isinstance(value, str):
        try:
            return cast(object, json.loads(value))
        except ValueError:
            return value
    return value


def diff_json(
    recorded: object, current: object, *, volatile: Iterable[str] = ()
) -> tuple[FieldDifference, ...]:
    """Field-level differences between two JSON documents, in document order.

    Either side may be a parsed tree or a JSON text (``str``/``bytes``), which
    is parsed first; a text that is not JSON is compared as a string. Object
    key order is ignored, array order is not; ``1 == 1.0`` but ``1 != true``.
    ``volatile`` holds path patterns (see the module docstring) whose fields
    are ignored. Returns ``()`` when the documents are equivalent.
    """
    return _Differ(VolatileFields(volatile)).run(_maybe_parse(recorded), _maybe_parse(current))


# --- report ------------------------------------------------------------------

_VALUE_WIDTH = 80


def _show(value: object) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=repr)
    except ValueError:  # circular structures
        text = repr(value)
    if len(text) > _VALUE_WIDTH:
        return f"{text[: _VALUE_WIDTH - 1]}… ({len(text)} chars)"
    return text


def _line(diff: FieldDifference) -> str:
    path = diff.path or "(root)"
    if diff.kind is DifferenceKind.ADDED:
        return f"+ {path}: {_show(diff.current)}"
    if diff.kind is DifferenceKind.REMOVED:
        return f"- {path}: {_show(diff.recorded)}"
    line = f"~ {path}: {_show(diff.recorded)} -> {_show(diff.current)}"
    if diff.kind is DifferenceKind.TYPE_CHANGED:
        line += f" ({_kind_of(diff.recorded)} -> {_kind_of(diff.current)})"
    return line


def format_differences(diffs: Sequence[FieldDifference], *, limit: int = 20) -> str:
    """One line per difference: ``~ path: old -> new``, ``+ path: new``, ``- path: old``.

    Values are compact JSON with sorted keys, cut at 80 characters; at most
    ``limit`` lines are shown, followed by a count of the rest. Returns ``""``
    for no differences.
    """
    shown = [_line(d) for d in diffs[: max(limit, 0)]]
    hidden = len(diffs) - len(shown)
    if hidden > 0:
        shown.append(f"… and {hidden} more difference{'s' if hidden != 1 else ''}")
    return "\n".join(shown)
