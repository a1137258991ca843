"""OpenAI wire format of ``computer`` and ``computer_use_preview``: ``computer_call`` items in,
``computer_call_output`` screenshots out."""

from __future__ import annotations

import base64
from typing import Any

from tooltape.adapters.openai.codecs.failures import UNKNOWN_PROMPT
from tooltape.adapters.openai.codecs.items import elements, field, mapping, text
from tooltape.prompt import PromptEvaluationError, Tool, ToolResult
from tooltape.tools.computer import ComputerScreenshot, ComputerUsePreviewConfig

# The fields each action type carries; anything newer is dropped so one
# unknown field does not fail a call the client can still perform.
_ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "click": ("button", "x", "y", "keys"),
    "double_click": ("x", "y", "keys"),
    "drag": ("path", "keys"),
    "keypress": ("keys",),
    "move": ("x", "y", "keys"),
    "screenshot": (),
    "scroll": ("x", "y", "scroll_x", "scroll_y", "keys"),
    "type": ("text",),
    "wait": (),
}


def _action(raw: object) -> dict[str, Any]:
    action = mapping(raw)
    kind = action.get("type")
    known = _ACTION_FIELDS.get(kind) if isinstance(kind, str) else None
    if known is None:
        return action
    kept = {k: action[k] for k in known if k in action and action[k] is not None}
    if kind == "drag":
        kept["path"] = [
            {"x": mapping(p).get("x"), "y": mapping(p).get("y")} for p in elements(action, "path")
        ]
    return {"type": kind, **kept}


def _check(raw: object) -> dict[str, Any]:
    check = mapping(raw)
    return {k: check[k] for k in ("id", "code", "message") if check.get(k) is not None}


class ComputerCodec:
    """``{"type": "computer"}``: the client performs each call's actions and sends a screenshot.

    A call carries ``actions`` (or one ``action``) and its
    ``pending_safety_checks``; the answer is a ``computer_call_output`` with
    the screenshot as a PNG ``data:`` URL and the checks acknowledged. The
    API takes nothing but a screenshot as an answer, so a failed call (a
    refused safety check, an action that raised, a refusing hook) cannot be
    reported to the model: it ends the evaluation with a
    ``PromptEvaluationError`` (phase ``tool``) after its ``ToolInvoked`` is
    published.
    """

    @property
    def kind(self) -> str:
        return "computer"

    @property
    def call_item_type(self) -> str:
        return "computer_call"

    @property
    def item_types(self) -> tuple[str, ...]:
        """The call item types this codec answers."""
        return (self.call_item_type,)

    def serialize(self, tool: Tool[Any, Any]) -> dict[str, Any]:
        return {"type": "computer"}

    def tool_choice(self, tool: Tool[Any, Any]) -> dict[str, Any]:
        """The ``tool_choice`` that forces this tool."""
        return {"type": self.kind}

    def call_arguments(self, item: Any) -> dict[str, Any]:
        actions = list(elements(item, "actions"))
        single = field(item, "action")
        if not actions and single is not None:
            actions = [single]
        return {
            "actions": [_action(action) for action in actions],
            "pending_safety_checks": [_check(c) for c in elements(item, "pending_safety_checks")],
        }

    def call_id(self, item: Any) -> str:
        return text(item, "call_id") or ""

    def output_item(self, item: Any, result: ToolResult[Any]) -> dict[str, Any]:
        screenshot = result.value
        if not result.success or not isinstance(screenshot, ComputerScreenshot):
            raise PromptEvaluationError(
                f"computer_call {self.call_id(item)} could not be answered: {result.message} "
                "(the API accepts only a screenshot as the answer to a computer call).",
                prompt_name=UNKNOWN_PROMPT,
                phase="tool",
            )
        encoded = base64.b64encode(screenshot.image).decode("ascii")
        answer: dict[str, Any] = {
            "type": "computer_call_output",
            "call_id": self.call_id(item),
            "output": {
                "type": "computer_screenshot",
                "image_url": f"data:{screenshot.mime_type};base64,{encoded}",
            },
        }
        if screenshot.acknowledged_safety_checks:
            answer["acknowledged_safety_checks"] = [
                {k: v for k, v in (("id", c.id), ("code", c.code), ("message", c.message)) if v}
                for c in screenshot.acknowledged_safety_checks
            ]
        return answer


class ComputerUsePreviewCodec(ComputerCodec):
    """``computer_use_preview``: the same calls and answers, with its environment and display."""

    @property
    def kind(self) -> str:
        return "computer_use_preview"

    def serialize(self, tool: Tool[Any, Any]) -> dict[str, Any]:
        config: object = getattr(tool, "config", None)
        if not isinstance(config, ComputerUsePreviewConfig):
            raise PromptEvaluationError(
                f"Tool {tool.name!r} (computer_use_preview) has no ComputerUsePreviewConfig; "
                "build it with computer_use_preview_tool(computer, config).",
                prompt_name=UNKNOWN_PROMPT,
                phase="render",
            )
        return {
            "type": "computer_use_preview",
            "environment": config.environment,
            "display_width": config.display_width,
            "display_height": config.display_height,
        }
