"""Code interpreter: the provider runs Python in a sandboxed container."""

from __future__ import annotations

from dataclasses import dataclass

from tooltape.prompt import HostedTool
from tooltape.prompt.section import EnabledPredicate
from tooltape.tools.callers import Caller, check_allowed_callers
from tooltape.tools.hosted_section import HostedToolSection
from tooltape.tools.network import NetworkPolicy, check_network_policy
from tooltape.tools.rendering import JsonRendered
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
class CodeInterpreterConfig:
    """Which container the code runs in.

    With ``container_id`` the code runs in that existing container;
    without it the provider creates one, with ``file_ids`` (at most 50)
    mounted, ``memory_limit`` (``1g``/``4g``/``16g``/``64g``) and
    ``network_policy`` (``NetworkDisabled()`` / ``NetworkAllowlist(...)``) if
    given. ``include_outputs`` asks for logs and images in the response.
    ``allowed_callers`` says whether the model (``direct``), programs it
    writes (``programmatic``) or both may run code (``None``: not sent).
    """

    container_id: str | None = None
    file_ids: tuple[str, ...] = ()
    memory_limit: MemoryLimit | None = None
    include_outputs: bool = True
    network_policy: NetworkPolicy | None = None
    allowed_callers: tuple[Caller, ...] | None = None

    def __post_init__(self) -> None:
        owner = "CodeInterpreterConfig"
        object.__setattr__(
            self, "allowed_callers", check_allowed_callers(owner, self.allowed_callers)
        )
        check_text(owner, "container_id", self.container_id)
        file_ids = string_tuple(owner, "file_ids", self.file_ids)
        check_max_items(owner, "file_ids", file_ids, MAX_CONTAINER_FILES)
        object.__setattr__(self, "file_ids", file_ids)
        check_memory_limit(owner, "memory_limit", self.memory_limit)
        check_network_policy(owner, self.network_policy)
        new_container_only = (
            self.file_ids or self.memory_limit is not None or self.network_policy is not None
        )
        if self.container_id is not None and new_container_only:
            invalid(
                owner,
                "container_id",
                "an existing container cannot also take file_ids, memory_limit or network_policy",
                "drop container_id to get a new container, or drop the new-container settings",
            )
        if not isinstance(self.include_outputs, bool):
            invalid(owner, "include_outputs", f"{self.include_outputs!r}", "use True/False")


DEFAULT_CODE_INTERPRETER_CONFIG = CodeInterpreterConfig()


@dataclass(frozen=True, slots=True)
class CodeImage:
    """An image the code produced: decoded bytes and their MIME type.

    ``url`` is kept when the provider linked the image instead of inlining
    it (``data`` is then empty).
    """

    mime_type: str
    data: bytes
    url: str | None = None


@dataclass(frozen=True, slots=True)
class ContainerFileCitation:
    """A file in the container the answer links to; ``span`` is the cited text range."""

    file_id: str
    filename: str | None = None
    container_id: str | None = None
    span: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class CodeInterpreterCall:
    """One run: the code and the container it ran in."""

    code: str | None = None
    container_id: str | None = None


@dataclass(frozen=True, slots=True)
class CodeInterpreterResult(JsonRendered):
    """What the code interpreter produced across its runs.

    ``codes`` holds each run's code in order, ``logs`` each logs output,
    ``images`` the images, ``files`` the container files the answer cites.
    """

    text: str
    codes: tuple[str, ...] = ()
    container_id: str | None = None
    logs: tuple[str, ...] = ()
    images: tuple[CodeImage, ...] = ()
    files: tuple[ContainerFileCitation, ...] = ()

    @property
    def code(self) -> str:
        """All the code that ran, runs separated by a blank line."""
        return "\n\n".join(self.codes)


def code_interpreter_tool(
    config: CodeInterpreterConfig = DEFAULT_CODE_INTERPRETER_CONFIG,
    *,
    name: str = "code_interpreter",
) -> HostedTool[CodeInterpreterConfig]:
    """A code interpreter hosted tool."""
    return HostedTool(
        kind="code_interpreter",
        name=name,
        description="Run Python code in a sandbox to compute, analyse data and draw charts.",
        config=config,
    )


_TEMPLATE = (
    "You can run Python code in a sandbox. Use it for calculations, data analysis and charts "
    "instead of estimating, and report the results the code printed."
)


class CodeInterpreterSection(HostedToolSection):
    """A section that explains the code interpreter and carries the tool."""

    def __init__(
        self,
        config: CodeInterpreterConfig = DEFAULT_CODE_INTERPRETER_CONFIG,
        *,
        key: str = "code_interpreter",
        name: str = "code_interpreter",
        enabled: bool | EnabledPredicate | None = None,
    ) -> None:
        tool = code_interpreter_tool(config, name=name)
        super().__init__(
            tool,
            title="Code Interpreter",
            key=key,
            template=_TEMPLATE,
            enabled=enabled,
        )
