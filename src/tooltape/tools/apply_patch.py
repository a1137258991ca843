"""``apply_patch``: the provider's file editing tool, run against a local workspace."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from tooltape.prompt import PromptValidationError, ToolContext, ToolResult
from tooltape.tools.callers import Caller, check_allowed_callers
from tooltape.tools.client import ClientExecutedTool
from tooltape.tools.v4a import PatchError, apply_update, create_text
from tooltape.tools.workspace import Workspace, WorkspaceError

OperationType = Literal["create_file", "update_file", "delete_file"]

_DONE = {"create_file": "Created", "update_file": "Updated", "delete_file": "Deleted"}


@dataclass(frozen=True, slots=True)
class ApplyPatchConfig:
    """What the provider is told about apply_patch: who may call it.

    ``allowed_callers`` says whether the model (``direct``), programs it
    writes (``programmatic``) or both may edit files (``None``: not sent).
    """

    allowed_callers: tuple[Caller, ...] | None = None

    def __post_init__(self) -> None:
        callers = check_allowed_callers("ApplyPatchConfig", self.allowed_callers)
        object.__setattr__(self, "allowed_callers", callers)


@dataclass(frozen=True, slots=True)
class PatchOperation:
    """One file operation, as the provider's ``apply_patch_call.operation`` carries it."""

    type: OperationType = field(
        metadata={"description": "create_file, update_file or delete_file."}
    )
    path: str = field(metadata={"description": "File path relative to the workspace root."})
    diff: str = field(
        default="",
        metadata={"description": "V4A diff (create/update); empty for delete_file."},
    )


@dataclass(frozen=True, slots=True)
class ApplyPatchCall:
    """The arguments of an ``apply_patch_call``: the operation to apply."""

    operation: PatchOperation


@dataclass(frozen=True, slots=True)
class PatchApplied:
    """What was changed: the operation type and the path."""

    type: OperationType
    path: str


def _apply(workspace: Workspace, operation: PatchOperation) -> None:
    if operation.type == "create_file":
        workspace.resolve(operation.path)
        workspace.write_text(operation.path, create_text(operation.diff), create=True)
    elif operation.type == "update_file":
        original = workspace.read_text(operation.path)
        updated = apply_update(original, operation.diff, path=operation.path)
        workspace.write_text(operation.path, updated, create=False)
    else:
        workspace.delete(operation.path)


def apply_patch_tool(
    root: str | os.PathLike[str],
    *,
    name: str = "apply_patch",
    allowed_callers: Sequence[Caller] | None = None,
) -> ClientExecutedTool[ApplyPatchCall, PatchApplied]:
    """A workspace editor rooted at ``root`` for the provider's ``apply_patch`` calls.

    It creates, updates (V4A diff) and deletes files under ``root`` only:
    absolute paths, ``..`` and symlinks leading out are refused with a failed
    ``ToolResult`` and nothing is written. A diff that does not match the
    file fails with a message saying which lines were expected.
    ``allowed_callers`` says whether the model, programs it writes or both
    may call it (``None``: not sent).
    """
    config = ApplyPatchConfig(check_allowed_callers("apply_patch_tool", allowed_callers))
    try:
        workspace = Workspace(root)
    except WorkspaceError as exc:
        raise PromptValidationError(f"apply_patch_tool: {exc} Pass an existing directory.") from exc

    def handler(params: ApplyPatchCall, *, context: ToolContext) -> ToolResult[PatchApplied]:
        operation = params.operation
        try:
            _apply(workspace, operation)
        except (WorkspaceError, PatchError) as exc:
            return ToolResult.error(f"{operation.type} {operation.path} failed: {exc}")
        except OSError as exc:
            return ToolResult.error(f"{operation.type} {operation.path} failed: {exc.strerror}.")
        return ToolResult(
            message=f"{_DONE[operation.type]} {operation.path}.",
            value=PatchApplied(operation.type, operation.path),
            exclude_value_from_context=True,
        )

    return ClientExecutedTool(
        name=name,
        description="Create, update or delete files in the workspace with V4A diffs.",
        handler=handler,
        params_type=ApplyPatchCall,
        result_type=PatchApplied,
        kind="apply_patch",
        config=config,
    )
