"""A text seen through its escapes, and the way back to the original offsets.

Two views: JSON string escapes (``\\u0073k-...``, a key right after ``\\n``; and
JavaScript's ``\\x2D``), and the escapes an encoder writes for a web page, a URL
or a mail: HTML character references (``&#115;``, ``&#x73;``, ``&lowbar;``),
percent-encoding (``%73``, ``%2D``) and quoted-printable (``=3D``, and soft line
breaks: ``=`` ending a line), the last only in a text that shows it is
quoted-printable. Each escape decodes to one character, a soft line break to
none. A secret found in a view is a span of the original text, and what
replaces it is written back in the original's spelling.
"""

from __future__ import annotations

import html.entities
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from itertools import accumulate
from urllib.parse import quote

__all__ = [
    "DecodedView",
    "encoded_view",
    "is_quoted_printable",
    "json_view",
    "quoted_printable_view",
]

# JSON's, and JavaScript's "\x2D" (ESAPI's encoder for JavaScript writes every
# character but letters, digits, ",", "." and "_" so).
_JSON_ESCAPE = re.compile(r'\\(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(["\\/bfnrt]))')
_JSON_SIMPLE = {
    '"': '"',
    "\\": "\\",
    "/": "/",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
}

# Named references HTML defines for one ASCII character: `&lowbar;` is "_" (there is
# none for "-": `&hyphen;` is U+2010, another character).
_NAMED = {
    name.removesuffix(";"): value
    for name, value in html.entities.html5.items()
    if name.endswith(";") and len(value) == 1 and value.isascii()
}
_ENCODED = re.compile(
    r"&(?:#(?:([0-9]{1,10})|[xX]([0-9a-fA-F]{1,8}))|([A-Za-z]{2,16}));"
    r"|%([0-9A-F]{2}|[0-9a-f]{2})"  # one case, as every encoder writes it ("%Be" is a word)
    r"|=(?:(\r?\n)|([0-9A-F]{2}))"
)
# Where an escape may start: found with str.find, far faster than a regex over a body
# that holds a few (a base64 image and one "100%"). Quoted-printable's escapes only in
# a text that shows it is quoted-printable (see is_quoted_printable): elsewhere "=20"
# is more often a value ("width=20"), and "=" ends a line of code.
_STARTS = ("&", "%")
_QUOTED_PRINTABLE_STARTS = ("&", "%", "=")
# What shows a text is quoted-printable, right after an "=": "3D" (it writes "=" so), a
# character past ASCII in UTF-8 ("=C3=A9"), or a soft break between two characters of a key.
_QUOTED_PRINTABLE = re.compile(
    r"3D|[C-F][0-9A-F]=[89AB][0-9A-F]|(?<=[A-Za-z0-9_.+/-]=)\r?\n(?=[A-Za-z0-9_.+/-])"
)
_QP_LINE = 76
"""The longest line quoted-printable writes, its soft break's ``=`` included (RFC 2045)."""
_QP_FILLED = 60
"""The shortest line an encoder ends with a soft break that shows a text is quoted-printable
(encoders fill each line up to the longest; one ends early only before an escape)."""

# What a key shape holds: a view only these escapes change is worth a search. (An
# escaped space: "Bearer%20...", "BEGIN&#32;PRIVATE KEY".)
_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.+/= ")
_PLAIN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~")
"""What needs no escape in HTML, a URL or quoted-printable."""


class DecodedView:
    """``text``: a raw text with some escapes decoded; ``raw_span`` maps a span of it back."""

    __slots__ = ("decoded_at", "lengths", "raw", "raw_ends", "raw_starts", "text")

    def __init__(self, raw: str, escapes: Iterable[tuple[int, int, str]]) -> None:
        """``escapes``: in order, each ``(start, end, decoded)`` of ``raw``."""
        parts: list[str] = []
        self.raw = raw
        self.decoded_at: list[int] = []
        self.raw_starts: list[int] = []
        self.raw_ends: list[int] = []
        self.lengths: list[int] = []
        last = decoded = 0
        for start, end, char in escapes:
            parts.append(raw[last:start])
            decoded += start - last
            parts.append(char)
            self.decoded_at.append(decoded)
            self.raw_starts.append(start)
            self.raw_ends.append(end)
            self.lengths.append(len(char))
            decoded += len(char)
            last = end
        parts.append(raw[last:])
        self.text = "".join(parts)

    def _raw(self, index: int) -> tuple[int, int]:
        """The original span of decoded character ``index``."""
        i = bisect_right(self.decoded_at, index) - 1
        if i < 0:
            return index, index + 1
        offset = index - self.decoded_at[i] - self.lengths[i]
        if offset < 0:  # the character an escape decodes to
            return self.raw_starts[i], self.raw_ends[i]
        at = self.raw_ends[i] + offset
        return at, at + 1

    def raw_span(self, start: int, end: int) -> tuple[int, int]:
        """The original offsets of decoded ``[start, end)``."""
        first = self._raw(start)[0]
        if end <= start:
            return first, first
        return first, self._raw(end - 1)[1]

    def respelled(self, replacement: str, start: int, end: int) -> str:
        """``replacement`` for decoded ``[start, end)``, spelled as the original was there.

        A character no context escapes is written as it is, and so is one the
        original held unescaped there; any other is escaped as the original's
        escapes were (a character reference, percent-encoded, quoted-printable).
        Quoted-printable soft line breaks stay, each after as much of the
        replacement as the original held before it, so no line grows there.
        """
        raw_start, raw_end = self.raw_span(start, end)
        original = self.raw[raw_start:raw_end]
        inside = range(
            bisect_left(self.raw_starts, raw_start), bisect_left(self.raw_starts, raw_end)
        )
        # "&", "%", or "=" (quoted-printable's "=XX"; a soft break decodes to nothing)
        kinds = {self.raw[self.raw_starts[i]] for i in inside if self.lengths[i]}
        style = next((kind for kind in "&%=" if kind in kinds), "")
        parts = [_respelled(char, original, style) for char in replacement]
        written = list(accumulate(len(part) for part in parts))
        spelled: list[str] = []
        taken = breaks_length = 0
        for i in inside:
            if self.lengths[i]:
                continue
            soft_break = self.raw[self.raw_starts[i] : self.raw_ends[i]]
            # What the original wrote before this break, soft breaks aside.
            room = self.raw_starts[i] - raw_start - breaks_length
            upto = max(taken, bisect_right(written, room))
            spelled.extend(parts[taken:upto])
            spelled.append(soft_break)
            taken, breaks_length = upto, breaks_length + len(soft_break)
        spelled.extend(parts[taken:])
        return "".join(spelled)


def _respelled(char: str, original: str, style: str) -> str:
    if char in _PLAIN or not style:
        return char
    if style == "=":  # quoted-printable escapes "=" and what is past ASCII, nothing else
        if char != "=" and char.isascii():
            return char
        return "".join(f"={byte:02X}" for byte in char.encode())
    if char in original and char not in "&%":
        return char
    return f"&#{ord(char)};" if style == "&" else quote(char, safe="")


def json_view(text: str) -> DecodedView | None:
    """``text`` with its JSON (and JavaScript ``\\xHH``) string escapes decoded, or
    ``None`` when it holds none."""
    if "\\" not in text:
        return None
    escapes = [
        (
            match.start(),
            match.end(),
            chr(int(code, 16))
            if (code := match.group(1) or match.group(2))
            else _JSON_SIMPLE[match.group(3)],
        )
        for match in _JSON_ESCAPE.finditer(text)
    ]
    return DecodedView(text, escapes) if escapes else None


def _decoded(match: re.Match[str]) -> str | None:
    """What one HTML, percent or quoted-printable escape stands for; ``None``: no escape."""
    decimal, hexadecimal, name, byte, soft_break, quoted_byte = match.groups()
    if byte is not None:
        return chr(int(byte, 16))
    if quoted_byte is not None:
        return chr(int(quoted_byte, 16))
    if name is not None:
        return _NAMED.get(name)
    if soft_break is not None:  # (only looked for in a text that is quoted-printable)
        return ""
    code = int(decimal) if decimal is not None else int(hexadecimal, 16)
    if code == 0 or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        return None
    return chr(code)


def _worth_a_look(char: str, text: str, end: int) -> bool:
    """Whether an escape decoding to ``char`` (before ``text[end:]``) may spell a key."""
    if char in _KEY_CHARS or char == "":
        return True
    # Encoded twice: "&amp;#115;", "%2573".
    return char in "&%" and _ENCODED.match(char + text[end : end + 20]) is not None


def _ends_a_filled_line(text: str, at: int) -> bool:
    """Whether the "=" at ``at`` ends a line as long as an encoder fills one, as a soft
    line break does ("?q=" ending a short line is a URL's)."""
    return _QP_FILLED <= at - text.rfind("\n", 0, at) <= _QP_LINE


def is_quoted_printable(text: str) -> bool:
    """Whether ``text`` shows it is quoted-printable: an "=" written "=3D", a character
    past ASCII written "=C3=A9", or a soft line break between two characters of a key.
    (Each "=" found with str.find: a base64 image's padding is all most long texts hold.)
    """
    at = text.find("=")
    while at >= 0:
        match = _QUOTED_PRINTABLE.match(text, at + 1)
        if match is not None:
            soft_break = match.group()[0] in "\r\n"
            if not soft_break or _ends_a_filled_line(text, at):
                return True
        at = text.find("=", at + 1)
    return False


def encoded_view(text: str) -> DecodedView | None:
    """``text`` with its HTML character references, percent-encoding and (in a text that
    is quoted-printable) quoted-printable escapes decoded; ``None`` when none of them
    could change a key's spelling."""
    escapes: list[tuple[int, int, str]] = []
    worth = False
    for start in _QUOTED_PRINTABLE_STARTS if is_quoted_printable(text) else _STARTS:
        at = text.find(start)
        while at >= 0:
            match = _ENCODED.match(text, at)
            char = None if match is None else _decoded(match)
            if match is not None and char is not None:
                escapes.append((at, match.end(), char))
                worth = worth or _worth_a_look(char, text, match.end())
            at = text.find(start, at + 1)
    if not worth:
        return None
    escapes.sort()
    return DecodedView(text, escapes)


_QUOTED_PRINTABLE_ESCAPE = re.compile(r"=(?:(\r?\n)|([0-9A-F]{2}))")


def quoted_printable_view(text: str) -> DecodedView | None:
    """``text`` (quoted-printable) with its own escapes decoded and nothing else: a URL as
    the mail's reader sees it, run on across soft line breaks, its "=3D" an "=" again."""
    escapes: list[tuple[int, int, str]] = []
    for match in _QUOTED_PRINTABLE_ESCAPE.finditer(text):
        if match.group(1) is None:
            escapes.append((match.start(), match.end(), chr(int(match.group(2), 16))))
        else:
            escapes.append((match.start(), match.end(), ""))
    return DecodedView(text, escapes) if escapes else None
