"""Replaying a long cassette: each request is compared only with the recorded ones that may match.

The cassettes are synthetic (written here); requests go to a closed loopback
port, so only the cassette can answer them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2
import pytest
import vcr
from vcr.errors import CannotOverwriteExistingCassetteException

from tooltape.testing import matching
from tooltape.testing.matching import DEFAULT_VOLATILE_FIELDS, diff_json, match_key
from tooltape.testing.vcr import TooltapeSerializer
from tooltape.testing.vcr import matchers as matchers_module
from tooltape.testing.vcr.misses import explain_cassette_failure
from tooltape.testing.vcr.recorder import configure_vcr

BASE_URL = "http://127.0.0.1:9/v1"


def _pair(request: dict[str, Any], answer: str) -> dict[str, Any]:
    return {
        "request": {
            "method": "POST",
            "uri": f"{BASE_URL}/responses",
            "body": json.dumps(request).encode(),
            "headers": {"content-type": ["application/json"]},
        },
        "response": {
            "status": {"code": 200, "message": "OK"},
            "headers": {"content-type": ["application/json"]},
            "body": {"string": json.dumps({"id": answer, "output": []}).encode()},
        },
    }


def _write(path: Path, pairs: list[dict[str, Any]]) -> Path:
    serializer = TooltapeSerializer("loopback", "synthetic: test_request_index")
    path.write_text(serializer.serialize({"interactions": pairs}), encoding="utf-8")
    return path


def _turn(index: int) -> dict[str, Any]:
    return {"model": "gpt-5", "input": f"turn {index}", "metadata": {"run": index}}


def _post(client: httpx2.Client, body: dict[str, Any]) -> str:
    return str(client.post(f"{BASE_URL}/responses", json=body).json()["id"])


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real: Callable[..., Any] = diff_json

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(matchers_module, "diff_json", counted)
    return calls


def test_a_long_replay_diffs_only_the_request_that_matches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    turns = 40
    path = _write(tmp_path / "long.json", [_pair(_turn(i), f"resp_{i}") for i in range(turns)])
    diffs = _counting(monkeypatch)
    recorder = configure_vcr(vcr.VCR(record_mode="none"))
    with recorder.use_cassette(str(path)) as cassette, httpx2.Client() as client:
        answers = [_post(client, _turn(i)) for i in range(turns)]
    assert answers == [f"resp_{i}" for i in range(turns)]
    assert cassette.all_played
    assert "_responses" in vars(cassette)  # vcrpy handed the hook its cassette
    # vcrpy looks a request up twice; each time only the one recorded request
    # with the same key is compared (a scan of all of them made 2 * 40 * 41 / 2).
    assert len(diffs) <= 2 * turns


def test_requests_out_of_order_and_repeated_get_their_own_answers(tmp_path: Path) -> None:
    pairs = [
        _pair(_turn(0), "first"),
        _pair(_turn(1), "second"),
        _pair(_turn(0), "first again"),
        _pair({**_turn(2), "metadata": {"run": "other"}}, "third"),
    ]
    path = _write(tmp_path / "mixed.json", pairs)
    recorder = configure_vcr(vcr.VCR(record_mode="none"))
    with recorder.use_cassette(str(path)) as cassette, httpx2.Client() as client:
        assert _post(client, _turn(2)) == "third"  # metadata is volatile
        assert _post(client, _turn(0)) == "first"
        assert _post(client, _turn(0)) == "first again"
        assert _post(client, _turn(1)) == "second"
    assert cassette.all_played


def test_a_miss_in_a_long_cassette_still_shows_the_field_diff(tmp_path: Path) -> None:
    path = _write(tmp_path / "long.json", [_pair(_turn(i), f"resp_{i}") for i in range(5)])
    recorder = configure_vcr(vcr.VCR(record_mode="none"))
    with (
        recorder.use_cassette(str(path)),
        httpx2.Client() as client,
        pytest.raises(CannotOverwriteExistingCassetteException) as refused,
    ):
        _post(client, {**_turn(3), "model": "gpt-5-mini"})
    assert '~ model: "gpt-5" -> "gpt-5-mini"' in str(refused.value)


def test_the_index_follows_interactions_recorded_during_the_test(tmp_path: Path) -> None:
    path = _write(tmp_path / "grow.json", [_pair(_turn(0), "resp_0")])
    recorder = configure_vcr(vcr.VCR(record_mode="none"))
    with recorder.use_cassette(str(path)) as cassette, httpx2.Client() as client:
        assert _post(client, _turn(0)) == "resp_0"
        request = next(iter(cassette.requests))
        cassette.data.append((request, cassette.responses[0]))
        assert cassette.can_play_response_for(request) is not None


EQUAL = [
    ({"a": 1, "b": [1, 2]}, {"b": [1.0, 2], "a": 1.0}),
    ({"model": "m", "metadata": {"x": 1}}, {"model": "m"}),
    (
        {"input": [{"type": "reasoning", "encrypted_content": "abc"}]},
        {"input": [{"type": "reasoning", "encrypted_content": "xyz"}]},
    ),
    ({"input": [{"encrypted_content": "abc", "id": 1}]}, {"input": [{"id": 1}]}),
]
DIFFERENT = [
    ({"a": 1}, {"a": True}),
    ({"a": [1, 2]}, {"a": [2, 1]}),
    ({"a": [1, 2]}, {"a": [1, 2, 3]}),
    ({"a": "1"}, {"a": 1}),
    ({"a": {"b": None}}, {"a": {}}),
]


@pytest.mark.parametrize(("one", "other"), EQUAL)
def test_documents_diff_json_finds_equal_share_a_match_key(one: object, other: object) -> None:
    assert diff_json(one, other, volatile=DEFAULT_VOLATILE_FIELDS) == ()
    assert match_key(one, volatile=DEFAULT_VOLATILE_FIELDS) == match_key(
        other, volatile=DEFAULT_VOLATILE_FIELDS
    )


@pytest.mark.parametrize(("one", "other"), DIFFERENT)
def test_documents_that_differ_have_different_match_keys(one: object, other: object) -> None:
    assert diff_json(one, other, volatile=DEFAULT_VOLATILE_FIELDS)
    assert match_key(one, volatile=DEFAULT_VOLATILE_FIELDS) != match_key(
        other, volatile=DEFAULT_VOLATILE_FIELDS
    )


@pytest.mark.parametrize(
    ("pattern", "one", "other"),
    [
        ("items.1", {"items": [1, 2]}, {"items": [1]}),
        ("items.*", {"items": [1, 2, 3]}, {"items": []}),
        ("**", {"a": 1}, {"b": 2}),
    ],
)
def test_a_volatile_array_index_never_splits_equal_documents(
    pattern: str, one: object, other: object
) -> None:
    # diff_json ignores an item at a volatile index, whatever the arrays' lengths.
    assert diff_json(one, other, volatile=[pattern]) == ()
    assert match_key(one, volatile=[pattern]) == match_key(other, volatile=[pattern])
    assert matching.match_key(one) != matching.match_key(other)


def test_a_projects_own_load_hook_runs_and_the_cassette_is_still_indexed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    turns = 20
    path = _write(tmp_path / "long.json", [_pair(_turn(i), f"resp_{i}") for i in range(turns)])
    loaded: list[str] = []

    def remember(request: Any, response: Any) -> tuple[Any, Any]:
        loaded.append(request.method)
        return request, response

    diffs = _counting(monkeypatch)
    recorder = configure_vcr(vcr.VCR(record_mode="none"))
    with (
        recorder.use_cassette(str(path), after_load_interaction=remember) as cassette,
        httpx2.Client() as client,
    ):
        answers = [_post(client, _turn(i)) for i in range(turns)]
    assert answers == [f"resp_{i}" for i in range(turns)]
    assert loaded == ["POST"] * turns
    assert "_responses" in vars(cassette)
    assert len(diffs) <= 2 * turns


def test_a_changed_request_is_shown_beside_the_unplayed_one_it_was_recorded_as(
    tmp_path: Path,
) -> None:
    turns = 6
    path = _write(tmp_path / "long.json", [_pair(_turn(i), f"resp_{i}") for i in range(turns)])
    recorder = configure_vcr(vcr.VCR(record_mode="none"))
    with (
        recorder.use_cassette(str(path)),
        httpx2.Client() as client,
        pytest.raises(CannotOverwriteExistingCassetteException) as refused,
    ):
        for i in range(turns):
            _post(client, {**_turn(i), "input": "TURN 4"} if i == 4 else _turn(i))
    message = explain_cassette_failure(refused.value, "test_x.py::test_x")
    assert message is not None
    # every recorded request differs in one field; the played ones answered turns 0 to 3
    closest = message.split("Closest unplayed interaction", 2)[1]
    assert '~ input: "turn 4" -> "TURN 4"' in closest
