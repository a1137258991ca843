"""``load_callable("module.py:function", base_path=...)``.

Rules (tool-hooks seed, "Function tool loading", and DESIGN, "Loader"): a
relative path is resolved against ``base_path``, or the current directory
when there is none; each load gets a unique module name and leaves nothing
in ``sys.modules``, so two files with the same stem never collide; a
malformed spec, a missing file, a missing attribute or a non-callable raise
``ToolLoadError``. What is loaded is usable as a function tool or a hook.
"""

import re
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tooltape import Tool, ToolContext, ToolResult
from tooltape.runtime import (
    ToolHookContext,
    ToolLoadError,
    check_hook,
    load_callable,
    run_tool_with_hooks,
)

TOOLS_PY = """
def add_one(x: int) -> int:
    '''Add one to x.'''
    return x + 1

GREETING = "hello"
"""


def write(path: Path, source: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source))
    return path


def modules_loaded_from(path: Path) -> list[str]:
    resolved = str(path.resolve())
    return [
        name
        for name, module in list(sys.modules.items())
        if getattr(module, "__file__", None) and str(Path(module.__file__).resolve()) == resolved
    ]


# --- resolution --------------------------------------------------------------------------


def test_a_relative_path_is_resolved_against_the_base_path(tmp_path: Path) -> None:
    write(tmp_path / "card" / "tools.py", TOOLS_PY)
    add_one = load_callable("tools.py:add_one", base_path=tmp_path / "card")
    assert add_one(1) == 2


def test_a_relative_path_may_go_through_subdirectories(tmp_path: Path) -> None:
    write(tmp_path / "lib" / "math_tools.py", TOOLS_PY)
    assert load_callable("lib/math_tools.py:add_one", base_path=str(tmp_path))(41) == 42


def test_without_a_base_path_the_current_directory_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "tools.py", TOOLS_PY)
    monkeypatch.chdir(tmp_path)
    assert load_callable("tools.py:add_one")(1) == 2


def test_an_absolute_path_ignores_the_base_path(tmp_path: Path) -> None:
    path = write(tmp_path / "abs" / "tools.py", TOOLS_PY)
    assert load_callable(f"{path}:add_one", base_path=tmp_path / "elsewhere")(1) == 2


# --- isolation ---------------------------------------------------------------------------


def test_loading_leaves_nothing_in_sys_modules(tmp_path: Path) -> None:
    path = write(tmp_path / "tools.py", TOOLS_PY)
    before = set(sys.modules)
    add_one = load_callable("tools.py:add_one", base_path=tmp_path)
    assert set(sys.modules) == before
    assert add_one.__module__ not in sys.modules
    assert modules_loaded_from(path) == []


def test_each_load_gets_its_own_module(tmp_path: Path) -> None:
    write(
        tmp_path / "counter.py",
        """
        calls = []

        def bump() -> int:
            calls.append(1)
            return len(calls)
        """,
    )
    first = load_callable("counter.py:bump", base_path=tmp_path)
    second = load_callable("counter.py:bump", base_path=tmp_path)
    assert first.__module__ != second.__module__
    assert (first(), first(), second()) == (1, 2, 1), "module state is not shared"


def test_two_files_with_the_same_stem_load_independently(tmp_path: Path) -> None:
    write(tmp_path / "ny" / "tools.py", "def city() -> str:\n    return 'New York'\n")
    write(tmp_path / "london" / "tools.py", "def city() -> str:\n    return 'London'\n")
    ny = load_callable("tools.py:city", base_path=tmp_path / "ny")
    london = load_callable("tools.py:city", base_path=tmp_path / "london")
    assert (ny(), london()) == ("New York", "London")
    assert ny.__module__ != london.__module__


# --- errors ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec",
    [
        pytest.param("tools.py", id="no-colon"),
        pytest.param("tools.py:add_one:extra", id="two-colons"),
        pytest.param("tools.txt:add_one", id="not-a-py-file"),
        pytest.param("tools:add_one", id="no-extension"),
        pytest.param("tools.py:", id="no-attribute"),
        pytest.param("tools.py:add-one", id="attribute-not-an-identifier"),
    ],
)
def test_a_malformed_spec_is_refused(tmp_path: Path, spec: str) -> None:
    write(tmp_path / "tools.py", TOOLS_PY)
    with pytest.raises(ToolLoadError, match=re.escape("module.py:function")):
        load_callable(spec, base_path=tmp_path)


def test_a_missing_file_names_the_resolved_path(tmp_path: Path) -> None:
    with pytest.raises(ToolLoadError) as caught:
        load_callable("nested/missing.py:add_one", base_path=tmp_path)
    assert str((tmp_path / "nested" / "missing.py").resolve()) in str(caught.value)


def test_a_missing_attribute_is_named(tmp_path: Path) -> None:
    write(tmp_path / "tools.py", TOOLS_PY)
    with pytest.raises(ToolLoadError, match="add_two"):
        load_callable("tools.py:add_two", base_path=tmp_path)


def test_a_non_callable_attribute_is_refused(tmp_path: Path) -> None:
    write(tmp_path / "tools.py", TOOLS_PY)
    with pytest.raises(ToolLoadError, match="GREETING"):
        load_callable("tools.py:GREETING", base_path=tmp_path)


def test_a_module_that_fails_to_import_is_a_load_error(tmp_path: Path) -> None:
    path = write(tmp_path / "broken.py", "raise RuntimeError('no config')\n")
    with pytest.raises(ToolLoadError, match="no config"):
        load_callable("broken.py:anything", base_path=tmp_path)
    assert modules_loaded_from(path) == []


def test_a_module_that_exits_when_imported_is_a_load_error(tmp_path: Path) -> None:
    # A hook or tool module with a script part that ends in sys.exit() would otherwise
    # end the program that loads the card.
    path = write(tmp_path / "script.py", "import sys\nsys.exit(3)\n")
    with pytest.raises(ToolLoadError, match=re.escape("failed: SystemExit: 3")):
        load_callable("script.py:anything", base_path=tmp_path)
    assert modules_loaded_from(path) == []


def test_an_interrupt_while_importing_still_interrupts(tmp_path: Path) -> None:
    write(tmp_path / "slow.py", "raise KeyboardInterrupt\n")
    with pytest.raises(KeyboardInterrupt):
        load_callable("slow.py:anything", base_path=tmp_path)


# --- what is loaded is usable ------------------------------------------------------------


def test_a_loaded_function_becomes_a_tool(tmp_path: Path, tool_context: ToolContext) -> None:
    write(tmp_path / "tools.py", TOOLS_PY)
    tool = Tool.from_function(load_callable("tools.py:add_one", base_path=tmp_path))
    assert (tool.name, tool.description) == ("add_one", "Add one to x.")
    assert tool.parameters_schema()["required"] == ["x"]
    assert tool.handler is not None
    assert tool.handler(tool.schema.validate({"x": 2}), context=tool_context).value == 3


def test_a_loaded_hook_passes_the_check_and_runs(tmp_path: Path) -> None:
    write(
        tmp_path / "hooks.py",
        """
        def audit_hook(ctx, args, call_next):
            if ctx.tool_name.endswith("add_one"):
                args = dict(args or {})
                args["x"] = min(int(args.get("x", 0)), 10)
            return call_next(args)
        """,
    )
    hook = check_hook(load_callable("hooks.py:audit_hook", base_path=tmp_path))
    ctx = ToolHookContext(
        tool_name="add_one",
        tool_source="function",
        original_tool_func=lambda args: ToolResult.ok(args["x"] + 1),
    )
    assert run_tool_with_hooks([hook], ctx, {"x": 50}).value == 11


PARAMS_MODULE = """
{future}
from dataclasses import dataclass, field

from tooltape import ToolResult


@dataclass(frozen=True)
class Window:
    start: int
    end: int


@dataclass(frozen=True)
class RangeParams:
    window: Window
    label: str = field(default="all", metadata={{"description": "What to call it"}})


def handler(params: RangeParams, *, context) -> ToolResult[int]:
    return ToolResult.ok(params.window.end - params.window.start)
"""


@pytest.mark.parametrize(
    "future", ["", "from __future__ import annotations"], ids=["plain", "future-annotations"]
)
def test_a_module_defining_dataclasses_loads_and_its_params_validate(
    tmp_path: Path, tool_context: ToolContext, future: str
) -> None:
    write(tmp_path / "ranges.py", PARAMS_MODULE.format(future=future))
    handler: Any = load_callable("ranges.py:handler", base_path=tmp_path)
    tool = Tool(name="range_length", description="Length of a window.", handler=handler)

    params = tool.schema.validate({"window": {"start": 3, "end": 10}})
    assert type(params).__name__ == "RangeParams"
    assert type(params.window).__name__ == "Window"
    assert handler(params, context=tool_context).value == 7
    assert tool.param_descriptions() == {"label": "What to call it"}
    with pytest.raises(ValueError, match="extra"):
        tool.schema.validate({"window": {"start": 1, "end": 2}, "extra": 1})
