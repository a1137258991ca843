"""``Prompt``: a validated tree of sections, rendered into text plus tools."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from tooltape.prompt.declared import declared_list
from tooltape.prompt.errors import PromptRenderError, PromptValidationError
from tooltape.prompt.generic import Specializable
from tooltape.prompt.hosted import HostedTool
from tooltape.prompt.section import Section
from tooltape.prompt.signature import check_positional_call
from tooltape.prompt.tool import Tool

OutputT = TypeVar("OutputT")

HOOK_SHAPE = "hook(ctx, args, call_next)"


@dataclass(frozen=True, slots=True)
class RenderedPrompt(Specializable, Generic[OutputT]):
    """What a render produced: the text and the tools of the enabled sections, in order."""

    prompt_name: str
    text: str
    tools: tuple[Tool[Any, Any], ...] = ()
    hosted_tools: tuple[HostedTool[Any], ...] = ()
    tool_param_descriptions: Mapping[str, Mapping[str, str]] = field(default_factory=lambda: {})
    output_type: type[OutputT] | None = None

    def tool(self, name: str) -> Tool[Any, Any] | None:
        """The rendered function tool called ``name``, if any."""
        return next((t for t in self.tools if t.name == name), None)

    def hosted_tool(self, name: str) -> HostedTool[Any] | None:
        """The rendered hosted tool called ``name``, if any."""
        return next((t for t in self.hosted_tools if t.name == name), None)


@dataclass(frozen=True, slots=True)
class _Node:
    section: Section[Any]
    depth: int
    path: str
    parent: str


def _walk(sections: Sequence[Section[Any]], depth: int = 0, parent: str = "") -> Iterator[_Node]:
    for section in sections:
        path = f"{parent}/{section.key}" if parent else section.key
        yield _Node(section, depth, path, parent)
        yield from _walk(section.children, depth + 1, path)


class Prompt(Specializable, Generic[OutputT]):
    """A namespaced, validated prompt.

    Building it walks the section tree depth-first and refuses duplicate tool
    or hosted tool names and malformed hooks. ``Prompt[Answer](...)`` (or
    ``output_type=``) declares a structured output type.
    """

    __type_arg_names__: ClassVar[tuple[str, ...]] = ("output_type",)

    def __init__(
        self,
        *,
        ns: str,
        key: str,
        name: str | None = None,
        sections: Sequence[Section[Any]] = (),
        tool_hooks: Sequence[Callable[..., Any]] = (),
        output_type: type[OutputT] | None = None,
    ) -> None:
        if not ns or not key:
            raise PromptValidationError("Prompt needs a non-empty ns and key.")
        self.ns = ns
        self.key = key
        self.name = name or key
        owner = f"Prompt {self.name!r}"
        self.sections: tuple[Section[Any], ...] = declared_list(
            sections, what="sections", items="Section", owner=owner
        )
        self.output_type: type[OutputT] | None = output_type
        hooks = declared_list(tool_hooks, what="tool_hooks", items="hooks", owner=owner)
        for hook in hooks:
            check_positional_call(hook, 3, owner=f"{owner} tool hook", shape=HOOK_SHAPE)
        self.tool_hooks: tuple[Callable[..., Any], ...] = hooks
        self._nodes = tuple(_walk(self.sections))
        self._check_tree()

    def __repr__(self) -> str:
        return f"Prompt(ns={self.ns!r}, key={self.key!r}, name={self.name!r})"

    def _check_tree(self) -> None:
        paths: dict[str, Section[Any]] = {}
        owners: dict[str, str] = {}
        for node in self._nodes:
            if not isinstance(node.section, Section):
                raise PromptValidationError(
                    f"Prompt {self.name!r}: {node.section!r} is not a Section."
                )
            if node.path in paths:
                raise PromptValidationError(
                    f"Prompt {self.name!r}: two sections share the key path {node.path!r}: "
                    f"{paths[node.path]!r} and {node.section!r}; give one of them another "
                    "key= (sections without a key take theirs from the title or name)."
                )
            paths[node.path] = node.section
            declared = [t.name for t in node.section.tools()]
            declared += [h.name for h in node.section.hosted_tools()]
            for tool_name in declared:
                if tool_name in owners:
                    raise PromptValidationError(
                        f"Prompt {self.name!r}: tool name {tool_name!r} is declared in section "
                        f"{owners[tool_name]!r} and again in {node.path!r}; tool and hosted "
                        "tool names must be unique across the prompt."
                    )
                owners[tool_name] = node.path

    @property
    def tools(self) -> tuple[Tool[Any, Any], ...]:
        """Every function tool declared anywhere in the tree, depth-first."""
        return tuple(t for n in self._nodes for t in n.section.tools())

    @property
    def hosted_tools(self) -> tuple[HostedTool[Any], ...]:
        """Every hosted tool declared anywhere in the tree, depth-first."""
        return tuple(t for n in self._nodes for t in n.section.hosted_tools())

    def _params_for(self, section: Section[Any], given: Sequence[object]) -> Any:
        if section.params_type is not None:
            match = next((p for p in given if isinstance(p, section.params_type)), None)
            if match is not None:
                return match
            if section.default_params is not None or not section.placeholders():
                return section.default_params
            raise PromptRenderError(
                f"Prompt {self.name!r}: section {section.key!r} needs "
                f"{section.params_type.__name__}; pass an instance to render()/evaluate()."
            )
        needed = section.placeholders()
        if not needed:
            return section.default_params
        for candidate in given:
            names = {f.name for f in dataclasses.fields(candidate)}  # type: ignore[arg-type]
            if needed <= names:
                return candidate
        if section.default_params is not None:
            return section.default_params
        raise PromptRenderError(
            f"Prompt {self.name!r}: section {section.key!r} needs params with fields "
            f"{', '.join(sorted(needed))}; pass a dataclass instance that has them."
        )

    def render(self, *params: object) -> RenderedPrompt[OutputT]:
        """Render the enabled sections with ``params`` (dataclass instances)."""
        for value in params:
            if isinstance(value, type) or not dataclasses.is_dataclass(value):
                raise PromptRenderError(
                    f"Prompt {self.name!r}: render() takes dataclass instances, got {value!r}."
                )
        seen_types = [type(p) for p in params]
        duplicates = {t.__name__ for t in seen_types if seen_types.count(t) > 1}
        if duplicates:
            raise PromptRenderError(
                f"Prompt {self.name!r}: more than one {', '.join(sorted(duplicates))} given; "
                "pass each params type once."
            )
        parts: list[str] = []
        tools: list[Tool[Any, Any]] = []
        hosted: list[HostedTool[Any]] = []
        disabled_prefixes: list[str] = []
        # Headings are numbered among the siblings actually rendered, so a
        # disabled section leaves no gap ("1., 2." rather than "1., 3.").
        numbers: dict[str, str] = {}
        rendered_children: dict[str, int] = {}
        for node in self._nodes:
            if any(node.path.startswith(prefix) for prefix in disabled_prefixes):
                continue
            section_params = self._params_for(node.section, params)
            if not node.section.is_enabled(section_params):
                disabled_prefixes.append(node.path + "/")
                continue
            position = rendered_children.get(node.parent, 0) + 1
            rendered_children[node.parent] = position
            number = f"{numbers[node.parent]}.{position}" if node.parent else str(position)
            numbers[node.path] = number
            text = node.section.render(section_params, node.depth, number)
            if text:
                parts.append(text)
            tools.extend(node.section.tools())
            hosted.extend(node.section.hosted_tools())
        descriptions = {t.name: t.param_descriptions() for t in tools}
        return RenderedPrompt(
            prompt_name=self.name,
            text="\n\n".join(parts),
            tools=tuple(tools),
            hosted_tools=tuple(hosted),
            tool_param_descriptions={k: v for k, v in descriptions.items() if v},
            output_type=self.output_type,
        )
