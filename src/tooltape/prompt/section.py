"""Sections: the tree a prompt is made of, carrying text, tools and hosted tools."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from string import Template
from typing import Any, ClassVar, Generic, Self, TypeVar, cast

from tooltape.prompt.declared import declared_list
from tooltape.prompt.errors import PromptRenderError, PromptValidationError
from tooltape.prompt.generic import Specializable
from tooltape.prompt.hosted import HostedTool
from tooltape.prompt.tool import Tool

ParamsT = TypeVar("ParamsT")

SECTION_KEY_PATTERN = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")

EnabledPredicate = Callable[[Any], bool]


def _key_from_title(title: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    return slug[:64] or "section"


class Section(Specializable, Generic[ParamsT]):
    """A node of a prompt: a heading, an optional body, children, and the tools it carries.

    ``Section[Params](...)`` (or ``params_type=``, or the type of
    ``default_params``) names the dataclass that fills the section at render
    time. ``enabled`` may be a bool or a predicate over those params; a
    disabled section contributes no text, no tools and no children.
    """

    __type_arg_names__: ClassVar[tuple[str, ...]] = ("params_type",)

    def __init__(
        self,
        *,
        title: str,
        key: str | None = None,
        default_params: ParamsT | None = None,
        children: Sequence[Section[Any]] = (),
        enabled: bool | EnabledPredicate | None = None,
        tools: Sequence[Tool[Any, Any]] = (),
        hosted_tools: Sequence[HostedTool[Any]] = (),
        params_type: type[ParamsT] | None = None,
        accepts_overrides: bool = True,
    ) -> None:
        self.title = title
        self.key = key if key is not None else _key_from_title(title)
        if not SECTION_KEY_PATTERN.fullmatch(self.key):
            raise PromptValidationError(
                f"Section {title!r}: key {self.key!r} is invalid; use 1-64 lowercase letters, "
                "digits, '.', '_' or '-', starting with a letter or digit."
            )
        if params_type is None and default_params is not None:
            params_type = type(default_params)
        if params_type is not None and not dataclasses.is_dataclass(params_type):
            raise PromptValidationError(
                f"Section {self.key!r}: params type {params_type!r} must be a dataclass."
            )
        if (
            default_params is not None
            and params_type is not None
            and not isinstance(default_params, params_type)
        ):
            raise PromptValidationError(
                f"Section {self.key!r}: default_params is {type(default_params).__name__}, "
                f"expected {params_type.__name__}."
            )
        self.params_type: type[ParamsT] | None = params_type
        self.default_params = default_params
        owner = f"Section {self.key!r}"
        self.children: tuple[Section[Any], ...] = declared_list(
            children, what="children", items="Section", owner=owner
        )
        self.enabled = enabled
        self.accepts_overrides = accepts_overrides
        tools = declared_list(tools, what="tools", items="Tool", owner=owner)
        hosted_tools = declared_list(
            hosted_tools, what="hosted_tools", items="HostedTool", owner=owner
        )
        for tool in tools:
            if not isinstance(tool, Tool):
                raise PromptValidationError(
                    f"Section {self.key!r}: tools must be Tool instances, got {tool!r}."
                )
        for hosted in hosted_tools:
            if not isinstance(hosted, HostedTool):
                raise PromptValidationError(
                    f"Section {self.key!r}: hosted_tools must be HostedTool instances, "
                    f"got {hosted!r}."
                )
        self._tools: tuple[Tool[Any, Any], ...] = tools
        self._hosted_tools: tuple[HostedTool[Any], ...] = hosted_tools

    def __repr__(self) -> str:
        return f"{type(self).__name__}(key={self.key!r}, title={self.title!r})"

    def tools(self) -> tuple[Tool[Any, Any], ...]:
        """Function tools this section itself carries (children not included)."""
        return self._tools

    def hosted_tools(self) -> tuple[HostedTool[Any], ...]:
        """Hosted tools this section itself carries (children not included)."""
        return self._hosted_tools

    def placeholders(self) -> frozenset[str]:
        """Names of the params fields the body needs."""
        return frozenset()

    def is_enabled(self, params: ParamsT | None) -> bool:
        """Whether this section (and so its subtree) takes part in a render."""
        if self.enabled is None:
            return True
        if isinstance(self.enabled, bool):
            return self.enabled
        return bool(self.enabled(params))

    def render_body(self, params: ParamsT | None) -> str:
        """The text under the heading; subclasses override it."""
        return ""

    def render(self, params: ParamsT | None, depth: int = 0, number: str = "1") -> str:
        """Heading plus body, e.g. ``## 1. Title``; children are rendered by the prompt."""
        heading = f"{'#' * (depth + 2)} {number}. {self.title}"
        body = self.render_body(params).strip()
        return f"{heading}\n\n{body}" if body else heading

    def clone(self, **overrides: Any) -> Self:
        """A copy of this section with some constructor arguments replaced."""
        arguments = self._constructor_arguments()
        unknown = set(overrides) - set(arguments)
        if unknown:
            raise TypeError(
                f"{type(self).__name__}.clone() got unknown arguments {sorted(unknown)}; "
                f"accepted: {sorted(arguments)}."
            )
        arguments.update(overrides)
        return type(self)(**arguments)

    def _constructor_arguments(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "key": self.key,
            "default_params": self.default_params,
            "children": self.children,
            "enabled": self.enabled,
            "tools": self._tools,
            "hosted_tools": self._hosted_tools,
            "params_type": self.params_type,
            "accepts_overrides": self.accepts_overrides,
        }


def template_placeholders(template: str) -> frozenset[str]:
    """The ``$name`` / ``${name}`` placeholders in a ``string.Template`` text."""
    names: set[str] = set()
    for match in Template.pattern.finditer(template):
        named = match.group("named") or match.group("braced")
        if named:
            names.add(named)
        elif match.group("invalid") is not None:
            raise PromptValidationError(
                f"Template has an invalid placeholder near {template[match.start() :][:20]!r}; "
                "write $name or ${name}, and $$ for a literal dollar."
            )
    return frozenset(names)


class MarkdownSection(Section[ParamsT]):
    """A section whose body is a ``string.Template`` filled from a params dataclass."""

    def __init__(
        self,
        *,
        title: str,
        template: str,
        key: str | None = None,
        default_params: ParamsT | None = None,
        children: Sequence[Section[Any]] = (),
        enabled: bool | EnabledPredicate | None = None,
        tools: Sequence[Tool[Any, Any]] = (),
        hosted_tools: Sequence[HostedTool[Any]] = (),
        params_type: type[ParamsT] | None = None,
        accepts_overrides: bool = True,
    ) -> None:
        super().__init__(
            title=title,
            key=key,
            default_params=default_params,
            children=children,
            enabled=enabled,
            tools=tools,
            hosted_tools=hosted_tools,
            params_type=params_type,
            accepts_overrides=accepts_overrides,
        )
        self.template = template
        self._placeholders = template_placeholders(template)
        if self.params_type is not None:
            fields = {f.name for f in dataclasses.fields(cast("Any", self.params_type))}
            missing = sorted(self._placeholders - fields)
            if missing:
                raise PromptValidationError(
                    f"Section {self.key!r}: template uses {', '.join('$' + m for m in missing)} "
                    f"but {self.params_type.__name__} has no such field."
                )

    def placeholders(self) -> frozenset[str]:
        return self._placeholders

    def render_body(self, params: ParamsT | None) -> str:
        if not self._placeholders:
            return Template(self.template).safe_substitute()
        if params is None:
            raise PromptRenderError(
                f"Section {self.key!r} needs params with fields "
                f"{', '.join(sorted(self._placeholders))}; pass a dataclass instance to render()."
            )
        values = {f.name: getattr(params, f.name) for f in dataclasses.fields(cast("Any", params))}
        missing = sorted(self._placeholders - set(values))
        if missing:
            raise PromptRenderError(
                f"Section {self.key!r}: {type(params).__name__} has no field(s) "
                f"{', '.join(missing)} required by the template."
            )
        return Template(self.template).substitute(values)

    def _constructor_arguments(self) -> dict[str, Any]:
        arguments = super()._constructor_arguments()
        arguments["template"] = self.template
        return arguments
