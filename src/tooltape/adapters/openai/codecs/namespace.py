"""OpenAI wire format of a namespace: one entry holding its tools; calls are ``function_call``
(or ``custom_tool_call``) items that carry the namespace."""

from __future__ import annotations

from typing import Any

from tooltape.adapters.openai.codecs.custom import CustomCodec
from tooltape.adapters.openai.codecs.function import FunctionCodec
from tooltape.adapters.openai.function_options import (
    echoed_call_context,
    namespace_entry,
    option_fields,
)
from tooltape.adapters.openai.request import function_spec
from tooltape.prompt import PromptEvaluationError, Tool, ToolResult
from tooltape.tools.function_options import options_of


class NamespaceCodec(FunctionCodec):
    """A namespaced tool on the wire, and the function calls made to it.

    ``serialize(tool)`` is the ``namespace`` entry with ``tool`` as its one
    member (the request builder gathers every member of a namespace into one
    entry). A call is a ``function_call`` whose ``namespace`` names it; its
    arguments are the call's JSON object and its answer a
    ``function_call_output`` that repeats the namespace (and a program's
    caller). The adapter runs these calls as function calls.
    """

    @property
    def kind(self) -> str:
        return "namespace"

    @property
    def item_types(self) -> tuple[str, ...]:
        """The call item types this codec reads."""
        return (self.call_item_type,)

    def serialize(self, tool: Tool[Any, Any]) -> dict[str, Any]:
        options = options_of(tool)
        if options.namespace is None:
            raise PromptEvaluationError(
                f"Tool {tool.name!r} is in no namespace; put it in one with namespace_tools(...) "
                "or a NamespaceSection.",
                prompt_name="<unknown prompt>",
                phase="render",
            )
        if getattr(tool, "kind", None) == "custom":
            member = CustomCodec().serialize(tool)
        else:
            member = {**function_spec(tool), **option_fields(options)}
        return namespace_entry(options, [member])

    def output_item(self, item: Any, result: ToolResult[Any]) -> dict[str, Any]:
        return {**super().output_item(item, result), **echoed_call_context(item)}
