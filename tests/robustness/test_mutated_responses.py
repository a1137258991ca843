"""Property: no mutation of a real recorded response raises anything but the documented error.

Hypothesis picks a real body (``recorded_bodies``: the recordings in
``tests/data/real-cassettes/openai-responses/`` and the repository's
``cassettes/``) and up to four edits (a value of another type, a field
dropped or copied under another name, an item duplicated or retyped, a lone
surrogate, a list where a string was), then feeds the body to
``OpenAIAdapter.evaluate`` and to ``tooltape inspect`` (human and ``--json``,
as a JSON body and as a stream).

``evaluate`` may only raise ``PromptEvaluationError``; ``inspect`` must exit 0
with no traceback, print JSON that parses, and list as unread exactly the
items ``evaluate`` names in its parse error.

The suite runs ``TOOLTAPE_FUZZ_EXAMPLES`` examples (default 300); the
benchmarks run sets a larger count (see benchmarks/README.md).
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from recorded_bodies import (
    OPERATIONS,
    Mutation,
    evaluate,
    inspected_entry,
    mutated,
    recorded_bodies,
    write_cassette,
)

from tooltape import PromptEvaluationError

EXAMPLES = int(os.environ.get("TOOLTAPE_FUZZ_EXAMPLES", "300"))
BODIES = recorded_bodies()
# Each listed problem starts with the item it is about ("(output[1].call_id: ...;
# output[2].type: ..."); another item a problem refers to ("is also the call_id of
# output[0]") is not one that cannot be read.
_ITEM_INDEX = re.compile(r"(?:\(|; )output\[(\d+)\]")

mutations = st.lists(
    st.builds(
        Mutation,
        operation=st.sampled_from(OPERATIONS),
        target=st.integers(min_value=0, max_value=100_000),
        choice=st.integers(min_value=0, max_value=1_000),
    ),
    min_size=1,
    max_size=4,
)


def test_the_bodies_are_the_real_recordings() -> None:
    sources = {body.source.partition("#")[0] for body in BODIES}
    assert "model_mcp_server_tool.yaml" in sources  # tests/data/real-cassettes
    assert "test_hosted_kind_round_trip[shell].json" in sources  # cassettes/
    assert len(BODIES) >= 30


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    source=st.integers(min_value=0, max_value=len(BODIES) - 1),
    edits=mutations,
    streamed=st.booleans(),
)
def test_no_mutated_real_response_raises_anything_but_the_documented_error(
    source: int, edits: list[Mutation], streamed: bool
) -> None:
    recorded = BODIES[source]
    response = mutated(recorded, edits)

    named: set[int] = set()
    refused = False
    try:
        evaluate(recorded, response)
    except PromptEvaluationError as error:
        refused = True
        if error.phase == "parse":
            named = {int(index) for index in _ITEM_INDEX.findall(error.message)}

    with tempfile.TemporaryDirectory() as folder:
        path = write_cassette(Path(folder) / "mutated.json", recorded, response, streamed=streamed)
        shown, entry = inspected_entry(path)
    unread = {item["index"] for item in entry["unread_items"] if item["index"] is not None}
    assert named <= unread, (named, entry["unread_items"])
    assert refused or not unread, f"evaluate accepted what inspect could not read: {unread}"
    not_read_lines = [line for line in shown.splitlines() if "not read:" in line]
    assert len(not_read_lines) == len(entry["unread_items"])
