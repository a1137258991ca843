"""Computer use: the model looks at screenshots and asks the client to click, type and scroll.

Two provider tool types share this module: ``computer`` (no settings) and
``computer_use_preview`` (an environment and a display size). Both send
``computer_call`` items with one or more actions; the client performs them
on a ``Computer`` and answers with a screenshot. Safety checks the provider
attaches to a call must be acknowledged by the ``acknowledge`` policy, or
the call is refused without touching the computer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, Protocol

from tooltape.prompt import PromptValidationError, ToolContext, ToolResult
from tooltape.prompt.section import EnabledPredicate
from tooltape.tools.client import ClientExecutedTool
from tooltape.tools.client_section import ClientToolSection
from tooltape.tools.rendering import JsonRendered
from tooltape.tools.validation import check_choice, check_int_range

ComputerEnvironment = Literal["windows", "mac", "linux", "ubuntu", "browser"]
MouseButton = Literal["left", "right", "wheel", "back", "forward"]

COMPUTER_ENVIRONMENTS = ("windows", "mac", "linux", "ubuntu", "browser")
_MAX_DISPLAY = 100_000


@dataclass(frozen=True, slots=True)
class Point:
    """A screen position in pixels."""

    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Click:
    """Click ``button`` at ``(x, y)`` while holding ``keys``."""

    x: int
    y: int
    button: MouseButton = "left"
    keys: tuple[str, ...] | None = None
    type: Literal["click"] = "click"


@dataclass(frozen=True, slots=True)
class DoubleClick:
    """Double-click at ``(x, y)``."""

    x: int
    y: int
    keys: tuple[str, ...] | None = None
    type: Literal["double_click"] = "double_click"


@dataclass(frozen=True, slots=True)
class Drag:
    """Press, move the mouse along ``path``, release."""

    path: tuple[Point, ...]
    keys: tuple[str, ...] | None = None
    type: Literal["drag"] = "drag"


@dataclass(frozen=True, slots=True)
class Keypress:
    """Press a combination of keys (``("CTRL", "C")``)."""

    keys: tuple[str, ...]
    type: Literal["keypress"] = "keypress"


@dataclass(frozen=True, slots=True)
class Move:
    """Move the mouse to ``(x, y)``."""

    x: int
    y: int
    keys: tuple[str, ...] | None = None
    type: Literal["move"] = "move"


@dataclass(frozen=True, slots=True)
class Screenshot:
    """Take a screenshot (every call ends with one anyway)."""

    type: Literal["screenshot"] = "screenshot"


@dataclass(frozen=True, slots=True)
class Scroll:
    """Scroll by ``(scroll_x, scroll_y)`` with the mouse at ``(x, y)``."""

    x: int
    y: int
    scroll_x: int
    scroll_y: int
    keys: tuple[str, ...] | None = None
    type: Literal["scroll"] = "scroll"


@dataclass(frozen=True, slots=True)
class TypeText:
    """Type ``text``."""

    text: str
    type: Literal["type"] = "type"


@dataclass(frozen=True, slots=True)
class Wait:
    """Wait a moment for the screen to settle."""

    type: Literal["wait"] = "wait"


ComputerAction = (
    Click | DoubleClick | Drag | Keypress | Move | Screenshot | Scroll | TypeText | Wait
)


@dataclass(frozen=True, slots=True)
class SafetyCheck:
    """A check the provider raised on a call (``code`` such as ``malicious_instructions``)."""

    id: str
    code: str | None = None
    message: str | None = None


@dataclass(frozen=True, slots=True)
class ComputerCall:
    """What one ``computer_call`` asks for: actions in order, and its pending safety checks."""

    actions: tuple[ComputerAction, ...] = field(
        metadata={"description": "Actions to perform, in order."}
    )
    pending_safety_checks: tuple[SafetyCheck, ...] = field(
        default=(), metadata={"description": "Checks to acknowledge before acting."}
    )


@dataclass(frozen=True, slots=True)
class ComputerScreenshot(JsonRendered):
    """The screen after a call: PNG bytes, and the safety checks acknowledged for it."""

    image: bytes
    acknowledged_safety_checks: tuple[SafetyCheck, ...] = ()
    mime_type: str = "image/png"


class Computer(Protocol):
    """What the client drives: ``perform`` one action, take a PNG ``screenshot``."""

    def perform(self, action: ComputerAction) -> None: ...

    def screenshot(self) -> bytes: ...


SafetyPolicy = Callable[[SafetyCheck], bool]
"""Decides whether a pending safety check is acknowledged (``True``) or refused."""


@dataclass(frozen=True, slots=True)
class ComputerUsePreviewConfig:
    """The computer ``computer_use_preview`` describes to the model."""

    environment: ComputerEnvironment
    display_width: int
    display_height: int

    def __post_init__(self) -> None:
        owner = "ComputerUsePreviewConfig"
        check_choice(owner, "environment", self.environment, COMPUTER_ENVIRONMENTS)
        check_int_range(owner, "display_width", self.display_width, 1, _MAX_DISPLAY)
        check_int_range(owner, "display_height", self.display_height, 1, _MAX_DISPLAY)


def _unacknowledged(checks: tuple[SafetyCheck, ...], policy: SafetyPolicy | None) -> list[str]:
    refused = [c for c in checks if policy is None or not policy(c)]
    return [f"{c.id} ({c.code or 'no code'}: {c.message or 'no message'})" for c in refused]


def _handler(
    computer: Computer, acknowledge: SafetyPolicy | None
) -> Callable[..., ToolResult[ComputerScreenshot]]:
    def handler(params: ComputerCall, *, context: ToolContext) -> ToolResult[ComputerScreenshot]:
        refused = _unacknowledged(params.pending_safety_checks, acknowledge)
        if refused:
            return ToolResult.error(
                f"Safety checks not acknowledged: {'; '.join(refused)}. Nothing was done; "
                "acknowledge them with computer_tool(..., acknowledge=...) to proceed."
            )
        for action in params.actions:
            if not isinstance(action, Screenshot):
                computer.perform(action)
        image = computer.screenshot()
        if not isinstance(image, bytes) or not image:
            return ToolResult.error(
                "The computer returned no screenshot; it must return PNG bytes."
            )
        done = ", ".join(action.type for action in params.actions) or "no action"
        return ToolResult.ok(
            ComputerScreenshot(image, params.pending_safety_checks),
            message=f"Performed {done}; took a screenshot.",
        )

    return handler


def _check_computer(computer: object, owner: str) -> None:
    if not callable(getattr(computer, "perform", None)) or not callable(
        getattr(computer, "screenshot", None)
    ):
        raise PromptValidationError(
            f"{owner}: {type(computer).__name__} is not a Computer; it needs perform(action) "
            "and screenshot() -> bytes."
        )


def computer_tool(
    computer: Computer, *, acknowledge: SafetyPolicy | None = None, name: str = "computer"
) -> ClientExecutedTool[ComputerCall, ComputerScreenshot]:
    """The ``computer`` tool, answered by ``computer``.

    Each call's actions are performed in order (``screenshot`` actions need
    no work: every call ends with a screenshot), then the screenshot goes
    back to the model. A call with a pending safety check that
    ``acknowledge`` does not accept (by default none is) fails without
    touching the computer; so does one whose action raises.
    """
    _check_computer(computer, "computer_tool")
    return ClientExecutedTool(
        name=name,
        description="Operate a computer by clicking, typing and scrolling, seeing screenshots.",
        handler=_handler(computer, acknowledge),
        params_type=ComputerCall,
        result_type=ComputerScreenshot,
        kind="computer",
    )


def computer_use_preview_tool(
    computer: Computer,
    config: ComputerUsePreviewConfig,
    *,
    acknowledge: SafetyPolicy | None = None,
    name: str = "computer_use_preview",
) -> ClientExecutedTool[ComputerCall, ComputerScreenshot]:
    """The ``computer_use_preview`` tool: ``computer_tool`` with an environment and display size."""
    _check_computer(computer, "computer_use_preview_tool")
    if not isinstance(config, ComputerUsePreviewConfig):
        raise PromptValidationError(
            "computer_use_preview_tool: config must be a ComputerUsePreviewConfig(environment, "
            "display_width, display_height)."
        )
    return ClientExecutedTool(
        name=name,
        description="Operate a computer by clicking, typing and scrolling, seeing screenshots.",
        handler=_handler(computer, acknowledge),
        params_type=ComputerCall,
        result_type=ComputerScreenshot,
        kind="computer_use_preview",
        config=config,
    )


class ComputerSection(ClientToolSection):
    """A section that explains computer use and carries a computer tool."""

    title_text = "Computer"
    template_text = (
        "You can operate a computer. Look at each screenshot before acting, take one step at a "
        "time, and stop to ask before anything irreversible such as purchases or deletions."
    )

    def __init__(
        self,
        tool: ClientExecutedTool[ComputerCall, ComputerScreenshot],
        *,
        key: str = "computer",
        enabled: bool | EnabledPredicate | None = None,
    ) -> None:
        super().__init__(tool, key=key, enabled=enabled)
