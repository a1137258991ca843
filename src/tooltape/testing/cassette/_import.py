"""Import foreign (vcrpy / pytest-recording) cassettes as scrubbed tooltape cassettes."""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path

from tooltape.testing.cassette._encoded import refuse_encoded_bodies
from tooltape.testing.cassette._format import load_cassette, tooltape_version
from tooltape.testing.cassette._model import Cassette, CassetteHeader
from tooltape.testing.cassette._policy import DEFAULT_POLICY, ScrubPolicy
from tooltape.testing.cassette._scrub import drop_credential_headers, scrub_cassette

__all__ = ["find_provenance_note", "import_cassette"]

_NOTE_LIMIT = 400

_ENCODED_IMPORT_HINT = (
    "tooltape imports only bodies it has read for secrets: install the decoder named and "
    "import it again, or record the test again with tooltape "
    "(`pytest --record-mode=rewrite <test nodeid>`)"
)


def _first_paragraph(markdown: str) -> str:
    """The first prose paragraph of a Markdown file, on one line."""
    paragraph: list[str] = []
    for line in markdown.splitlines():
        stripped = line.strip()
        if not stripped:
            if paragraph:
                break
            continue
        if stripped.startswith(("#", "|", "```", "<!--")):
            if paragraph:
                break
            continue
        paragraph.append(stripped)
    text = re.sub(r"\s+", " ", " ".join(paragraph))
    if len(text) > _NOTE_LIMIT:
        text = text[: _NOTE_LIMIT - 1].rstrip() + "…"
    return text


def find_provenance_note(src: Path) -> str | None:
    """Mention of a ``PROVENANCE.md`` beside ``src`` (or one directory up), if any.

    Names the file relative to ``src``'s directory and quotes its first paragraph.
    """
    for directory in (src.parent, src.parent.parent):
        candidate = directory / "PROVENANCE.md"
        if candidate.is_file():
            relative = os.path.relpath(candidate, src.parent)
            try:
                summary = _first_paragraph(candidate.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError):
                summary = ""
            note = f"see {relative}"
            return f"{note}: {summary}" if summary else note
    return None


def import_cassette(
    src: Path | str, *, provenance: str | None = None, policy: ScrubPolicy = DEFAULT_POLICY
) -> Cassette:
    """Read a vcrpy (or tooltape) cassette and return it scrubbed, with ``source="import"``.

    Scrubbed means: everything :func:`scrub_cassette` redacts under ``policy``
    is redacted, and credential headers (cookies, authorization, organization
    and project ids) are dropped altogether.

    ``provenance`` defaults to ``"imported from <file name>"``, followed by a
    pointer to a ``PROVENANCE.md`` sitting beside the source when there is one;
    a tooltape source's own provenance is kept after it. The source file is
    only read. Raises ``CassetteError`` when it cannot be read, and
    ``CassetteEncodedError`` when a body in it is still under a ``content-encoding``
    tooltape cannot undo (scrubbing could not read it).
    """
    path = Path(src)
    loaded = load_cassette(path)
    if provenance is None:
        parts = [f"imported from {path.name}"]
        note = find_provenance_note(path)
        if note:
            parts.append(note)
        if loaded.format == "tooltape" and loaded.header.provenance:
            parts.append(f"before that: {loaded.header.provenance}")
        provenance = "; ".join(parts)
    header = CassetteHeader(
        tooltape_version=tooltape_version(), source="import", provenance=provenance
    )
    # The new header is scrubbed too: a note or a source's provenance may quote anything.
    imported = replace(loaded, header=header, format="tooltape")
    scrubbed = drop_credential_headers(scrub_cassette(imported, policy))
    refuse_encoded_bodies(scrubbed, path, hint=_ENCODED_IMPORT_HINT)
    return scrubbed
