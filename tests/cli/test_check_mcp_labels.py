"""``tooltape check`` in a project whose hosted MCP server has a label of its own.

MCP call items belong to a tool by ``server_label``: the check must read each
recorded call with a tool of the label it was recorded with, not with the
canonical tool's. A small project (``pytester``) records an SDK request with a
hosted MCP tool against a real HTTP server on loopback, then checks its
cassettes. The reply is synthetic.
"""

from __future__ import annotations

import re

import pytest

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

pytest_plugins = ["pytester"]

TEST_MODULE = """
import openai
import pytest

MCP = {
    "type": "mcp",
    "server_label": "{label}",
    "server_url": "https://mcp.example.test/mcp",
    "require_approval": "never",
}


@pytest.mark.vcr
def test_docs_search():
    response = openai.OpenAI().responses.create(model="gpt-5", input="Find x", tools=[MCP])
    assert response.output_text == "Found x."
"""


# synthetic: the items a Responses answer holds after one call to a hosted MCP server
def _reply(label: str) -> LoopbackReply:
    return LoopbackReply.json(
        {
            "id": "resp_mcp_1",
            "object": "response",
            "status": "completed",
            "model": "gpt-5",
            "output": [
                {
                    "id": "mcpl_1",
                    "type": "mcp_list_tools",
                    "server_label": label,
                    "tools": [{"name": "search", "input_schema": {"type": "object"}}],
                },
                {
                    "id": "mcp_1",
                    "type": "mcp_call",
                    "server_label": label,
                    "name": "search",
                    "arguments": '{"q": "x"}',
                    "output": "found x",
                    "error": None,
                    "status": "completed",
                },
                {
                    "id": "msg_1",
                    "type": "message",
                    "role": "assistant",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": "Found x.", "annotations": []}],
                },
            ],
        }
    )


@pytest.mark.parametrize("label", ["docs", "deepwiki"])
def test_a_recorded_mcp_call_holds_its_contract_whatever_the_server_label(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, label: str
) -> None:
    pytester.makepyfile(test_docs=TEST_MODULE.replace("{label}", label))
    pytester.makepyprojecttoml("[tool.tooltape]\n")
    with LoopbackProvider([_reply(label)]) as server, monkeypatch.context() as env:
        env.setenv("OPENAI_BASE_URL", server.base_url)
        env.setenv("OPENAI_API_KEY", "sk-proj-" + "Mc9" * 12)
        recorded = pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    recorded.assert_outcomes(passed=1)

    check = pytester.run("tooltape", "check")
    output = check.stdout.str()
    assert check.ret == 0, output
    row = next(line for line in check.stdout.lines if line.startswith("mcp "))
    cells = re.split(r"\s{2,}", row.strip())
    assert cells[1] == "recorded"
    assert cells[3] == "ok (2 call(s) in 1 cassette(s))"
    assert cells[4] == "ok"
