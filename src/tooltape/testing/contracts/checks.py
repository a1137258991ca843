"""The contract every hosted tool kind a project uses must keep, as plain functions.

For one kind: its wire spec matches the reviewed snapshot; its recorded
answers replay through the codec into typed outputs; the failure semantics
hold (a failed call item becomes a failed ``ToolResult`` carrying the
provider's error, a raising hook never aborts an evaluation, an unknown kind
fails before anything is sent); and whether a streamed recording exists.
Every check but the spec snapshot reads the project's own recordings: none
depends on a synthetic sample of a kind the project never recorded. Both
``tooltape check`` and the pytest contract suite run these; each says how to
fix a failure with the command of where it is shown (``update_hint``).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import shlex
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from tooltape.adapters.codec import HostedToolCodec
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.adapters.openai.codecs.envelope import malformed_items
from tooltape.adapters.openai.reading import as_dict, field
from tooltape.prompt import HostedTool, Prompt, PromptEvaluationError, Section, ToolResult
from tooltape.runtime import Session
from tooltape.testing.cassette import write_atomic
from tooltape.testing.contracts.corpus import (
    SPEC_DIR_NAME,
    Corpus,
    RecordedExchange,
    unreadable_note,
)
from tooltape.testing.contracts.outcomes import Coverage, KindReport, Outcome
from tooltape.testing.contracts.subjects import ContractSubject, Subject, snapshot_stem
from tooltape.testing.kinds import reading_tools
from tooltape.testing.matching import diff_json, format_differences
from tooltape.testing.provider.faults import ProviderFaults, response_json

CONTRACT_ERROR_CODE = "tooltape_contract_failure"
NO_SOUND_CALL = (
    "no sound call: every recorded call of this kind is malformed, so there is none to "
    "check the contract with (replay names the item)"
)
PYTEST_UPDATE = "`pytest --snapshot-update`"
"""How a spec snapshot is rewritten where the pytest suite reports it."""


def cli_update(folder: Path, *, strict: bool = False) -> str:
    """How a spec snapshot is rewritten where ``tooltape check`` reports it (with
    ``--strict`` when that is what made every kind required), quoted to run as pasted."""
    argv = ["tooltape", "check", str(folder), *(["--strict"] if strict else []), "--update-specs"]
    return f"`{shlex.join(argv)}`"


def spec_path(spec_dir: Path, subject: Subject) -> Path:
    """Where ``subject``'s spec snapshot lives (see :func:`snapshot_stem`)."""
    return spec_dir / f"{snapshot_stem(subject)}.json"


def spec_document(subject: Subject) -> dict[str, Any]:
    """What a spec snapshot file holds: the kind, the codec, the tool and its spec."""
    codec = type(subject.codec)
    return {
        "kind": subject.codec.kind,
        "codec": f"{codec.__module__}.{codec.__qualname__}",
        "tool": subject.tool.name,
        "spec": subject.wire_spec(),
    }


def check_spec(subject: Subject, spec_dir: Path, *, update: bool, update_hint: str) -> Outcome:
    """The codec's spec for the subject's tool equals its snapshot (rewritten when ``update``).

    ``update_hint`` is the command that rewrites snapshots where the outcome is shown.
    """
    document = spec_document(subject)
    path = spec_path(spec_dir, subject)
    if update:
        write_atomic(path, json.dumps(document, indent=2, sort_keys=True) + "\n")
        return Outcome(True, f"written {path}")
    if not path.is_file():
        return Outcome(
            False, f"no spec snapshot {path}: write it with {update_hint} and review the file"
        )
    try:
        recorded = json.loads(path.read_text(encoding="utf-8"))["spec"]
    except (ValueError, KeyError, TypeError) as exc:
        return Outcome(
            False, f"{path} is not a spec snapshot ({exc}): rewrite it with {update_hint}"
        )
    differences = diff_json(recorded, document["spec"], volatile=())
    if differences:
        return Outcome(
            False,
            f"wire spec drifted from {path}:\n{format_differences(differences)}\n"
            f"if the change is intended, rewrite the snapshot with {update_hint} and review it",
        )
    return Outcome(True, f"matches {path.name}")


def _is_typed(output: object) -> bool:
    return dataclasses.is_dataclass(output) and not isinstance(output, type)


def not_recorded(codec: HostedToolCodec[Any, Any], corpus: Corpus) -> str:
    """Why a check needing a recording of ``codec``'s kind could not run, and the fix."""
    return (
        f"no cassette under {corpus.root} holds a call of this kind "
        f"({' / '.join(codec.item_types)} items): record one (`pytest --record-mode=once` "
        f"in a test that uses it) or import one with `tooltape import SRC --out {corpus.root}`"
    )


def malformed_note(exchange: RecordedExchange, why: str) -> str:
    """What a contract check says of a malformed item: its cassette, interaction and
    ``why`` (its place and problem), and how to mend the cassette."""
    return (
        f"{exchange.path} #{exchange.answer.index} {why}; the cassette holds a malformed "
        "item: restore it from version control or re-record it (`tooltape inspect "
        f"{exchange.path}` shows every item not read)"
    )


def _reads_cleanly(codec: HostedToolCodec[Any, Any], item: object) -> bool:
    """Whether one call item, on its own, has a sound envelope and parses into a typed call."""
    if malformed_items([item]):
        return False
    try:
        parsed = codec.parse_calls([item], None)
    except PromptEvaluationError:
        return False
    return bool(parsed) and all(_is_typed(call.output) for call in parsed)


def unreadable_item(codec: HostedToolCodec[Any, Any], exchange: RecordedExchange) -> str | None:
    """The first call item of the kind in ``exchange`` that does not read, named by its
    cassette, interaction and place (``output_x.json #0 output[2] (mcp_call): ...``)."""
    items = exchange.answer.items
    broken = {problem.index: problem for problem in malformed_items(items)}
    for index, item in enumerate(items):
        if field(item, "type") not in codec.item_types:
            continue
        if index in broken:
            problem = broken[index]
            why = f"{problem.where}: {problem.problem}"
        elif not _reads_cleanly(codec, item):
            why = f"output[{index}] ({field(item, 'type')}): it does not read into a typed output"
        else:
            continue
        return malformed_note(exchange, why)
    return None


def check_readable(corpus: Corpus) -> Outcome:
    """Every cassette under the folder could be read: a call of any kind may sit in one
    that could not, so no replay contract holds over a folder with such a file."""
    if not corpus.unreadable:
        return Outcome(True, "every cassette read")
    count = len(corpus.unreadable)
    lines = [
        f"{count} cassette{'' if count == 1 else 's'} under {corpus.root} cannot be read, so "
        f"no contract can say what {'it holds' if count == 1 else 'they hold'}; fix or delete "
        f"{'it' if count == 1 else 'them'}:"
    ]
    lines.extend(f"  {unreadable_note(path, reason)}" for path, reason in corpus.unreadable)
    return Outcome(False, "\n".join(lines))


def check_replay(
    codec: HostedToolCodec[Any, Any], tool: HostedTool[Any], corpus: Corpus
) -> Outcome:
    """Every recorded call item of the kind parses into a typed, non-``None`` output."""
    exchanges = corpus.with_items_of(codec.item_types, codec.serialize(tool))
    if not exchanges:
        return Outcome(False, not_recorded(codec, corpus))
    calls = 0
    for exchange in exchanges:
        where = f"{exchange.path.name} #{exchange.answer.index}"
        unreadable = unreadable_item(codec, exchange)
        if unreadable is not None:
            return Outcome(False, unreadable)
        parsed = codec.parse_calls(exchange.answer.items, None)
        untyped = [call.id for call in parsed if not _is_typed(call.output)]
        if not parsed or untyped:
            return Outcome(False, f"{where}: calls without a typed output: {untyped or 'all'}")
        calls += len(parsed)
        readers = _readers(codec, tool, exchange)
        if all(codec.parse_output(exchange.answer.items, reader) is None for reader in readers):
            return Outcome(False, f"{where}: parse_output gave None although the kind was called")
    files = len({exchange.path for exchange in exchanges})
    return Outcome(True, f"{calls} call(s) in {files} cassette(s)")


def failed_variant(item: Mapping[str, Any]) -> dict[str, Any]:
    """A recorded call item turned into a failed one (synthetic, derived for the check)."""
    failed = copy.deepcopy(dict(item))
    failed["status"] = "failed"
    failed["error"] = {"code": CONTRACT_ERROR_CODE, "message": "injected by the contract check"}
    return failed


def _readers(
    codec: HostedToolCodec[Any, Any], tool: HostedTool[Any], exchange: RecordedExchange
) -> list[HostedTool[Any]]:
    """The tools to read ``exchange``'s calls of the kind with: ``tool``, except for MCP,
    whose items belong to a tool by server label: one tool per label the exchange names."""
    if codec.kind != "mcp":
        return [tool]
    answer = exchange.answer
    return [*reading_tools(["mcp"], answer.request_body, answer.items).values()] or [tool]


def _prompt_with(tool: HostedTool[Any]) -> Prompt[Any]:
    return Prompt(
        ns="tooltape.contracts",
        key=f"contract-{tool.kind}",
        sections=[Section(title="Contract", hosted_tools=(tool,))],
    )


def raising_hook(ctx: Any, args: dict[str, Any], call_next: Callable[..., Any]) -> ToolResult[Any]:
    """The hook of the failure-semantics checks: it refuses every call by raising."""
    raise RuntimeError(f"hook refused {ctx.tool_name}")


def check_failure_semantics(
    codec: HostedToolCodec[Any, Any],
    tool: HostedTool[Any],
    corpus: Corpus,
    *,
    registry: Mapping[str, HostedToolCodec[Any, Any]],
) -> Outcome:
    """Failed items fail, raising hooks do not abort, unknown kinds fail before sending."""
    recorded = [
        (exchange, item)
        for exchange in corpus.with_items_of(codec.item_types, codec.serialize(tool))
        for item in exchange.answer.items
        if field(item, "type") in codec.item_types
    ]
    if not recorded:
        return Outcome(False, not_recorded(codec, corpus))
    # The contract is checked on a call that reads: a malformed one is replay's to report.
    recorded = [(exchange, item) for exchange, item in recorded if _reads_cleanly(codec, item)]
    if not recorded:
        return Outcome(True, NO_SOUND_CALL, neutral=True)
    exchange, sample = recorded[0][0], as_dict(recorded[0][1])
    tool = next(
        (t for t in _readers(codec, tool, exchange) if codec.parse_output([sample], t) is not None),
        tool,
    )
    failed = codec.parse_calls([failed_variant(sample)], None)
    if not failed or failed[0].success:
        return Outcome(False, "a call item with status 'failed' was read as a success")
    result = failed[0].to_result()
    if result.success or result.value is not None or CONTRACT_ERROR_CODE not in result.message:
        return Outcome(False, f"the failed call's ToolResult lost the provider error: {result!r}")

    faults = ProviderFaults()
    codecs = dict(registry)
    codecs[codec.kind] = codec
    faults.script(faults.ok(response_json(output=[sample, *closing_message()])))
    # No capability table: the contract is the codec's, whatever a model accepts.
    adapter = OpenAIAdapter(
        "gpt-5", client=faults.client(max_retries=0), hosted_tool_codecs=codecs, capabilities={}
    )
    session = Session()
    try:
        adapter.evaluate(_prompt_with(tool), session=session, tool_hooks=[raising_hook])
    except PromptEvaluationError as exc:
        return Outcome(False, f"a raising hook aborted the evaluation: {exc}")
    hooked = [e for e in session.tool_invocations if e.kind == codec.kind]
    if not hooked or any(
        e.result.success or "hook refused" not in e.result.message for e in hooked
    ):
        return Outcome(False, "a raising hook did not turn the call into a failed result")

    without = {kind: c for kind, c in codecs.items() if kind != codec.kind}
    blind = OpenAIAdapter(
        "gpt-5", client=faults.client(max_retries=0), hosted_tool_codecs=without, capabilities={}
    )
    sent_before = len(faults.calls)
    try:
        blind.evaluate(_prompt_with(tool))
    except PromptEvaluationError as exc:
        if exc.phase != "render" or len(faults.calls) != sent_before:
            return Outcome(False, f"an unknown kind failed in phase {exc.phase!r} or after sending")
    else:
        return Outcome(False, "an adapter without this codec sent the request anyway")
    return Outcome(True, "failed item, raising hook, unknown kind")


def closing_message() -> list[dict[str, Any]]:
    """The output of a final answer: one assistant message."""
    return [
        {
            "type": "message",
            "id": "msg_contract",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": "done", "annotations": []}],
        }
    ]


def check_streamed(
    codec: HostedToolCodec[Any, Any], tool: HostedTool[Any], corpus: Corpus
) -> Outcome:
    """Whether a streamed (SSE) recording of the kind exists and parses."""
    streamed = [
        e
        for e in corpus.with_items_of(codec.item_types, codec.serialize(tool))
        if e.answer.streamed
    ]
    if not streamed:
        return Outcome(False, "no streamed recording")
    if not all(codec.parse_calls(e.answer.items, None) for e in streamed):
        return Outcome(False, "a streamed recording did not parse")
    return Outcome(True, f"{len(streamed)} streamed answer(s)")


def _coverage(subject: Subject, specs: Path, *, recorded: bool, required: bool) -> Coverage:
    if required:
        return "required"
    if recorded:
        return "recorded"
    if spec_path(specs, subject).is_file():
        return "snapshot"
    return "not covered"


def contract_report(
    subject: Subject,
    corpus: Corpus,
    run: Callable[[], tuple[Outcome, Outcome, Outcome]],
    *,
    recorded: bool,
    spec_dir: Path | None = None,
    update_specs: bool = False,
    update_hint: str = PYTEST_UPDATE,
    required: bool = False,
) -> KindReport:
    """The row of ``subject``, as far as the project covers it.

    A kind is covered when it is ``required``, when the corpus holds a call of
    it (``recorded``), or when its spec snapshot exists; an uncovered kind is
    reported as such and not checked. What is missing (a recording, a spec
    snapshot) fails a required kind and leaves a neutral cell, with how to add
    it, otherwise; a snapshot that exists and differs always fails. ``run``
    gives the replay, failure-semantics and streamed cells of a covered kind.
    """
    specs = spec_dir if spec_dir is not None else corpus.root / SPEC_DIR_NAME
    coverage = _coverage(subject, specs, recorded=recorded, required=required)
    if coverage == "not covered":
        idle = Outcome(True, "not covered", neutral=True)
        return KindReport(subject.kind, idle, idle, idle, Outcome(False, "-"), coverage)
    if required or update_specs or spec_path(specs, subject).is_file():
        spec = check_spec(subject, specs, update=update_specs, update_hint=update_hint)
    else:
        path = spec_path(specs, subject)
        spec = Outcome(True, f"no snapshot: write {path} with {update_hint}", neutral=True)
    if not recorded and not required:
        idle = Outcome(True, "no recording", neutral=True)
        return KindReport(subject.kind, spec, idle, idle, Outcome(False, "-"), coverage)
    replay, failure, streamed = run()
    return KindReport(subject.kind, spec, replay, failure, streamed, coverage)


def check_kind(
    subject: ContractSubject,
    corpus: Corpus,
    *,
    spec_dir: Path | None = None,
    registry: Mapping[str, HostedToolCodec[Any, Any]] | None = None,
    update_specs: bool = False,
    update_hint: str = PYTEST_UPDATE,
    required: bool = False,
) -> KindReport:
    """The contract of one hosted kind, as far as the project covers it
    (see :func:`contract_report`)."""
    codec, tool = subject.codec, subject.tool
    return contract_report(
        subject,
        corpus,
        lambda: (
            check_replay(codec, tool, corpus),
            check_failure_semantics(codec, tool, corpus, registry=registry or {}),
            check_streamed(codec, tool, corpus),
        ),
        recorded=bool(corpus.with_items_of(codec.item_types, codec.serialize(tool))),
        spec_dir=spec_dir,
        update_specs=update_specs,
        update_hint=update_hint,
        required=required,
    )
