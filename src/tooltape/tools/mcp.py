"""Hosted MCP: the provider calls a remote Model Context Protocol server for the model."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal, TypeAlias, get_args

from tooltape.prompt import HostedTool
from tooltape.prompt.section import EnabledPredicate
from tooltape.prompt.signature import check_positional_call
from tooltape.tools.callers import Caller, check_allowed_callers
from tooltape.tools.hosted_section import HostedToolSection
from tooltape.tools.rendering import JsonRendered
from tooltape.tools.validation import check_bool, check_choice, check_text, invalid, string_tuple

_LABEL = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_TUNNEL = re.compile(r"^tunnel_[a-z0-9]{32}$")

McpConnector = Literal[
    "connector_dropbox",
    "connector_gmail",
    "connector_googlecalendar",
    "connector_googledrive",
    "connector_microsoftteams",
    "connector_outlookcalendar",
    "connector_outlookemail",
    "connector_sharepoint",
]
MCP_CONNECTORS: tuple[McpConnector, ...] = get_args(McpConnector)
"""The service connectors the provider's specification lists for ``connector_id``."""


@dataclass(frozen=True, slots=True)
class McpToolFilter:
    """Which of the server's tools the model sees: by name, by read-only hint, or both.

    ``read_only=True`` keeps the tools the server annotates with
    ``readOnlyHint``; ``False`` keeps the others.
    """

    tool_names: tuple[str, ...] = ()
    read_only: bool | None = None

    def __post_init__(self) -> None:
        names = string_tuple("McpToolFilter", "tool_names", self.tool_names)
        object.__setattr__(self, "tool_names", names)
        if self.read_only is not None:
            check_bool("McpToolFilter", "read_only", self.read_only)
        if not names and self.read_only is None:
            invalid(
                "McpToolFilter", "tool_names", "the filter is empty", "name tools or set read_only"
            )


@dataclass(frozen=True, slots=True)
class McpApprovalPolicy:
    """Per tool approval: tools in ``always`` need the client's approval, ``never`` do not."""

    always: tuple[str, ...] = ()
    never: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("always", "never"):
            object.__setattr__(
                self, name, string_tuple("McpApprovalPolicy", name, getattr(self, name))
            )
        if not self.always and not self.never:
            invalid("McpApprovalPolicy", "always", "both lists are empty", "name some tools")
        both = sorted(set(self.always) & set(self.never))
        if both:
            invalid(
                "McpApprovalPolicy", "never", f"{', '.join(both)} is also in always", "pick one"
            )


@dataclass(frozen=True, slots=True, repr=False)
class HostedMcpConfig:
    """Which MCP server the provider talks to and what it may call there.

    Set exactly one of ``server_url`` (an http(s) URL), ``connector_id`` (one
    of ``MCP_CONNECTORS``, such as ``connector_gmail``) and ``tunnel_id`` (a
    Secure MCP Tunnel, ``tunnel_`` and 32 lower-case letters or digits).
    ``allowed_tools`` limits the tools the model sees, by name or with an
    ``McpToolFilter``; ``require_approval`` is ``"always"`` (the API's own
    default, and this one's: it is always sent), ``"never"`` or an
    ``McpApprovalPolicy``; ``None`` means ``"always"``. Calls that need
    approval are answered by the tool's approver (``hosted_mcp_tool(...,
    approver=...)``). ``headers`` and ``authorization`` are sent to the
    server (and redacted from cassettes); the repr shows the header names
    only and hides the authorization. ``defer_loading=True`` leaves the
    server's tools out of the model's context until a tool search finds them.
    ``allowed_callers`` says whether the model (``direct``), programs it
    writes (``programmatic``) or both may call the server (``None``: not sent).
    """

    server_label: str
    server_url: str | None = None
    connector_id: McpConnector | None = None
    allowed_tools: tuple[str, ...] | McpToolFilter | None = None
    require_approval: Literal["always", "never"] | McpApprovalPolicy | None = "always"
    headers: Mapping[str, str] | None = None
    authorization: str | None = None
    server_description: str | None = None
    tunnel_id: str | None = None
    defer_loading: bool = False
    allowed_callers: tuple[Caller, ...] | None = None

    def __post_init__(self) -> None:
        owner = "HostedMcpConfig"
        object.__setattr__(
            self, "allowed_callers", check_allowed_callers(owner, self.allowed_callers)
        )
        if not isinstance(self.server_label, str) or not _LABEL.fullmatch(self.server_label):
            invalid(
                owner,
                "server_label",
                f"{self.server_label!r} is not a label",
                "use 1-64 letters, digits, '_' or '-' (for example 'deepwiki')",
            )
        given = [
            name
            for name in ("server_url", "connector_id", "tunnel_id")
            if getattr(self, name) is not None
        ]
        if len(given) != 1:
            invalid(
                owner,
                "server_url",
                "set exactly one of server_url, connector_id and tunnel_id"
                + (f" (got {', '.join(given)})" if given else ""),
                "give the server's URL, a connector id or a tunnel id: one of them",
            )
        if self.server_url is not None and (
            not isinstance(self.server_url, str)
            or not self.server_url.startswith(("https://", "http://"))
        ):
            invalid(owner, "server_url", f"{self.server_url!r}", "use an http(s):// URL")
        check_choice(owner, "connector_id", self.connector_id, MCP_CONNECTORS)
        if self.tunnel_id is not None and (
            not isinstance(self.tunnel_id, str) or not _TUNNEL.fullmatch(self.tunnel_id)
        ):
            invalid(
                owner,
                "tunnel_id",
                f"{self.tunnel_id!r} is not a tunnel id",
                "use the id the tunnel was created with: 'tunnel_' and 32 [a-z0-9] characters",
            )
        if self.allowed_tools is not None and not isinstance(self.allowed_tools, McpToolFilter):
            tools = string_tuple(owner, "allowed_tools", self.allowed_tools)
            object.__setattr__(self, "allowed_tools", tools)
        check_bool(owner, "defer_loading", self.defer_loading)
        if self.require_approval is None:
            object.__setattr__(self, "require_approval", "always")
        if not isinstance(
            self.require_approval, McpApprovalPolicy
        ) and self.require_approval not in (
            "always",
            "never",
        ):
            invalid(
                owner,
                "require_approval",
                f"{self.require_approval!r}",
                "use 'always', 'never' or McpApprovalPolicy(...)",
            )
        if self.headers is not None:
            if not all(isinstance(k, str) and isinstance(v, str) for k, v in self.headers.items()):
                invalid(owner, "headers", "keys and values must be strings", "convert them")
            object.__setattr__(self, "headers", dict(self.headers))
        if self.authorization is not None and (
            not isinstance(self.authorization, str) or not self.authorization.strip()
        ):
            # Not check_text: its message would show the value.
            invalid(
                owner,
                "authorization",
                f"a {type(self.authorization).__name__} that is not a non-empty string",
                "leave it as None or set the token as text",
            )
        check_text(owner, "server_description", self.server_description)

    def __repr__(self) -> str:
        shown = {
            "server_label": self.server_label,
            "server_url": self.server_url,
            "connector_id": self.connector_id,
            "allowed_tools": self.allowed_tools,
            "require_approval": self.require_approval,
            "headers": list(self.headers) if self.headers is not None else None,
            "authorization": "***" if self.authorization is not None else None,
            "server_description": self.server_description,
            "tunnel_id": self.tunnel_id,
            "defer_loading": self.defer_loading,
            "allowed_callers": self.allowed_callers,
        }
        return f"HostedMcpConfig({', '.join(f'{k}={v!r}' for k, v in shown.items())})"


@dataclass(frozen=True, slots=True)
class McpToolInfo:
    """A tool the server listed: its name, description and JSON Schema input."""

    name: str
    description: str | None = None
    input_schema: Mapping[str, object] = field(default_factory=lambda: {})


@dataclass(frozen=True, slots=True)
class McpToolCall:
    """A call the provider made on the server and what came back.

    ``arguments`` is the decoded JSON object (``raw_arguments`` the text
    sent); ``error`` is the server's or provider's error text, if any.
    """

    id: str
    name: str
    arguments: Mapping[str, object] = field(default_factory=lambda: {})
    output: str | None = None
    error: str | None = None
    raw_arguments: str = ""


@dataclass(frozen=True, slots=True)
class McpApprovalRequest:
    """The provider asks the client to approve a call before making it.

    ``id`` is the approval request's id, ``name`` the server's tool,
    ``arguments`` what the model wants to call it with, ``server_label`` the
    server.
    """

    id: str
    name: str
    arguments: Mapping[str, object] = field(default_factory=lambda: {})
    raw_arguments: str = ""
    server_label: str = ""


@dataclass(frozen=True, slots=True)
class McpApprovalDecision:
    """An approver's answer: approve the call or not, and optionally why."""

    approve: bool
    reason: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.approve, bool):
            invalid("McpApprovalDecision", "approve", f"{self.approve!r}", "use True or False")
        check_text("McpApprovalDecision", "reason", self.reason)

    @classmethod
    def approved(cls, reason: str | None = None) -> McpApprovalDecision:
        """Let the provider make the call."""
        return cls(True, reason)

    @classmethod
    def denied(cls, reason: str | None = None) -> McpApprovalDecision:
        """Refuse the call; the model is told (with ``reason``, if given)."""
        return cls(False, reason)


McpApprover: TypeAlias = Callable[[McpApprovalRequest], "McpApprovalDecision | bool"]
"""``approver(request) -> McpApprovalDecision | bool``: answers approval requests of a server."""

APPROVER_SHAPE = "approver(request)"


def check_approver(approver: object, *, owner: str) -> McpApprover:
    """Return ``approver`` if it can be called with one approval request, else raise
    ``PromptValidationError`` (so a bad one is refused when declared, not when asked)."""
    if not callable(approver):
        invalid(owner, "approver", f"{approver!r} is not callable", f"pass {APPROVER_SHAPE}")
    check_positional_call(approver, 1, owner=owner, shape=APPROVER_SHAPE)
    return approver  # pyright: ignore[reportReturnType]


@dataclass(frozen=True, slots=True)
class McpInvocation:
    """What one MCP item asked for: list the tools (``name`` is ``None``) or call one."""

    server_label: str
    name: str | None = None
    arguments: Mapping[str, object] = field(default_factory=lambda: {})


@dataclass(frozen=True, slots=True)
class HostedMcpResult(JsonRendered):
    """Everything the provider did with one MCP server in a response."""

    server_label: str
    listed_tools: tuple[McpToolInfo, ...] = ()
    calls: tuple[McpToolCall, ...] = ()
    approval_requests: tuple[McpApprovalRequest, ...] = ()
    text: str = ""


@dataclass(frozen=True, slots=True)
class HostedMcpTool(HostedTool[HostedMcpConfig]):
    """A hosted MCP tool and the approver that answers its approval requests.

    The provider asks before each call ``require_approval`` covers; the
    approver gets an ``McpApprovalRequest`` and returns an
    ``McpApprovalDecision`` (or a bool). Without an approver such a request
    ends the evaluation with an error saying how to give one.
    """

    approver: McpApprover | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        HostedTool.__post_init__(self)  # pyright: ignore[reportUnknownMemberType]
        if self.approver is not None:
            check_approver(self.approver, owner=f"Hosted MCP tool {self.name!r}")


def hosted_mcp_tool(
    config: HostedMcpConfig, *, name: str = "mcp", approver: McpApprover | None = None
) -> HostedMcpTool:
    """A hosted MCP tool for one server (there is no default server)."""
    return HostedMcpTool(
        kind="mcp",
        name=name,
        description=f"Call tools of the remote MCP server {config.server_label!r}."[:200],
        config=config,
        approver=approver,
    )


_TEMPLATE = (
    "You can call the tools of a remote MCP server. Use them when the task needs that "
    "server's data or actions, and say which tool results you relied on."
)


class HostedMcpSection(HostedToolSection):
    """A section that explains a remote MCP server and carries the tool."""

    def __init__(
        self,
        config: HostedMcpConfig,
        *,
        key: str = "mcp",
        name: str = "mcp",
        enabled: bool | EnabledPredicate | None = None,
        approver: McpApprover | None = None,
    ) -> None:
        tool = hosted_mcp_tool(config, name=name, approver=approver)
        super().__init__(
            tool, title="Remote MCP Server", key=key, template=_TEMPLATE, enabled=enabled
        )
