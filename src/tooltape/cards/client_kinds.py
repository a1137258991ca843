"""Client-executed tools a card builds from Python objects: custom tools, computers, searches.

Each takes a ``handler`` spec (``file.py:name``, relative to the card) that
``tooltape.runtime.loader.load_callable`` resolves, and some a ``config``
mapping checked like a hosted tool's config.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tooltape.cards.errors import CardError
from tooltape.cards.front_matter import ClientToolEntry
from tooltape.cards.tool_kinds import validated_config
from tooltape.prompt import PromptValidationError, Tool
from tooltape.runtime.loader import ToolLoadError, load_callable

HANDLER_KINDS = ("custom", "computer", "computer_use_preview", "tool_search")
"""The ``client_tools`` kinds built here."""

_FIELDS: dict[str, tuple[str, ...]] = {
    "custom": ("handler", "config"),
    "computer": ("handler", "acknowledge"),
    "computer_use_preview": ("handler", "acknowledge", "config"),
    "tool_search": ("handler",),
}
_ALL = ("root", "cwd", "timeout_s", "handler", "acknowledge", "config")


def _load(path: Path, where: str, spec: str) -> Callable[..., Any]:
    try:
        return load_callable(spec, base_path=path.parent)
    except ToolLoadError as exc:
        raise CardError(path, where, str(exc), "give `file.py:name` relative to the card.") from exc


def _computer(path: Path, where: str, entry: ClientToolEntry) -> object:
    if entry.handler is None:
        raise CardError(
            path,
            f"{where}.handler",
            f"{entry.kind} needs the computer it drives",
            "add `handler: file.py:make_computer` (a function that returns the Computer).",
        )
    factory = _load(path, f"{where}.handler", entry.handler)
    try:
        return factory()
    except Exception as exc:
        raise CardError(
            path,
            f"{where}.handler",
            f"{entry.handler} raised {type(exc).__name__}: {exc}",
            "make it return a Computer without arguments.",
        ) from exc


def _build(path: Path, where: str, entry: ClientToolEntry) -> Tool[Any, Any]:
    options: dict[str, Any] = {} if entry.name is None else {"name": entry.name}
    raw_config = entry.config or {}
    if entry.kind == "custom":
        from tooltape.tools.custom import CustomToolConfig, custom_tool

        if entry.handler is None:
            raise CardError(
                path,
                f"{where}.handler",
                "a custom tool needs the function that answers it",
                "add `handler: file.py:function` (it takes the model's text, returns text).",
            )
        handler = _load(path, f"{where}.handler", entry.handler)
        config = validated_config(path, f"{where}.config", CustomToolConfig, raw_config)
        return custom_tool(handler, config, **options)
    if entry.kind == "tool_search":
        from tooltape.tools.tool_search import client_tool_search_tool

        search = _load(path, f"{where}.handler", entry.handler) if entry.handler else None
        return client_tool_search_tool(search, **options)
    from tooltape.tools.computer import (
        ComputerUsePreviewConfig,
        computer_tool,
        computer_use_preview_tool,
    )

    computer: Any = _computer(path, where, entry)
    if entry.acknowledge is not None:
        options["acknowledge"] = _load(path, f"{where}.acknowledge", entry.acknowledge)
    if entry.kind == "computer":
        return computer_tool(computer, **options)
    config = validated_config(path, f"{where}.config", ComputerUsePreviewConfig, raw_config)
    return computer_use_preview_tool(computer, config, **options)


def build_handler_tool(path: Path, index: int, entry: ClientToolEntry) -> Tool[Any, Any]:
    """The custom, computer or tool search tool ``client_tools[index]`` declares."""
    where = f"client_tools[{index}]"
    allowed = _FIELDS[entry.kind]
    for name in _ALL:
        if name not in allowed and getattr(entry, name) is not None:
            raise CardError(
                path, f"{where}.{name}", f"`{name}` does not apply to {entry.kind}", "remove it."
            )
    try:
        return _build(path, where, entry)
    except PromptValidationError as exc:
        raise CardError(path, where, str(exc), "fix the entry's handler or settings.") from exc
