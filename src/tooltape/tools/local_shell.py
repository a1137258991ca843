"""``local_shell``: the legacy local shell tool, whose calls run one argv on this machine.

The model sends a ``local_shell_call`` whose ``exec`` action carries a
command as an argument vector, environment variables, a time limit, a
working directory and a user; the client answers with the command's output.
Commands run through the same ``ShellExecutor`` as the newer shell tool
(``tooltape.tools.shell``).
"""

from __future__ import annotations

import getpass
import os
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tooltape.prompt import PromptValidationError, ToolContext, ToolResult
from tooltape.prompt.section import EnabledPredicate
from tooltape.tools.client import ClientExecutedTool
from tooltape.tools.client_section import ClientToolSection
from tooltape.tools.shell import ShellExecutor, ShellOutput, run_in_subprocess

_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class LocalShellExec:
    """The ``exec`` action of a ``local_shell_call``, as the provider sends it."""

    command: tuple[str, ...] = field(metadata={"description": "The argument vector to run."})
    env: Mapping[str, str] = field(
        default_factory=lambda: {}, metadata={"description": "Environment variables to set."}
    )
    timeout_ms: int | None = field(
        default=None, metadata={"description": "Time limit for the command, in milliseconds."}
    )
    working_directory: str | None = field(
        default=None, metadata={"description": "Directory to run the command in."}
    )
    user: str | None = field(default=None, metadata={"description": "User to run it as."})


def shell_line(action: LocalShellExec) -> str:
    """The ``/bin/sh -c`` line that runs ``action.command`` with ``action.env`` set.

    Each argument is quoted, so the vector reaches the program unchanged;
    variables are prefixed as ``NAME='value'`` assignments.
    """
    assignments = [f"{name}={shlex.quote(value)}" for name, value in action.env.items()]
    return " ".join([*assignments, shlex.join(action.command)])


def _workdir(base: Path | None, requested: str | None) -> Path | None:
    if requested is None:
        return base
    path = Path(requested)
    if not path.is_absolute():
        path = (base or Path.cwd()) / path
    return path


def _refusal(action: LocalShellExec, base: Path | None) -> str | None:
    if not action.command:
        return "local_shell_call has an empty command; send the program and its arguments."
    bad = [name for name in action.env if not _ENV_NAME.fullmatch(name)]
    if bad:
        return f"Environment variable names {bad} are not valid; use letters, digits and '_'."
    if action.user is not None and action.user != getpass.getuser():
        return (
            f"Cannot run as user {action.user!r}: commands run as {getpass.getuser()!r}; "
            "leave user unset."
        )
    workdir = _workdir(base, action.working_directory)
    if workdir is not None and not workdir.is_dir():
        return f"Working directory {str(workdir)!r} does not exist; use an existing directory."
    return None


def local_shell_exec_tool(
    executor: ShellExecutor | None = None,
    *,
    cwd: str | os.PathLike[str] | None = None,
    timeout_s: float = 60,
    name: str = "local_shell",
) -> ClientExecutedTool[LocalShellExec, ShellOutput]:
    """The legacy ``local_shell`` tool, answered on this machine.

    Each call runs through ``executor`` (default: ``run_in_subprocess``) in
    its ``working_directory`` (relative ones resolve against ``cwd``), with
    at most ``timeout_s`` seconds (less if the call asks for less). A
    non-zero exit code is a successful call whose output says so; a call
    that asks for another user, a missing directory or an invalid
    environment variable name fails without running anything.
    """
    if isinstance(timeout_s, bool) or not isinstance(timeout_s, int | float) or timeout_s <= 0:
        raise PromptValidationError(
            f"local_shell_exec_tool: timeout_s={timeout_s!r}; use seconds > 0."
        )
    base = Path(cwd) if cwd is not None else None
    if base is not None and not base.is_dir():
        raise PromptValidationError(f"local_shell_exec_tool: cwd {str(cwd)!r} is not a directory.")
    run = executor if executor is not None else run_in_subprocess

    def handler(params: LocalShellExec, *, context: ToolContext) -> ToolResult[ShellOutput]:
        refusal = _refusal(params, base)
        if refusal is not None:
            return ToolResult.error(refusal)
        limit = timeout_s
        if params.timeout_ms is not None and params.timeout_ms > 0:
            limit = min(limit, params.timeout_ms / 1000)
        line = shell_line(params)
        try:
            output = run(line, cwd=_workdir(base, params.working_directory), timeout_s=limit)
        except OSError as exc:
            return ToolResult.error(f"Could not run {list(params.command)}: {exc}.")
        ended = "timed out" if output.timed_out else f"exited {output.exit_code}"
        return ToolResult.ok(output, message=f"{shlex.join(params.command)} {ended}.")

    return ClientExecutedTool(
        name=name,
        description="Run a command on the local machine and return its output.",
        handler=handler,
        params_type=LocalShellExec,
        result_type=ShellOutput,
        kind="local_shell",
    )


class LocalShellExecSection(ClientToolSection):
    """A section that explains the local shell and carries the tool."""

    title_text = "Local Shell"
    template_text = (
        "You can run commands on the user's machine. Prefer short, non-interactive commands, "
        "and check the exit code before relying on the output."
    )

    def __init__(
        self,
        tool: ClientExecutedTool[LocalShellExec, ShellOutput],
        *,
        key: str = "local_shell",
        enabled: bool | EnabledPredicate | None = None,
    ) -> None:
        super().__init__(tool, key=key, enabled=enabled)
