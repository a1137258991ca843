"""``tooltape specs MODULE:ATTR``: the request body a prompt would send, sent nowhere.

The body is ``OpenAIAdapter(model).build_request(prompt, *params)``, printed
as indented JSON with sorted keys so that two runs (and two commits) compare
line by line.
"""

from __future__ import annotations

import argparse
import json

from tooltape.adapters.openai import OpenAIAdapter
from tooltape.cli.errors import EXIT_OK, CliError
from tooltape.cli.folders import project_settings
from tooltape.cli.targets import resolve_target
from tooltape.cli.terminal import Console
from tooltape.prompt import PromptEvaluationError, PromptRenderError, PromptValidationError
from tooltape.testing.settings import DEFAULT_MODEL


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``tooltape specs``."""
    parser.add_argument(
        "target",
        metavar="MODULE:ATTR",
        help="a Prompt, or a zero-argument callable returning a Prompt or (Prompt, *params); "
        "MODULE is dotted (importable from here) or a path/to/file.py",
    )
    parser.add_argument(
        "--model",
        help="model to build the request for (default: model in [tool.tooltape], "
        f"else {DEFAULT_MODEL}, as the openai_adapter fixture)",
    )
    parser.add_argument(
        "--tool-choice", metavar="NAME", help="force the tool of this name (as `evaluate` would)"
    )
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace, console: Console) -> int:
    model = args.model or project_settings().model
    return run_specs(args.target, model=model, tool_choice=args.tool_choice, console=console)


def render_request(target: str, *, model: str, tool_choice: str | None) -> str:
    """The request body ``target``'s prompt would send, as stable pretty JSON."""
    resolved = resolve_target(target)
    adapter = OpenAIAdapter(model)
    name = resolved.prompt.name
    try:
        body = adapter.build_request(resolved.prompt, *resolved.params, tool_choice=tool_choice)
    except PromptEvaluationError as exc:
        hint = ""
        if not resolved.params and isinstance(
            exc.__cause__, PromptRenderError | PromptValidationError
        ):
            hint = (
                "; specs renders it without parameters: point at a zero-argument callable "
                "returning (prompt, *params)"
            )
        raise CliError(
            f"{target!r}: prompt {name!r} cannot be sent to {model} ({exc.phase}): "
            f"{exc.message.rstrip('.')}{hint}"
        ) from exc
    except (PromptRenderError, PromptValidationError, TypeError, ValueError) as exc:
        raise CliError(
            f"{target!r}: prompt {name!r} does not render: {type(exc).__name__}: {exc}; "
            "return its parameters with it, as (prompt, *params)"
        ) from exc
    return json.dumps(body, indent=2, sort_keys=True, ensure_ascii=False)


def run_specs(target: str, *, model: str, tool_choice: str | None, console: Console) -> int:
    """Print the request body."""
    console.print(render_request(target, model=model, tool_choice=tool_choice))
    return EXIT_OK
