"""``McpServerSection(url=...)``: MCP over streamable HTTP, against a real server on loopback."""

from __future__ import annotations

import http.server
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from mcp_helpers import (
    FIXED_TIME,
    HttpServer,
    executor_for,
    open_connections_to,
    serving_http,
    unused_port,
)

from tooltape import (
    Prompt,
    PromptValidationError,
    ToolResult,
)
from tooltape.mcp import (
    McpCallResult,
    McpServerError,
    McpServerSection,
    McpTool,
    ServerUrl,
    running_servers,
)
from tooltape.runtime import ToolCall
from tooltape.runtime.hooks import ToolHookContext

SECRET = "Bearer s3cret-token-4711"


@pytest.fixture(scope="module")
def server() -> Iterator[HttpServer]:
    with serving_http() as running:
        yield running


@pytest.fixture(scope="module")
def web(server: HttpServer) -> Iterator[McpServerSection]:
    section = McpServerSection(
        "web",
        url=server.url,
        headers={"Authorization": SECRET},
        tools=["get_time", "add", "fail", "header"],
    )
    with section:
        yield section


def call(section: McpServerSection, remote_name: str, **arguments: Any) -> ToolResult[Any]:
    tool = next(t for t in section.tools() if t.remote_name == remote_name)
    return tool.handler(arguments, context=None)  # type: ignore[arg-type]


def test_tools_are_listed_filtered_and_namespaced_over_http(web: McpServerSection) -> None:
    tools = web.tools()

    assert [t.name for t in tools] == ["web__get_time", "web__add", "web__fail", "web__header"]
    assert all(isinstance(t, McpTool) for t in tools)
    assert {(t.source, t.server_name) for t in tools} == {("mcp", "web")}
    assert tools[1].param_descriptions() == {"a": "The first addend.", "b": "The second addend."}
    assert web.url is not None and web.url.endswith("/mcp")
    assert web.command is None


def test_without_a_filter_every_tool_is_exposed(server: HttpServer) -> None:
    with McpServerSection("all", url=server.url) as section:
        names = {t.remote_name for t in section.tools()}

    assert names == {"get_time", "add", "fail", "header", "sessions"}
    assert section.tools() == ()


def test_a_call_succeeds_and_publishes_an_mcp_invocation(web: McpServerSection) -> None:
    seen: list[tuple[str, str, str | None]] = []

    def observe(ctx: ToolHookContext, args: dict[str, Any], call_next: Any) -> Any:
        seen.append((ctx.tool_name, ctx.tool_source, ctx.server_name))
        return call_next(args)

    executor, session = executor_for(web, hooks=[observe])

    result = executor.execute(ToolCall("web__get_time", "{}", "call_1"))
    added = executor.execute(ToolCall("web__add", '{"a": 40}'))

    assert result.success
    assert isinstance(result.value, McpCallResult)
    assert result.value.text == FIXED_TIME
    assert added.render() == "42"
    first, second = session.tool_invocations
    assert (first.name, first.source, first.call_id) == ("web__get_time", "mcp", "call_1")
    assert first.rendered_output == FIXED_TIME
    assert (second.source, second.params) == ("mcp", {"a": 40})
    assert seen == [("web__get_time", "mcp", "web"), ("web__add", "mcp", "web")]


def test_the_headers_reach_the_server(web: McpServerSection) -> None:
    assert call(web, "header", name="Authorization").render() == SECRET
    assert call(web, "header", name="X-Absent").value.text == ""


def test_a_tool_error_is_a_failed_result(web: McpServerSection) -> None:
    executor, session = executor_for(web)

    result = executor.execute(ToolCall("web__fail", {}))

    assert not result.success
    assert "the http-demo server refuses" in result.message
    assert "'fail' on server 'web'" in result.message
    assert session.tool_invocations[0].source == "mcp"


def test_a_hook_blocks_an_http_tool_by_source_and_name(web: McpServerSection) -> None:
    blocked = {("mcp", "web__add")}
    reached: list[str] = []

    def guard(ctx: ToolHookContext, args: dict[str, Any], call_next: Any) -> Any:
        if (ctx.tool_source, ctx.tool_name) in blocked:
            return ToolResult.error(f"blocked by policy: {ctx.tool_source} {ctx.tool_name}")
        reached.append(ctx.tool_name)
        return call_next(args)

    executor, session = executor_for(web, hooks=[guard])

    refused = executor.execute(ToolCall("web__add", {"a": 1}))
    allowed = executor.execute(ToolCall("web__get_time", {}))

    assert not refused.success
    assert refused.message == "blocked by policy: mcp web__add"
    assert allowed.render() == FIXED_TIME
    assert reached == ["web__get_time"]
    assert [e.result.success for e in session.tool_invocations] == [False, True]


def test_concurrent_calls_share_one_http_connection(web: McpServerSection) -> None:
    results: dict[int, ToolResult[Any]] = {}

    def run(index: int) -> None:
        results[index] = call(web, "add", a=index, b=100)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert {i: r.render() for i, r in results.items()} == {i: str(i + 100) for i in range(8)}


def test_close_closes_the_http_connections(server: HttpServer) -> None:
    # The module's `web` section keeps its own connections open meanwhile.
    baseline = open_connections_to(server.port)
    section = McpServerSection("web2", url=server.url, tools=["get_time"])

    with section:
        assert call(section, "get_time").render() == FIXED_TIME
        during = open_connections_to(server.port)

    assert during > baseline
    assert open_connections_to(server.port) == baseline
    assert not [t for t in threading.enumerate() if t.name == "tooltape-mcp-web2"]


def test_close_ends_the_http_session_of_a_server_that_keeps_sessions() -> None:
    with serving_http("--legacy") as legacy:
        first = McpServerSection("first", url=legacy.url, tools=["sessions"])
        second = McpServerSection("second", url=legacy.url, tools=["sessions"])
        with second:
            with first:
                both = call(second, "sessions").render()
            after_first_closed = call(second, "sessions").render()

    assert both == "2"
    assert after_first_closed == "1"


def test_an_error_inside_the_block_still_closes_the_session(server: HttpServer) -> None:
    baseline = open_connections_to(server.port)
    section = McpServerSection("web2", url=server.url, tools=["get_time"])

    with pytest.raises(RuntimeError, match="caller failed"), section:
        assert open_connections_to(server.port) > baseline
        raise RuntimeError("caller failed")

    assert not section.started
    assert open_connections_to(server.port) == baseline


def test_nothing_listening_is_a_clear_error_naming_the_url() -> None:
    url = f"http://127.0.0.1:{unused_port()}/mcp"
    section = McpServerSection("ghost", url=url, headers={"Authorization": SECRET})

    with pytest.raises(McpServerError) as caught, section:
        pass

    message = str(caught.value)
    assert f"MCP server 'ghost' (url: {url}) could not be reached" in message
    assert "ConnectError" in message
    assert "Check that the server is running and listening at that address" in message
    assert "s3cret" not in message
    assert not section.started
    assert not [t for t in threading.enumerate() if t.name == "tooltape-mcp-ghost"]


def test_a_wrong_path_says_what_the_server_answered(server: HttpServer) -> None:
    url = server.url.replace("/mcp", "/api")
    section = McpServerSection("lost", url=url)

    with pytest.raises(McpServerError) as caught, section:
        pass

    message = str(caught.value)
    assert f"(url: {url})" in message
    assert "HTTP 404 Not Found" in message
    assert "(often /mcp)" in message


def test_a_server_that_never_answers_times_out() -> None:
    import socket

    with socket.socket() as mute:
        mute.bind(("127.0.0.1", 0))
        mute.listen()
        url = f"http://127.0.0.1:{mute.getsockname()[1]}/mcp"
        section = McpServerSection("mute", url=url, startup_timeout_sec=0.5)
        started = time.monotonic()

        with pytest.raises(McpServerError, match=r"no handshake within 0\.5 seconds"), section:
            pass

    assert time.monotonic() - started < 10


def test_a_server_that_goes_away_gives_failed_results_and_close_still_works() -> None:
    with serving_http() as doomed:
        section = McpServerSection("doomed", url=doomed.url, tools=["get_time"])
        section.start()
        try:
            assert call(section, "get_time").render() == FIXED_TIME
            doomed.process.kill()
            doomed.process.wait()
            result = call(section, "get_time")
        finally:
            started = time.monotonic()
            section.close()
            closing = time.monotonic() - started

    assert not result.success
    assert "MCP server 'doomed' could not run tool 'get_time'" in result.message
    assert closing < 10
    assert not section.started


def test_running_servers_starts_http_and_stdio_sections_alike(server: HttpServer) -> None:
    from mcp_helpers import demo_section

    web = McpServerSection("web", url=server.url, tools=["get_time"])
    local = demo_section("local", tools=["get_time"])
    prompt = Prompt(ns="tests", key="both", sections=[web, local])

    with running_servers(prompt):
        rendered = prompt.render()
        outputs = [call(web, "get_time").render(), call(local, "get_time").render()]

    assert [t.name for t in rendered.tools] == ["web__get_time", "local__get_time"]
    assert outputs == [FIXED_TIME, FIXED_TIME]
    assert not web.started and not local.started


def test_reprs_and_errors_never_show_header_values(server: HttpServer) -> None:
    section = McpServerSection(
        "web", url=server.url, headers={"Authorization": SECRET, "X-Team": "atlas-team"}
    )

    texts = [repr(section), repr(section.endpoint), str(section.endpoint)]
    with pytest.raises(McpServerError) as caught:
        section.clone(tools=["nope"]).start()

    texts.append(str(caught.value))
    assert "headers=['Authorization', 'X-Team']" in texts[0]
    assert server.url in texts[0]
    for text in texts:
        assert "s3cret" not in text
        assert "atlas-team" not in text
    assert "has no tool 'nope'" in texts[-1]
    assert f"(url: {server.url})" in texts[-1]


def test_a_password_in_the_url_is_hidden() -> None:
    url = f"http://bot:pa55word-xyz@127.0.0.1:{unused_port()}/mcp"
    section = McpServerSection("ghost", url=url)

    with pytest.raises(McpServerError) as caught, section:
        pass

    assert "pa55word-xyz" not in repr(section)
    assert "pa55word-xyz" not in str(caught.value)
    assert "bot:***@127.0.0.1" in str(caught.value)


def test_scrub_hides_header_values_and_tokens_but_not_short_values() -> None:
    endpoint = ServerUrl("http://127.0.0.1:8000/mcp", {"Authorization": SECRET, "X-Retry": "1"})

    text = endpoint.scrub(f"sent {SECRET}; echoed s3cret-token-4711 to 127.0.0.1 once")

    assert text == "sent ***; echoed *** to 127.0.0.1 once"


def test_clone_keeps_the_url_and_headers(web: McpServerSection) -> None:
    copy = web.clone(key="mcp-web-2", tools=["header"])

    assert not copy.started
    assert copy.endpoint == web.endpoint
    with copy:
        assert call(copy, "header", name="Authorization").render() == SECRET


@pytest.mark.parametrize(
    ("arguments", "fragments"),
    [
        (
            {"command": "python", "url": "http://127.0.0.1:1/mcp"},
            ["McpServerSection 'x'", "either command", "or url", "not both"],
        ),
        ({}, ["McpServerSection 'x'", "command=...", "url=..."]),
        ({"url": "ftp://127.0.0.1/mcp"}, ["scheme 'ftp'", "http:// or https://", "e.g. url="]),
        ({"url": "127.0.0.1:8000/mcp"}, ["http:// or https://"]),
        ({"url": "http:///mcp"}, ["has no host"]),
        ({"url": 8000}, ["url must be a non-empty string"]),
        (
            {"url": "http://h/mcp", "args": ["--x"]},
            ["args apply only to a server given by command"],
        ),
        (
            {"url": "http://h/mcp", "env": {"A": "b"}, "cwd": "."},
            ["env, cwd apply only", "remove them"],
        ),
        (
            {"command": "python", "headers": {"A": "b"}},
            ["headers apply only to a server given by url"],
        ),
        ({"url": "http://h/mcp", "headers": ["Authorization"]}, ["headers must be a mapping"]),
        ({"url": "http://h/mcp", "headers": {"Bad Name": "v"}}, ["'Bad Name' is not a valid"]),
        (
            {"url": "http://h/mcp", "headers": {"X-Key": "line\nbreak-secret"}},
            ["'X-Key' contains a line break"],
        ),
        ({"url": "http://h/mcp", "headers": {"X-Key": 42}}, ["'X-Key' must have a string value"]),
    ],
)
def test_bad_http_declarations_are_refused_when_built(
    arguments: dict[str, Any], fragments: list[str]
) -> None:
    with pytest.raises(PromptValidationError) as caught:
        McpServerSection("x", **arguments)

    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message
    assert "break-secret" not in message
    assert "42" not in message


class EchoingRefusal(http.server.BaseHTTPRequestHandler):
    """Refuses every request with a reason phrase that repeats its Authorization header."""

    def do_POST(self) -> None:
        self.send_response(401, self.headers.get("Authorization", ""))
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_DELETE = do_POST

    def log_message(self, format: str, *args: Any) -> None:
        pass


def test_a_reason_phrase_that_echoes_a_header_is_not_shown() -> None:
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), EchoingRefusal) as echo:
        thread = threading.Thread(target=echo.serve_forever, daemon=True)
        thread.start()
        try:
            url = f"http://127.0.0.1:{echo.server_address[1]}/mcp"
            section = McpServerSection("echo", url=url, headers={"Authorization": SECRET})
            with pytest.raises(McpServerError) as caught, section:
                pass
        finally:
            echo.shutdown()
            thread.join()

    message = str(caught.value)
    assert "(the server answered HTTP 401 Unauthorized)" in message
    assert "s3cret" not in message
