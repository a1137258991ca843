"""Hosted and client-executed tools declared in a card, built through ``tooltape.tools``.

The kind modules are imported lazily, only for the kinds a card uses. A
hosted tool's ``config`` mapping becomes the kind's frozen config dataclass
through ``tooltape.prompt.schema.params_schema`` (a pydantic ``TypeAdapter``
whose schema refuses unknown keys at every level), so a misspelt or invalid
setting is a ``CardError`` naming ``hosted_tools[i].config.<field>``.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from pydantic_core import ValidationError

from tooltape.cards.errors import CardError
from tooltape.cards.front_matter import ClientToolEntry, HostedToolEntry, field_path
from tooltape.prompt import HostedTool, PromptValidationError, Tool
from tooltape.prompt.schema import params_schema
from tooltape.runtime.loader import ToolLoadError, load_callable

__all__ = ["HOSTED_KINDS", "build_client_tool", "build_hosted_tool"]


@dataclass(frozen=True, slots=True)
class HostedKind:
    """Where a hosted tool kind lives: its module, config class and factory."""

    module: str
    config: str
    factory: str


HOSTED_KINDS: dict[str, HostedKind] = {
    "web_search": HostedKind("tooltape.tools.web_search", "WebSearchConfig", "web_search_tool"),
    "file_search": HostedKind("tooltape.tools.file_search", "FileSearchConfig", "file_search_tool"),
    "code_interpreter": HostedKind(
        "tooltape.tools.code_interpreter", "CodeInterpreterConfig", "code_interpreter_tool"
    ),
    "image_generation": HostedKind(
        "tooltape.tools.image_generation", "ImageGenerationConfig", "image_generation_tool"
    ),
    "mcp": HostedKind("tooltape.tools.mcp", "HostedMcpConfig", "hosted_mcp_tool"),
    "shell": HostedKind("tooltape.tools.shell", "ShellConfig", "shell_tool"),
    "programmatic_tool_calling": HostedKind(
        "tooltape.tools.programmatic_tool_calling",
        "ProgrammaticToolCallingConfig",
        "programmatic_tool_calling_tool",
    ),
    "tool_search": HostedKind("tooltape.tools.tool_search", "ToolSearchConfig", "tool_search_tool"),
    "web_search_preview": HostedKind(
        "tooltape.tools.web_search_preview", "WebSearchPreviewConfig", "web_search_preview_tool"
    ),
}


def _kind_parts(path: Path, where: str, kind: HostedKind) -> tuple[type[Any], Callable[..., Any]]:
    try:
        module = importlib.import_module(kind.module)
        return getattr(module, kind.config), getattr(module, kind.factory)
    except (ImportError, AttributeError) as exc:
        raise CardError(
            path,
            where,
            f"this tooltape cannot build it ({type(exc).__name__}: {exc})",
            "upgrade tooltape or remove the tool.",
        ) from exc


def validated_config(path: Path, where: str, config_type: type[Any], raw: Any) -> Any:
    """``raw`` (a mapping from the card) as ``config_type``; a ``CardError`` names each field."""
    try:
        return params_schema(config_type).validator.validate_python(dict(raw))
    except ValidationError as exc:
        details = exc.errors(include_url=False)
        first = field_path((where, *details[0]["loc"]))
        problems = "; ".join(f"`{field_path((where, *d['loc']))}`: {d['msg']}" for d in details)
        known = ", ".join(f.name for f in dataclasses.fields(config_type))
        raise CardError(
            path,
            first,
            problems,
            f"give {config_type.__name__} valid settings; its fields are {known} "
            "(unknown keys are refused).",
        ) from None


def build_hosted_tool(path: Path, index: int, entry: HostedToolEntry) -> HostedTool[Any]:
    """The hosted tool ``hosted_tools[index]`` of the card at ``path`` declares."""
    where = f"hosted_tools[{index}]"
    kind = HOSTED_KINDS.get(entry.kind)
    if kind is None:
        raise CardError(
            path,
            f"{where}.kind",
            f"unknown hosted tool kind {entry.kind!r}",
            f"use one of: {', '.join(HOSTED_KINDS)}.",
        )
    config_type, factory = _kind_parts(path, where, kind)
    config = validated_config(path, f"{where}.config", config_type, entry.config)
    options: dict[str, Any] = {} if entry.name is None else {"name": entry.name}
    if entry.approver is not None:
        options["approver"] = _approver(path, where, entry)
    try:
        built = factory(config, **options)
    except PromptValidationError as exc:
        raise CardError(path, f"{where}.name", str(exc), "pick a valid, unique name.") from exc
    return cast("HostedTool[Any]", built)


def _approver(path: Path, where: str, entry: HostedToolEntry) -> Callable[..., Any]:
    assert entry.approver is not None
    if entry.kind != "mcp":
        raise CardError(
            path,
            f"{where}.approver",
            f"`approver` applies to hosted mcp tools only, not {entry.kind}",
            "remove it.",
        )
    from tooltape.tools.mcp import check_approver

    try:
        approver = load_callable(entry.approver, base_path=path.parent)
        return check_approver(approver, owner=f"{path} {where}.approver")
    except (ToolLoadError, PromptValidationError) as exc:
        raise CardError(
            path,
            f"{where}.approver",
            str(exc),
            "write `approver: approvals.py:decide` (a .py file relative to the card and a "
            "function in it taking one approval request).",
        ) from exc


def _resolve(base: Path, value: str) -> Path:
    candidate = Path(value)
    return candidate if candidate.is_absolute() else base / candidate


def build_client_tool(path: Path, index: int, entry: ClientToolEntry) -> Tool[Any, Any]:
    """The client-executed tool ``client_tools[index]`` declares; paths are card-relative."""
    if entry.kind in ("custom", "computer", "computer_use_preview", "tool_search"):
        from tooltape.cards.client_kinds import build_handler_tool

        return build_handler_tool(path, index, entry)
    where = f"client_tools[{index}]"
    base = path.parent
    unused = {
        "apply_patch": ("cwd", "timeout_s", "handler", "acknowledge"),
        "local_shell": ("root", "handler", "acknowledge"),
        "local_shell_exec": ("root", "handler", "acknowledge", "config"),
    }[entry.kind]
    for name in unused:
        if getattr(entry, name) is not None:
            raise CardError(
                path,
                f"{where}.{name}",
                f"`{name}` does not apply to {entry.kind}",
                "remove it.",
            )
    options: dict[str, Any] = {} if entry.name is None else {"name": entry.name}
    try:
        if entry.kind == "apply_patch":
            from tooltape.tools.apply_patch import ApplyPatchConfig, apply_patch_tool

            if entry.root is None:
                raise CardError(
                    path,
                    f"{where}.root",
                    "apply_patch needs the workspace folder it may edit",
                    "add `root: <folder>` (relative to the card).",
                )
            settings = validated_config(
                path, f"{where}.config", ApplyPatchConfig, entry.config or {}
            )
            options["allowed_callers"] = settings.allowed_callers
            return apply_patch_tool(_resolve(base, entry.root), **options)
        cwd = _resolve(base, entry.cwd) if entry.cwd is not None else base
        if entry.timeout_s is not None:
            options["timeout_s"] = entry.timeout_s
        if entry.kind == "local_shell_exec":
            from tooltape.tools.local_shell import local_shell_exec_tool

            return local_shell_exec_tool(cwd=cwd, **options)
        from tooltape.tools.shell import LocalShellConfig, local_shell_tool

        shell = validated_config(path, f"{where}.config", LocalShellConfig, entry.config or {})
        options.update(skills=shell.skills, allowed_callers=shell.allowed_callers)
        return local_shell_tool(cwd=cwd, **options)
    except PromptValidationError as exc:
        raise CardError(path, where, str(exc), "fix the entry's folder or settings.") from exc
