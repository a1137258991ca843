"""Programmatic tool calling: the model writes a program that calls tools, the provider runs it.

With ``programmatic_tool_calling_tool()`` in a prompt, the model may answer
with a ``program`` (JavaScript the provider runs) instead of calling tools
one by one. The program calls the prompt's tools whose ``allowed_callers``
include ``programmatic`` (function and custom tools through
``tooltape.tools.function_options``; code interpreter, hosted MCP, shell and
apply_patch through their configs or factories): the client's calls reach
the client as usual, marked with the program as their caller, run through
the same executor and hooks, and are answered with that caller. A
``program_output`` carries the program's result.
"""

from __future__ import annotations

from dataclasses import dataclass

from tooltape.prompt import HostedTool
from tooltape.prompt.section import EnabledPredicate
from tooltape.tools.hosted_section import HostedToolSection
from tooltape.tools.rendering import JsonRendered


@dataclass(frozen=True, slots=True)
class ProgrammaticToolCallingConfig:
    """Programmatic tool calling has no settings: which tools programs may call is set per tool."""


DEFAULT_PROGRAMMATIC_TOOL_CALLING_CONFIG = ProgrammaticToolCallingConfig()


@dataclass(frozen=True, slots=True)
class ProgramToolCall:
    """A tool call a program made: the tool's name, the call id, and its namespace if any.

    A shell or apply_patch call carries no name; it is listed as ``shell`` or
    ``apply_patch``.
    """

    name: str
    call_id: str
    namespace: str | None = None


@dataclass(frozen=True, slots=True)
class ProgramRun:
    """One program: its code, its replay fingerprint, the calls it made and its result.

    ``status`` and ``result`` come from its ``program_output`` and are
    ``None`` while the program waits for the client to answer its calls.
    """

    call_id: str
    code: str
    fingerprint: str = ""
    calls: tuple[ProgramToolCall, ...] = ()
    status: str | None = None
    result: str | None = None


@dataclass(frozen=True, slots=True)
class ProgrammaticToolCallingResult(JsonRendered):
    """The programs of a response, in order."""

    programs: tuple[ProgramRun, ...] = ()

    @property
    def results(self) -> tuple[str, ...]:
        """The result of each finished program."""
        return tuple(p.result for p in self.programs if p.result is not None)


def programmatic_tool_calling_tool(
    config: ProgrammaticToolCallingConfig = DEFAULT_PROGRAMMATIC_TOOL_CALLING_CONFIG,
    *,
    name: str = "programmatic_tool_calling",
) -> HostedTool[ProgrammaticToolCallingConfig]:
    """Lets the model write programs that call the prompt's programmatic tools."""
    return HostedTool(
        kind="programmatic_tool_calling",
        name=name,
        description="Write a program that calls several tools and combines their results.",
        config=config,
    )


_TEMPLATE = (
    "When a task needs many tool calls or combines their results, you may write one program "
    "that makes the calls instead of calling the tools one at a time."
)


class ProgrammaticToolCallingSection(HostedToolSection):
    """A section that explains programmatic tool calling and carries the tool."""

    def __init__(
        self,
        config: ProgrammaticToolCallingConfig = DEFAULT_PROGRAMMATIC_TOOL_CALLING_CONFIG,
        *,
        key: str = "programmatic_tool_calling",
        name: str = "programmatic_tool_calling",
        enabled: bool | EnabledPredicate | None = None,
    ) -> None:
        tool = programmatic_tool_calling_tool(config, name=name)
        super().__init__(tool, title="Programs", key=key, template=_TEMPLATE, enabled=enabled)
