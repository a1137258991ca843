"""Which tool kind a recorded call belongs to, when several kinds share a call item type.

``web_search`` and ``web_search_preview`` both answer with ``web_search_call``
items; ``computer`` and ``computer_use_preview`` with ``computer_call``; a
hosted and a local ``shell`` with ``shell_call``; a function and a
namespace member with ``function_call``. The request says which: a kind
claims an answer only when its request declared a tool of the kind's wire
type (a dated alias such as ``web_search_preview_2025_03_11`` counts), run
where the kind runs (``execution: "client"``, a ``local`` environment). A
request that declares no tools list says nothing; its calls then go to the
kind the item type is named after, run by the provider (``web_search``,
not ``web_search_preview``; the hosted ``shell``, not the local one).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, cast

from tooltape.adapters.openai.reading import field

_DATED = re.compile(r"_\d{4}_\d{2}_\d{2}$")
# Kinds that answer with another kind's call items, which they never claim unannounced.
_SHARING = frozenset({"web_search_preview", "computer_use_preview", "namespace"})


def _wire_type(spec: object) -> str:
    kind = field(spec, "type")
    return _DATED.sub("", kind) if isinstance(kind, str) else ""


def _runs_on_client(spec: object) -> bool:
    environment = field(spec, "environment")
    return field(spec, "execution") == "client" or field(environment, "type") == "local"


def same_kind(declared: object, spec: Mapping[str, Any]) -> bool:
    """Whether the recorded tools[] entry ``declared`` is of the kind ``spec`` is of."""
    return _wire_type(declared) == _wire_type(spec) and _runs_on_client(
        declared
    ) == _runs_on_client(spec)


def claims(request_body: Mapping[str, Any] | None, spec: Mapping[str, Any]) -> bool:
    """Whether a request declared a tool of ``spec``'s kind (when it lists none, whether the
    kind is the one its call items are named after)."""
    declared: object = request_body.get("tools") if request_body is not None else None
    if not isinstance(declared, list):
        return _wire_type(spec) not in _SHARING and not _runs_on_client(spec)
    return any(same_kind(entry, spec) for entry in cast("list[object]", declared))
