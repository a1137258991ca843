"""Answer one call item of a client-executed provider tool: pick the tool, run it, reply.

The call item decides which of the prompt's client tools answers it: the
tools whose codec reads that item type (``computer`` and
``computer_use_preview`` both read ``computer_call``), narrowed by the
item's ``name`` when it has one (custom tools). A call the provider ran
itself (``execution: "server"``, a ``shell_call`` in a container, a server
``tool_search_call``), or one the response already answers, is left alone.
A client call no tool of the prompt answers (a custom tool name it does not
have, an ``apply_patch_call`` with no apply_patch tool) runs nothing and is
answered with a failure saying so, as a call of an unknown function is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tooltape.adapters.codec import ClientToolCodec
from tooltape.adapters.openai.reading import field
from tooltape.adapters.openai.request import client_kind
from tooltape.prompt import PromptEvaluationError, RenderedPrompt, Tool
from tooltape.runtime import ToolCall, ToolExecutor


def output_item_type(codec: ClientToolCodec) -> str:
    """The type of the item that answers ``codec``'s calls (``<call type>_output`` by default)."""
    declared: object = getattr(codec, "output_item_type", None)
    return declared if isinstance(declared, str) else f"{codec.call_item_type}_output"


def client_tool_for(
    item: Mapping[str, Any],
    tools: Sequence[Tool[Any, Any]],
    codecs: Mapping[str, ClientToolCodec],
) -> tuple[Tool[Any, Any], ClientToolCodec] | None:
    """The prompt's client tool that answers ``item``, with its codec; ``None`` if none does."""
    if field(item, "execution") == "server":
        return None
    item_type = field(item, "type")
    name = field(item, "name")
    for tool in tools:
        kind = client_kind(tool, codecs)
        if kind is None or codecs[kind].call_item_type != item_type:
            continue
        if isinstance(name, str) and tool.name != name:
            continue
        return tool, codecs[kind]
    return None


def _runs_on_client(item: Mapping[str, Any]) -> bool:
    """Whether the client must answer ``item``, whatever tools the prompt has."""
    item_type = field(item, "type")
    if item_type == "shell_call":  # the hosted shell's calls name a container
        return field(field(item, "environment"), "type") == "local"
    if item_type == "tool_search_call":
        return field(item, "execution") == "client"
    return field(item, "execution") != "server"


def _unoffered(
    item: Mapping[str, Any], codec: ClientToolCodec, rendered: RenderedPrompt[Any]
) -> tuple[str, str]:
    """The name a call no tool of the prompt answers is recorded under, and why it failed."""
    name: object = field(item, "name")
    available = ", ".join(sorted(tool.name for tool in rendered.tools)) or "none"
    if isinstance(name, str) and name:
        what = f"no {codec.kind} tool named {name!r}"
    else:
        name, what = codec.kind, f"no {codec.kind} tool"
    return name, (
        f"{field(item, 'type')} {codec.call_id(item)}: this prompt offers {what}; call one "
        f"of the available tools instead: {available}."
    )


def answer_client_call(
    item: Mapping[str, Any],
    items: Sequence[object],
    rendered: RenderedPrompt[Any],
    executor: ToolExecutor,
    codecs: Mapping[str, ClientToolCodec],
    tool_specs: Sequence[dict[str, Any]],
) -> dict[str, Any] | None:
    """Run the client tool ``item`` calls and return its answer item (``None``: nothing to do).

    ``tool_specs`` is the request's ``tools`` array, for codecs whose answer
    carries tool definitions (a client-executed tool search).
    """
    found = client_tool_for(item, rendered.tools, codecs)
    readers = (c for c in codecs.values() if c.call_item_type == field(item, "type"))
    tool, codec = found if found is not None else (None, next(readers, None))
    if codec is None or (tool is None and not _runs_on_client(item)):
        return None
    call_id = codec.call_id(item)
    answer_type = output_item_type(codec)
    if any(
        field(other, "type") == answer_type and field(other, "call_id") == call_id
        for other in items
    ):
        return None
    if tool is None:
        name, why = _unoffered(item, codec, rendered)
        call = ToolCall(name, codec.call_arguments(item), call_id)
        result = executor.refuse(call, why, source="native", kind=codec.kind)
    else:
        call = ToolCall(tool.name, codec.call_arguments(item), call_id)
        result = executor.execute(call, source="native", kind=codec.kind)
    try:
        answer = codec.output_item(item, result)
    except PromptEvaluationError as exc:
        # A call whose answer cannot carry a failure (a computer call) ends the evaluation.
        raise PromptEvaluationError(
            exc.message, prompt_name=rendered.prompt_name, phase=exc.phase
        ) from exc
    load: object = getattr(codec, "load_tools", None)
    if callable(load):
        load(answer, result, tool_specs)
    return answer
