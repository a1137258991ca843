"""What ``tooltape lint`` finds inside one cassette: secrets, escaped JSON, binary bodies,
and beside cassettes: temp files an interrupted write left."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tooltape.adapters.openai.codecs.registry import default_hosted_tool_codecs
from tooltape.testing.cassette import (
    DEFAULT_POLICY,
    BinaryBody,
    Body,
    Cassette,
    CassetteError,
    EmptyBody,
    JsonBody,
    ScrubPolicy,
    SseBody,
    TempFile,
    TextBody,
    find_secrets,
    load_cassette,
)
from tooltape.testing.cassette._limits import parse_json_text
from tooltape.testing.cassette._patterns import mask
from tooltape.testing.cassette._text import find_spans
from tooltape.testing.recorded.inspection import read_interactions

FOREIGN_SECRET_FIX = (
    "import the file with `tooltape import <file> --out <folder>` (the importer drops "
    "credentials) and use the imported copy; revoke the credential if it is real"
)
SECRET_FIX = (
    "remove it from the file (re-import the source with `tooltape import --force`, or "
    "re-record with tooltape's scrubbing hooks) and revoke the credential if it is real"
)
ESCAPED_FIX = (
    "store it as a data tree: re-import the source with `tooltape import --force` or re-record "
    "the test (`pytest --record-mode=rewrite <test>`) so the body is kept as JSON"
)
STRAY_FIX = (
    "delete it: it is a partial copy from a write that was interrupted (tooltape also removes "
    "it at its next write to that folder once no running process owns it)"
)
BINARY_FIX = (
    "a base64 body cannot be reviewed in a diff: if it is text (mis-labelled or compressed), "
    "fix its content-type / content-encoding and re-record; if no test needs it, drop the "
    "interaction"
)


ANSWER_FIX = (
    "a client cannot read this answer (replay would fail inside the SDK): restore the "
    "cassette from version control (`git checkout -- <file>`) or re-record the test "
    "(`pytest --record-mode=rewrite <test>`); `tooltape inspect <file>` shows what is read"
)


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem: the file, where in it (a JSON pointer, or ``""`` for the whole file),
    what kind of problem, what is wrong and what to do."""

    path: Path
    location: str
    kind: str
    message: str
    fix: str


def _json_document(text: str) -> bool:
    """Whether ``text`` is a whole JSON object or array (not a bare number or word)."""
    stripped = text.strip()
    if not stripped or stripped[0] not in "{[":
        return False
    try:
        parse_json_text(stripped)
    except ValueError:
        return False
    return True


def _body_findings(path: Path, body: Body, at: str) -> Iterator[Finding]:
    if isinstance(body, TextBody) and _json_document(body.text):
        yield Finding(
            path, f"{at}/text", "escaped JSON", "a JSON document stored as text", ESCAPED_FIX
        )
    elif isinstance(body, JsonBody) and isinstance(body.data, str) and _json_document(body.data):
        yield Finding(
            path, f"{at}/json", "escaped JSON", "a JSON document stored as one string", ESCAPED_FIX
        )
    elif isinstance(body, SseBody):
        for index, event in enumerate(body.events):
            if event.raw_data and isinstance(event.data, str) and _json_document(event.data):
                yield Finding(
                    path,
                    f"{at}/sse/{index}/data",
                    "escaped JSON",
                    "event data that is a JSON document stored as a string",
                    ESCAPED_FIX,
                )
    elif isinstance(body, BinaryBody):
        yield Finding(
            path,
            f"{at}/base64",
            "binary body",
            f"{len(body.data)} bytes stored as base64",
            BINARY_FIX,
        )


def _body_problem(body: Body) -> str | None:
    """Why a successful Responses answer's body is no Response object, if it is not."""
    if isinstance(body, EmptyBody):
        return "a successful answer with no body (the SDK expects a Response object)"
    if isinstance(body, JsonBody) and not isinstance(body.data, dict):
        if isinstance(body.data, str) and _json_document(body.data):
            return None  # reported as escaped JSON
        kind = "null" if body.data is None else type(body.data).__name__
        return f"the JSON body is {kind}, not a Response object"
    return None


def answer_findings(path: Path, cassette: Cassette) -> list[Finding]:
    """Responses answers a client cannot read, as ``tooltape inspect`` reads them: a
    successful answer with no body or a body that is no object, and every output
    item (or ``output`` itself) that is not read."""
    findings: list[Finding] = []
    readings = read_interactions(cassette, default_hosted_tool_codecs())
    for reading in readings:
        answer = reading.answer
        if not answer.is_responses_call or answer.status_code >= 400:
            continue
        at = f"/interactions/{answer.index}/response/body"
        what = f"interaction #{answer.index}: "
        problem = _body_problem(cassette.interactions[answer.index].response.body)
        if problem is not None:
            findings.append(Finding(path, at, "unreadable answer", what + problem, ANSWER_FIX))
        findings.extend(
            Finding(path, at, "unreadable answer", what + unread.message, ANSWER_FIX)
            for unread in reading.unread
        )
    return findings


def cassette_findings(
    path: Path, cassette: Cassette, policy: ScrubPolicy = DEFAULT_POLICY
) -> list[Finding]:
    """Secrets (everything the write gate would refuse under ``policy``), escaped-JSON
    bodies, binary bodies and answers a client cannot read, of a loaded cassette."""
    fix = SECRET_FIX if cassette.format == "tooltape" else FOREIGN_SECRET_FIX
    findings = [
        Finding(path, secret.location, "secret", f"{secret.kind}: {secret.excerpt}", fix)
        for secret in find_secrets(cassette, policy)
    ]
    for index, interaction in enumerate(cassette.interactions):
        for side in ("request", "response"):
            body = getattr(interaction, side).body
            findings.extend(_body_findings(path, body, f"/interactions/{index}/{side}/body"))
    findings.extend(answer_findings(path, cassette))
    return findings


UNREAD_SECRET_FIX = (
    "delete it from the file (tooltape reads no such entry, so no replay needs it) and revoke "
    "the credential if it is real"
)


def unread_secret_findings(path: Path, policy: ScrubPolicy = DEFAULT_POLICY) -> list[Finding]:
    """Secrets in the text of the file at ``path``, by line: what a part tooltape does not
    read holds (an entry a hand edit added, a field of another tool's format), which
    the cassette as read cannot show."""
    try:
        text = path.read_bytes().decode("utf-8", "replace")
    except OSError:
        return []
    return [
        Finding(
            path,
            f"line {text.count(chr(10), 0, span.start) + 1}",
            "secret",
            f"{span.kind} in a part of the file tooltape does not read: "
            f"{mask(text[span.start : span.end])}",
            UNREAD_SECRET_FIX,
        )
        for span in find_spans(text, policy)
    ]


def file_findings(path: Path, policy: ScrubPolicy = DEFAULT_POLICY) -> list[Finding]:
    """Everything wrong inside the file at ``path``, including its being unreadable."""
    try:
        cassette = load_cassette(path)
    except CassetteError as exc:
        where = f"line {exc.line}" if exc.line is not None else ""
        return [Finding(path, where, "unreadable", exc.problem, exc.hint)]
    findings = cassette_findings(path, cassette, policy)
    if any(finding.kind == "secret" for finding in findings):
        return findings
    # None in what is read: the file's text says whether a part not read holds one.
    return unread_secret_findings(path, policy) + findings


def stray_finding(temp: TempFile) -> Finding:
    """A temp file a write left beside the cassettes."""
    minutes = int(temp.age // 60)
    age = "less than a minute old" if minutes < 1 else f"{minutes} min old"
    owner = "" if temp.abandoned else "; its writer still runs, so it may be a write in progress"
    return Finding(
        temp.path, "", "stray temp file", f"left by an interrupted write ({age}{owner})", STRAY_FIX
    )
