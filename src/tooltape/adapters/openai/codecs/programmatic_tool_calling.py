"""OpenAI wire format of ``programmatic_tool_calling``: ``program`` / ``program_output`` items,
and the tool calls whose ``caller`` names a program."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tooltape.adapters.codec import HostedCall
from tooltape.adapters.openai.codecs.calls import hosted_call
from tooltape.adapters.openai.codecs.failures import INCOMPLETE, call_failure
from tooltape.adapters.openai.codecs.items import field, item_type, of_types, text
from tooltape.prompt import HostedTool
from tooltape.tools.programmatic_tool_calling import (
    ProgrammaticToolCallingConfig,
    ProgrammaticToolCallingResult,
    ProgramRun,
    ProgramToolCall,
)

_PROGRAM = "program"
_OUTPUT = "program_output"
# The call items that carry a caller; shell and apply_patch calls have no name, so a
# program's call of them is listed under the provider tool's type.
_TOOL_CALLS = ("function_call", "custom_tool_call", "shell_call", "apply_patch_call")
_UNNAMED = {"shell_call": "shell", "apply_patch_call": "apply_patch"}


def _calls_by(items: Sequence[Any], program_id: str) -> tuple[ProgramToolCall, ...]:
    made: list[ProgramToolCall] = []
    for item in of_types(items, _TOOL_CALLS):
        caller = field(item, "caller")
        if item_type(caller) == "program" and text(caller, "caller_id") == program_id:
            made.append(
                ProgramToolCall(
                    name=text(item, "name") or _UNNAMED.get(item_type(item) or "", ""),
                    call_id=text(item, "call_id") or "",
                    namespace=text(item, "namespace"),
                )
            )
    return tuple(made)


def _run(item: object, items: Sequence[Any], outputs: dict[str | None, object]) -> ProgramRun:
    call_id = text(item, "call_id") or ""
    answer = outputs.get(call_id)
    return ProgramRun(
        call_id=call_id,
        code=text(item, "code") or "",
        fingerprint=text(item, "fingerprint") or "",
        calls=_calls_by(items, call_id),
        status=text(answer, "status") if answer is not None else None,
        result=text(answer, "result") if answer is not None else None,
    )


class ProgrammaticToolCallingCodec:
    """``programmatic_tool_calling`` for the OpenAI Responses API.

    Each ``program`` item is a call; its ``program_output`` (paired by
    ``call_id``, when the same response holds it) gives its status and
    result, and a program whose output is ``incomplete`` failed. The tool
    calls a program makes are answered by the client like any other and
    listed on its ``ProgramRun``.
    """

    @property
    def kind(self) -> str:
        return "programmatic_tool_calling"

    @property
    def item_types(self) -> tuple[str, ...]:
        return (_PROGRAM,)

    def serialize(self, tool: HostedTool[ProgrammaticToolCallingConfig]) -> dict[str, Any]:
        return {"type": "programmatic_tool_calling"}

    def includes(self, tool: HostedTool[ProgrammaticToolCallingConfig]) -> tuple[str, ...]:
        return ()

    def tool_choice(self, tool: HostedTool[ProgrammaticToolCallingConfig]) -> dict[str, Any]:
        return {"type": "programmatic_tool_calling"}

    def _outputs(self, items: Sequence[Any]) -> dict[str | None, object]:
        return {text(o, "call_id"): o for o in of_types(items, (_OUTPUT,))}

    def parse_calls(
        self,
        response_items: Sequence[Any],
        tool: HostedTool[ProgrammaticToolCallingConfig] | None,
    ) -> tuple[HostedCall, ...]:
        outputs = self._outputs(response_items)
        calls: list[HostedCall] = []
        for item in of_types(response_items, (_PROGRAM,)):
            run = _run(item, response_items, outputs)
            error = call_failure(item, f"running program {run.call_id}")
            if error is None and run.status == INCOMPLETE:
                error = (
                    f"program {text(item, 'id')} ({run.call_id}) ended incomplete: "
                    f"{run.result or 'no result'}"
                )
            output = ProgrammaticToolCallingResult(programs=(run,))
            calls.append(hosted_call(self.kind, item, params=run, output=output, error=error))
        return tuple(calls)

    def parse_output(
        self,
        response_items: Sequence[Any],
        tool: HostedTool[ProgrammaticToolCallingConfig],
    ) -> ProgrammaticToolCallingResult | None:
        programs = of_types(response_items, (_PROGRAM,))
        if not programs:
            return None
        outputs = self._outputs(response_items)
        return ProgrammaticToolCallingResult(
            programs=tuple(_run(item, response_items, outputs) for item in programs)
        )
