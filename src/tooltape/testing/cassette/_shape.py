"""Small checks that a parsed document has the expected shape (internal).

Each check returns the value narrowed to its type or raises
:class:`StructureError` naming the JSON pointer of the offending value.
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping
from urllib.parse import urlsplit

from tooltape.testing.cassette._errors import StructureError, pointer
from tooltape.testing.cassette._text import redact_for_display

__all__ = [
    "describe",
    "expect_int",
    "expect_list",
    "expect_map",
    "expect_status",
    "expect_str",
    "expect_uri",
    "pointer",
]


_SHORT = reprlib.Repr()  # Python 3.11 takes no limits as arguments
_SHORT.maxlevel, _SHORT.maxdict, _SHORT.maxlist = 2, 3, 3
_SHORT.maxstring, _SHORT.maxother, _SHORT.maxlong = 40, 40, 20
_MAX_DIGITS = 18  # the longest integer a cassette holds (a status code, a count)


_READ_OF_TEXT = 200
"""How much of a string value an error message reads (it shows at most 40 characters)."""


def describe(value: object) -> str:
    """A short description of a value for error messages, key-shaped strings masked.

    Costs the same for any value: the repr is bounded before it is built, so a
    huge or deeply shared value (a YAML alias bomb) is never expanded.
    """
    if value is None:
        return "null"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"int of about {int(value.bit_length() * 0.30103) + 1} digits"
    if isinstance(value, str):
        # Redacted before it is cut: a repr shortened in the middle would show a key's tail.
        text = repr(redact_for_display(value[:_READ_OF_TEXT]))
    else:
        text = redact_for_display(_SHORT.repr(value))
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{type(value).__name__} {text}"


def _at(where: str, key: str | int | None) -> str:
    return where if key is None else pointer(where, key)


def expect_map(value: object, where: str, key: str | int | None = None) -> Mapping[str, object]:
    """``value`` (found at ``where``/``key``) as a mapping, or a :class:`StructureError`."""
    if isinstance(value, (dict, Mapping)):  # dict first: the fast check
        # No cast() call: this runs for every JSON object a cassette holds.
        return value  # pyright: ignore[reportUnknownVariableType]
    raise StructureError(_at(where, key), f"expected an object, got {describe(value)}")


def expect_list(value: object, where: str, key: str | int | None = None) -> list[object]:
    """``value`` (found at ``where``/``key``) as a list, or a :class:`StructureError`."""
    if not isinstance(value, list):
        raise StructureError(_at(where, key), f"expected a list, got {describe(value)}")
    return value  # pyright: ignore[reportUnknownVariableType]


def expect_str(value: object, where: str, key: str | int | None = None) -> str:
    """``value`` (found at ``where``/``key``) as a string, or a :class:`StructureError`."""
    if not isinstance(value, str):
        raise StructureError(_at(where, key), f"expected a string, got {describe(value)}")
    return value


def expect_uri(value: object, where: str, key: str | int | None = None) -> str:
    """``value`` as a URL that ``urllib.parse`` can split (replay and matching split
    every recorded one), or a :class:`StructureError`."""
    uri = expect_str(value, where, key)
    try:
        urlsplit(uri)
    except ValueError as error:  # "Invalid IPv6 URL": a bracket with no partner
        raise StructureError(
            _at(where, key), f"expected a URL, got {describe(uri)} ({error})"
        ) from None
    return uri


def expect_int(
    value: object, where: str, key: str | int | None = None, *, digit_text: bool = True
) -> int:
    """``value`` (found at ``where``/``key``) as an integer (not a bool), or a
    :class:`StructureError`. A string of digits is accepted when ``digit_text`` (some
    YAML writers quote codes; tooltape never does).
    """
    if (
        digit_text
        and isinstance(value, str)
        and value.isascii()  # "²".isdigit(), yet int("²") fails
        and value.isdigit()
        and len(value) <= _MAX_DIGITS
    ):
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value.bit_length() > 63:
        raise StructureError(_at(where, key), f"expected an integer, got {describe(value)}")
    return value


def expect_status(
    value: object, where: str, key: str | int | None = None, *, digit_text: bool = True
) -> int:
    """``value`` as an HTTP status code (100 to 999), or a :class:`StructureError`
    (``digit_text``: as in :func:`expect_int`)."""
    code = expect_int(value, where, key, digit_text=digit_text)
    if not 100 <= code <= 999:
        raise StructureError(_at(where, key), f"expected an HTTP status code, got {code}")
    return code
