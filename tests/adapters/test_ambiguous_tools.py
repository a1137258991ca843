"""Two tools the API cannot tell apart are refused at render, before anything is sent."""

from __future__ import annotations

from typing import Any

import pytest
from openapi_wire import assert_valid_request_body

from tooltape import MarkdownSection, Prompt, PromptEvaluationError
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.prompt import HostedTool
from tooltape.testing.provider.faults import ProviderFaults
from tooltape.tools.file_search import FileSearchConfig, file_search_tool
from tooltape.tools.mcp import HostedMcpConfig, hosted_mcp_tool
from tooltape.tools.shell import ShellConfig, local_shell_tool, shell_tool
from tooltape.tools.web_search import DomainFilter, WebSearchConfig, web_search_tool


def prompt_with(*hosted: HostedTool[Any], tools: tuple[Any, ...] = ()) -> Prompt[Any]:
    section = MarkdownSection(title="T", template="go", tools=tools, hosted_tools=hosted)
    return Prompt(ns="t", key="ambiguous", sections=[section])


def test_two_hosted_tools_of_one_kind_are_refused_before_sending() -> None:
    news = web_search_tool(WebSearchConfig(domain_filter=DomainFilter(allowed=("bbc.com",))))
    docs = web_search_tool(
        WebSearchConfig(domain_filter=DomainFilter(allowed=("python.org",))), name="docs_search"
    )
    faults = ProviderFaults()
    adapter = OpenAIAdapter("gpt-5", client=faults.client())
    with pytest.raises(PromptEvaluationError) as raised:
        adapter.evaluate(prompt_with(news, docs))
    assert raised.value.phase == "render"
    message = str(raised.value)
    assert "'web_search'" in message and "'docs_search'" in message
    assert '{"type": "web_search"}' in message
    assert faults.calls == ()


def test_mcp_servers_with_distinct_labels_may_share_a_prompt_but_not_a_label() -> None:
    wiki = hosted_mcp_tool(HostedMcpConfig("deepwiki", server_url="https://a.example/mcp"))
    mail = hosted_mcp_tool(HostedMcpConfig("gmail", connector_id="connector_gmail"), name="mail")
    body = OpenAIAdapter("gpt-5").build_request(prompt_with(wiki, mail))
    assert [t["server_label"] for t in body["tools"]] == ["deepwiki", "gmail"]
    assert_valid_request_body(body)

    twin = hosted_mcp_tool(
        HostedMcpConfig("deepwiki", server_url="https://b.example/mcp"), name="wiki_two"
    )
    with pytest.raises(PromptEvaluationError, match="distinct server_labels"):
        OpenAIAdapter("gpt-5").build_request(prompt_with(wiki, twin))


def test_a_local_and_a_hosted_shell_are_refused_together() -> None:
    hosted = shell_tool(ShellConfig(), name="hosted_shell")
    local = local_shell_tool(name="local_shell")
    with pytest.raises(PromptEvaluationError) as raised:
        OpenAIAdapter("gpt-5.1").build_request(prompt_with(hosted, tools=(local,)))
    message = str(raised.value)
    assert "local tool 'local_shell'" in message and "hosted tool 'hosted_shell'" in message
    # Either one alone is fine.
    assert OpenAIAdapter("gpt-5.1").build_request(prompt_with(hosted))["tools"]
    assert OpenAIAdapter("gpt-5.1").build_request(prompt_with(tools=(local,)))["tools"]


def test_kinds_that_differ_are_not_confused() -> None:
    body = OpenAIAdapter("gpt-5").build_request(
        prompt_with(web_search_tool(), file_search_tool(FileSearchConfig(("vs_1",))))
    )
    assert [t["type"] for t in body["tools"]] == ["web_search", "file_search"]
