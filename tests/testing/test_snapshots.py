"""Wire snapshots: the syrupy extension, and the ``wire_snapshot`` fixture in a real project."""

from __future__ import annotations

import importlib.util
import json
from collections import OrderedDict
from pathlib import Path
from typing import Any

import pytest
from syrupy.terminal import disable_color

from tooltape import MarkdownSection, Prompt
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.testing.snapshots import WireSnapshotExtension, dump_wire_json
from tooltape.tools.web_search import DomainFilter, WebSearchConfig, web_search_tool

pytest_plugins = ["pytester"]

# The installed plugin re-exports ``wire_snapshot``; the project's conftest imports it
# directly, so the plugin is only switched off where it cannot load yet.
_PLUGIN_ARGS: tuple[str, ...] = (
    () if importlib.util.find_spec("tooltape.testing.plugin") else ("-p", "no:tooltape")
)


# --- serialization ------------------------------------------------------------


def test_snapshot_text_is_indented_key_sorted_json_with_a_final_newline() -> None:
    spec = OrderedDict(
        [("type", "web_search"), ("filters", {"blocked": ("x.com",), "allowed": []})]
    )
    assert dump_wire_json(spec) == (
        "{\n"
        '  "filters": {\n'
        '    "allowed": [],\n'
        '    "blocked": [\n'
        '      "x.com"\n'
        "    ]\n"
        "  },\n"
        '  "type": "web_search"\n'
        "}\n"
    )
    assert dump_wire_json({"city": "Zürich", "n": 1.5, "ok": True}) == (
        '{\n  "city": "Zürich",\n  "n": 1.5,\n  "ok": true\n}\n'
    )


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"tools": [{"domains": {"a.com"}}]}, r"tools\[0\]\.domains is a set, not JSON data"),
        ({"config": DomainFilter()}, r"config is a DomainFilter, not JSON data"),
        ({"t": float("nan")}, r"t is nan, which JSON cannot hold"),
        ({"m": {1: "x"}}, r"m has the non-string key 1"),
        (object(), r"the value is a object"),
    ],
)
def test_values_that_are_not_json_are_refused_naming_the_field(value: Any, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        dump_wire_json(value)
    with pytest.raises(TypeError, match=message):
        WireSnapshotExtension().serialize(value)


def test_extension_honours_syrupy_exclude() -> None:
    def drop_id(*, prop: object, path: object) -> bool:
        return prop == "id"

    text = WireSnapshotExtension().serialize({"id": "x", "type": "mcp"}, exclude=drop_id)
    assert json.loads(text) == {"type": "mcp"}


def test_diff_lines_name_the_changed_fields_before_the_line_diff() -> None:
    extension = WireSnapshotExtension()
    old = dump_wire_json({"type": "web_search", "filters": {"allowed_domains": ["a.com"]}})
    new = dump_wire_json({"type": "web_search", "filters": {"allowed_domains": ["b.com"]}})
    with disable_color():
        lines = list(extension.diff_lines(new, old))
    assert lines[:4] == [
        "Wire fields that changed (snapshot -> received):",
        '~ filters.allowed_domains[0]: "a.com" -> "b.com"',
        "If the change is intended, run `pytest --snapshot-update` and review the changed "
        ".json file.",
        "",
    ]
    assert any('"b.com"' in line for line in lines[4:])
    with disable_color():
        missing = list(extension.diff_lines(new, ""))
    assert not any(line.startswith("Wire fields") for line in missing)
    assert missing[0] == "Write it with `pytest --snapshot-update`, then review the new .json file."


# --- the fixture in a project -------------------------------------------------

_SPECS = """
from tooltape import MarkdownSection, Prompt
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.tools.web_search import DomainFilter, WebSearchConfig, web_search_tool

ALLOWED = {allowed!r}


def _tool():
    return web_search_tool(WebSearchConfig(domain_filter=DomainFilter(allowed=ALLOWED)))


def test_web_search_spec(wire_snapshot):
    adapter = OpenAIAdapter("gpt-4o")
    assert adapter.hosted_tool_codecs["web_search"].serialize(_tool()) == wire_snapshot


def test_first_request(wire_snapshot):
    section = MarkdownSection(title="Task", key="task", template="Search.", hosted_tools=[_tool()])
    prompt = Prompt(ns="demo", key="search", sections=[section])
    assert OpenAIAdapter("gpt-4o").build_request(prompt) == wire_snapshot(name="search")
"""


@pytest.fixture(autouse=True)
def _not_an_xdist_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    # Under ``pytest -n``, the inner runs inherit the worker's environment and
    # syrupy would take them for workers too (no report, no unused check).
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)


def _project(pytester: pytest.Pytester, allowed: tuple[str, ...] = ("a.com",)) -> None:
    pytester.makeconftest("from tooltape.testing.snapshots import wire_snapshot  # noqa: F401\n")
    pytester.makepyfile(test_specs=_SPECS.format(allowed=allowed))


# Plugins these projects do not use, left out to keep each run quick.
_UNUSED_PLUGINS = ("no:cacheprovider", "no:hypothesispytest", "no:respx", "no:anyio")


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    # A subprocess each: syrupy keeps its session in module globals.
    skipped = [arg for plugin in _UNUSED_PLUGINS for arg in ("-p", plugin)]
    if "-n" not in args:
        skipped += ["-p", "no:xdist"]
    return pytester.runpytest_subprocess(*_PLUGIN_ARGS, *skipped, *args)


def _expected_spec(allowed: tuple[str, ...]) -> dict[str, Any]:
    tool = web_search_tool(WebSearchConfig(domain_filter=DomainFilter(allowed=allowed)))
    return OpenAIAdapter("gpt-4o").hosted_tool_codecs["web_search"].serialize(tool)


def _expected_request(allowed: tuple[str, ...]) -> dict[str, Any]:
    tool = web_search_tool(WebSearchConfig(domain_filter=DomainFilter(allowed=allowed)))
    section = MarkdownSection(title="Task", key="task", template="Search.", hosted_tools=[tool])
    return OpenAIAdapter("gpt-4o").build_request(
        Prompt(ns="demo", key="search", sections=[section])
    )


def test_wire_snapshot_lifecycle(pytester: pytest.Pytester) -> None:
    _project(pytester)
    snapshots = Path(pytester.path, "__snapshots__", "test_specs")
    spec_file = snapshots / "test_web_search_spec.json"
    request_file = snapshots / "test_first_request[search].json"

    # 1. No snapshots yet: both tests fail and say how to write them.
    first = _run(pytester)
    first.assert_outcomes(failed=2)
    first.stdout.fnmatch_lines(
        ["*Snapshot 'test_web_search_spec' does not exist!*", "*pytest --snapshot-update*"]
    )
    assert not snapshots.exists()

    # 2. --snapshot-update writes one pretty, sorted JSON file per snapshot.
    _run(pytester, "--snapshot-update").assert_outcomes(passed=2)
    assert sorted(p.name for p in snapshots.iterdir()) == sorted(
        [spec_file.name, request_file.name]
    )
    assert spec_file.read_text(encoding="utf-8") == (
        "{\n"
        '  "filters": {\n'
        '    "allowed_domains": [\n'
        '      "a.com"\n'
        "    ]\n"
        "  },\n"
        '  "type": "web_search"\n'
        "}\n"
    )
    assert json.loads(spec_file.read_text()) == _expected_spec(("a.com",))
    assert request_file.read_text(encoding="utf-8") == dump_wire_json(_expected_request(("a.com",)))

    # 3. A later run passes and leaves the files alone.
    before = spec_file.read_bytes()
    _run(pytester).assert_outcomes(passed=2)
    assert spec_file.read_bytes() == before

    # 4. A changed spec fails with a diff naming the changed field.
    _project(pytester, allowed=("a.com", "b.com"))
    changed = _run(pytester)
    changed.assert_outcomes(failed=2)
    output = changed.stdout.str()
    assert output.count("Wire fields that changed (snapshot -> received):") == 2
    changed_lines = [line.removeprefix("E").strip() for line in output.splitlines()]
    assert '+ filters.allowed_domains[1]: "b.com"' in changed_lines
    assert '+ tools[0].filters.allowed_domains[1]: "b.com"' in changed_lines
    assert spec_file.read_bytes() == before

    # 5. A snapshot no test asks for is reported (and fails the run).
    without_request = _SPECS.split("def test_first_request")[0]
    pytester.makepyfile(test_specs=without_request.format(allowed=("a.com",)))
    unused = _run(pytester)
    unused.assert_outcomes(passed=1)
    unused.stdout.fnmatch_lines(["*1 snapshot passed. 1 snapshot unused.*"])
    assert unused.ret != 0
    assert request_file.exists()

    # 6. --snapshot-update accepts the changed spec and deletes the unused file.
    pytester.makepyfile(test_specs=without_request.format(allowed=("a.com", "b.com")))
    accepted = _run(pytester, "--snapshot-update")
    accepted.assert_outcomes(passed=1)
    accepted.stdout.fnmatch_lines(["*1 snapshot updated. 1 unused snapshot deleted.*"])
    assert json.loads(spec_file.read_text()) == _expected_spec(("a.com", "b.com"))
    assert not request_file.exists()


def test_the_request_tools_idiom(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makeconftest("from tooltape.testing.snapshots import wire_snapshot  # noqa: F401\n")
    module = """
import os
from tooltape import MarkdownSection, Prompt
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.tools.web_search import DomainFilter, WebSearchConfig, WebSearchSection


def test_tools(wire_snapshot):
    domain = os.environ.get("TT_DOMAIN", "weather.gov")
    prompt = Prompt(ns="demo", key="weather", sections=[
        MarkdownSection(title="Task", template="Weather?"),
        WebSearchSection(WebSearchConfig(domain_filter=DomainFilter(allowed=(domain,)))),
    ])
    body = OpenAIAdapter("gpt-4o").build_request(prompt)
    assert body["tools"] == wire_snapshot
"""
    pytester.makepyfile(test_tools=module)
    _run(pytester, "--snapshot-update").assert_outcomes(passed=1)
    stored = Path(pytester.path, "__snapshots__", "test_tools", "test_tools.json")
    assert json.loads(stored.read_text()) == [
        {"type": "web_search", "filters": {"allowed_domains": ["weather.gov"]}}
    ]
    _run(pytester).assert_outcomes(passed=1)

    monkeypatch.setenv("TT_DOMAIN", "noaa.gov")
    drifted = _run(pytester)
    drifted.assert_outcomes(failed=1)
    lines = [line.removeprefix("E").strip() for line in drifted.stdout.lines]
    assert '~ [0].filters.allowed_domains[0]: "weather.gov" -> "noaa.gov"' in lines
    assert any("pytest --snapshot-update" in line for line in lines)


def test_a_python_object_fails_the_assertion_naming_the_field(pytester: pytest.Pytester) -> None:
    pytester.makeconftest("from tooltape.testing.snapshots import wire_snapshot  # noqa: F401\n")
    pytester.makepyfile(
        test_config="""
from tooltape.tools.web_search import WebSearchConfig


def test_config(wire_snapshot):
    assert {"config": WebSearchConfig()} == wire_snapshot
"""
    )
    result = _run(pytester, "--snapshot-update")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*config is a WebSearchConfig, not JSON data*"])
    assert not Path(pytester.path, "__snapshots__").exists()


def test_wire_snapshots_are_written_under_xdist(pytester: pytest.Pytester) -> None:
    _project(pytester)
    _run(pytester, "-n", "2", "--snapshot-update").assert_outcomes(passed=2)
    snapshots = Path(pytester.path, "__snapshots__", "test_specs")
    assert json.loads((snapshots / "test_web_search_spec.json").read_text()) == _expected_spec(
        ("a.com",)
    )
    assert (snapshots / "test_first_request[search].json").read_text() == dump_wire_json(
        _expected_request(("a.com",))
    )
