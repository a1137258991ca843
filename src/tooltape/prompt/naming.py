"""The naming rules every tool and hosted tool obeys."""

from __future__ import annotations

import re

from tooltape.prompt.errors import PromptValidationError

TOOL_NAME_PATTERN = re.compile(r"^[a-z0-9_-]{1,64}$")
DESCRIPTION_MAX_LENGTH = 200


def check_tool_name(name: object, *, what: str = "Tool") -> str:
    """Return ``name`` if it is a valid tool name, else raise ``PromptValidationError``."""
    if not isinstance(name, str) or not TOOL_NAME_PATTERN.fullmatch(name):
        raise PromptValidationError(
            f"{what} name {name!r} is invalid: use 1-64 lowercase ASCII letters, digits, "
            "'_' or '-' (for example 'lookup_entity')."
        )
    return name


def check_description(description: object, *, owner: str) -> str:
    """Return ``description`` if it is 1-200 ASCII characters, else raise."""
    if not isinstance(description, str) or not description.strip():
        raise PromptValidationError(
            f"{owner}: description must be a non-empty string of 1-{DESCRIPTION_MAX_LENGTH} "
            "ASCII characters."
        )
    if len(description) > DESCRIPTION_MAX_LENGTH:
        raise PromptValidationError(
            f"{owner}: description is {len(description)} characters long; shorten it to at "
            f"most {DESCRIPTION_MAX_LENGTH}."
        )
    if not description.isascii():
        bad = next(ch for ch in description if not ch.isascii())
        raise PromptValidationError(
            f"{owner}: description must be ASCII; found {bad!r}. Replace it with an ASCII "
            "equivalent."
        )
    return description
