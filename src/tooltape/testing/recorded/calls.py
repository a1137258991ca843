"""Every call a recorded response holds, named, with its arguments and outcome.

Provider-executed calls are read by the codec of their kind; calls the client
runs (``function_call``, ``custom_tool_call`` and the items of the client tool
codecs, such as ``apply_patch_call``) are read from the item, and their answer
is looked up in the later requests of the cassette. Items whose envelope is
broken, and items a codec cannot read (a corrupt base64 payload), are not
read: each becomes an :class:`UnreadItem` saying where and why, and the other
items are read as usual (the rule is in
:mod:`tooltape.adapters.openai.codecs.envelope`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from tooltape.adapters.codec import ClientToolCodec, HostedCall, HostedToolCodec
from tooltape.adapters.openai.codecs.envelope import malformed_items
from tooltape.adapters.openai.codecs.items import field, item_type, json_object, mapping, text
from tooltape.prompt import PromptEvaluationError
from tooltape.testing.recorded.answers import RecordedAnswer
from tooltape.tools.mcp import McpInvocation
from tooltape.tools.rendering import output_json

# Call items the client answers although no codec owns them, and the kind each is.
_LOCAL_ITEMS = {"function_call": "function", "custom_tool_call": "custom"}
# Fields of a hosted call's params that hold what the call found, not what it asked for.
_FOUND_FIELDS = frozenset({"sources"})

Arguments = Mapping[str, object] | str | None


@dataclass(frozen=True, slots=True)
class UnreadItem:
    """An output item that was not read (``index`` is ``None`` for a whole hosted output)."""

    index: int | None
    message: str


@dataclass(frozen=True, slots=True)
class ClientAnswer:
    """What the client sent back for a call it ran: the ``*_output`` input item's ``output``.

    ``interaction`` is the index of the request that carried it.
    """

    call_id: str
    interaction: int
    output: object
    status: str | None


@dataclass(frozen=True, slots=True)
class InspectedCall:
    """One call item of a response, as ``tooltape inspect`` shows it.

    ``name`` and ``arguments`` are what the call was asked to do: a function,
    custom or MCP tool's name and its arguments (decoded when they are a JSON
    object, the raw text otherwise); for other hosted kinds ``name`` is
    ``None`` and ``arguments`` the codec's typed params (the query, the code,
    the commands). ``message`` is the ``ToolResult`` message: the provider's
    error code and text for a failed hosted call, or the output the client sent
    back for a call it ran (``""`` when the cassette holds no answer).
    ``output`` is a hosted call's typed output (``None`` when it failed);
    ``answer`` the client's answer to a call it ran.
    """

    index: int
    kind: str
    item_type: str
    id: str
    name: str | None
    arguments: Arguments
    server_label: str | None
    status: str | None
    success: bool
    message: str
    output: object = None
    runs_on_client: bool = False
    answer: ClientAnswer | None = None

    def to_json(self) -> dict[str, Any]:
        """The ``calls[]`` entry of ``inspect --json``."""
        if self.runs_on_client:
            answer = self.answer
            output: object = {
                "call_id": answer.call_id if answer else None,
                "answered_in": answer.interaction if answer else None,
                "output": answer.output if answer else None,
            }
        else:
            output = output_json(self.output) if self.output is not None else {}
        arguments = self.arguments
        return {
            "kind": self.kind,
            "item_type": self.item_type,
            "id": self.id,
            "name": self.name,
            "arguments": dict(arguments) if isinstance(arguments, Mapping) else arguments,
            "server_label": self.server_label,
            "status": self.status,
            "success": self.success,
            "message": self.message,
            "output": output,
        }


@dataclass(frozen=True, slots=True)
class ResponseCalls:
    """The calls of one response in response order, what was not read, and the items read.

    ``readable_items`` is the response's ``output`` with every unread item
    replaced by ``None``, so positions still match.
    """

    calls: tuple[InspectedCall, ...]
    unread: tuple[UnreadItem, ...]
    readable_items: tuple[object, ...]


def decoded_arguments(raw: object) -> Arguments:
    """Call arguments as sent: a JSON object text decoded, any other text kept raw."""
    if isinstance(raw, Mapping):
        return mapping(cast("Mapping[str, object]", raw))
    if not isinstance(raw, str):
        return None
    decoded = json_object(raw)
    return decoded if decoded or raw.strip() == "{}" else raw


def _params_arguments(params: object) -> Arguments:
    data = output_json(params)
    if not isinstance(data, dict):
        return None
    entries = cast("dict[str, object]", data).items()
    return {
        key: value
        for key, value in entries
        if key not in _FOUND_FIELDS and value not in (None, "", [], {})
    }


def _hosted(call: HostedCall, index: int, item: object) -> InspectedCall:
    params = call.params
    if isinstance(params, McpInvocation):
        name: str | None = params.name
        label: str | None = params.server_label
        arguments = decoded_arguments(field(item, "arguments")) if params.name else None
    else:
        name, label = text(item, "name"), text(item, "server_label")
        arguments = _params_arguments(params) if params is not None else None
    return InspectedCall(
        index=index,
        kind=call.kind,
        item_type=call.item_type,
        id=call.id,
        name=name,
        arguments=arguments,
        server_label=label,
        status=call.status,
        success=call.success,
        message=call.to_result().message,
        output=call.output,
    )


def _isolated(items: Sequence[object], index: int, types: tuple[str, ...]) -> list[object]:
    # The item alone among its kind's items; other items (paired outputs) stay in place.
    return [
        other if position == index or item_type(other) not in types else None
        for position, other in enumerate(items)
    ]


def _parse_hosted(
    codec: HostedToolCodec[Any, Any], items: Sequence[object]
) -> tuple[list[tuple[HostedCall, Sequence[object]]], list[UnreadItem]]:
    """The codec's calls, and the items it could not read (each tried alone once one fails)."""
    try:
        return [(call, items) for call in codec.parse_calls(items, None)], []
    except PromptEvaluationError:
        pass
    calls: list[tuple[HostedCall, Sequence[object]]] = []
    unread: list[UnreadItem] = []
    for index, item in enumerate(items):
        if item_type(item) not in codec.item_types:
            continue
        alone = _isolated(items, index, codec.item_types)
        try:
            calls.extend((call, alone) for call in codec.parse_calls(alone, None))
        except PromptEvaluationError as error:
            unread.append(UnreadItem(index, error.message))
    return calls, unread


def _position(call: HostedCall, items: Sequence[object], taken: set[int]) -> int:
    for index, item in enumerate(items):
        if index in taken or item_type(item) != call.item_type:
            continue
        if (text(item, "id") or "") == call.id:
            return index
    return len(items)


def _claimed(call: HostedCall, items: Sequence[object], taken: set[int]) -> bool:
    """Whether the item ``call`` was read from is already another kind's call."""
    return any(
        index in taken and item_type(item) == call.item_type and (text(item, "id") or "") == call.id
        for index, item in enumerate(items)
    )


def _by_preference(
    codecs: Mapping[str, HostedToolCodec[Any, Any]], answer: RecordedAnswer
) -> list[HostedToolCodec[Any, Any]]:
    """The codecs, those of the kinds the request sent first.

    A kind whose name is a sent type comes first, then one a sent type
    starts with (dated aliases such as ``web_search_preview_2025_03_11``,
    the longest first), then the rest in registry order.
    """
    tools: object = answer.request_body.get("tools") if answer.request_body else None
    sent = (
        {text(t, "type") or "" for t in cast("list[object]", tools)}
        if isinstance(tools, list)
        else set[str]()
    )

    def rank(codec: HostedToolCodec[Any, Any]) -> tuple[int, int]:
        if codec.kind in sent:
            return (0, 0)
        if any(t.startswith(f"{codec.kind}_") for t in sent):
            return (1, -len(codec.kind))
        return (2, 0)

    return sorted(codecs.values(), key=rank)


def client_answers(answers: Sequence[RecordedAnswer]) -> dict[str, tuple[ClientAnswer, ...]]:
    """Every ``*_output`` item the requests of a cassette sent, by ``call_id``, in order."""
    found: dict[str, list[ClientAnswer]] = {}
    for answer in answers:
        sent: object = answer.request_body.get("input") if answer.request_body else None
        if not isinstance(sent, list):
            continue
        for item in cast("list[object]", sent):
            call_id, kind = text(item, "call_id"), item_type(item)
            if call_id and kind and kind.endswith("_output"):
                found.setdefault(call_id, []).append(
                    ClientAnswer(call_id, answer.index, field(item, "output"), text(item, "status"))
                )
    return {call_id: tuple(sent) for call_id, sent in found.items()}


def _answer_text(answer: ClientAnswer | None) -> str:
    if answer is None:
        return ""
    if isinstance(answer.output, str):
        return answer.output
    return json.dumps(answer.output, ensure_ascii=False)


def _client(
    index: int,
    item: object,
    kind: str,
    arguments: Arguments,
    answer: ClientAnswer | None,
) -> InspectedCall:
    status = text(item, "status")
    failed = "failed" in (status, answer.status if answer else None)
    return InspectedCall(
        index=index,
        kind=kind,
        item_type=item_type(item) or "",
        id=text(item, "id") or text(item, "call_id") or "",
        name=text(item, "name"),
        arguments=arguments,
        server_label=None,
        status=status,
        success=not failed,
        message=_answer_text(answer),
        runs_on_client=True,
        answer=answer,
    )


def response_calls(
    answer: RecordedAnswer,
    codecs: Mapping[str, HostedToolCodec[Any, Any]],
    client_codecs: Mapping[str, ClientToolCodec],
    answers: Mapping[str, Sequence[ClientAnswer]],
) -> ResponseCalls:
    """Every call of ``answer``'s response, in response order, and the items not read."""
    items = answer.items
    unread = [UnreadItem(p.index, str(p)) for p in malformed_items(items)]
    broken = {u.index for u in unread}
    readable: list[object] = [None if i in broken else item for i, item in enumerate(items)]
    calls: list[InspectedCall] = []
    taken: set[int] = set()
    for codec in _by_preference(codecs, answer):
        parsed, failed = _parse_hosted(codec, readable)
        unread.extend(failed)
        for call, source in parsed:
            if _claimed(call, source, taken):
                continue  # another kind reads the same item (web_search and its preview)
            index = _position(call, source, taken)
            taken.add(index)
            item = source[index] if index < len(source) else None
            calls.append(_hosted(call, index, item))
    for entry in unread:
        if entry.index is not None:
            readable[entry.index] = None
    by_item_type = {codec.call_item_type: codec for codec in client_codecs.values()}
    for index, item in enumerate(readable):
        kind = item_type(item)
        if index in taken or kind is None:
            continue
        # function and custom tool calls carry their arguments as such (a custom tool's
        # text is shown as it is, even though a codec reads it too)
        if kind in _LOCAL_ITEMS:
            raw = field(item, "input") if kind == "custom_tool_call" else field(item, "arguments")
            arguments: Arguments = decoded_arguments(raw)
            kind_name = _LOCAL_ITEMS[kind]
        elif kind in by_item_type:
            codec = by_item_type[kind]
            arguments = codec.call_arguments(cast("Mapping[str, Any]", item))
            kind_name = codec.kind
        else:
            continue
        sent = answers.get(text(item, "call_id") or "", ())
        # The answer is the first one sent after the call, in a later request.
        reply = next((a for a in sent if a.interaction > answer.index), None)
        calls.append(_client(index, item, kind_name, arguments, reply))
    calls.sort(key=lambda call: call.index)
    unread.sort(key=lambda entry: -1 if entry.index is None else entry.index)
    return ResponseCalls(tuple(calls), tuple(unread), tuple(readable))
