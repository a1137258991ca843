"""tooltape's steps wrap vcrpy's functions once each, whatever wraps them already and in
whichever order they are put in (``configure_vcr`` runs once per recorder)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import vcr

from tooltape.testing.vcr.recorder import configure_vcr
from tooltape.testing.vcr.stub_wraps import wrap_once


class Stub:
    def send(self, calls: list[str]) -> list[str]:
        calls.append("vcrpy")
        return calls


def tagging(tag: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def wrap(send: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(send)
        def tagged(self: Any, calls: list[str]) -> list[str]:
            calls.append(tag)
            return send(self, calls)

        return tagged

    return wrap


def test_each_step_wraps_once_in_either_order_and_when_put_in_again() -> None:
    for order in (("inner", "outer"), ("outer", "inner")):
        owner = type("Owner", (Stub,), {})
        for _ in range(3):
            for tag in order:
                wrap_once(owner, "send", f"mark_{tag}", tagging(tag))
        assert owner().send([]) == [order[1], order[0], "vcrpy"]


def test_a_missing_function_is_left_alone() -> None:
    owner = type("Owner", (), {})
    wrap_once(owner, "send", "mark", tagging("x"))
    wrap_once(None, "send", "mark", tagging("x"))
    assert not hasattr(owner, "send")


def test_configuring_recorders_again_wraps_vcrpys_functions_no_further() -> None:
    stubs: Any = __import__("vcr.stubs", fromlist=["VCRConnection"])
    configure_vcr(vcr.VCR())
    getresponse = stubs.VCRConnection.getresponse
    configure_vcr(vcr.VCR())
    assert stubs.VCRConnection.getresponse is getresponse
