"""Shell: commands run in a provider container (hosted) or on this machine (local).

``shell_tool`` lets the provider run commands in a container it manages.
``local_shell_tool`` declares the same provider tool but answers its calls
here, through an executor (by default a subprocess per command).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from tooltape.prompt import HostedTool, PromptValidationError, ToolContext, ToolResult
from tooltape.prompt.section import EnabledPredicate
from tooltape.tools.callers import Caller, check_allowed_callers
from tooltape.tools.client import ClientExecutedTool
from tooltape.tools.hosted_section import HostedToolSection
from tooltape.tools.local_command import DEFAULT_MAX_OUTPUT_BYTES, run_command
from tooltape.tools.network import NetworkPolicy, check_network_policy
from tooltape.tools.rendering import JsonRendered
from tooltape.tools.skills import (
    ContainerSkill,
    InlineSkill,
    LocalSkill,
    SkillReference,
    skill_tuple,
)
from tooltape.tools.validation import (
    MAX_CONTAINER_FILES,
    MemoryLimit,
    check_max_items,
    check_memory_limit,
    check_text,
    invalid,
    string_tuple,
)


@dataclass(frozen=True, slots=True)
class ContainerAuto:
    """A new container for this response.

    ``file_ids`` (at most 50) are mounted; ``network_policy`` limits its
    outbound network (``None``: the provider's default); ``skills`` are
    ``SkillReference``/``InlineSkill`` entries the shell may use.
    """

    file_ids: tuple[str, ...] = ()
    memory_limit: MemoryLimit | None = None
    network_policy: NetworkPolicy | None = None
    skills: tuple[ContainerSkill, ...] = ()

    def __post_init__(self) -> None:
        owner = "ContainerAuto"
        file_ids = string_tuple(owner, "file_ids", self.file_ids)
        check_max_items(owner, "file_ids", file_ids, MAX_CONTAINER_FILES)
        object.__setattr__(self, "file_ids", file_ids)
        check_memory_limit(owner, "memory_limit", self.memory_limit)
        check_network_policy(owner, self.network_policy)
        skills = skill_tuple(owner, self.skills, (SkillReference, InlineSkill))
        object.__setattr__(self, "skills", skills)


@dataclass(frozen=True, slots=True)
class ContainerReference:
    """An existing container, by id."""

    container_id: str

    def __post_init__(self) -> None:
        if self.container_id is None:  # pyright: ignore[reportUnnecessaryComparison]
            invalid("ContainerReference", "container_id", "is None", "pass the container's id")
        check_text("ContainerReference", "container_id", self.container_id)


@dataclass(frozen=True, slots=True)
class ShellConfig:
    """Where hosted shell commands run: ``ContainerAuto(...)`` or ``ContainerReference(id)``.

    ``allowed_callers`` says whether the model (``direct``), programs it
    writes (``programmatic``) or both may run commands (``None``: not sent).
    """

    environment: ContainerAuto | ContainerReference = field(default_factory=ContainerAuto)
    allowed_callers: tuple[Caller, ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "allowed_callers", check_allowed_callers("ShellConfig", self.allowed_callers)
        )
        if not isinstance(self.environment, ContainerAuto | ContainerReference):
            invalid(
                "ShellConfig",
                "environment",
                f"{self.environment!r} is not a container",
                "use ContainerAuto(...) or ContainerReference(container_id)",
            )


DEFAULT_SHELL_CONFIG = ShellConfig()


@dataclass(frozen=True, slots=True)
class ShellCall:
    """The commands of one ``shell_call`` and the limits the model set for them."""

    commands: tuple[str, ...] = field(metadata={"description": "Shell commands, run in order."})
    timeout_ms: int | None = field(
        default=None, metadata={"description": "Time limit per command, in milliseconds."}
    )
    max_output_length: int | None = field(
        default=None, metadata={"description": "Characters of output kept per command."}
    )


@dataclass(frozen=True, slots=True)
class ShellOutput:
    """What one command printed and how it ended (``exit_code`` is ``None`` on timeout).

    ``truncated`` says part of the output was left out (the executor's limit
    or the call's ``max_output_length``).
    """

    stdout: str = ""
    stderr: str = ""
    exit_code: int | None = None
    timed_out: bool = False
    truncated: bool = False


@dataclass(frozen=True, slots=True)
class ShellResult(JsonRendered):
    """Commands and their outputs, in order (fewer outputs when some did not report).

    ``container_id`` names the provider container a hosted shell ran in, when
    the call item says (a local shell has none).
    """

    commands: tuple[str, ...] = ()
    outputs: tuple[ShellOutput, ...] = ()
    container_id: str | None = None

    @property
    def stdout(self) -> str:
        """Standard output of every command, concatenated."""
        return "".join(output.stdout for output in self.outputs)

    @property
    def stderr(self) -> str:
        """Standard error of every command, concatenated."""
        return "".join(output.stderr for output in self.outputs)

    @property
    def exit_codes(self) -> tuple[int | None, ...]:
        """Each command's exit code (``None`` where it timed out)."""
        return tuple(output.exit_code for output in self.outputs)


def shell_tool(
    config: ShellConfig = DEFAULT_SHELL_CONFIG, *, name: str = "shell"
) -> HostedTool[ShellConfig]:
    """A shell the provider runs in a container."""
    return HostedTool(
        kind="shell",
        name=name,
        description="Run shell commands in a sandboxed container.",
        config=config,
    )


_TEMPLATE = (
    "You can run shell commands in a sandboxed container. Prefer short, non-interactive "
    "commands and check their exit codes before relying on the output."
)


class ShellSection(HostedToolSection):
    """A section that explains the hosted shell and carries the tool."""

    def __init__(
        self,
        config: ShellConfig = DEFAULT_SHELL_CONFIG,
        *,
        key: str = "shell",
        name: str = "shell",
        enabled: bool | EnabledPredicate | None = None,
    ) -> None:
        tool = shell_tool(config, name=name)
        super().__init__(tool, title="Shell", key=key, template=_TEMPLATE, enabled=enabled)


@dataclass(frozen=True, slots=True)
class LocalShellConfig:
    """What the provider is told about a local shell: the ``LocalSkill`` folders it may use,
    and who may call it (``allowed_callers``, as for ``ShellConfig``)."""

    skills: tuple[LocalSkill, ...] = ()
    allowed_callers: tuple[Caller, ...] | None = None

    def __post_init__(self) -> None:
        owner = "LocalShellConfig"
        skills = skill_tuple(owner, self.skills, (LocalSkill,))
        object.__setattr__(self, "skills", skills)
        callers = check_allowed_callers(owner, self.allowed_callers)
        object.__setattr__(self, "allowed_callers", callers)


class ShellExecutor(Protocol):
    """Runs one command: ``executor(command, cwd=..., timeout_s=...) -> ShellOutput``."""

    def __call__(self, command: str, *, cwd: Path | None, timeout_s: float) -> ShellOutput: ...


def run_in_subprocess(
    command: str,
    *,
    cwd: Path | None,
    timeout_s: float,
    max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES,
) -> ShellOutput:
    """Run ``command`` with ``/bin/sh -c`` in its own session.

    At ``timeout_s`` the whole process tree is killed (also children that
    left the group or still hold the output pipes) and the output read so
    far is returned, without waiting for the pipes to close. Of stdout and
    of stderr, the first ``max_output_bytes`` are kept and the rest is read
    and dropped; a note at the end of the text says how much. For another
    limit, pass ``functools.partial(run_in_subprocess, max_output_bytes=...)``
    as the executor.
    """
    run = run_command(
        ["/bin/sh", "-c", command], cwd=cwd, timeout_s=timeout_s, max_output_bytes=max_output_bytes
    )
    return ShellOutput(
        run.stdout_text(), run.stderr_text(), run.exit_code, run.timed_out, run.truncated
    )


def _clip(output: ShellOutput, limit: int | None) -> ShellOutput:
    if limit is None or len(output.stdout) + len(output.stderr) <= limit:
        return output
    stdout = output.stdout[:limit]
    stderr = output.stderr[: max(0, limit - len(stdout))]
    return ShellOutput(stdout, stderr, output.exit_code, output.timed_out, truncated=True)


def _summary(result: ShellResult) -> str:
    ends = [
        ("timed out" if o.timed_out else f"exit {o.exit_code}")
        + (" (output truncated)" if o.truncated else "")
        for o in result.outputs
    ]
    return f"Ran {len(result.outputs)} command(s): {', '.join(ends)}."


def local_shell_tool(
    executor: ShellExecutor | None = None,
    *,
    cwd: str | os.PathLike[str] | None = None,
    timeout_s: float = 60,
    name: str = "shell",
    skills: Sequence[LocalSkill] = (),
    allowed_callers: Sequence[Caller] | None = None,
) -> ClientExecutedTool[ShellCall, ShellResult]:
    """The provider's shell tool, answered on this machine.

    Each command runs through ``executor`` (default: ``run_in_subprocess``)
    in ``cwd`` with at most ``timeout_s`` seconds (less if the call's
    ``timeout_ms`` asks for less). A non-zero exit code is a successful call
    whose output says so; only an executor that cannot start fails the call.
    ``skills`` lists ``LocalSkill`` folders the model is told it may use;
    ``allowed_callers`` whether the model, programs it writes or both may call it.
    """
    if isinstance(timeout_s, bool) or not isinstance(timeout_s, int | float) or timeout_s <= 0:
        raise PromptValidationError(f"local_shell_tool: timeout_s={timeout_s!r}; use seconds > 0.")
    callers = check_allowed_callers("local_shell_tool", allowed_callers)
    config = LocalShellConfig(tuple(skills), callers)
    workdir = Path(cwd) if cwd is not None else None
    if workdir is not None and not workdir.is_dir():
        raise PromptValidationError(f"local_shell_tool: cwd {str(cwd)!r} is not a directory.")
    run = executor if executor is not None else run_in_subprocess

    def handler(params: ShellCall, *, context: ToolContext) -> ToolResult[ShellResult]:
        if not params.commands:
            return ToolResult.error("shell call has no commands; send at least one command.")
        limit = timeout_s
        if params.timeout_ms is not None and params.timeout_ms > 0:
            limit = min(limit, params.timeout_ms / 1000)
        outputs: list[ShellOutput] = []
        for command in params.commands:
            try:
                output = run(command, cwd=workdir, timeout_s=limit)
            except OSError as exc:
                return ToolResult.error(f"Could not run {command!r}: {exc}.")
            outputs.append(_clip(output, params.max_output_length))
        result = ShellResult(params.commands, tuple(outputs))
        return ToolResult.ok(result, message=_summary(result))

    return ClientExecutedTool(
        name=name,
        description="Run shell commands on the local machine and return their output.",
        handler=handler,
        params_type=ShellCall,
        result_type=ShellResult,
        kind="shell",
        config=config,
    )
