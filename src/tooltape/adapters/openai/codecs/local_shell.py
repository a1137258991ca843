"""OpenAI wire format of the ``shell`` tool answered on this machine (``local_shell_tool``)."""

from __future__ import annotations

from typing import Any

from tooltape.adapters.openai.callers import allowed_callers_field, echoed_caller
from tooltape.adapters.openai.codecs.containers import local_skills_wire
from tooltape.adapters.openai.codecs.items import field, integer, text
from tooltape.adapters.openai.codecs.shell import shell_call
from tooltape.prompt import Tool, ToolResult
from tooltape.tools.shell import LocalShellConfig, ShellOutput, ShellResult


def _chunk(output: ShellOutput) -> dict[str, Any]:
    outcome: dict[str, Any] = (
        {"type": "timeout"}
        if output.timed_out or output.exit_code is None
        else {"type": "exit", "exit_code": output.exit_code}
    )
    return {"stdout": output.stdout, "stderr": output.stderr, "outcome": outcome}


class LocalShellCodec:
    """``{"type": "shell", "environment": {"type": "local"}}``: the client runs the commands.

    The model's ``shell_call`` becomes the tool's ``ShellCall`` arguments;
    the result goes back as a ``shell_call_output`` with one chunk per
    command. A failed result (no value) is reported as one chunk whose
    stderr is the failure message and whose exit code is 1, so the model
    reads why nothing ran. A program's call gets its ``caller`` back.
    """

    @property
    def kind(self) -> str:
        return "shell"

    @property
    def call_item_type(self) -> str:
        return "shell_call"

    @property
    def item_types(self) -> tuple[str, ...]:
        """The call item types this codec answers."""
        return (self.call_item_type,)

    def serialize(self, tool: Tool[Any, Any]) -> dict[str, Any]:
        environment: dict[str, Any] = {"type": "local"}
        config: object = getattr(tool, "config", None)
        if not isinstance(config, LocalShellConfig):
            return {"type": "shell", "environment": environment}
        if config.skills:
            environment["skills"] = local_skills_wire(config.skills)
        return {
            "type": "shell",
            "environment": environment,
            **allowed_callers_field(config.allowed_callers),
        }

    def tool_choice(self, tool: Tool[Any, Any]) -> dict[str, Any]:
        """The ``tool_choice`` that forces the shell."""
        return {"type": "shell"}

    def call_arguments(self, item: Any) -> dict[str, Any]:
        call = shell_call(item)
        arguments: dict[str, Any] = {"commands": list(call.commands)}
        if call.timeout_ms is not None:
            arguments["timeout_ms"] = call.timeout_ms
        if call.max_output_length is not None:
            arguments["max_output_length"] = call.max_output_length
        return arguments

    def call_id(self, item: Any) -> str:
        return text(item, "call_id") or ""

    def output_item(self, item: Any, result: ToolResult[Any]) -> dict[str, Any]:
        value = result.value
        if result.success and isinstance(value, ShellResult):
            chunks = [_chunk(output) for output in value.outputs]
        else:
            chunks = [_chunk(ShellOutput(stderr=result.message, exit_code=1))]
        answer: dict[str, Any] = {
            "type": "shell_call_output",
            "call_id": self.call_id(item),
            "status": "completed",
            "output": chunks,
            **echoed_caller(item),
        }
        limit = integer(field(item, "action"), "max_output_length")
        if limit is not None:
            answer["max_output_length"] = limit
        return answer
