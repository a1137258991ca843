"""One round of the tool loop: what a response asked for, and the answers it gets.

Provider-executed calls are recorded (a ``ToolInvoked`` each, through the
hooks); function calls and client-executed provider calls run through the
executor and are answered with ``*_output`` items (a function call naming a
provider tool, such as apply_patch, runs nothing and is answered with a
failure saying how that tool is called); approval requests are
decided by the hosted MCP tool's approver. A round with no answer ends the
loop.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from tooltape.adapters.codec import ClientToolCodec, HostedToolCodec
from tooltape.adapters.openai.approvals import answer_approvals, pending_approvals
from tooltape.adapters.openai.client_calls import answer_client_call
from tooltape.adapters.openai.function_options import echoed_call_context
from tooltape.adapters.openai.reading import as_dict
from tooltape.adapters.openai.reading import field as item_field
from tooltape.adapters.openai.request import client_kind
from tooltape.adapters.openai.strict_schema import drop_null_optionals
from tooltape.prompt import RenderedPrompt, ToolResult
from tooltape.prompt.json_text import escape_surrogates
from tooltape.runtime import ToolCall, ToolExecutor
from tooltape.runtime.answers import answer_text


def _server_label(params: object) -> str | None:
    label: object = getattr(params, "server_label", None)
    return label if isinstance(label, str) else None


@dataclass(slots=True)
class ToolLoop:
    """Answers the calls of each response of one evaluation."""

    rendered: RenderedPrompt[Any]
    executor: ToolExecutor
    hosted_codecs: Mapping[str, HostedToolCodec[Any, Any]]
    client_codecs: Mapping[str, ClientToolCodec]
    tool_specs: Sequence[dict[str, Any]] = ()
    recorded_ids: set[tuple[str, str]] = field(default_factory=lambda: set[tuple[str, str]]())

    def answer(self, items: Sequence[object]) -> list[dict[str, Any]]:
        """Record, run and decide what ``items`` ask for; the input items that answer them."""
        # Checked first: an approval nobody can give fails before any tool runs.
        approvals = pending_approvals(self.rendered, items)
        self._record_hosted_calls(items)
        answers = self._run_local_calls(items)
        answers.extend(answer_approvals(approvals, self.executor))
        return answers

    def _record_hosted_calls(self, items: Sequence[object]) -> None:
        for hosted in self.rendered.hosted_tools:
            codec = self.hosted_codecs[hosted.kind]
            for call in codec.parse_calls(items, hosted):
                # An item seen again (same kind, same id) is one call; items without an
                # id cannot be told apart, so each is a call of its own.
                if call.id:
                    if (call.kind, call.id) in self.recorded_ids:
                        continue
                    self.recorded_ids.add((call.kind, call.id))
                self.executor.record_provider_call(
                    name=hosted.name,
                    call_id=call.id,
                    params=call.params,
                    result=call.to_result(),
                    kind=hosted.kind,
                    server_name=_server_label(call.params),
                )

    def _run_local_calls(self, items: Sequence[object]) -> list[dict[str, Any]]:
        answers: list[dict[str, Any]] = []
        by_item_type = {c.call_item_type: c for c in self.client_codecs.values()}
        for item in items:
            item_type = item_field(item, "type")
            if item_type == "function_call":
                name = str(item_field(item, "name", ""))
                call_id = str(item_field(item, "call_id", ""))
                arguments = self._function_arguments(name, item_field(item, "arguments", ""))
                result = self._run_function(ToolCall(name, arguments, call_id))
                answers.append(
                    {
                        "type": "function_call_output",
                        "call_id": call_id,
                        "output": answer_text(result, self.executor.invocations, name),
                        # a program's caller and the namespace go back with the output
                        **echoed_call_context(item),
                    }
                )
            elif item_type in by_item_type:
                answer = self._run_client_call(item, items, by_item_type[item_type])
                if answer is not None:
                    answers.append(answer)
        return answers

    def _run_function(self, call: ToolCall) -> ToolResult[Any]:
        tool = self.rendered.tool(call.name)
        kind = client_kind(tool, self.client_codecs) if tool is not None else None
        if kind is None:
            return self.executor.execute(call)
        # Offered as a provider tool, not a function: its handler takes that tool's calls only.
        functions = sorted(
            t.name for t in self.rendered.tools if client_kind(t, self.client_codecs) is None
        )
        return self.executor.refuse(
            call,
            f"{call.name!r} is not a function tool of this prompt but its {kind} tool, which "
            f"takes {self.client_codecs[kind].call_item_type} calls only; call it that way, or "
            f"one of the function tools: {', '.join(functions) or 'none'}.",
        )

    def _run_client_call(
        self, item: object, items: Sequence[object], codec: ClientToolCodec
    ) -> dict[str, Any] | None:
        # client_calls picks the tool by the item (two kinds may read one item type, a custom
        # tool by its name) and skips provider-run and answered calls.
        return answer_client_call(
            as_dict(item),
            items,
            self.rendered,
            self.executor,
            self.client_codecs,
            self.tool_specs,
        )

    def _function_arguments(self, name: str, arguments: object) -> str | dict[str, Any]:
        tool = self.rendered.tool(name)
        # A lone surrogate is valid JSON but not UTF-8: keep it as the escape it came as.
        text = escape_surrogates(arguments if isinstance(arguments, str) else json.dumps(arguments))
        if tool is None or tool.params_type is None or not tool.strict:
            return text
        try:
            parsed: object = json.loads(text)
        except (ValueError, RecursionError):
            # Not JSON, nested past Python's limit, or a number Python will not convert:
            # the executor's parser refuses the text too, and the call fails saying why.
            return text
        if not isinstance(parsed, dict):
            return text
        try:
            return drop_null_optionals(cast("dict[str, Any]", parsed), tool.parameters_schema())
        except RecursionError:
            # Nested deeper than the cleaning can follow (a recursive schema): the
            # arguments go to validation as sent, which says what does not fit.
            return text
