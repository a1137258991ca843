"""``tooltape check`` and ``lint`` in a pytest-recording project with a ``vcr_cassette_dir``
fixture of its own (``tests/fixtures/vcr/<module>/``), a folder not named ``cassettes``.

The plugin replays the YAML cassettes where the fixture puts them. Before any setting,
``check`` and ``lint`` name that folder instead of passing on nothing; with
``cassette_dir`` pointed there, as the README says, ``check`` covers what the
cassettes hold and ``lint`` finds no cassette unused that a test records. A small
project (``pytester``) records with plain pytest-recording against a real HTTP
server on loopback; the replies are synthetic.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

pytest_plugins = ["pytester"]

CONFTEST = """
import os

import pytest


@pytest.fixture(scope="module")
def vcr_cassette_dir(request):
    here = os.path.dirname(__file__)
    return os.path.join(here, "fixtures", "vcr", request.module.__name__.rsplit(".", 1)[-1])


@pytest.fixture(scope="module")
def vcr_config():
    return {"filter_headers": ["authorization"]}
"""

TEST_MODULE = """
import openai
import pytest

WEB_SEARCH = [{"type": "web_search"}]


@pytest.mark.vcr
def test_search():
    response = openai.OpenAI().responses.create(model="gpt-5", input="SF?", tools=WEB_SEARCH)
    assert response.output_text == "Sunny."
"""


# synthetic: a web search and the answer citing nothing
def _reply() -> LoopbackReply:
    return LoopbackReply.json(
        {
            "id": "resp_ws_1",
            "object": "response",
            "status": "completed",
            "model": "gpt-5",
            "output": [
                {
                    "id": "ws_1",
                    "type": "web_search_call",
                    "status": "completed",
                    "action": {"type": "search", "query": "weather SF"},
                },
                {
                    "id": "msg_1",
                    "type": "message",
                    "role": "assistant",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": "Sunny.", "annotations": []}],
                },
            ],
        }
    )


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    pytester.makepyprojecttoml('[project]\nname = "weather"\nversion = "0"\n')
    tests = pytester.mkdir("tests")
    (tests / "conftest.py").write_text(CONFTEST)
    (tests / "test_api.py").write_text(TEST_MODULE)
    with LoopbackProvider([_reply()]) as server, monkeypatch.context() as env:
        env.setenv("OPENAI_BASE_URL", server.base_url)
        env.setenv("OPENAI_API_KEY", "sk-proj-" + "Fx3" * 12)
        recorded = pytester.runpytest_subprocess(
            "-p", "no:tooltape", "-p", "no:cacheprovider", "--record-mode=once"
        )
    recorded.assert_outcomes(passed=1)
    assert (tests / "fixtures" / "vcr" / "test_api" / "test_search.yaml").is_file()
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
    return pytester


def test_check_and_lint_name_the_fixtures_folder_instead_of_passing_on_nothing(
    project: pytest.Pytester,
) -> None:
    folder = Path("tests") / "fixtures" / "vcr"
    for command in ("check", "lint"):
        run = project.run("tooltape", command)
        output = run.stdout.str()
        assert run.ret == 0, output
        assert "but the project holds some elsewhere:" in output
        assert f"  {folder}: 1 YAML" in output
        assert f'cassette_dir = "{folder}"' in output  # the project's fixture reads it there


def test_with_cassette_dir_there_check_covers_it_and_lint_finds_nothing_unused(
    project: pytest.Pytester,
) -> None:
    project.makepyprojecttoml('[tool.tooltape]\ncassette_dir = "tests/fixtures/vcr"\n')
    check = project.run("tooltape", "check")
    assert check.ret == 0, check.stdout.str()
    assert any(
        line.startswith("web_search ") and " recorded " in line for line in check.stdout.lines
    )
    lint = project.run("tooltape", "lint")
    assert lint.ret == 0, lint.stdout.str()
    assert "no findings" in lint.stdout.str()

    # a cassette whose test is gone is still found
    module = project.path / "tests" / "test_api.py"
    module.write_text(module.read_text().replace("def test_search", "def test_lookup"))
    lint = project.run("tooltape", "lint")
    assert lint.ret == 1
    assert "unused cassette" in lint.stdout.str()
    assert "defines no test test_search" in lint.stdout.str()
