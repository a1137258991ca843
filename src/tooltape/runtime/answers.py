"""The text that answers a call: what the model reads as the call's output.

The executor renders a result once, for its ``ToolInvoked``; the tool loop
then needs the model's text for the same result. A plain ``ToolResult`` is
not rendered again (a value may render differently, or not at all, the
second time): its text is built from the rendering the event recorded. A
subclass says its own ``model_output()``; when that raises now (it worked
when the executor checked it), the model reads why instead of the
evaluation ending with the exception.
"""

from __future__ import annotations

import logging
from typing import Any

from tooltape.prompt import ToolResult
from tooltape.prompt.result import model_text
from tooltape.runtime.events import ToolInvoked
from tooltape.runtime.secret_free import without_secrets

logger = logging.getLogger("tooltape.executor")


def failure_detail(exc: BaseException) -> str:
    """``str(exc)`` for a message, or a stand-in when even that raises (user code's
    ``__str__``), without the credentials it may quote (see ``secret_free``)."""
    try:
        text = str(exc)
    except Exception:
        return "its message could not be read"
    return without_secrets(text).rstrip(". ") or "no details"


def unrenderable(name: str, exc: Exception) -> str:
    """What the model reads when the result of the call of ``name`` cannot be put into text."""
    return (
        f"Tool {name!r} ran, but its result could not be rendered as text: "
        f"{type(exc).__name__}: {failure_detail(exc)}. Continue without this result; "
        "do not call the tool again for the same thing."
    )


def checked_model_output(result: ToolResult[Any]) -> str:
    """``result.model_output()``, or ``TypeError`` when it is not text."""
    output: object = result.model_output()
    if not isinstance(output, str):
        raise TypeError(f"{type(result).__name__}.model_output returned {type(output).__name__}")
    return output


def answer_text(result: ToolResult[Any], invocations: list[ToolInvoked], name: str) -> str:
    """The output the model reads for ``result``, the result of the last call run.

    ``invocations`` is the executor's list of events; the last one is that call's
    when it holds ``result`` itself.
    """
    if type(result) is ToolResult and invocations and invocations[-1].result is result:
        return model_text(result, invocations[-1].rendered_output)
    try:
        return checked_model_output(result)
    except Exception as exc:
        logger.warning("Tool %r result could not be put into words again", name, exc_info=True)
        return unrenderable(name, exc)
