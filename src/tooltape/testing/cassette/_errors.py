"""Errors raised for cassettes that cannot be read or must not be written."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "REPAIR_HINT",
    "CassetteEncodedError",
    "CassetteError",
    "CassettePathError",
    "CassetteSecretError",
    "CassetteWriteError",
    "EncodedBody",
    "SecretFinding",
    "StructureError",
    "pointer",
]

REPAIR_HINT = (
    "restore it from version control (`git checkout -- <file>`) or re-record it "
    "with `pytest --record-mode=rewrite <test nodeid>`"
)
"""What to do about a cassette that cannot be read."""


class CassetteError(Exception):
    """A cassette file that cannot be read (or written).

    The message names the file, what is wrong (with line and column when the
    parser reports them) and what to do about it.
    """

    def __init__(
        self,
        path: Path | str,
        problem: str,
        *,
        hint: str = REPAIR_HINT,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.path = Path(path)
        self.problem = problem
        self.hint = hint
        self.line = line
        self.column = column
        where = ""
        if line is not None:
            where = f" (line {line}" + (f", column {column})" if column is not None else ")")
        super().__init__(f"cassette {self.path}: {problem}{where}; {hint}")


class CassettePathError(CassetteError):
    """Something other than a cassette file at a cassette's path: a folder, a named pipe,
    a device, or a symlink to one of those or to nothing.

    Nothing can be read from that path, nor written to it, until it is removed or renamed.
    ``what`` says what is there (``"a named pipe"``, ``"a symlink to nowhere, which does
    not exist"``).
    """

    def __init__(self, path: Path | str, what: str, problem: str, *, hint: str) -> None:
        self.what = what
        super().__init__(path, problem, hint=hint)


class CassetteWriteError(OSError):
    """A file that could not be written (disk full, no permission): names the file.

    An ``OSError``, so code that handled the bare one still does; the message
    says which file, what the system said, and what to do.
    """

    def __init__(self, path: Path | str, error: OSError) -> None:
        self.path = Path(path)
        reason = error.strerror or str(error) or type(error).__name__
        super().__init__(
            error.errno,
            f"could not write {self.path}: {reason}; free disk space or fix the folder's "
            "permissions, then run again (the previous file, if any, is unchanged)",
        )

    def __str__(self) -> str:
        return str(self.strerror)


@dataclass(frozen=True, slots=True)
class SecretFinding:
    """A value that looks like a credential: where it sits, its rule, and a masked excerpt.

    ``location`` is a JSON pointer into the on-disk tooltape document, e.g.
    ``/interactions/0/request/headers/authorization/0``, with any key-shaped
    key on the way masked; ``excerpt`` shows the value's length, never a
    character of it; ``kind`` names the rule that found it.
    """

    location: str
    excerpt: str
    kind: str = "key-shaped string"


SECRET_HINT = (
    "tooltape's scrubbing redacts values, never structure, so a secret left is one it cannot "
    "replace (a key-shaped dict key, a key inside a binary body) or one its hooks never saw "
    "(a vcrpy recorder without configure_vcr): change what the test sends or receives, or "
    "add a rule in [tool.tooltape.scrub], then record again"
)
"""What to do about a cassette refused for the secrets it would hold."""


class CassetteSecretError(CassetteError):
    """A cassette refused because it would still hold credentials.

    The message lists each one by interaction, JSON pointer and rule, never
    its value.
    """

    def __init__(self, path: Path | str, findings: Sequence[SecretFinding]) -> None:
        self.findings = tuple(findings)
        listing = "".join(
            f"\n  {finding.location}: {finding.kind} ({finding.excerpt})" for finding in findings
        )
        super().__init__(
            path,
            f"not written, it would hold {len(self.findings)} secret(s):{listing}\n",
            hint=SECRET_HINT,
        )


@dataclass(frozen=True, slots=True)
class EncodedBody:
    """A body left under its ``content-encoding``: where it sits, whose it is, and why.

    ``request`` is the request's method and URI as the cassette holds them
    (scrubbed); ``why`` says what kept it encoded (a decoder not installed,
    a coding tooltape does not know, bytes that do not decode).
    """

    location: str
    request: str
    coding: str
    why: str


ENCODED_HINT = (
    "tooltape writes only bodies it has read for secrets: install the decoder named, have "
    "the client ask for a coding tooltape reads (`Accept-Encoding: gzip`) or have the server "
    "encode the body as it says, then record again"
)
"""What to do about a cassette refused for a body still encoded."""


class CassetteEncodedError(CassetteError):
    """A cassette refused because a body in it is still encoded, so never scanned for secrets.

    The message lists each such body by interaction, request and coding.
    """

    def __init__(
        self, path: Path | str, bodies: Sequence[EncodedBody], *, hint: str = ENCODED_HINT
    ) -> None:
        self.bodies = tuple(bodies)
        listing = "".join(
            f"\n  {body.location}: {body.request}, content-encoding {body.coding}: {body.why}"
            for body in self.bodies
        )
        super().__init__(
            path,
            f"not written, {len(self.bodies)} {'body' if len(self.bodies) == 1 else 'bodies'} "
            f"still encoded, never scanned for secrets:{listing}\n",
            hint=hint,
        )


class StructureError(ValueError):
    """A document that parsed but does not have a cassette's shape (internal).

    ``where`` is a JSON pointer into the document; callers that know the file
    turn this into a :class:`CassetteError`, with ``hint`` when it is given.
    """

    def __init__(self, where: str, problem: str, hint: str | None = None) -> None:
        self.where = where
        self.problem = problem
        self.hint = hint
        super().__init__(f"{where or '/'}: {problem}")


def pointer(parent: str, key: str | int) -> str:
    """Where in a document an error is: ``parent`` and one JSON-pointer step (``~`` and
    ``/`` escaped). A character that does not print (a control character, a lone
    surrogate) is shown as its Python escape (``\\x1b``): the pointer is for people."""
    if isinstance(key, int):
        return f"{parent}/{key}"
    if "~" in key or "/" in key:
        key = key.replace("~", "~0").replace("/", "~1")
    if not key.isprintable():  # a pointer is printed: no terminal escapes, no lone surrogates
        key = "".join(char if char.isprintable() else repr(char)[1:-1] for char in key)
    return f"{parent}/{key}"
