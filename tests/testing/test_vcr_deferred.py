"""A response loaded from a tooltape cassette is written to vcrpy's dict when first read.

Every reader (vcrpy's stubs and serializers, the recording hook, ``copy``,
``pickle``, ``==``, ``repr``, users' hooks that change it) gets what the
plain dict gives; holding the mark, being deep-copied (vcrpy copies every
loaded response) and passing the recording hook write nothing. The
responses here are synthetic.
"""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Callable
from typing import Any

import pytest
import yaml
from vcr import serialize as vcr_serialize
from vcr.serializers import compat, jsonserializer, yamlserializer

from tooltape.testing.cassette._vcrpy_format import SCANNED
from tooltape.testing.vcr._names import make_request
from tooltape.testing.vcr.deferred import DeferredResponse
from tooltape.testing.vcr.record_hooks import ScrubHooks


def _written() -> dict[str, Any]:
    """What the response stands for (synthetic): a fresh dict each time."""
    return {
        "status": {"code": 200, "message": "OK"},
        "headers": {
            "content-type": ["application/json"],
            "transfer-encoding": ["chunked"],
            "content-length": ["17"],
        },
        "body": {"string": '{"text":"caf\u00e9 \u2028"}'.encode()},
    }


def _plain() -> dict[str, Any]:
    return {**_written(), SCANNED: True}


class Deferred:
    """A ``DeferredResponse`` of ``_written()`` and how often it was written."""

    def __init__(self) -> None:
        self.writes = 0
        self.response = DeferredResponse(self._write)

    def _write(self) -> dict[str, Any]:
        self.writes += 1
        return _written()


def _outcome(reader: Callable[[Any], object], response: dict[str, Any]) -> object:
    try:
        return reader(response)
    except Exception as error:  # both sides must fail alike
        return ("raised", type(error))


def _with_text_body(response: dict[str, Any]) -> dict[str, Any]:
    compat.convert_body_to_unicode(response)  # what vcrpy's serialize does first
    return response


def _vcrpy_serialized(serializer: object) -> Callable[[Any], object]:
    def serialized(response: Any) -> object:
        request = make_request("POST", "https://api.example.test/v1/responses", b"{}", {})
        return vcr_serialize.serialize({"requests": [request], "responses": [response]}, serializer)

    return serialized


READERS: dict[str, Callable[[Any], object]] = {
    "item": lambda r: r["body"]["string"],
    "get": lambda r: r.get("headers"),
    "get missing": lambda r: r.get("absent", "default"),
    "item missing": lambda r: r["absent"],
    "in": lambda r: ("body" in r, "absent" in r, SCANNED in r),
    "len and bool": lambda r: (len(r), bool(r)),
    "iteration": list,
    "reversed": lambda r: list(reversed(r)),
    "keys": lambda r: list(r.keys()),
    "values": lambda r: list(r.values()),
    "items": lambda r: list(r.items()),
    "dict()": dict,
    "{**r}": lambda r: {**r},
    "update from": lambda r: (lambda target: (target.update(r), target)[1])({}),
    "== plain": lambda r: r == _plain(),
    "plain ==": lambda r: _plain() == r,
    "!= plain": lambda r: r != _plain(),
    "plain !=": lambda r: _plain() != r,
    "== another": lambda r: r == Deferred().response,
    "nested ==": lambda r: ([r], {"response": r}) == ([_plain()], {"response": _plain()}),
    "repr": repr,
    "str": str,
    "format": lambda r: f"{r}",
    "copy.copy": copy.copy,
    "copy.deepcopy": copy.deepcopy,
    ".copy()": lambda r: r.copy(),
    "pickle": lambda r: pickle.loads(pickle.dumps(r)),
    "| dict": lambda r: r | {"extra": 1},
    "dict |": lambda r: {"extra": 1} | r,
    "json.dumps (bytes body)": json.dumps,
    "json.dumps": lambda r: json.dumps(_with_text_body(r)),
    "json.dumps indented": lambda r: json.dumps({"response": _with_text_body(r)}, indent=4),
    "yaml.dump": yaml.dump,
    "yaml.safe_dump": yaml.safe_dump,
    "yaml CDumper": lambda r: yaml.dump(r, Dumper=yaml.CDumper),
    "vcrpy yaml serializer": _vcrpy_serialized(yamlserializer),
    "vcrpy json serializer": _vcrpy_serialized(jsonserializer),
    "recording hook": lambda r: ScrubHooks().before_record_response(r),
}


@pytest.mark.parametrize("reader", READERS.values(), ids=READERS.keys())
def test_every_reader_gets_what_the_plain_dict_gives(reader: Callable[[Any], object]) -> None:
    plain, deferred = _plain(), Deferred()
    want, got = _outcome(reader, plain), _outcome(reader, deferred.response)
    assert got == want
    assert repr(got) == repr(want)
    assert isinstance(got, type(want))
    # what the reader left (vcrpy's serialize turns the body into text in place)
    assert deferred.response == plain and repr(deferred.response) == repr(plain)


def _http_client_stub(response: dict[str, Any]) -> None:
    """What vcrpy's http.client stub does to a response it plays."""
    headers = response["headers"]
    names = [name for name in headers if name.upper() == "TRANSFER-ENCODING"]
    del headers[names[0]]


CHANGES: dict[str, Callable[[Any], object]] = {
    "set new": lambda r: r.__setitem__("extra", 1),
    "replace body": lambda r: r.__setitem__("body", {"string": b"other"}),
    "delete": lambda r: r.__delitem__("headers"),
    "pop": lambda r: r.pop("status"),
    "pop missing": lambda r: r.pop("absent", None),
    "popitem": lambda r: r.popitem(),
    "setdefault": lambda r: r.setdefault("extra", []),
    "setdefault held": lambda r: r.setdefault("status", None),
    "update": lambda r: r.update({"status": {"code": 500}}, extra=2),
    "|=": lambda r: r.__ior__({"extra": 3}),
    "clear": lambda r: r.clear(),
    "http.client stub": _http_client_stub,
    "body to bytes": lambda r: compat.convert_body_to_bytes(_with_text_body(r)),
    "a user's hook": lambda r: r["headers"].setdefault("x-seen", []).append("yes"),
}


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
def test_a_change_is_kept_as_the_plain_dict_keeps_it(change: Callable[[Any], object]) -> None:
    plain, deferred = _plain(), Deferred()
    assert _outcome(change, deferred.response) == _outcome(change, plain)
    assert list(deferred.response.items()) == list(plain.items())
    assert repr(deferred.response) == repr(plain)
    again = copy.deepcopy(deferred.response)  # a copy carries the change too
    assert list(again.items()) == list(plain.items())
    assert deferred.writes == 1


def test_the_mark_deep_copies_and_the_recording_hook_write_nothing() -> None:
    deferred = Deferred()
    response = deferred.response
    assert response.get(SCANNED) is True and SCANNED in response and response[SCANNED] is True
    assert ScrubHooks().before_record_response(response) is response
    copied = copy.deepcopy(copy.deepcopy(response))
    assert deferred.writes == 0

    assert copied["body"]["string"] == _written()["body"]["string"]
    assert deferred.writes == 1
    copied["headers"]["content-length"].append("changed")  # the copy's own lists
    assert response == _plain()
    assert deferred.writes == 2


class _NoDeepCopy:
    def __deepcopy__(self, memo: object) -> _NoDeepCopy:
        raise AssertionError("the parsed tree was deep-copied")


def test_a_deep_copy_shares_what_it_is_written_from() -> None:
    source = _NoDeepCopy()
    seen: list[object] = []

    def write() -> dict[str, Any]:
        seen.append(source)
        return _written()

    response = DeferredResponse(write)
    copied = copy.deepcopy([response, response])
    assert copied[0] is copied[1]  # deepcopy's memo: one copy for one object
    assert copied[0] == _plain() and seen == [source]
