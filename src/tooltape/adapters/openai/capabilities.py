"""Which provider tool kinds each OpenAI model family is documented to refuse.

The table is a guard, not a source of truth about OpenAI: it stops a prompt
from sending a tool a model is documented not to take, before any request is
made. It matches a model by *family*: the model id with a dated snapshot
suffix (``-2025-08-07``) and a fine-tune wrapper (``ft:<base>:...``) removed
must equal a family name exactly, so ``gpt-5-nano`` is its own family and
never inherits what ``gpt-5`` (or ``gpt-5.1``) can do. A model the table does
not know is not restricted.

Every refusal cites the page it comes from and what that page says. A kind
no page limits is allowed: a guard that refused a working tool on a guess
would be worse than none. Pass ``capabilities=`` (family or model id -> the
kinds it supports) to ``OpenAIAdapter`` to replace the table.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = [
    "CAPABILITY_TABLE",
    "DEFAULT_CAPABILITIES",
    "KNOWN_KINDS",
    "Evidence",
    "ModelFamily",
    "model_family",
    "refusal",
    "supported_kinds",
]

KNOWN_KINDS = frozenset(
    {
        "web_search",
        "web_search_preview",
        "file_search",
        "code_interpreter",
        "image_generation",
        "mcp",
        "shell",
        "apply_patch",
        "local_shell",
        "computer",
        "computer_use_preview",
        "custom",
        "namespace",
        "tool_search",
        "programmatic_tool_calling",
    }
)
"""The tool kinds (the API's ``tools[].type`` names) the table speaks about."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """Where a limit comes from: a documentation page and what it says there."""

    url: str
    says: str

    def __str__(self) -> str:
        return f"{self.url} says: {self.says}"


SHELL_GUIDE = Evidence(
    "https://developers.openai.com/api/docs/guides/tools-shell",
    '"Shell is available through the Responses API for use with GPT-5.1, GPT-5.2, '
    'GPT-5.1-codex, and GPT-5.2-codex." (its hosted-shell quickstart uses gpt-5.4)',
)
APPLY_PATCH_GUIDE = Evidence(
    "https://developers.openai.com/api/docs/guides/tools-apply-patch",
    '"The apply_patch tool lets GPT-5.1 create, update, and delete files in your codebase '
    'using structured diffs." (a GPT-5.1 tool; earlier families are not named)',
)
LOCAL_SHELL_GUIDE = Evidence(
    "https://developers.openai.com/api/docs/guides/tools-local-shell",
    '"Local shell is available through the Responses API for use with codex-mini-latest. '
    'It is not available on other models" (and is outdated in favour of shell)',
)
TOOL_SEARCH_GUIDE = Evidence(
    "https://developers.openai.com/api/docs/guides/tools",
    '"Only gpt-5.4 and later models support tool_search."',
)


@dataclass(frozen=True, slots=True)
class ModelFamily:
    """One row: a model family and the kinds documentation says it does not take."""

    name: str
    refuses: Mapping[str, Evidence] = field(default_factory=lambda: dict[str, Evidence]())

    @property
    def kinds(self) -> frozenset[str]:
        """The known kinds this family is not documented to refuse."""
        return KNOWN_KINDS - frozenset(self.refuses)


def _row(name: str, *refused: tuple[str, Evidence]) -> ModelFamily:
    return ModelFamily(name, dict(refused))


_BEFORE_TOOL_SEARCH = (("tool_search", TOOL_SEARCH_GUIDE), ("local_shell", LOCAL_SHELL_GUIDE))
_BEFORE_SHELL = (
    ("shell", SHELL_GUIDE),
    ("apply_patch", APPLY_PATCH_GUIDE),
    *_BEFORE_TOOL_SEARCH,
)

CAPABILITY_TABLE: tuple[ModelFamily, ...] = (
    *(
        _row(name, *_BEFORE_SHELL)
        for name in (
            "gpt-4o",
            "gpt-4o-mini",
            "gpt-4.1",
            "gpt-4.1-mini",
            "gpt-4.1-nano",
            "o1",
            "o3",
            "o3-mini",
            "o4-mini",
            "gpt-5",
            "gpt-5-mini",
            "gpt-5-nano",
            "gpt-5-chat-latest",
        )
    ),
    *(
        _row(name, *_BEFORE_TOOL_SEARCH)
        for name in ("gpt-5.1", "gpt-5.2", "gpt-5.1-codex", "gpt-5.2-codex")
    ),
    _row(
        "codex-mini-latest",
        ("shell", SHELL_GUIDE),
        ("apply_patch", APPLY_PATCH_GUIDE),
        ("tool_search", TOOL_SEARCH_GUIDE),
    ),
    *(_row(name, ("local_shell", LOCAL_SHELL_GUIDE)) for name in ("gpt-5.4", "gpt-5.5")),
)
"""Every family the guard knows, with the documented refusals of each."""

DEFAULT_CAPABILITIES: Mapping[str, frozenset[str]] = {
    family.name: family.kinds for family in CAPABILITY_TABLE
}
"""Family -> the known kinds it is not documented to refuse (the table, as data)."""

_FAMILIES = {family.name: family for family in CAPABILITY_TABLE}
_SNAPSHOT = re.compile(r"-\d{4}-\d{2}-\d{2}\Z")


def model_family(model: str) -> str:
    """``model`` without its snapshot date or fine-tune wrapper: ``gpt-5-nano-2025-08-07`` ->
    ``gpt-5-nano``, ``ft:gpt-4o-mini-2024-07-18:org::id`` -> ``gpt-4o-mini``."""
    base = model.split(":", 2)[1] if model.startswith("ft:") and model.count(":") >= 2 else model
    return _SNAPSHOT.sub("", base)


def _lookup(model: str, table: Mapping[str, frozenset[str]]) -> frozenset[str] | None:
    if model in table:
        return table[model]
    return table.get(model_family(model))


def supported_kinds(
    model: str, table: Mapping[str, frozenset[str]] = DEFAULT_CAPABILITIES
) -> frozenset[str] | None:
    """The kinds ``table`` gives ``model``'s family, or ``None`` if the family is unknown."""
    return _lookup(model, table)


def refusal(model: str, kind: str, table: Mapping[str, frozenset[str]] | None = None) -> str | None:
    """Why ``model`` cannot take a ``kind`` tool, or ``None`` when nothing says it cannot.

    With the default table a kind outside ``KNOWN_KINDS`` (a project's own codec)
    is never refused; with a ``table`` given, its sets are taken as complete.
    """
    if table is not None:
        kinds = _lookup(model, table)
        if kinds is None or kind in kinds:
            return None
        return (
            f"the capabilities table given to the adapter lists only "
            f"{', '.join(sorted(kinds)) or 'no tool kinds'} for it"
        )
    family = _FAMILIES.get(model) or _FAMILIES.get(model_family(model))
    if family is None or kind not in family.refuses:
        return None
    return str(family.refuses[kind])
