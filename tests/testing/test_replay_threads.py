"""Threads replaying one cassette at once: each recorded interaction answers one request.

vcrpy finds the first matching interaction not played yet, then counts it as
played; a thread switch between the two gave two threads one answer. The
cassettes here (synthetic, written by the test) hold equal requests with
different answers; the cassette's play counter yields to other threads
whenever it is read, so the switch that used to come now and then comes
every time.
"""

from __future__ import annotations

import collections
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2
import pytest
import requests
import vcr
from test_request_index import _pair, _post, _write
from vcr.errors import CannotOverwriteExistingCassetteException

from tooltape.testing.cassette import load_cassette
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply
from tooltape.testing.vcr.recorder import configure_vcr

SAME = {"model": "gpt-5", "input": "the same question"}
THREADS = 8


class YieldingCounts(collections.Counter[int]):
    """vcrpy's play counts, handing the interpreter to another thread on every read."""

    def __getitem__(self, key: int) -> int:
        time.sleep(0)
        return super().__getitem__(key)


def _replay(path: Path, requests: int) -> tuple[list[str], Any]:
    recorder = configure_vcr(vcr.VCR(record_mode="none"))
    start = threading.Barrier(THREADS)

    def ask(client: httpx2.Client) -> str:
        start.wait(timeout=5)  # the threads ask together
        try:
            return _post(client, SAME)
        except CannotOverwriteExistingCassetteException as refused:
            return f"refused: {refused.reason}"

    with recorder.use_cassette(str(path)) as cassette, httpx2.Client() as client:
        cassette.play_counts = YieldingCounts()
        with ThreadPoolExecutor(THREADS) as pool:
            answers = list(pool.map(lambda _: ask(client), range(requests)))
    return answers, cassette


def test_equal_requests_from_threads_each_get_their_own_answer(tmp_path: Path) -> None:
    count = 32
    path = _write(tmp_path / "same.json", [_pair(SAME, f"resp_{n}") for n in range(count)])
    answers, cassette = _replay(path, count)
    assert sorted(answers) == sorted(f"resp_{n}" for n in range(count))
    assert cassette.all_played


def test_one_request_too_many_from_threads_is_refused_as_already_played(tmp_path: Path) -> None:
    count = THREADS - 1
    path = _write(tmp_path / "same.json", [_pair(SAME, f"resp_{n}") for n in range(count)])
    answers, cassette = _replay(path, count + 1)
    assert sorted(answers) == sorted(
        [*(f"resp_{n}" for n in range(count)), "refused: already_played"]
    )
    assert cassette.all_played


def _assert_recorded(path: Path, loaded: int, sent: int) -> None:
    """The two requests left over were sent and recorded, or the second played what the
    first recorded a moment before (vcrpy plays a cassette's new interactions too)."""
    assert sent in (1, 2)
    assert len(load_cassette(path).interactions) == loaded + sent


def _post_with_httpx(client: httpx2.Client, url: str) -> str:
    return str(client.post(url, json=SAME).json()["id"])


def _post_with_requests(_: httpx2.Client, url: str) -> str:
    return str(requests.post(url, json=SAME, timeout=10).json()["id"])


@pytest.mark.parametrize(
    "post",
    [_post_with_httpx, _post_with_requests],
    ids=["httpx", "requests"],
)
def test_new_episodes_records_a_request_whose_match_another_thread_played(
    tmp_path: Path, post: Callable[[httpx2.Client, str], str]
) -> None:
    # vcrpy asks whether a request can be played, then plays it (through requests and
    # urllib3, both inside getresponse): a thread whose match another thread took in
    # between got vcrpy's UnhandledHTTPRequestError, where the same request sent alone
    # would have been recorded.
    count = THREADS - 2
    with LoopbackProvider(
        responder=lambda _: LoopbackReply.json({"id": "resp_new", "output": []})
    ) as provider:
        pairs = [_pair(SAME, f"resp_{n}") for n in range(count)]
        for pair in pairs:
            pair["request"]["uri"] = f"{provider.base_url}/responses"
        path = _write(tmp_path / "same.json", pairs)
        recorder = configure_vcr(vcr.VCR(record_mode="new_episodes"))
        start = threading.Barrier(THREADS)

        def ask(client: httpx2.Client) -> str:
            start.wait(timeout=5)
            return post(client, f"{provider.base_url}/responses")

        with recorder.use_cassette(str(path)) as cassette, httpx2.Client() as client:
            cassette.play_counts = YieldingCounts()
            with ThreadPoolExecutor(THREADS) as pool:
                answers = list(pool.map(lambda _: ask(client), range(THREADS)))
        sent = len(provider.requests)
    assert sorted(answers) == sorted([*(f"resp_{n}" for n in range(count)), *["resp_new"] * 2])
    _assert_recorded(path, count, sent)


def test_requests_from_threads_replay_with_none_sent(tmp_path: Path) -> None:
    # vcrpy put urllib3's real connection classes back for the whole process while one
    # thread built its connection: another thread building one then got a real one, and
    # its request went to the server (up to 6 of 8), neither played nor recorded.
    with LoopbackProvider(
        responder=lambda _: LoopbackReply.json({"id": "resp_sent", "output": []})
    ) as provider:
        pairs = [_pair(SAME, f"resp_{n}") for n in range(THREADS)]
        for pair in pairs:
            pair["request"]["uri"] = f"{provider.base_url}/responses"
        path = _write(tmp_path / "same.json", pairs)
        recorder = configure_vcr(vcr.VCR(record_mode="none"))
        start = threading.Barrier(THREADS)

        def ask(_: int) -> str:
            start.wait(timeout=5)
            answer = requests.post(f"{provider.base_url}/responses", json=SAME, timeout=10)
            return str(answer.json()["id"])

        with recorder.use_cassette(str(path)), ThreadPoolExecutor(THREADS) as pool:
            answers = list(pool.map(ask, range(THREADS)))
        sent = len(provider.requests)
    assert sent == 0
    assert sorted(answers) == sorted(f"resp_{n}" for n in range(THREADS))
