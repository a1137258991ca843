"""``ToolResult``: what every tool call produces, success or not."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from pydantic_core import to_json

from tooltape.prompt.generic import Specializable

ValueT = TypeVar("ValueT")
OkT = TypeVar("OkT")


@runtime_checkable
class ToolRenderableResult(Protocol):
    """A tool value that knows how to present itself to a model."""

    def render(self) -> str: ...


def render_value(value: object) -> str:
    """Render a tool value: its own ``render()`` if it has one, else compact JSON."""
    if value is None:
        return ""
    if isinstance(value, ToolRenderableResult):
        return value.render()
    if isinstance(value, str):
        return value
    return to_json(value, exclude_none=True, fallback=repr).decode()


@dataclass(frozen=True, slots=True)
class ToolResult(Specializable, Generic[ValueT]):
    """The outcome of one tool call.

    ``message`` is the short reply a model reads; ``value`` the typed payload
    (``None`` on failure); ``success`` the flag reducers and hooks rely on;
    ``exclude_value_from_context`` keeps the payload out of the text sent
    back to the model while still recording it.
    """

    message: str
    value: ValueT | None = None
    success: bool = True
    exclude_value_from_context: bool = False

    @staticmethod
    def ok(value: OkT, message: str = "") -> ToolResult[OkT]:
        """A successful result carrying ``value``."""
        return ToolResult(message=message, value=value, success=True)

    @staticmethod
    def error(message: str) -> ToolResult[Any]:
        """A failed result: ``value`` is ``None`` and ``message`` says what went wrong."""
        failed: ToolResult[Any] = ToolResult(message=message, value=None, success=False)
        return failed

    def render(self) -> str:
        """The value as text (``""`` when there is no value)."""
        return render_value(self.value)

    def model_output(self) -> str:
        """The text handed back to the model as this call's output."""
        if not self.success or self.value is None or self.exclude_value_from_context:
            return self.message
        rendered = self.render()
        if not self.message:
            return rendered
        return f"{self.message}\n\n{rendered}"
