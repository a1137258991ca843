"""OpenAI wire format of ``apply_patch``: the client edits files and reports back."""

from __future__ import annotations

from typing import Any

from tooltape.adapters.openai.callers import allowed_callers_field, echoed_caller
from tooltape.adapters.openai.codecs.items import field, text
from tooltape.prompt import Tool, ToolResult
from tooltape.tools.apply_patch import ApplyPatchConfig


class ApplyPatchCodec:
    """``{"type": "apply_patch"}``: ``apply_patch_call`` in, ``apply_patch_call_output`` out.

    The call's ``operation`` (type, path, diff) becomes the tool's
    ``ApplyPatchCall`` arguments; the result's model output goes back as the
    output text, with status ``completed`` or ``failed``, and the call's
    ``caller`` when a program made it.
    """

    @property
    def kind(self) -> str:
        return "apply_patch"

    @property
    def call_item_type(self) -> str:
        return "apply_patch_call"

    @property
    def item_types(self) -> tuple[str, ...]:
        """The call item types this codec answers."""
        return (self.call_item_type,)

    def serialize(self, tool: Tool[Any, Any]) -> dict[str, Any]:
        config: object = getattr(tool, "config", None)
        callers = config.allowed_callers if isinstance(config, ApplyPatchConfig) else None
        return {"type": "apply_patch", **allowed_callers_field(callers)}

    def tool_choice(self, tool: Tool[Any, Any]) -> dict[str, Any]:
        """The ``tool_choice`` that forces apply_patch."""
        return {"type": "apply_patch"}

    def call_arguments(self, item: Any) -> dict[str, Any]:
        operation = field(item, "operation")
        arguments: dict[str, Any] = {
            "type": text(operation, "type") or "",
            "path": text(operation, "path") or "",
        }
        diff = text(operation, "diff")
        if diff is not None:
            arguments["diff"] = diff
        return {"operation": arguments}

    def call_id(self, item: Any) -> str:
        return text(item, "call_id") or ""

    def output_item(self, item: Any, result: ToolResult[Any]) -> dict[str, Any]:
        return {
            "type": "apply_patch_call_output",
            "call_id": self.call_id(item),
            "status": "completed" if result.success else "failed",
            "output": result.model_output(),
            **echoed_caller(item),
        }
