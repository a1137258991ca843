"""A request whose query changed (another page, other fields) is not answered with the
recorded one: the query counts in matching, and a change reads as a field diff.

The inner project pages through a response's input items with the OpenAI SDK
against a loopback server; its list bodies are synthetic (shaped as the API's
``list`` objects).
"""

from __future__ import annotations

import json
import shutil
from urllib.parse import parse_qs, urlsplit

import pytest
from web_search_reply import REPO

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply, ReceivedRequest

pytest_plugins = ["pytester"]

FAKE_KEY = "sk-proj-" + "Qd4" * 12

PAGING_TEST = """
import openai
import pytest


@pytest.mark.vcr
def test_pages():
    client = openai.OpenAI()
    items = client.responses.input_items.list("resp_synthetic", limit=LIMIT, order="asc")
    assert len(list(items)) == 4
"""


def _items_page(request: ReceivedRequest) -> LoopbackReply:
    """Synthetic: a page of four input items, ``limit`` at a time after ``after``."""
    query = parse_qs(urlsplit(request.path).query)
    limit = int(query["limit"][0])
    names = [f"msg_synthetic{n}" for n in range(4)]
    start = names.index(query["after"][0]) + 1 if "after" in query else 0
    page = names[start : start + limit]
    data = [
        {"id": name, "type": "message", "role": "user", "status": "completed",
         "content": [{"type": "input_text", "text": name}]}
        for name in page
    ]  # fmt: skip
    return LoopbackReply.json(
        {
            "object": "list",
            "data": data,
            "first_id": page[0],
            "last_id": page[-1],
            "has_more": start + limit < len(names),
        }
    )


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_AGENTS_DISABLE_TRACING"):
        monkeypatch.delenv(name, raising=False)
    pytester.makepyfile(test_paging=PAGING_TEST.replace("LIMIT", "2"))
    pytester.makeini("[pytest]\n")
    with LoopbackProvider(responder=_items_page) as server, monkeypatch.context() as env:
        env.setenv("OPENAI_BASE_URL", server.base_url)
        env.setenv("OPENAI_API_KEY", FAKE_KEY)
        recorded = pytester.runpytest_subprocess("--record-mode=once", "-p", "no:cacheprovider")
    recorded.assert_outcomes(passed=1)
    assert [urlsplit(r.path).query for r in server.requests] == [
        "limit=2&order=asc",
        "limit=2&order=asc&after=msg_synthetic1",
    ]
    return pytester


def test_the_same_pages_replay(project: pytest.Pytester) -> None:
    replay = project.runpytest_subprocess("--block-network", "-p", "no:cacheprovider")
    replay.assert_outcomes(passed=1)
    cassette = project.path / "cassettes" / "test_paging" / "test_pages.json"
    uris = [i["request"]["uri"] for i in json.loads(cassette.read_text())["interactions"]]
    assert [urlsplit(uri).query for uri in uris] == [
        "limit=2&order=asc",
        "limit=2&order=asc&after=msg_synthetic1",
    ]


def test_asking_for_other_pages_is_drift_naming_the_query(project: pytest.Pytester) -> None:
    project.makepyfile(test_paging=PAGING_TEST.replace("LIMIT", "4"))
    replay = project.runpytest_subprocess("--block-network", "-p", "no:cacheprovider")
    replay.assert_outcomes(failed=1)
    output = replay.stdout.str()
    assert "Wire drift: GET /v1/responses/resp_synthetic/input_items" in output
    assert "query: 1 query parameter differs (recorded -> this request):" in output
    assert '~ query.limit[0]: "2" -> "4"' in output
    assert "Traceback" not in output


IMPORTED_POLL_TEST = """
import openai
import pytest


@pytest.mark.vcr
@pytest.mark.tooltape(allow_unplayed=True)
def test_polls():
    client = openai.OpenAI(max_retries=0)
    started = client.responses.create(model="gpt-4o", input="weather?", background=True)
    polled = client.responses.retrieve(started.id)
    assert (started.status, polled.id) == ("queued", started.id)
"""


def test_an_imported_cassette_does_not_match_on_its_clients_query(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pydantic-ai polled with ``?stream=false``; the SDK's ``retrieve`` sends no query. The
    imported recording replays all the same, as its bodies do."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    imported = REPO / "cassettes" / "imported" / "background_mode_with_tool.json"
    assert "?stream=false" in imported.read_text(encoding="utf-8")
    folder = pytester.path / "cassettes" / "test_imported"
    folder.mkdir(parents=True)
    shutil.copy(imported, folder / "test_polls.json")
    pytester.makepyfile(test_imported=IMPORTED_POLL_TEST)
    pytester.makeini("[pytest]\n")
    replay = pytester.runpytest_subprocess("--block-network", "-p", "no:cacheprovider")
    replay.assert_outcomes(passed=1)
