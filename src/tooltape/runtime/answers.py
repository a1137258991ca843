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

logger = logging.getLogger("tooltape.executor")


def answer_text(result: ToolResult[Any], invocations: list[ToolInvoked], name: str) -> str:
    """The output the model reads for ``result``, the result of the last call run.

    ``invocations`` is the executor's list of events; the last one is that call's
    when it holds ``result`` itself.
    """
    if type(result) is ToolResult and invocations and invocations[-1].result is result:
        return model_text(result, invocations[-1].rendered_output)
    try:
        output: object = result.model_output()
        if isinstance(output, str):
            return output
        problem = f"TypeError: model_output returned {type(output).__name__}"
    except Exception as exc:
        try:
            problem = f"{type(exc).__name__}: {exc}"
        except Exception:
            problem = type(exc).__name__
    logger.warning("Tool %r result could not be put into words again: %s", name, problem)
    return (
        f"Tool {name!r} ran, but its result could not be rendered as text ({problem}). "
        "Continue without this result; do not call the tool again for the same thing."
    )
