"""The contract of a client-executed kind (and of plain function tools), over recordings.

The client runs these calls, so there is no provider result to type: the
contract is that every recorded call can be answered. Each call item has a
``call_id`` and arguments the codec reads into a JSON object (for a kind
whose parameters the provider defines, arguments the kind's tool accepts);
a raising hook turns the call into a failed ``ToolInvoked`` and the loop
still answers it, never aborting (a computer call, whose answer cannot carry
a failure, ends the evaluation with a ``phase="tool"`` error instead); and a
prompt that offers the kind to an adapter that cannot send it fails at render,
before anything is sent.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from tooltape.adapters.codec import ClientToolCodec
from tooltape.adapters.openai import OpenAIAdapter
from tooltape.adapters.openai.client_calls import output_item_type
from tooltape.adapters.openai.codecs.envelope import malformed_items
from tooltape.adapters.openai.reading import field
from tooltape.prompt import (
    Prompt,
    PromptEvaluationError,
    PromptValidationError,
    Section,
    Tool,
    ToolContext,
    ToolResult,
)
from tooltape.runtime import Session
from tooltape.testing.contracts.checks import (
    NO_SOUND_CALL,
    PYTEST_UPDATE,
    closing_message,
    contract_report,
    malformed_note,
    raising_hook,
)
from tooltape.testing.contracts.corpus import Corpus, RecordedExchange
from tooltape.testing.contracts.outcomes import KindReport, Outcome
from tooltape.testing.contracts.subjects import FUNCTION_ROW, ClientSubject
from tooltape.testing.provider.faults import ProviderFaults, response_json
from tooltape.tools.function_options import Namespace, options_of, with_options

__all__ = [
    "check_client_kind",
    "check_client_failure_semantics",
    "check_client_replay",
    "check_client_streamed",
    "client_exchanges",
]


def client_exchanges(subject: ClientSubject, corpus: Corpus) -> list[RecordedExchange]:
    """The answers holding a call of the subject's kind."""
    codec = subject.codec
    return corpus.with_items_of((codec.call_item_type,), codec.serialize(subject.tool))


def _calls(
    subject: ClientSubject, exchanges: list[RecordedExchange]
) -> list[tuple[RecordedExchange, int, Mapping[str, Any]]]:
    found: list[tuple[RecordedExchange, int, Mapping[str, Any]]] = []
    for exchange in exchanges:
        broken = {problem.index for problem in malformed_items(exchange.answer.items)}
        for index, item in enumerate(exchange.answer.items):
            if index in broken:  # replay reports it (_malformed); it is no call to check with
                continue
            entry: object = item
            if not isinstance(entry, Mapping):
                continue
            call = cast("Mapping[str, Any]", entry)
            if (
                field(call, "type") == subject.codec.call_item_type
                and field(call, "execution") != "server"
            ):
                found.append((exchange, index, call))
    return found


def _malformed(exchanges: list[RecordedExchange]) -> str | None:
    """The first item of a response holding the kind whose envelope is broken, named by
    its cassette, interaction and place."""
    for exchange in exchanges:
        for problem in malformed_items(exchange.answer.items):
            return malformed_note(exchange, str(problem))
    return None


def _not_recorded(subject: ClientSubject, corpus: Corpus) -> str:
    return (
        f"no cassette under {corpus.root} holds a call of this kind "
        f"({subject.codec.call_item_type} items in a request offering it): record one "
        f"(`pytest --record-mode=once` in a test that uses it) or import one with "
        f"`tooltape import SRC --out {corpus.root}`"
    )


def check_client_replay(subject: ClientSubject, corpus: Corpus) -> Outcome:
    """Every recorded call has a ``call_id`` and arguments the kind's tool accepts."""
    exchanges = client_exchanges(subject, corpus)
    malformed = _malformed(exchanges)
    if malformed is not None:
        return Outcome(False, malformed)
    calls = _calls(subject, exchanges)
    if not calls:
        return Outcome(False, _not_recorded(subject, corpus))
    codec, tool = subject.codec, subject.tool
    for exchange, index, item in calls:
        where = f"{exchange.path.name} #{exchange.answer.index} output[{index}]"
        if not codec.call_id(item):
            return Outcome(False, f"{where}: the {codec.call_item_type} has no call_id")
        try:
            arguments = codec.call_arguments(item)
            if not subject.user_defined_params:
                tool.schema.validate(arguments)
        except Exception as exc:
            return Outcome(
                False, f"{where}: its arguments do not fit the {subject.kind} tool ({exc})"
            )
    files = len({exchange.path for exchange, _, _ in calls})
    return Outcome(True, f"{len(calls)} call(s) in {files} cassette(s)")


@dataclasses.dataclass(frozen=True, slots=True)
class _AnyArguments:
    """The stand-in's params: never validated, the hook refuses the call first."""


def _never_runs(params: _AnyArguments, *, context: ToolContext) -> ToolResult[str]:
    raise AssertionError("the contract's stand-in function is never reached")


def _answering_tool(subject: ClientSubject, item: Mapping[str, Any]) -> Tool[Any, Any] | None:
    """The tool that answers the recorded ``item``: the kind's own tool, or for functions
    (whose parameters are the project's) a stand-in with the recorded name; ``None`` when
    that name (or namespace) is one the API took but no tooltape tool can carry
    (``getWeather``)."""
    if not subject.user_defined_params:
        return subject.tool
    name = field(item, "name")
    try:
        stand_in: Tool[Any, Any] = Tool[_AnyArguments, str](
            name=name if isinstance(name, str) and name else subject.tool.name,
            description="Stands in for the recorded function.",
            handler=_never_runs,
        )
        namespace = options_of(subject.tool).namespace
        if namespace is not None:
            recorded = field(item, "namespace")
            if isinstance(recorded, str) and recorded:
                namespace = Namespace(recorded, namespace.description)
            stand_in = with_options(stand_in, namespace=namespace)
    except PromptValidationError:
        return None
    return stand_in


def _unanswerable(call: tuple[RecordedExchange, int, Mapping[str, Any]]) -> Outcome:
    exchange, index, item = call
    name = field(item, "name")
    shown = repr(name[:40] + ("..." if len(name) > 40 else "")) if isinstance(name, str) else "?"
    return Outcome(
        True,
        f"no name a tooltape tool carries: {exchange.path} #{exchange.answer.index} "
        f"output[{index}] is named {shown}, as is every recorded call a raising hook could "
        "answer (tooltape tools use 1-64 lowercase ASCII letters, digits, '_' or '-'): record "
        "one from a tooltape tool to check this",
        neutral=True,
    )


def _prompt_with(tool: Tool[Any, Any], kind: str) -> Prompt[Any]:
    return Prompt(
        ns="tooltape.contracts",
        key=f"contract-{kind}",
        sections=[Section(title="Contract", tools=(tool,))],
    )


def _adapter(faults: ProviderFaults, codecs: Mapping[str, ClientToolCodec]) -> OpenAIAdapter:
    # No capability table: the contract is the codec's, whatever a model accepts.
    return OpenAIAdapter(
        "gpt-5", client=faults.client(max_retries=0), client_tool_codecs=codecs, capabilities={}
    )


def _answered(faults: ProviderFaults, answer_type: str, call_id: str) -> bool:
    request = faults.calls[-1].json() if faults.calls else None
    items: object = field(request, "input")
    if not isinstance(items, list):
        return False
    return any(
        field(i, "type") == answer_type and field(i, "call_id") == call_id
        for i in cast("list[object]", items)
    )


def check_client_failure_semantics(
    subject: ClientSubject, corpus: Corpus, *, registry: Mapping[str, ClientToolCodec]
) -> Outcome:
    """A raising hook fails the call without aborting; an unsendable kind fails at render."""
    exchanges = client_exchanges(subject, corpus)
    calls = _calls(subject, exchanges)
    if not calls and exchanges:  # only malformed calls: replay reports them
        return Outcome(True, NO_SOUND_CALL, neutral=True)
    if not calls:
        return Outcome(False, _not_recorded(subject, corpus))
    answerable = (
        (sample, tool)
        for _, _, sample in calls
        if (tool := _answering_tool(subject, sample)) is not None
    )
    found = next(answerable, None)
    if found is None:
        return _unanswerable(calls[0])
    sample, tool = found
    codec = subject.codec
    codecs = registry if subject.kind == FUNCTION_ROW else {**registry, codec.kind: codec}
    faults = ProviderFaults()
    faults.script(
        faults.ok(response_json(output=[dict(sample)])),
        faults.ok(response_json(output=closing_message())),
    )
    session = Session()
    try:
        _adapter(faults, codecs).evaluate(
            _prompt_with(tool, subject.kind), session=session, tool_hooks=[raising_hook]
        )
        ended = None
    except PromptEvaluationError as exc:
        ended = exc
    hooked = [e for e in session.tool_invocations if e.name == tool.name]
    if not hooked or any(
        e.result.success or "hook refused" not in e.result.message for e in hooked
    ):
        why = f" ({ended})" if ended is not None else ""
        return Outcome(False, f"a raising hook did not turn the call into a failed result{why}")
    if ended is not None and ended.phase != "tool":
        return Outcome(False, f"a raising hook aborted the evaluation: {ended}")
    if ended is None and not _answered(faults, output_item_type(codec), codec.call_id(sample)):
        return Outcome(False, "the failed call was not answered in the next request")
    return _unsendable(subject, faults, registry)


def _unsendable(
    subject: ClientSubject, faults: ProviderFaults, registry: Mapping[str, ClientToolCodec]
) -> Outcome:
    """A function tool with no handler, or a client kind the adapter has no codec for, is
    refused at render with nothing sent."""
    if subject.user_defined_params:
        tool = dataclasses.replace(subject.tool, handler=None)
        codecs = registry
    else:
        tool = subject.tool
        codecs = {kind: c for kind, c in registry.items() if kind != subject.codec.kind}
    sent_before = len(faults.calls)
    try:
        _adapter(faults, codecs).evaluate(_prompt_with(tool, subject.kind))
    except PromptEvaluationError as exc:
        if exc.phase != "render" or len(faults.calls) != sent_before:
            return Outcome(
                False, f"an unsendable tool failed in phase {exc.phase!r} or after sending"
            )
    else:
        return Outcome(False, "an adapter that cannot send this tool sent the request anyway")
    return Outcome(True, "raising hook, unsendable tool")


def check_client_streamed(subject: ClientSubject, corpus: Corpus) -> Outcome:
    """Whether a streamed (SSE) recording of the kind exists."""
    streamed = [e for e in client_exchanges(subject, corpus) if e.answer.streamed]
    if not streamed:
        return Outcome(False, "no streamed recording")
    return Outcome(True, f"{len(streamed)} streamed answer(s)")


def check_client_kind(
    subject: ClientSubject,
    corpus: Corpus,
    *,
    spec_dir: Path | None = None,
    registry: Mapping[str, ClientToolCodec] | None = None,
    update_specs: bool = False,
    update_hint: str = PYTEST_UPDATE,
    required: bool = False,
) -> KindReport:
    """The contract of one client-executed kind, as far as the project covers it
    (see :func:`~tooltape.testing.contracts.checks.contract_report`)."""
    codecs = registry or {}
    return contract_report(
        subject,
        corpus,
        lambda: (
            check_client_replay(subject, corpus),
            check_client_failure_semantics(subject, corpus, registry=codecs),
            check_client_streamed(subject, corpus),
        ),
        recorded=bool(client_exchanges(subject, corpus)),
        spec_dir=spec_dir,
        update_specs=update_specs,
        update_hint=update_hint,
        required=required,
    )
