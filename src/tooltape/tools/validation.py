"""Rules hosted tool configs share; each failure names the field and says how to fix it."""

from __future__ import annotations

import re
import zoneinfo
from collections.abc import Iterable
from typing import Literal, NoReturn, cast

from tooltape.prompt import PromptValidationError

_COUNTRY_CODE = re.compile(r"^[A-Z]{2}$")
MemoryLimit = Literal["1g", "4g", "16g", "64g"]

_DOMAIN = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$")


def invalid(owner: str, field: str, problem: str, fix: str) -> NoReturn:
    """Raise ``PromptValidationError`` for ``owner.field``: what is wrong, then the fix."""
    raise PromptValidationError(f"{owner}.{field}: {problem}; {fix}.")


def string_tuple(owner: str, field: str, values: object) -> tuple[str, ...]:
    """``values`` as a tuple of non-empty strings (a bare string is refused, not split)."""
    if isinstance(values, str) or not isinstance(values, Iterable):
        invalid(
            owner,
            field,
            f"expected a sequence of strings, got {values!r}",
            f"write {field}=({values!r},) for a single value",
        )
    items = tuple(cast("Iterable[object]", values))
    for item in items:
        if not isinstance(item, str) or not item.strip():
            invalid(owner, field, f"{item!r} is not a non-empty string", "remove it")
    return cast("tuple[str, ...]", items)


def check_max_items(owner: str, field: str, values: tuple[object, ...], limit: int) -> None:
    """``values`` holds at most ``limit`` entries (the provider's ``maxItems``)."""
    if len(values) > limit:
        invalid(owner, field, f"{len(values)} entries", f"the provider takes at most {limit}")


def check_bool(owner: str, field: str, value: object) -> None:
    """``value`` is ``True`` or ``False`` (not a truthy stand-in)."""
    if not isinstance(value, bool):
        invalid(owner, field, f"{value!r} is not a bool", "use True/False")


def check_text(owner: str, field: str, value: object) -> None:
    """``value`` is ``None`` or a non-blank string."""
    if value is not None and (not isinstance(value, str) or not value.strip()):
        invalid(
            owner, field, f"{value!r} is not a non-empty string", "leave it as None or set text"
        )


def check_choice(owner: str, field: str, value: object, choices: Iterable[str]) -> None:
    """``value`` is ``None`` or one of ``choices``."""
    allowed = tuple(choices)
    if value is not None and value not in allowed:
        invalid(owner, field, f"{value!r} is not supported", f"use one of {', '.join(allowed)}")


def check_int_range(owner: str, field: str, value: object, low: int, high: int) -> None:
    """``value`` is ``None`` or an int (not a bool) in ``[low, high]``."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        invalid(owner, field, f"{value!r} is out of range", f"use an integer from {low} to {high}")


def check_float_range(owner: str, field: str, value: object, low: float, high: float) -> None:
    """``value`` is ``None`` or a number (not a bool) in ``[low, high]``."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        invalid(owner, field, f"{value!r} is out of range", f"use a number from {low} to {high}")


def check_domain(owner: str, field: str, domain: str) -> None:
    """A bare host name such as ``cdc.gov``: no scheme, path, port or spaces."""
    if "://" in domain:
        bare = domain.split("://", 1)[1].split("/", 1)[0]
        invalid(owner, field, f"{domain!r} has a scheme", f"write the bare domain {bare!r}")
    if not _DOMAIN.fullmatch(domain) or "." not in domain:
        invalid(
            owner,
            field,
            f"{domain!r} is not a domain name",
            "write a host name such as 'cdc.gov' (no path, port or spaces)",
        )


def check_country_code(owner: str, field: str, value: object) -> None:
    """``value`` is ``None`` or an ISO 3166-1 alpha-2 code in upper case."""
    if value is None:
        return
    if not isinstance(value, str) or not _COUNTRY_CODE.fullmatch(value):
        hint = (
            f"write {value.upper()!r}"
            if isinstance(value, str) and len(value) == 2
            else ("use a two-letter ISO 3166-1 code such as 'GB' or 'US'")
        )
        invalid(owner, field, f"{value!r} is not an ISO 3166-1 alpha-2 country code", hint)


def check_timezone(owner: str, field: str, value: object) -> None:
    """``value`` is ``None`` or an IANA time zone name known to ``zoneinfo``."""
    if value is None:
        return
    try:
        if not isinstance(value, str) or not value:
            raise ValueError(value)
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, TypeError):
        invalid(
            owner,
            field,
            f"{value!r} is not an IANA time zone",
            "use a name such as 'Europe/London' or 'America/Los_Angeles'",
        )


MEMORY_LIMITS = ("1g", "4g", "16g", "64g")
MAX_CONTAINER_FILES = 50


def check_memory_limit(owner: str, field: str, value: object) -> None:
    """``value`` is ``None`` or a container memory size the provider offers."""
    check_choice(owner, field, value, MEMORY_LIMITS)
