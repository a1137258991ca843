"""Namespaces: function and custom tools grouped under one name the model sees first.

At the start of a request the model sees a namespace's name and
description; with ``defer_loading`` its tools' definitions load only when a
tool search finds them. Calls still name the tool (and the namespace), and
run through the same executor and hooks as any function tool.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tooltape.prompt import MarkdownSection, PromptValidationError, Tool
from tooltape.prompt.section import EnabledPredicate
from tooltape.tools.function_options import Namespace, with_options

__all__ = ["Namespace", "NamespaceSection", "namespace_tools"]


def namespace_tools(
    namespace: Namespace, tools: Sequence[Tool[Any, Any]], *, defer_loading: bool = False
) -> tuple[Tool[Any, Any], ...]:
    """``tools`` placed in ``namespace`` (deferred when ``defer_loading``).

    Each must be a function or custom tool; the namespace needs at least one.
    """
    members = tuple(tools)
    if not members:
        raise PromptValidationError(f"Namespace {namespace.name!r}: give it at least one tool.")
    return tuple(
        with_options(tool, namespace=namespace, defer_loading=defer_loading) for tool in members
    )


class NamespaceSection(MarkdownSection[Any]):
    """A section that carries the tools of one namespace.

    ``NamespaceSection(Namespace("crm", "Customer records"), tools=[...],
    defer_loading=True)`` offers the tools as one ``namespace`` entry; the
    section's text is the namespace's description. ``clone()`` accepts
    ``namespace``, ``tools``, ``defer_loading``, ``key`` and ``enabled``.
    """

    def __init__(
        self,
        namespace: Namespace,
        *,
        tools: Sequence[Tool[Any, Any]],
        defer_loading: bool = False,
        key: str | None = None,
        enabled: bool | EnabledPredicate | None = None,
    ) -> None:
        if not isinstance(namespace, Namespace):
            raise PromptValidationError(
                f"NamespaceSection: {namespace!r} is not a Namespace(name, description)."
            )
        self.namespace = namespace
        self.defer_loading = defer_loading
        self._members = tuple(tools)
        super().__init__(
            title=f"Tools: {namespace.name}",
            key=key if key is not None else f"namespace-{namespace.name}",
            template=namespace.description.replace("$", "$$"),
            enabled=enabled,
            tools=namespace_tools(namespace, self._members, defer_loading=defer_loading),
        )

    def _constructor_arguments(self) -> dict[str, Any]:
        return {
            "namespace": self.namespace,
            "tools": self._members,
            "defer_loading": self.defer_loading,
            "key": self.key,
            "enabled": self.enabled,
        }
