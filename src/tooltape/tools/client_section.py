"""``ClientToolSection``: a short guidance section that carries one client-executed tool."""

from __future__ import annotations

from typing import Any

from tooltape.prompt import MarkdownSection, Tool
from tooltape.prompt.section import EnabledPredicate


class ClientToolSection(MarkdownSection[Any]):
    """Base of ``ComputerSection`` and its siblings: fixed guidance text and one tool.

    A client tool is built from local parts (a computer, a handler, a
    folder), so its section takes the built tool. ``clone()`` accepts
    ``tool``, ``key`` and ``enabled``, the arguments every subclass takes.
    """

    title_text = "Tool"
    template_text = ""

    def __init__(
        self,
        tool: Tool[Any, Any],
        *,
        key: str,
        enabled: bool | EnabledPredicate | None = None,
    ) -> None:
        super().__init__(
            title=self.title_text,
            key=key,
            template=self.template_text,
            enabled=enabled,
            tools=(tool,),
        )
        self._tool = tool

    @property
    def tool(self) -> Tool[Any, Any]:
        """The client tool this section carries."""
        return self._tool

    def _constructor_arguments(self) -> dict[str, Any]:
        return {"tool": self._tool, "key": self.key, "enabled": self.enabled}
