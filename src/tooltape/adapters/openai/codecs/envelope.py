"""The envelope of a Responses API output item, and the rule for reading any response body.

A provider (or a hand-edited cassette) can send anything. Every reader of
``output`` items follows one rule, so that no body, however malformed, raises
anything but ``PromptEvaluationError``:

1. **The envelope must be well formed.** It is what identifies an item and
   routes it (and the Response's own ``id``, when present, is a string):
   the item is a JSON object; its ``type`` is a string; ``id``,
   ``call_id``, ``name`` and ``server_label``, where present (and not
   ``null``), are strings; a call the client must answer (``function_call``,
   ``custom_tool_call``) has its ``call_id`` and ``name``, and no other such
   call of the response has the same ``call_id``. An item that breaks
   this cannot be attributed to a call, so the response is unparsable:
   ``OpenAIAdapter.evaluate`` raises ``PromptEvaluationError(phase="parse")``
   naming ``output[<index>].<field>``, and ``tooltape inspect`` prints the same
   line for that item and reads the others.
2. **Everything else is content, read tolerantly** (``codecs.items``): a
   missing or mistyped value reads as absent (``None``, empty), unknown fields
   and unknown item types are ignored, and an item routed to no tool of the
   prompt (an MCP ``server_label`` no tool carries) is left alone. Strings are
   kept exactly as sent, lone UTF-16 surrogates included; whatever renders them
   as JSON writes those as ``\\uXXXX`` escapes.
3. **A payload that must decode and does not** (base64 image data) is a parse
   error naming the item and the field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tooltape.adapters.openai.codecs.items import field

_IDENTITY = ("id", "call_id", "name", "server_label")
_ANSWERED = {
    "function_call": ("call_id", "name"),
    "custom_tool_call": ("call_id", "name"),
}


@dataclass(frozen=True, slots=True)
class MalformedItem:
    """An output item whose envelope is broken: where (``output[index].field``) and how."""

    index: int
    field: str | None
    problem: str

    @property
    def where(self) -> str:
        """``output[3].type``, or ``output[3]`` when the item itself is not an object."""
        return f"output[{self.index}]" + (f".{self.field}" if self.field else "")

    def __str__(self) -> str:
        return f"{self.where}: {self.problem}"


def describe_value(value: object) -> str:
    """What a JSON value is, in a few words: ``a list``, ``true``, ``an object``..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    return f"a {type(value).__name__}"


def _is_object(item: object) -> bool:
    # SDK items are pydantic models: objects whose fields read as attributes.
    return isinstance(item, Mapping) or callable(getattr(item, "model_dump", None))


def envelope_problem(index: int, item: object) -> MalformedItem | None:
    """What is wrong with the envelope of ``item`` (at ``output[index]``), or ``None``."""
    if not _is_object(item):
        return MalformedItem(index, None, f"{describe_value(item)}, not an object")
    item_type = field(item, "type")
    if not isinstance(item_type, str) or not item_type:
        problem = (
            "missing" if item_type is None else f"{describe_value(item_type)}, not a type name"
        )
        return MalformedItem(index, "type", problem)
    for key in _IDENTITY:
        value = field(item, key)
        if value is not None and not isinstance(value, str):
            return MalformedItem(index, key, f"{describe_value(value)}, not a string")
    for key in _ANSWERED.get(item_type, ()):
        if field(item, key) is None:
            return MalformedItem(
                index, key, f"missing; a {item_type} cannot be answered without it"
            )
    return None


def malformed_items(items: Sequence[object]) -> tuple[MalformedItem, ...]:
    """Every item of ``items`` (a response's ``output``) whose envelope is broken, in order.

    A call the client answers whose ``call_id`` an earlier such call already has
    is broken too: an answer names its call by ``call_id`` alone.
    """
    problems: list[MalformedItem] = []
    answered: dict[str, int] = {}
    for index, item in enumerate(items):
        problem = envelope_problem(index, item)
        if problem is None and field(item, "type") in _ANSWERED:
            call_id = field(item, "call_id")
            if isinstance(call_id, str):
                first = answered.setdefault(call_id, index)
                if first != index:
                    problem = MalformedItem(
                        index,
                        "call_id",
                        f"{call_id!r} is also the call_id of output[{first}]; "
                        "each call needs its own to be answered",
                    )
        if problem is not None:
            problems.append(problem)
    return tuple(problems)
