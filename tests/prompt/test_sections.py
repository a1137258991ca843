"""Sections and prompts: which tools a render exposes, and what text it produces.

Rules (tool-runtime seed, "Prompt Rendering", and DESIGN): a prompt walks its
section tree depth-first; a render exposes the tools and hosted tools of
enabled sections only, in declaration order, and a disabled section hides its
whole subtree; tool and hosted tool names are unique across the tree
(refused when the prompt is built, enabled or not); ``MarkdownSection``
substitutes ``$field`` from a params dataclass.
"""

from dataclasses import dataclass, field
from typing import Any

import pytest

from tooltape import (
    HostedTool,
    MarkdownSection,
    Prompt,
    PromptRenderError,
    PromptValidationError,
    Section,
    Tool,
)


@dataclass(frozen=True)
class NoParams:
    pass


@dataclass(frozen=True)
class LookupParams:
    entity_id: str = field(metadata={"description": "Global identifier to fetch"})
    include_related: bool = False


@dataclass(frozen=True)
class SearchConfig:
    depth: int = 1


@dataclass(frozen=True)
class Flags:
    search: bool


@dataclass(frozen=True)
class Greeting:
    who: str
    place: str = "here"


@dataclass(frozen=True)
class Answer:
    text: str


def tool(name: str) -> Tool[NoParams, Any]:
    return Tool[NoParams, Any](name=name, description=f"Tool {name}.")


def hosted(name: str) -> HostedTool[SearchConfig]:
    return HostedTool(kind="web_search", name=name, description="Search.", config=SearchConfig())


def names(items: tuple[Any, ...]) -> list[str]:
    return [item.name for item in items]


def tree(*, b_enabled: bool = True) -> list[Section[Any]]:
    """A(a1, a2; ha) > [B(b1; hb) > [C(c1)], D(d1)], E(e1; he), declared in that order."""
    return [
        Section(
            title="A",
            tools=[tool("a1"), tool("a2")],
            hosted_tools=[hosted("ha")],
            children=[
                Section(
                    title="B",
                    enabled=b_enabled,
                    tools=[tool("b1")],
                    hosted_tools=[hosted("hb")],
                    children=[Section(title="C", tools=[tool("c1")])],
                ),
                Section(title="D", tools=[tool("d1")]),
            ],
        ),
        Section(title="E", tools=[tool("e1")], hosted_tools=[hosted("he")]),
    ]


# --- collection order and enablement -----------------------------------------------------


def test_tools_are_collected_depth_first_in_declaration_order() -> None:
    prompt = Prompt(ns="tests", key="order", sections=tree())
    rendered = prompt.render()
    assert names(rendered.tools) == ["a1", "a2", "b1", "c1", "d1", "e1"]
    assert names(rendered.hosted_tools) == ["ha", "hb", "he"]
    assert names(prompt.tools) == names(rendered.tools)
    assert names(prompt.hosted_tools) == names(rendered.hosted_tools)


def test_a_section_s_own_tools_exclude_its_children_s() -> None:
    a = tree()[0]
    assert names(a.tools()) == ["a1", "a2"]
    assert names(a.hosted_tools()) == ["ha"]


def test_a_disabled_section_hides_its_own_and_its_children_s_tools_and_text() -> None:
    prompt = Prompt(ns="tests", key="disabled", sections=tree(b_enabled=False))
    rendered = prompt.render()
    assert names(rendered.tools) == ["a1", "a2", "d1", "e1"]
    assert names(rendered.hosted_tools) == ["ha", "he"]
    assert " B" not in rendered.text
    assert " C" not in rendered.text
    assert " D" in rendered.text
    # The prompt still knows every declared tool; only the render filters.
    assert "c1" in names(prompt.tools)


def test_enabled_predicate_is_evaluated_over_the_section_params() -> None:
    seen: list[object] = []

    def wants_search(flags: Flags) -> bool:
        seen.append(flags)
        return flags.search

    prompt = Prompt(
        ns="tests",
        key="predicate",
        sections=[
            Section(title="Always", tools=[tool("always")]),
            Section[Flags](
                title="Search",
                enabled=wants_search,
                tools=[tool("search")],
                hosted_tools=[hosted("web")],
                children=[Section(title="Search tips", tools=[tool("tips")])],
            ),
        ],
    )
    on, off = Flags(search=True), Flags(search=False)
    assert names(prompt.render(on).tools) == ["always", "search", "tips"]
    assert names(prompt.render(on).hosted_tools) == ["web"]
    assert names(prompt.render(off).tools) == ["always"]
    assert prompt.render(off).hosted_tools == ()
    assert set(seen) == {on, off}, "the predicate is given the params passed to render()"


# --- uniqueness --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sections",
    [
        pytest.param([Section(title="S", tools=[tool("x"), tool("x")])], id="same-section"),
        pytest.param(
            [Section(title="S", tools=[tool("x")]), Section(title="T", tools=[tool("x")])],
            id="siblings",
        ),
        pytest.param(
            [
                Section(
                    title="S",
                    tools=[tool("x")],
                    children=[
                        Section(title="Deep", children=[Section(title="Deeper", tools=[tool("x")])])
                    ],
                )
            ],
            id="nested",
        ),
        pytest.param(
            [
                Section(title="S", tools=[tool("x")]),
                Section(title="T", enabled=False, tools=[tool("x")]),
            ],
            id="in-a-disabled-section",
        ),
        pytest.param(
            [Section(title="S", tools=[tool("x")]), Section(title="T", hosted_tools=[hosted("x")])],
            id="tool-vs-hosted-tool",
        ),
        pytest.param(
            [
                Section(title="S", hosted_tools=[hosted("x")]),
                Section(title="T", hosted_tools=[hosted("x")]),
            ],
            id="hosted-vs-hosted",
        ),
    ],
)
def test_duplicate_tool_names_anywhere_in_the_tree_are_refused_at_build(
    sections: list[Section[Any]],
) -> None:
    with pytest.raises(PromptValidationError, match="'x'"):
        Prompt(ns="tests", key="dupes", sections=sections)


def test_two_sibling_sections_with_one_key_are_both_named_with_the_fix() -> None:
    first = Section(title="Notes", tools=[tool("a")])
    second = Section(title="notes", tools=[tool("b")])
    with pytest.raises(PromptValidationError) as refused:
        Prompt(ns="tests", key="keys", sections=[first, second])
    message = str(refused.value)
    assert "'notes'" in message
    assert repr(first) in message and "title='Notes'" in message
    assert repr(second) in message and "title='notes'" in message
    assert "key=" in message


# --- markdown sections and params --------------------------------------------------------


def test_markdown_section_substitutes_fields_from_the_params_dataclass() -> None:
    prompt = Prompt(
        ns="tests",
        key="greet",
        sections=[
            MarkdownSection[Greeting](
                title="Greeting", template="Hello $who, welcome to ${place}. Costs $$5."
            )
        ],
    )
    text = prompt.render(Greeting(who="Ada", place="Paris")).text
    assert "Hello Ada, welcome to Paris. Costs $5." in text


def test_default_params_fill_the_template_when_none_are_passed() -> None:
    section = MarkdownSection(
        title="Greeting", template="Hello $who.", default_params=Greeting(who="you")
    )
    assert "Hello you." in Prompt(ns="tests", key="d", sections=[section]).render().text


def test_rendering_without_the_params_a_template_needs_is_a_render_error() -> None:
    prompt = Prompt(
        ns="tests",
        key="greet",
        sections=[MarkdownSection[Greeting](title="Greeting", template="Hello $who.")],
    )
    with pytest.raises(PromptRenderError, match="Greeting"):
        prompt.render()


def test_a_placeholder_that_is_not_a_field_of_the_params_type_is_refused_at_build() -> None:
    with pytest.raises(PromptValidationError, match=r"\$nickname"):
        MarkdownSection[Greeting](title="Greeting", template="Hello $nickname.")


def test_render_refuses_params_that_are_not_dataclass_instances() -> None:
    prompt = Prompt(ns="tests", key="p", sections=[Section(title="S")])
    with pytest.raises(PromptRenderError):
        prompt.render({"who": "Ada"})


# --- headings ----------------------------------------------------------------------------


def headings(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("#")]


def test_headings_are_numbered_by_position_and_nested_by_depth() -> None:
    text = Prompt(ns="tests", key="h", sections=tree()).render().text
    assert headings(text) == [
        "## 1. A",
        "### 1.1. B",
        "#### 1.1.1. C",
        "### 1.2. D",
        "## 2. E",
    ]


def test_numbering_counts_only_the_sections_that_are_rendered() -> None:
    text = Prompt(ns="tests", key="h", sections=tree(b_enabled=False)).render().text
    assert headings(text) == ["## 1. A", "### 1.1. D", "## 2. E"]


def test_section_body_follows_its_heading() -> None:
    prompt = Prompt(
        ns="tests", key="b", sections=[MarkdownSection(title="Guidance", template="Use tools.")]
    )
    assert prompt.render().text == "## 1. Guidance\n\nUse tools."


# --- clone, descriptions, output type ----------------------------------------------------


def test_clone_copies_a_section_with_some_arguments_replaced() -> None:
    original = MarkdownSection[Greeting](
        title="Greeting", template="Hello $who.", tools=[tool("wave")]
    )
    copy = original.clone(title="Salutation")
    assert copy is not original
    assert type(copy) is MarkdownSection
    assert copy.title == "Salutation"
    assert original.title == "Greeting"
    assert copy.template == original.template
    assert copy.params_type is Greeting
    assert names(copy.tools()) == ["wave"]

    quiet = original.clone(tools=[])
    assert quiet.tools() == ()
    assert names(original.tools()) == ["wave"]


def test_clone_refuses_arguments_the_section_does_not_take() -> None:
    with pytest.raises(TypeError, match="colour"):
        Section(title="S").clone(colour="red")


def test_tool_param_descriptions_come_from_field_metadata_of_rendered_tools() -> None:
    lookup = Tool[LookupParams, Any](name="lookup_entity", description="Fetch an entity.")
    hidden = Tool[LookupParams, Any](name="hidden_lookup", description="Fetch an entity.")
    prompt = Prompt(
        ns="tests",
        key="desc",
        sections=[
            Section(title="Tools", tools=[lookup, tool("plain")]),
            Section(title="Off", enabled=False, tools=[hidden]),
        ],
    )
    assert prompt.render().tool_param_descriptions == {
        "lookup_entity": {"entity_id": "Global identifier to fetch"}
    }


def test_prompt_subscript_records_the_output_type() -> None:
    typed = Prompt[Answer](ns="tests", key="typed", sections=[Section(title="S")])
    untyped = Prompt(ns="tests", key="untyped", sections=[Section(title="S")])
    assert typed.output_type is Answer
    assert typed.render().output_type is Answer
    assert untyped.render().output_type is None


def test_rendered_prompt_finds_tools_by_name() -> None:
    rendered = Prompt(ns="tests", key="find", sections=tree()).render()
    assert rendered.tool("c1") is rendered.tools[3]
    assert rendered.hosted_tool("hb") is rendered.hosted_tools[1]
    assert rendered.tool("missing") is None


def _noop_hook(ctx: Any, args: Any, call_next: Any) -> Any:
    return call_next(args)


@pytest.mark.parametrize(
    ("build", "fragment"),
    [
        (
            lambda: Prompt(ns="t", key="p", sections=MarkdownSection(title="T", template="x")),
            "Prompt 'p': sections must be a list of Section, got MarkdownSection; "
            "write sections=[...]",
        ),
        (
            lambda: Prompt(ns="t", key="p", sections=[], tool_hooks=_noop_hook),
            "Prompt 'p': tool_hooks must be a list of hooks, got function; write tool_hooks=[...]",
        ),
        (
            lambda: Section(title="A", tools=tool("lookup")),
            "Section 'a': tools must be a list of Tool, got Tool; write tools=[...]",
        ),
        (
            lambda: Section(title="A", children=Section(title="B")),
            "Section 'a': children must be a list of Section, got Section; write children=[...]",
        ),
        (
            lambda: Section(title="A", hosted_tools=hosted("search")),
            "Section 'a': hosted_tools must be a list of HostedTool, got HostedTool; "
            "write hosted_tools=[...]",
        ),
    ],
    ids=["sections", "tool_hooks", "tools", "children", "hosted_tools"],
)
def test_one_item_where_a_list_belongs_is_refused_naming_the_argument(
    build: Any, fragment: str
) -> None:
    with pytest.raises(PromptValidationError) as raised:
        build()
    assert fragment in str(raised.value)
