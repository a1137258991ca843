"""OpenAI wire format of the hosted ``shell`` (container): spec, ``shell_call`` items and
their ``shell_call_output`` items, paired by ``call_id``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tooltape.adapters.codec import HostedCall
from tooltape.adapters.openai.callers import allowed_callers_field
from tooltape.adapters.openai.codecs.calls import hosted_call
from tooltape.adapters.openai.codecs.containers import container_skill_wire, network_policy_wire
from tooltape.adapters.openai.codecs.failures import INCOMPLETE, call_failure, status
from tooltape.adapters.openai.codecs.items import (
    elements,
    field,
    integer,
    item_type,
    of_types,
    strings,
    text,
)
from tooltape.prompt import HostedTool
from tooltape.tools.shell import (
    ContainerAuto,
    ShellCall,
    ShellConfig,
    ShellOutput,
    ShellResult,
)

_CALL = "shell_call"
_OUTPUT = "shell_call_output"


def shell_call(item: object) -> ShellCall:
    """The commands and limits of a ``shell_call`` item."""
    action = field(item, "action")
    return ShellCall(
        commands=strings(action, "commands"),
        timeout_ms=integer(action, "timeout_ms"),
        max_output_length=integer(action, "max_output_length"),
    )


def _outputs(output_item: object) -> tuple[ShellOutput, ...]:
    outputs: list[ShellOutput] = []
    for chunk in elements(output_item, "output"):
        outcome = field(chunk, "outcome")
        outputs.append(
            ShellOutput(
                stdout=text(chunk, "stdout") or "",
                stderr=text(chunk, "stderr") or "",
                exit_code=integer(outcome, "exit_code"),
                timed_out=item_type(outcome) == "timeout",
            )
        )
    return tuple(outputs)


def _is_local(item: object) -> bool:
    return item_type(field(item, "environment")) == "local"


def _container(item: object) -> str | None:
    # A hosted call names its container by reference; the request's
    # container_auto never appears on a call item.
    environment = field(item, "environment")
    if item_type(environment) != "container_reference":
        return None
    return text(environment, "container_id")


class ShellCodec:
    """The hosted ``shell`` (commands run in a provider container).

    ``shell_call`` items whose environment is ``local`` are client calls and
    are left to the client shell codec. A ``shell_call`` with no matching
    ``shell_call_output`` reports its commands and no outputs; it counts as
    failed only when the call itself ended ``failed`` or ``incomplete``.
    """

    @property
    def kind(self) -> str:
        return "shell"

    @property
    def item_types(self) -> tuple[str, ...]:
        return (_CALL,)

    def serialize(self, tool: HostedTool[ShellConfig]) -> dict[str, Any]:
        callers = allowed_callers_field(tool.config.allowed_callers)
        environment = tool.config.environment
        if not isinstance(environment, ContainerAuto):
            return {
                "type": "shell",
                "environment": {
                    "type": "container_reference",
                    "container_id": environment.container_id,
                },
                **callers,
            }
        wire: dict[str, Any] = {"type": "container_auto"}
        if environment.file_ids:
            wire["file_ids"] = list(environment.file_ids)
        if environment.memory_limit is not None:
            wire["memory_limit"] = environment.memory_limit
        if environment.network_policy is not None:
            wire["network_policy"] = network_policy_wire(environment.network_policy)
        if environment.skills:
            wire["skills"] = [container_skill_wire(skill) for skill in environment.skills]
        return {"type": "shell", "environment": wire, **callers}

    def includes(self, tool: HostedTool[ShellConfig]) -> tuple[str, ...]:
        return ()

    def tool_choice(self, tool: HostedTool[ShellConfig]) -> dict[str, Any]:
        return {"type": "shell"}

    def _pairs(self, response_items: Sequence[Any]) -> list[tuple[object, object | None]]:
        answers = {text(o, "call_id"): o for o in of_types(response_items, (_OUTPUT,))}
        calls = [c for c in of_types(response_items, (_CALL,)) if not _is_local(c)]
        return [(call, answers.get(text(call, "call_id"))) for call in calls]

    def parse_calls(
        self, response_items: Sequence[Any], tool: HostedTool[ShellConfig] | None
    ) -> tuple[HostedCall, ...]:
        calls: list[HostedCall] = []
        for item, answer in self._pairs(response_items):
            params = shell_call(item)
            # An incomplete call that still reported its output is judged by that output.
            error = call_failure(item, f"running {list(params.commands)}", incomplete_fails=False)
            if error is None and answer is None and status(item) == INCOMPLETE:
                error = (
                    f"{_CALL} {text(item, 'id')} ended {status(item)!r} without a "
                    f"{_OUTPUT}; the commands {list(params.commands)} did not report."
                )
            if error is None and answer is not None:
                error = call_failure(answer, "reporting command output", incomplete_fails=False)
            outputs = _outputs(answer) if answer is not None else ()
            output = ShellResult(params.commands, outputs, container_id=_container(item))
            calls.append(hosted_call(self.kind, item, params=params, output=output, error=error))
        return tuple(calls)

    def parse_output(
        self, response_items: Sequence[Any], tool: HostedTool[ShellConfig]
    ) -> ShellResult | None:
        pairs = self._pairs(response_items)
        if not pairs:
            return None
        return ShellResult(
            commands=tuple(c for item, _ in pairs for c in shell_call(item).commands),
            outputs=tuple(o for _, answer in pairs if answer is not None for o in _outputs(answer)),
            container_id=next((c for item, _ in pairs if (c := _container(item))), None),
        )
