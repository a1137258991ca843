"""Run the cards demo: one card mixing a function tool, hooks, an MCP server, an agent card
and a client-executed tool, evaluated by ``OpenAIAdapter``.

    python examples/cards_demo/demo.py            # offline: replays cassette.json, no key
    python examples/cards_demo/demo.py --record   # live: needs OPENAI_API_KEY, rewrites it

Replay matches every request body against the recording, so a change to the
card, its tools or the wire fails loudly instead of replaying stale answers.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import openai
import vcr

from tooltape import PromptResponse, Session
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.cards import read_card
from tooltape.testing.cassette import CassetteSource
from tooltape.testing.vcr import TooltapeSerializer, use_cassette_safely
from tooltape.testing.vcr.recorder import configure_vcr

HERE = Path(__file__).resolve().parent
CARD = HERE / "orchestrator.md"
CASSETTE = HERE / "cassette.json"
REPORT = "status.md"
REPLAY_KEY = "cards-demo-replay"


class StaleCassetteError(RuntimeError):
    """The replay left recorded requests unused: the code now sends fewer of them."""


def evaluate(card_path: Path, client: openai.OpenAI) -> tuple[PromptResponse[Any], Session]:
    """Start the card's MCP servers, evaluate it, stop them; the response and the session.

    The report the card writes is removed first: the conversation starts
    from an empty workspace, as it was recorded.
    """
    card = read_card(card_path)
    assert card.model is not None, "the demo card names its model"
    (card_path.parent / "workspace" / REPORT).unlink(missing_ok=True)
    adapter = OpenAIAdapter(card.model, client=client)
    session = Session()
    with card:
        response = adapter.evaluate(card.prompt, session=session)
    return response, session


def _recorder(record_mode: str, source: CassetteSource, provenance: str | None) -> Any:
    return configure_vcr(
        vcr.VCR(record_mode=record_mode), serializer=TooltapeSerializer(source, provenance)
    )


@contextmanager
def replaying(cassette: Path = CASSETTE) -> Iterator[openai.OpenAI]:
    """A client whose requests are answered from ``cassette`` only (no key, no network)."""
    recorder = _recorder("none", "live", None)
    with use_cassette_safely(recorder, cassette) as played:
        yield openai.OpenAI(api_key=REPLAY_KEY, max_retries=0)
        if not played.all_played:
            raise StaleCassetteError(
                f"{cassette}: {len(played) - played.play_count} recorded request(s) were not "
                "made; re-record with `python examples/cards_demo/demo.py --record`."
            )


@contextmanager
def recording(
    cassette: Path = CASSETTE,
    *,
    client: openai.OpenAI | None = None,
    source: CassetteSource = "live",
    provenance: str | None = "recorded by examples/cards_demo/demo.py --record",
) -> Iterator[openai.OpenAI]:
    """A client (the live API unless one is given) whose exchanges overwrite ``cassette``."""
    recorder = _recorder("all", source, provenance)
    cassette.unlink(missing_ok=True)
    with use_cassette_safely(recorder, cassette):
        yield client if client is not None else openai.OpenAI()


def show(response: PromptResponse[Any], session: Session) -> None:
    """Print the answer and every tool call of the evaluation (children included)."""
    print(f"\n{response.text}\n")
    for event in session.tool_invocations:
        status = "ok" if event.result.success else "failed"
        print(f"  [{event.prompt_name}] {event.source:8} {event.name:16} {status}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--record", action="store_true", help="call the live API and re-record")
    args = parser.parse_args(argv)
    printer = logging.StreamHandler(sys.stdout)
    printer.setFormatter(logging.Formatter("audit: %(message)s"))
    audit = logging.getLogger("cards_demo.audit")
    audit.addHandler(printer)
    audit.setLevel(logging.INFO)
    context = recording() if args.record else replaying()
    with context as client:
        response, session = evaluate(CARD, client)
    show(response, session)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
