"""``tooltape specs MODULE:ATTR``: the request body, and errors that say what to do."""

from __future__ import annotations

import importlib
import json
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import Run

from tooltape import Prompt, Section
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.tools.web_search import web_search_tool

PROMPTS = textwrap.dedent(
    """
    from dataclasses import dataclass

    from tooltape import MarkdownSection, Prompt, Section, Tool, ToolResult
    from tooltape.tools.web_search import web_search_tool


    @dataclass(frozen=True)
    class Question:
        city: str


    @dataclass(frozen=True)
    class Lookup:
        name: str


    def lookup(params: Lookup, *, context) -> ToolResult[str]:
        return ToolResult.ok(params.name)


    ASK = Prompt(
        ns="cli-tests",
        key="ask",
        sections=[
            MarkdownSection(
                title="Ask",
                key="ask",
                template="What is the weather in $city?",
                tools=(Tool[Lookup, str](name="lookup", description="Look up.", handler=lookup),),
                hosted_tools=(web_search_tool(),),
            )
        ],
    )
    PLAIN = Prompt(ns="cli-tests", key="plain", sections=[Section(title="Hello", key="hello")])
    NUMBER = 3


    def with_params():
        return ASK, Question(city="Paris")


    def plain():
        return PLAIN


    def needs_argument(city):
        return ASK, Question(city=city)


    def explodes():
        raise RuntimeError("no prompt today")


    def exits():
        raise SystemExit(4)
    """
)


@pytest.fixture
def module_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder (the current directory) holding ``cli_specs_prompts.py``."""
    (tmp_path / "cli_specs_prompts.py").write_text(PROMPTS, encoding="utf-8")
    (tmp_path / "broken_prompts.py").write_text("import not_a_module_anywhere\n")
    (tmp_path / "exiting_prompts.py").write_text("raise SystemExit(3)\n")
    # the project's model, as the openai_adapter fixture would use it
    (tmp_path / "pyproject.toml").write_text('[tool.tooltape]\nmodel = "gpt-5"\n')
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, "cli_specs_prompts", raising=False)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_a_callable_returning_prompt_and_params_from_a_file(
    cli: Callable[..., Run], module_dir: Path
) -> None:
    run = cli("specs", "cli_specs_prompts.py:with_params")

    assert run.code == 0, run.err
    body = json.loads(run.out)
    assert run.out == json.dumps(body, indent=2, sort_keys=True) + "\n"  # stable key order
    assert body["model"] == "gpt-5"
    assert "What is the weather in Paris?" in json.dumps(body["input"])
    assert [tool["type"] for tool in body["tools"]] == ["function", "web_search"]
    assert body["tools"][0]["name"] == "lookup"
    module = importlib.import_module("cli_specs_prompts")
    assert body == OpenAIAdapter("gpt-5").build_request(*module.with_params())


def test_without_a_project_model_the_fixture_default_is_used(
    cli: Callable[..., Run], module_dir: Path
) -> None:
    (module_dir / "pyproject.toml").unlink()
    assert json.loads(cli("specs", "cli_specs_prompts:PLAIN").out)["model"] == "gpt-4o-mini"


def test_a_dotted_module_a_bare_prompt_and_options(
    cli: Callable[..., Run], module_dir: Path
) -> None:
    plain = json.loads(cli("specs", "cli_specs_prompts:PLAIN").out)
    assert plain["model"] == "gpt-5" and "tools" not in plain
    assert json.loads(cli("specs", "cli_specs_prompts:plain").out) == plain

    run = cli(
        "specs", "cli_specs_prompts:with_params", "--model", "gpt-4.1", "--tool-choice", "lookup"
    )
    assert run.code == 0, run.err
    body = json.loads(run.out)
    assert body["model"] == "gpt-4.1"
    assert body["tool_choice"] == {"type": "function", "name": "lookup"}


def test_the_output_is_the_adapters_request(cli: Callable[..., Run], tmp_path: Path) -> None:
    (tmp_path / "one.py").write_text(
        "from tooltape import Prompt, Section\n"
        "from tooltape.tools.web_search import web_search_tool\n"
        "P = Prompt(ns='t', key='one', sections=[Section(title='S', key='s', "
        "hosted_tools=(web_search_tool(),))])\n"
    )
    run = cli("specs", f"{tmp_path / 'one.py'}:P", "--model", "gpt-5")
    prompt = Prompt(
        ns="t", key="one", sections=[Section(title="S", key="s", hosted_tools=(web_search_tool(),))]
    )
    assert json.loads(run.out) == OpenAIAdapter("gpt-5").build_request(prompt)


@pytest.mark.parametrize(
    ("target", "code", "says"),
    [
        ("cli_specs_prompts", 2, ["is not MODULE:ATTR"]),
        ("cli_specs_prompts:1bad", 2, ["not a Python attribute name"]),
        ("no_such_module_here:X", 2, ["no module named 'no_such_module_here'", "path/to/file.py"]),
        ("missing/file.py:X", 2, ["no file", "check the path"]),
        ("broken_prompts:X", 1, ["importing broken_prompts failed", "not_a_module_anywhere"]),
        (
            "cli_specs_prompts:nope",
            2,
            ["module cli_specs_prompts has no attribute 'nope'", "prompts it defines: ASK, PLAIN"],
        ),
        ("cli_specs_prompts.py:nope", 2, ["cli_specs_prompts.py has no attribute 'nope'"]),
        ("cli_specs_prompts:NUMBER", 1, ["type int, not a Prompt", "zero-argument callable"]),
        ("cli_specs_prompts:needs_argument", 1, ["needs arguments", "defaults"]),
        ("cli_specs_prompts:explodes", 1, ["RuntimeError: no prompt today"]),
        ("exiting_prompts:X", 1, ["importing exiting_prompts failed: SystemExit(3)", "__main__"]),
        ("exiting_prompts.py:X", 1, ["exiting_prompts.py failed: SystemExit(3)", "__main__"]),
        ("cli_specs_prompts:exits", 1, ["calling it raised SystemExit: 4"]),
        ("cli_specs_prompts:ASK", 1, ["prompt 'ask'", "(render)", "(prompt, *params)"]),
    ],
)
def test_errors_name_the_target_and_what_to_do(
    cli: Callable[..., Run], module_dir: Path, target: str, code: int, says: list[str]
) -> None:
    run = cli("specs", target)
    assert run.code == code
    assert run.out == ""
    assert run.err.startswith("tooltape specs: error: ")
    for text in says:
        assert text in run.err
    assert "_tooltape_" not in run.err  # never a module name the user did not write
    assert repr(target) in run.err


@pytest.mark.parametrize("target", ["interrupting_prompts:X", "interrupting_prompts.py:X"])
def test_an_interrupt_while_importing_still_interrupts(
    cli: Callable[..., Run], module_dir: Path, target: str
) -> None:
    (module_dir / "interrupting_prompts.py").write_text("raise KeyboardInterrupt\n")
    run = cli("specs", target)
    assert run.code == 130
    assert run.err == "tooltape specs: error: interrupted\n"


def test_a_tool_choice_the_prompt_lacks(cli: Callable[..., Run], module_dir: Path) -> None:
    run = cli("specs", "cli_specs_prompts:with_params", "--tool-choice", "nothing")
    assert run.code == 1
    assert "'nothing' names no tool" in run.err and "lookup" in run.err
