"""The runtime layer: events, sessions, hooks, the tool executor and the loader."""

from tooltape.runtime.events import (
    InProcessEventBus,
    PromptExecuted,
    PromptRendered,
    PublishResult,
    SubscriberFailure,
    ToolInvoked,
)
from tooltape.runtime.executor import ToolCall, ToolExecutor, parse_arguments
from tooltape.runtime.hooks import (
    ToolHook,
    ToolHookContext,
    check_hook,
    run_tool_with_hooks,
)
from tooltape.runtime.loader import ToolLoadError, load_callable
from tooltape.runtime.response import PromptResponse
from tooltape.runtime.session import Session

__all__ = [
    "InProcessEventBus",
    "PromptExecuted",
    "PromptRendered",
    "PromptResponse",
    "PublishResult",
    "Session",
    "SubscriberFailure",
    "ToolCall",
    "ToolExecutor",
    "ToolHook",
    "ToolHookContext",
    "ToolInvoked",
    "ToolLoadError",
    "check_hook",
    "load_callable",
    "parse_arguments",
    "run_tool_with_hooks",
]
