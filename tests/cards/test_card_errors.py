"""Every way a card can be wrong is a ``CardError`` naming the card, the field and the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from tooltape.cards import CardError, read_card


def card(
    folder: Path, front_matter: str, body: str = "Do the work.", name: str = "card.md"
) -> Path:
    path = folder / name
    path.write_text(f"---\n{front_matter}\n---\n{body}\n", encoding="utf-8")
    return path


def load_error(path: Path) -> CardError:
    with pytest.raises(CardError) as caught:
        read_card(path)
    error = caught.value
    assert str(path) in str(error)
    assert "Fix: " in str(error)
    return error


@pytest.mark.parametrize(
    ("front_matter", "field", "fragments"),
    [
        ("name: a\nbogus: 1", "bogus", ["`bogus` is not a known field", "function_tools"]),
        ("description: no name", "name", ["Field required", "name: my_agent"]),
        ("name: a\nmax_parallel: '4'", "max_parallel", ["valid integer", "whole number"]),
        ("name: a\nmax_parallel: true", "max_parallel", ["valid integer"]),
        ("name: a\nmax_parallel: 0", "max_parallel", ["greater than 0"]),
        ("name: a\nchild_timeout_sec: -1", "child_timeout_sec", ["greater than 0", "seconds"]),
        (
            "name: a\nfunction_tools: tools.py:x",
            "function_tools",
            ["valid tuple", "tools.py:add_one"],
        ),
        ("name: a\nfunction_tools: [3]", "function_tools[0]", ["valid string"]),
        ("name: a\nmodel: 4", "model", ["valid string"]),
        ("name: 7", "name", ["valid string"]),
        (
            "name: a\nmcp_servers:\n  - {name: t, command: x, tool: [a]}",
            "mcp_servers[0].tool",
            ["is not a known field", "tools"],
        ),
        (
            "name: a\nmcp_servers:\n  - {name: t}",
            "mcp_servers[0].command",
            ["Field required"],
        ),
        (
            "name: a\nagents: [{path: b.md}]",
            "agents[0].path",
            ["not a known field", "card, name, description", "`agents[0].card`: Field required"],
        ),
        (
            "name: a\nclient_tools: [{kind: ftp}]",
            "client_tools[0].kind",
            ["'local_shell_exec', 'custom', 'computer', 'computer_use_preview' or 'tool_search'"],
        ),
        (
            "name: a\nhosted_tools: [{kind: web_search, config: [1]}]",
            "hosted_tools[0].config",
            ["valid dictionary"],
        ),
    ],
)
def test_front_matter_shape_errors(
    tmp_path: Path, front_matter: str, field: str, fragments: list[str]
) -> None:
    error = load_error(card(tmp_path, front_matter))

    assert error.field == field
    assert f"`{field}`" in str(error)
    for fragment in fragments:
        assert fragment in str(error)


def test_several_problems_are_reported_together(tmp_path: Path) -> None:
    error = load_error(card(tmp_path, "name: a\nmax_parallel: 0\nextra: 1"))

    assert "`max_parallel`" in str(error)
    assert "`extra`" in str(error)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("Just text, no front matter.\n", "no YAML front matter"),
        ("---\nname: [unclosed\n---\nBody\n", "not valid YAML"),
        ("---\n- a\n- b\n---\nBody\n", "is a list, not a mapping"),
        ("---\nname: a\n---\n\n   \n", "no instruction text"),
        (
            "---\nname: a\ndescription: b\nThe instructions.\n",
            "front matter opened by `---` on line 1 is never closed",
        ),
    ],
)
def test_file_level_errors(tmp_path: Path, text: str, fragment: str) -> None:
    path = tmp_path / "card.md"
    path.write_text(text, encoding="utf-8")

    assert fragment in str(load_error(path))


def test_a_missing_card_file(tmp_path: Path) -> None:
    assert "no such file" in str(load_error(tmp_path / "nope.md"))


def test_a_card_path_that_is_a_folder(tmp_path: Path) -> None:
    message = str(load_error(tmp_path))
    assert "it is a folder" in message
    assert ".md file" in message
    assert "UTF-8" not in message


def test_a_field_given_twice_is_refused_not_last_one_wins(tmp_path: Path) -> None:
    path = card(tmp_path, "name: first\ndescription: d\nname: second")
    error = load_error(path)
    assert error.field == "name"
    assert "`name` is given twice in the front matter (lines 2 and 4)" in str(error)


def test_a_key_given_twice_in_a_nested_mapping_is_refused(tmp_path: Path) -> None:
    front = "name: n\nhosted:\n  - kind: web_search\n    kind: file_search"
    assert "`kind` is given twice" in str(load_error(card(tmp_path, front)))


def test_a_name_that_is_not_a_tool_name(tmp_path: Path) -> None:
    error = load_error(card(tmp_path, "name: NY-Project-Manager"))

    assert error.field == "name"
    assert "'NY-Project-Manager' is invalid" in str(error)


def test_a_stray_dollar_in_the_body(tmp_path: Path) -> None:
    error = load_error(card(tmp_path, "name: a", body="It costs $5."))

    assert error.field == "body"
    assert "$$" in error.fix


def test_function_tool_file_missing(tmp_path: Path) -> None:
    error = load_error(card(tmp_path, "name: a\nfunction_tools: [missing.py:f]"))

    assert error.field == "function_tools[0]"
    assert "no file at" in str(error)
    assert str(tmp_path / "missing.py") in str(error)


def test_function_tool_attribute_missing_or_not_callable(tmp_path: Path) -> None:
    (tmp_path / "tools.py").write_text("VALUE = 3\n\ndef real(x: int) -> int:\n    '''R.'''\n")

    missing = load_error(card(tmp_path, "name: a\nfunction_tools: [tools.py:ghost]"))
    not_callable = load_error(card(tmp_path, "name: a\nfunction_tools: [tools.py:VALUE]"))

    assert "has no attribute 'ghost'" in str(missing)
    assert "real" in str(missing)
    assert "not a callable" in str(not_callable)


def test_function_tool_that_cannot_be_described(tmp_path: Path) -> None:
    (tmp_path / "tools.py").write_text("def bare(x):\n    return x\n")

    error = load_error(card(tmp_path, "name: a\nfunction_tools: [tools.py:bare]"))

    assert error.field == "function_tools[0]"
    assert "no type annotation" in str(error)


def test_malformed_spec(tmp_path: Path) -> None:
    error = load_error(card(tmp_path, "name: a\ntool_hooks: [hooks.audit]"))

    assert error.field == "tool_hooks[0]"
    assert "malformed" in str(error)


def test_a_hook_with_the_wrong_signature_is_refused_at_load(tmp_path: Path) -> None:
    (tmp_path / "hooks.py").write_text("def audit(ctx, args):\n    return None\n")

    error = load_error(card(tmp_path, "name: a\ntool_hooks: [hooks.py:audit]"))

    assert error.field == "tool_hooks[0]"
    assert "hook(ctx, args, call_next)" in str(error)


def test_an_unknown_hosted_kind(tmp_path: Path) -> None:
    error = load_error(card(tmp_path, "name: a\nhosted_tools: [{kind: web_serch}]"))

    assert error.field == "hosted_tools[0].kind"
    assert "web_search, file_search" in error.fix


@pytest.mark.parametrize(
    ("entry", "field", "fragment"),
    [
        ("{kind: web_search, config: {context_size: huge}}", "context_size", "'low', 'medium'"),
        ("{kind: web_search, config: {context: low}}", "context", "context_size"),
        (
            "{kind: web_search, config: {domain_filter: {allowed: [a.com], blocked: [a.com]}}}",
            "domain_filter",
            "also allowed",
        ),
        ("{kind: file_search}", "vector_store_ids", "Field required"),
        ("{kind: code_interpreter, config: {memory_limit: 3g}}", "memory_limit", "'1g', '4g'"),
    ],
)
def test_bad_hosted_configs_name_the_config_field(
    tmp_path: Path, entry: str, field: str, fragment: str
) -> None:
    error = load_error(card(tmp_path, f"name: a\nhosted_tools:\n  - {entry}"))

    assert error.field == f"hosted_tools[0].config.{field}"
    assert fragment in str(error)


def test_a_bad_hosted_tool_name(tmp_path: Path) -> None:
    error = load_error(card(tmp_path, "name: a\nhosted_tools: [{kind: web_search, name: Web}]"))

    assert error.field == "hosted_tools[0].name"


def test_client_tool_settings_are_checked_per_kind(tmp_path: Path) -> None:
    no_root = load_error(card(tmp_path, "name: a\nclient_tools: [{kind: apply_patch}]"))
    wrong_field = load_error(
        card(tmp_path, "name: a\nclient_tools: [{kind: local_shell, root: x}]")
    )
    missing_dir = load_error(
        card(tmp_path, "name: a\nclient_tools: [{kind: apply_patch, root: nowhere}]")
    )

    assert no_root.field == "client_tools[0].root"
    assert wrong_field.field == "client_tools[0].root"
    assert "does not apply to local_shell" in str(wrong_field)
    assert missing_dir.field == "client_tools[0]"


def test_an_invalid_mcp_server_entry(tmp_path: Path) -> None:
    error = load_error(card(tmp_path, "name: a\nmcp_servers: [{name: Time, command: x}]"))

    assert error.field == "mcp_servers[0]"
    assert "MCP server name 'Time'" in str(error)


@pytest.mark.parametrize(
    ("front_matter", "first", "second", "name"),
    [
        (
            "hosted_tools:\n  - {kind: web_search}\n  - {kind: web_search}",
            "hosted_tools[0]",
            "hosted_tools[1]",
            "web_search",
        ),
        (
            "function_tools: [tools.py:add_one, ./tools.py:add_one]",
            "function_tools[0]",
            "function_tools[1]",
            "add_one",
        ),
        (
            "function_tools: [tools.py:add_one]\nagents: [{card: child.md, name: add_one}]",
            "function_tools[0]",
            "agents[0]",
            "add_one",
        ),
    ],
    ids=["hosted-twice", "function-twice", "function-and-agent"],
)
def test_two_entries_making_one_tool_name_are_both_named(
    tmp_path: Path, front_matter: str, first: str, second: str, name: str
) -> None:
    (tmp_path / "tools.py").write_text(
        'def add_one(x: int) -> int:\n    """Add one."""\n    return x + 1\n', encoding="utf-8"
    )
    card(tmp_path, "name: child", "Help with $message.", name="child.md")
    error = load_error(card(tmp_path, f"name: a\n{front_matter}"))

    assert error.field == second
    assert f"`{first}`" in error.problem and f"`{second}`" in error.problem
    assert repr(name) in error.problem
    assert "distinct names" in error.fix


def test_a_missing_agent_card(tmp_path: Path) -> None:
    error = load_error(card(tmp_path, "name: a\nagents: [helper.md]"))

    assert error.field == "agents[0].card"
    assert str(tmp_path / "helper.md") in str(error)


def test_agent_cycles_are_detected(tmp_path: Path) -> None:
    card(tmp_path, "name: a\nagents: [b.md]", name="a.md")
    card(tmp_path, "name: b\nagents: [c.md]", body="Help with $message.", name="b.md")
    card(tmp_path, "name: c\nagents: [a.md]", body="Help with $message.", name="c.md")

    with pytest.raises(CardError) as caught:
        read_card(tmp_path / "a.md")

    error = caught.value
    assert "cycle: a.md -> b.md -> c.md -> a.md" in str(error)
    assert error.path == tmp_path / "c.md"
    assert error.field == "agents[0]"
    assert str(tmp_path / "c.md") in str(error)


def test_a_card_naming_itself_as_an_agent(tmp_path: Path) -> None:
    error = load_error(card(tmp_path, "name: a\nagents: [card.md]"))

    assert "cycle: card.md -> card.md" in str(error)


def test_an_error_in_an_agent_card_names_that_card(tmp_path: Path) -> None:
    card(tmp_path, "name: helper\nmax_parallel: nope", name="helper.md")

    with pytest.raises(CardError) as caught:
        read_card(card(tmp_path, "name: a\nagents: [helper.md]"))

    assert caught.value.path == tmp_path / "helper.md"
    assert caught.value.field == "max_parallel"


def test_an_agent_card_that_needs_other_params(tmp_path: Path) -> None:
    card(tmp_path, "name: helper", body="Report on $topic.", name="helper.md")

    error = load_error(card(tmp_path, "name: a\nagents: [helper.md]"))

    assert error.field == "agents[0]"
    assert "$topic" in str(error)


@pytest.mark.parametrize(
    ("entry", "field", "fragments"),
    [
        (
            "{name: t, command: x, url: 'http://127.0.0.1:8000/mcp'}",
            "mcp_servers[0].url",
            ["both `command` and `url` are given", "not both"],
        ),
        (
            "{name: t, url: 'ftp://127.0.0.1/mcp'}",
            "mcp_servers[0].url",
            ["scheme 'ftp'", "http:// or https://", "url: http://127.0.0.1:8000/mcp"],
        ),
        (
            "{name: t, url: 'localhost:8000/mcp'}",
            "mcp_servers[0].url",
            ["http:// or https://"],
        ),
        (
            "{name: t, url: 'http://127.0.0.1:8000/mcp', headers: [Authorization]}",
            "mcp_servers[0].headers",
            ["valid dictionary", "url: 'http://127.0.0.1:8000/mcp'"],
        ),
        (
            "{name: t, url: 'http://127.0.0.1:8000/mcp', headers: {X-Key: 42}}",
            "mcp_servers[0].headers.X-Key",
            ["valid string"],
        ),
        (
            "{name: t, url: 'http://127.0.0.1:8000/mcp', headers: {Bad Name: v}}",
            "mcp_servers[0].headers",
            ["'Bad Name' is not a valid HTTP header name", "Header-Name: value"],
        ),
        (
            "{name: t, url: 'http://127.0.0.1:8000/mcp', args: [--port, '1']}",
            "mcp_servers[0].args",
            ["`args` does not apply to a server given by `url`", "remove it"],
        ),
        (
            "{name: t, url: 'http://127.0.0.1:8000/mcp', cwd: tools}",
            "mcp_servers[0].cwd",
            ["`cwd` does not apply"],
        ),
        (
            "{name: t, command: x, headers: {X-Key: secret-value-1}}",
            "mcp_servers[0].headers",
            ["applies only to a server given by `url`", "`env`"],
        ),
        (
            "{name: t, tools: [a]}",
            "mcp_servers[0].command",
            ["Field required, unless the entry gives `url`", "url: http://"],
        ),
        (
            "{name: t, url: 'http://127.0.0.1:8000/mcp', header: {A: b}}",
            "mcp_servers[0].header",
            ["is not a known field", "url, headers"],
        ),
    ],
)
def test_bad_mcp_server_entries_with_url(
    tmp_path: Path, entry: str, field: str, fragments: list[str]
) -> None:
    error = load_error(card(tmp_path, f"name: a\nmcp_servers:\n  - {entry}"))

    assert error.field == field
    assert f"`{field}`" in str(error)
    for fragment in fragments:
        assert fragment in str(error)
    assert "secret-value-1" not in str(error)


def test_a_valid_url_entry_builds_a_stopped_http_section(tmp_path: Path) -> None:
    loaded = read_card(
        card(
            tmp_path,
            "name: a\nmcp_servers:\n"
            "  - {name: docs, url: 'https://docs.example/mcp', headers: {X-Team: atlas}}",
        )
    )

    (section,) = loaded.mcp_sections
    assert section.url == "https://docs.example/mcp"
    assert section.command is None
    assert not section.started
    assert "atlas" not in repr(section)
