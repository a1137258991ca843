"""Wire-format snapshots: one pretty, key-sorted JSON file per serialized spec.

The ``wire_snapshot`` fixture is syrupy's ``snapshot`` with tooltape's JSON
extension, so syrupy's idiom is the API::

    def test_search_spec(wire_snapshot):
        assert codec.serialize(tool) == wire_snapshot
        assert adapter.build_request(prompt) == wire_snapshot(name="request")

Each snapshot is ``__snapshots__/<test module>/<test>.json`` (then
``<test>.1.json``..., or ``<test>[request].json`` with a name). A missing or
different file fails the test with the changed fields named
(``~ tools[0].filters.allowed_domains[0]: "a.com" -> "b.com"``);
``pytest --snapshot-update`` writes the files, and syrupy reports files no
test asks for any more. A reviewer reads one small JSON file per change.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from typing import TypeAlias, cast

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.json import JSONSnapshotExtension
from syrupy.types import PropertyFilter, PropertyMatcher, SerializableData, SerializedData

from tooltape.testing.matching import diff_json, format_differences, format_path

__all__ = ["WireSnapshot", "WireSnapshotExtension", "dump_wire_json", "wire_snapshot"]


def _check_tree(value: object, path: tuple[str | int, ...]) -> object:
    """``value`` as plain JSON data (tuples become lists); ``TypeError`` names what is not JSON."""
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise TypeError(
                f"{format_path(path) or 'the value'} is {value}, which JSON cannot hold."
            )
        return value
    if isinstance(value, Mapping):
        items = cast("Mapping[object, object]", value).items()
        tree: dict[str, object] = {}
        for key, item in items:
            if not isinstance(key, str):
                where = format_path(path) or "the value"
                raise TypeError(f"{where} has the non-string key {key!r}.")
            tree[key] = _check_tree(item, (*path, key))
        return tree
    if isinstance(value, (list, tuple)):
        seq = cast("Sequence[object]", value)
        return [_check_tree(item, (*path, index)) for index, item in enumerate(seq)]
    where = format_path(path) or "the value"
    raise TypeError(
        f"{where} is a {type(value).__name__}, not JSON data; snapshot the serialized "
        "wire form (a codec's serialize() or build_request()), not the Python object."
    )


def dump_wire_json(data: object) -> str:
    """The snapshot text of ``data``: 2-space indented JSON, keys sorted, final newline."""
    tree = _check_tree(data, ())
    return json.dumps(tree, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _parse(text: SerializedData) -> object | None:
    try:
        return cast(object, json.loads(text))
    except ValueError:
        return None


class WireSnapshotExtension(JSONSnapshotExtension):
    """syrupy's JSON extension for wire data: strict JSON, sorted keys, field diffs.

    Unlike the JSON extension it refuses values that are not JSON data (instead
    of storing their ``repr``), and a mismatch is explained field by field
    (``~ tools[0].filters.allowed_domains[0]: "a.com" -> "b.com"``) before the
    line diff.
    """

    def serialize(
        self,
        data: SerializableData,
        *,
        exclude: PropertyFilter | None = None,
        include: PropertyFilter | None = None,
        matcher: PropertyMatcher | None = None,
    ) -> str:
        """The snapshot text; ``exclude``/``include``/``matcher`` work as in syrupy."""
        tree = _check_tree(data, ())
        filtered = self._filter(
            data=tree, depth=0, path=(), exclude=exclude, include=include, matcher=matcher
        )
        return dump_wire_json(filtered)

    def diff_lines(
        self, serialized_data: SerializedData, snapshot_data: SerializedData
    ) -> Iterator[str]:
        """The fields that changed (snapshot -> received) and what to run, then syrupy's diff."""
        if not snapshot_data:
            yield "Write it with `pytest --snapshot-update`, then review the new .json file."
        else:
            old, new = _parse(snapshot_data), _parse(serialized_data)
            diffs = diff_json(old, new) if old is not None and new is not None else None
            if diffs:
                yield "Wire fields that changed (snapshot -> received):"
                yield from format_differences(diffs).splitlines()
            yield (
                "If the change is intended, run `pytest --snapshot-update` and review the "
                "changed .json file."
            )
        yield ""
        yield from super().diff_lines(serialized_data, snapshot_data)


WireSnapshot: TypeAlias = SnapshotAssertion
"""What the ``wire_snapshot`` fixture is: a syrupy ``SnapshotAssertion`` (for annotations)."""


@pytest.fixture
def wire_snapshot(snapshot: SnapshotAssertion) -> WireSnapshot:
    """syrupy's ``snapshot`` storing wire JSON: ``assert spec == wire_snapshot``.

    Files are ``__snapshots__/<module>/<test>.json``; ``pytest --snapshot-update``
    writes them.
    """
    return snapshot.use_extension(WireSnapshotExtension)
