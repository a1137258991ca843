"""Function options on the wire: ``defer_loading``, ``allowed_callers`` and namespaces.

``apply_function_options`` runs over the finished ``tools`` array: it adds
each function or custom tool's options to its entry and moves the members of
a ``Namespace`` into one ``namespace`` entry (at the first member's place).
It also refuses what the API would refuse: a deferred tool with no
``tool_search`` to load it, a tool programs may call with no
``programmatic_tool_calling`` to write them, a namespace described twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tooltape.adapters.openai.callers import allowed_callers_field, echoed_caller
from tooltape.adapters.openai.reading import field
from tooltape.prompt import PromptEvaluationError, RenderedPrompt
from tooltape.tools.function_options import PLAIN, FunctionOptions, options_of

_OPTIONED = ("function", "custom")


def option_fields(options: FunctionOptions) -> dict[str, Any]:
    """The entry fields ``options`` set (none for a plainly offered tool)."""
    fields: dict[str, Any] = {}
    if options.defer_loading:
        fields["defer_loading"] = True
    fields.update(allowed_callers_field(options.allowed_callers))
    return fields


def namespace_entry(options: FunctionOptions, members: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``namespace`` entry holding ``members`` (``options.namespace`` must be set)."""
    namespace = options.namespace
    assert namespace is not None
    return {
        "type": "namespace",
        "name": namespace.name,
        "description": namespace.description,
        "tools": members,
    }


def _entries(specs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every entry, namespace members included."""
    flat: list[dict[str, Any]] = []
    for spec in specs:
        flat.append(spec)
        if spec.get("type") == "namespace":
            flat.extend(spec.get("tools", []))
    return flat


def _fail(rendered: RenderedPrompt[Any], message: str) -> PromptEvaluationError:
    return PromptEvaluationError(message, prompt_name=rendered.prompt_name, phase="render")


def _check_requirements(rendered: RenderedPrompt[Any], specs: Sequence[dict[str, Any]]) -> None:
    entries = _entries(specs)
    types = {entry.get("type") for entry in entries}
    deferred = [
        str(entry.get("name") or entry.get("server_label"))
        for entry in entries
        if entry.get("defer_loading")
    ]
    if deferred and "tool_search" not in types:
        raise _fail(
            rendered,
            f"{', '.join(deferred)} defer loading, but nothing can load them: add a tool "
            "search (tool_search_tool() or client_tool_search_tool(...)) to the prompt, or "
            "drop defer_loading.",
        )
    programmatic = [
        # hosted mcp is named by its server label; code_interpreter, shell, apply_patch by type
        str(entry.get("name") or entry.get("server_label") or entry.get("type"))
        for entry in entries
        if "programmatic" in (entry.get("allowed_callers") or ())
    ]
    if programmatic and "programmatic_tool_calling" not in types:
        raise _fail(
            rendered,
            f"{', '.join(programmatic)} may be called by programs, but the prompt lets the "
            "model write none: add programmatic_tool_calling_tool(), or allow only 'direct'.",
        )


def apply_function_options(
    rendered: RenderedPrompt[Any], specs: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """``specs`` with function/custom options applied and namespaces grouped; checked."""
    options = {tool.name: options_of(tool) for tool in rendered.tools}
    result: list[dict[str, Any]] = []
    namespaces: dict[str, dict[str, Any]] = {}
    for spec in specs:
        offered = options.get(str(spec.get("name"))) if spec.get("type") in _OPTIONED else None
        if offered is None or offered == PLAIN:
            result.append(spec)
            continue
        spec = {**spec, **option_fields(offered)}
        namespace = offered.namespace
        if namespace is None:
            result.append(spec)
            continue
        entry = namespaces.get(namespace.name)
        if entry is None:
            entry = namespace_entry(offered, [])
            namespaces[namespace.name] = entry
            result.append(entry)
        elif entry["description"] != namespace.description:
            raise _fail(
                rendered,
                f"Namespace {namespace.name!r} is described two ways ({entry['description']!r} "
                f"and {namespace.description!r}); use one Namespace value for all its tools.",
            )
        entry["tools"].append(spec)
    top = {str(spec.get("name")) for spec in result if spec.get("type") in _OPTIONED}
    clashes = sorted(top & set(namespaces))
    if clashes:
        raise _fail(rendered, f"Namespace {clashes[0]!r} has the name of a tool; rename one.")
    _check_requirements(rendered, result)
    return result


def echoed_call_context(item: object) -> dict[str, Any]:
    """What a ``function_call_output`` repeats of its call: a program ``caller``, a namespace."""
    echoed = echoed_caller(item)
    namespace: object = field(item, "namespace")
    if isinstance(namespace, str) and namespace:
        echoed["namespace"] = namespace
    return echoed
