"""Reading Responses API bodies: raw JSON dicts and SDK objects alike.

What must hold of a body and what is read tolerantly is the rule in
:mod:`tooltape.adapters.openai.codecs.envelope`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard, cast

from tooltape.adapters.openai.codecs.envelope import describe_value, malformed_items
from tooltape.prompt import PromptEvaluationError

_LISTED_PROBLEMS = 5


def is_mapping(value: object) -> TypeGuard[Mapping[str, Any]]:
    """``isinstance(value, Mapping)`` that tells the type checker the keys are strings."""
    return isinstance(value, Mapping)


def field(item: object, name: str, default: Any = None) -> Any:
    """``item[name]`` for dicts, ``item.name`` for SDK objects; ``default`` when absent."""
    if isinstance(item, Mapping):
        return cast("Mapping[str, Any]", item).get(name, default)
    return getattr(item, name, default)


def as_dict(item: object) -> dict[str, Any]:
    """A JSON dict for an item (SDK objects are dumped, unknown fields kept)."""
    if isinstance(item, Mapping):
        return dict(cast("Mapping[str, Any]", item))
    dump = getattr(item, "model_dump", None)
    if callable(dump):
        return cast("dict[str, Any]", dump(mode="json", exclude_unset=True))
    raise TypeError(f"Cannot read a response item of type {type(item).__name__}.")


def output_text(items: Sequence[object]) -> str:
    """The assistant text of a response: every ``output_text`` part of every message."""
    return _message_parts(items, "output_text", "text")


def refusal_text(items: Sequence[object]) -> str:
    """What the model said when it refused: every ``refusal`` part of every message."""
    return _message_parts(items, "refusal", "refusal")


def _message_parts(items: Sequence[object], part_type: str, key: str) -> str:
    parts: list[str] = []
    for item in items:
        if field(item, "type") != "message":
            continue
        content: object = field(item, "content", None)
        if not isinstance(content, list | tuple):
            continue
        for part in cast("Sequence[object]", content):
            text: object = field(part, key, "")
            if field(part, "type") == part_type and isinstance(text, str):
                parts.append(text)
    return "".join(parts)


def check_response(response: Mapping[str, Any], prompt_name: str) -> None:
    """Raise ``PromptEvaluationError(phase="parse")`` unless every output item is well formed.

    ``response`` is a Responses API body whose ``output`` is a list. The
    message names each broken item as ``output[<index>].<field>``.
    """
    response_id: object = response.get("id")
    if response_id is not None and not isinstance(response_id, str):
        raise PromptEvaluationError(
            f"OpenAI returned a Response whose id is {describe_value(response_id)}, not a string.",
            prompt_name=prompt_name,
            phase="parse",
            provider_payload=response_id,
        )
    items = cast("Sequence[object]", response.get("output") or ())
    problems = malformed_items(items)
    if not problems:
        return
    listed = "; ".join(str(problem) for problem in problems[:_LISTED_PROBLEMS])
    if len(problems) > _LISTED_PROBLEMS:
        listed += f"; and {len(problems) - _LISTED_PROBLEMS} more"
    count = "an output item" if len(problems) == 1 else f"{len(problems)} output items"
    raise PromptEvaluationError(
        f"OpenAI response {response_id or '(no id)'} has {count} that cannot be read "
        f"({listed}): it is not a well-formed Response. If it was replayed from a "
        "cassette, `tooltape inspect <cassette>` shows every such item; re-record it.",
        prompt_name=prompt_name,
        phase="parse",
        provider_payload=[items[problem.index] for problem in problems],
    )


def describe_error(payload: object) -> str:
    """``code: message`` out of a provider error object (or whatever it is)."""
    if is_mapping(payload):
        inner_map: object = payload.get("error", payload)
        if is_mapping(inner_map):
            code = str(inner_map.get("code") or inner_map.get("type") or "")
            message = str(inner_map.get("message") or inner_map.get("reason") or "")
            if code or message:
                return f"{code}: {message}" if code and message else code or message
    return repr(payload) if not isinstance(payload, str) else payload
