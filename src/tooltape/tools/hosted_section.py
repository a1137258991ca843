"""``HostedToolSection``: a short guidance section that carries one hosted tool."""

from __future__ import annotations

from typing import Any

from tooltape.prompt import HostedTool, MarkdownSection
from tooltape.prompt.section import EnabledPredicate


class HostedToolSection(MarkdownSection[Any]):
    """Base of ``WebSearchSection`` and its siblings.

    The body is fixed guidance text (no placeholders); ``hosted_tools()``
    returns the one tool. ``clone()`` accepts ``config``, ``key``, ``name``
    and ``enabled``, the arguments every subclass takes.
    """

    def __init__(
        self,
        tool: HostedTool[Any],
        *,
        title: str,
        key: str,
        template: str,
        enabled: bool | EnabledPredicate | None = None,
    ) -> None:
        super().__init__(
            title=title, key=key, template=template, enabled=enabled, hosted_tools=(tool,)
        )
        self._tool = tool

    @property
    def tool(self) -> HostedTool[Any]:
        """The hosted tool this section carries."""
        return self._tool

    def _constructor_arguments(self) -> dict[str, Any]:
        return {
            "config": self._tool.config,
            "key": self.key,
            "name": self._tool.name,
            "enabled": self.enabled,
        }
