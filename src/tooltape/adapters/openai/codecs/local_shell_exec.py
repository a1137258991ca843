"""OpenAI wire format of the legacy ``local_shell`` tool (``local_shell_exec_tool``).

(The module is not named after the kind: ``local_shell.py`` holds the codec
of the newer ``shell`` tool answered locally.)
"""

from __future__ import annotations

import json
from typing import Any

from tooltape.adapters.openai.codecs.items import field, integer, mapping, strings, text
from tooltape.prompt import Tool, ToolResult
from tooltape.tools.shell import ShellOutput


class LocalShellExecCodec:
    """``{"type": "local_shell"}``: ``local_shell_call`` in, ``local_shell_call_output`` out.

    The call's ``exec`` action becomes the tool's ``LocalShellExec``
    arguments. The answer's ``output`` is a JSON string, as the API asks:
    ``{"stdout", "stderr", "exit_code", "timed_out"}`` for a command that ran,
    ``{"error": message}`` for a call that failed. It carries the call's id
    both as ``call_id`` (what the OpenAPI document requires and what clients
    send) and as ``id`` (what the SDK's input type requires).
    """

    @property
    def kind(self) -> str:
        return "local_shell"

    @property
    def call_item_type(self) -> str:
        return "local_shell_call"

    @property
    def item_types(self) -> tuple[str, ...]:
        """The call item types this codec answers."""
        return (self.call_item_type,)

    def serialize(self, tool: Tool[Any, Any]) -> dict[str, Any]:
        return {"type": "local_shell"}

    def tool_choice(self, tool: Tool[Any, Any]) -> dict[str, Any]:
        """The ``tool_choice`` that forces the local shell (it has no hosted choice type)."""
        return {"type": "allowed_tools", "mode": "required", "tools": [{"type": "local_shell"}]}

    def call_arguments(self, item: Any) -> dict[str, Any]:
        action = field(item, "action")
        arguments: dict[str, Any] = {"command": list(strings(action, "command"))}
        env = {k: v for k, v in mapping(field(action, "env")).items() if isinstance(v, str)}
        if env:
            arguments["env"] = env
        timeout = integer(action, "timeout_ms")
        if timeout is not None:
            arguments["timeout_ms"] = timeout
        for key in ("working_directory", "user"):
            value = text(action, key)
            if value is not None:
                arguments[key] = value
        return arguments

    def call_id(self, item: Any) -> str:
        return text(item, "call_id") or ""

    def output_item(self, item: Any, result: ToolResult[Any]) -> dict[str, Any]:
        value = result.value
        if result.success and isinstance(value, ShellOutput):
            report: dict[str, Any] = {
                "stdout": value.stdout,
                "stderr": value.stderr,
                "exit_code": value.exit_code,
                "timed_out": value.timed_out,
            }
        else:
            report = {"error": result.message}
        call_id = self.call_id(item)
        return {
            "type": "local_shell_call_output",
            "id": call_id,
            "call_id": call_id,
            "output": json.dumps(report, ensure_ascii=False),
            "status": "completed" if result.success else "incomplete",
        }
