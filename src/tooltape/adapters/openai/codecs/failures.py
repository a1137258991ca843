"""How provider-side failures read: call status, error values, and render-time refusals."""

from __future__ import annotations

import json
from typing import Any

from tooltape.adapters.openai.codecs.items import field, mapping, text
from tooltape.prompt import HostedTool, PromptEvaluationError

FAILED = "failed"
INCOMPLETE = "incomplete"

# A codec serialises one tool and never sees the prompt; the adapter knows the
# prompt name and may re-raise with it.
UNKNOWN_PROMPT = "<unknown prompt>"


def status(item: object) -> str | None:
    """The item's ``status`` (``completed``, ``failed``...), if it has one."""
    return text(item, "status")


def describe_error(error: object) -> str | None:
    """A provider error as one line: ``"<type> <code>: <message>"`` or the string itself.

    Errors arrive as plain strings or as objects with some of ``type``,
    ``code``, ``message`` (and ``content`` for MCP tool execution errors).
    """
    if error is None:
        return None
    if isinstance(error, str):
        return error or None
    data = mapping(error)
    if not data:
        return str(error)
    head = " ".join(str(data[k]) for k in ("type", "code") if data.get(k) not in (None, ""))
    message = data.get("message")
    if message in (None, "") and "content" in data:
        message = json.dumps(data["content"], ensure_ascii=False)
    if message in (None, ""):
        message = json.dumps({k: v for k, v in data.items() if k not in ("type", "code")})
    return f"{head}: {message}" if head else str(message)


def call_failure(item: object, what: str, *, incomplete_fails: bool = True) -> str | None:
    """Why a call item failed (its error, or a ``failed`` status), else ``None``.

    ``incomplete`` is the wire's other terminal status short of ``completed``
    (a code interpreter, file search or MCP call that did not finish): a
    failure too, unless the codec judges it with the item's output
    (``incomplete_fails=False``).
    """
    error = describe_error(field(item, "error"))
    item_status = status(item)
    unfinished = incomplete_fails and item_status == INCOMPLETE
    if error is None and item_status != FAILED and not unfinished:
        return None
    ident = text(item, "id") or "?"
    kind = text(item, "type") or "call"
    reason = error or (
        f"the provider reported status {item_status!r} and no error detail"
        + ("; the call did not finish" if unfinished else "")
    )
    return f"{kind} {ident} ({what}) failed: {reason}"


def cannot_express(tool: HostedTool[Any], problem: str) -> PromptEvaluationError:
    """The error for a config the OpenAI wire format cannot carry (phase ``render``)."""
    return PromptEvaluationError(
        f"Hosted tool {tool.name!r} ({tool.kind}): {problem}",
        prompt_name=UNKNOWN_PROMPT,
        phase="render",
    )
