"""A cassette recorded from requests sent together holds them in the order they were sent.

Five equal requests go out at once from one ``httpx2.AsyncClient``; a real
HTTP server on loopback answers the first to arrive last (synthetic bodies).
Written in the order they were answered, the cassette replayed each request
the answer another had got; written in the order they were sent, replay
gives every request the answer it got when recorded.
"""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

import httpx2
import pytest
import vcr

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply, ReceivedRequest
from tooltape.testing.provider.replies import response_json
from tooltape.testing.vcr.recorder import configure_vcr

SAME = {"model": "gpt-5", "input": "the same question"}
COUNT = 5


class LastFirst:
    """Answers ``answer <n>`` (``n``: arrival), each later one sooner."""

    def __init__(self) -> None:
        self.arrived = 0
        self.lock = threading.Lock()

    def __call__(self, request: ReceivedRequest) -> LoopbackReply:
        with self.lock:
            self.arrived += 1
            n = self.arrived
        body = json.dumps(response_json(f"answer {n}", id=f"resp_{n}")).encode()
        return LoopbackReply(200, body, delay_s=0.06 * (COUNT - n))


async def _ask_together(base_url: str) -> list[str]:
    async with httpx2.AsyncClient() as client:
        answers = await asyncio.gather(
            *(client.post(f"{base_url}/responses", json=SAME) for _ in range(COUNT))
        )
    return [answer.json()["id"] for answer in answers]


def _recorded_ids(path: Path) -> list[str]:
    document = json.loads(path.read_text(encoding="utf-8"))
    return [i["response"]["body"]["json"]["id"] for i in document["interactions"]]


@pytest.mark.parametrize("mode", ["once", "all"])
def test_equal_requests_answered_last_first_replay_as_they_were_seen(
    tmp_path: Path, mode: str
) -> None:
    path = tmp_path / "together.json"
    with LoopbackProvider(responder=LastFirst()) as server:
        with configure_vcr(vcr.VCR(record_mode=mode)).use_cassette(str(path)):
            seen = asyncio.run(_ask_together(server.base_url))
        base_url = server.base_url
    assert sorted(seen) == sorted(f"resp_{n}" for n in range(1, COUNT + 1))
    assert _recorded_ids(path) == seen

    with configure_vcr(vcr.VCR(record_mode="none")).use_cassette(str(path)) as cassette:
        assert asyncio.run(_ask_together(base_url)) == seen
    assert cassette.all_played
