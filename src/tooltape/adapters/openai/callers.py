"""Callers on the wire: a spec's ``allowed_callers``, and the ``caller`` an answer repeats.

A tool offered with ``allowed_callers`` gets the field in its spec (and
only then). A call a program made carries ``caller: {"type": "program",
"caller_id": ...}``; the client's answer to it (``function_call_output``,
``custom_tool_call_output``, ``shell_call_output``, ``apply_patch_call_output``)
repeats that caller so the provider hands the result back to the program. A
direct call's answer carries none, as the model's own calls always did.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tooltape.adapters.openai.reading import field


def allowed_callers_field(callers: Sequence[str] | None) -> dict[str, Any]:
    """``{"allowed_callers": [...]}`` when ``callers`` is set, else ``{}``."""
    return {} if callers is None else {"allowed_callers": list(callers)}


def echoed_caller(item: object) -> dict[str, Any]:
    """``{"caller": ...}`` when a program made the call ``item`` is, else ``{}``."""
    caller: object = field(item, "caller")
    caller_id: object = field(caller, "caller_id")
    if field(caller, "type") != "program" or not isinstance(caller_id, str):
        return {}
    return {"caller": {"type": "program", "caller_id": caller_id}}
