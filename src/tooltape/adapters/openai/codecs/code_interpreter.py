"""OpenAI wire format of ``code_interpreter``: container spec, call items, container files."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tooltape.adapters.codec import HostedCall
from tooltape.adapters.openai.callers import allowed_callers_field
from tooltape.adapters.openai.codecs.base64_data import decode_data_url
from tooltape.adapters.openai.codecs.calls import hosted_call
from tooltape.adapters.openai.codecs.containers import network_policy_wire
from tooltape.adapters.openai.codecs.failures import call_failure
from tooltape.adapters.openai.codecs.items import elements, item_type, locate, of_types, text
from tooltape.adapters.openai.codecs.messages import Annotation, answer
from tooltape.prompt import HostedTool
from tooltape.tools.code_interpreter import (
    CodeImage,
    CodeInterpreterCall,
    CodeInterpreterConfig,
    CodeInterpreterResult,
    ContainerFileCitation,
)

_ITEM = "code_interpreter_call"


def _logs(item: object) -> tuple[str, ...]:
    return tuple(text(o, "logs") or "" for o in elements(item, "outputs") if item_type(o) == "logs")


def _images(item: object, response_items: Sequence[Any]) -> tuple[CodeImage, ...]:
    images: list[CodeImage] = []
    for position, output in enumerate(elements(item, "outputs")):
        url = text(output, "url")
        if item_type(output) != "image" or url is None:
            continue
        where = locate(response_items, item, f"outputs[{position}].url")
        decoded = decode_data_url(url, where=where)
        if decoded is None:
            images.append(CodeImage(mime_type="application/octet-stream", data=b"", url=url))
        else:
            images.append(CodeImage(mime_type=decoded[0], data=decoded[1]))
    return tuple(images)


def _file(annotation: Annotation) -> ContainerFileCitation:
    span = annotation.span()
    if span is None:
        # file_path annotations mark one position rather than a range.
        position = annotation.index()
        span = None if position is None else (position, position)
    return ContainerFileCitation(
        file_id=text(annotation.value, "file_id") or "",
        filename=text(annotation.value, "filename"),
        container_id=text(annotation.value, "container_id"),
        span=span,
    )


class CodeInterpreterCodec:
    """``code_interpreter`` for the OpenAI Responses API.

    When the config names a container, only calls in that container belong
    to the tool; otherwise every ``code_interpreter_call`` does.
    """

    @property
    def kind(self) -> str:
        return "code_interpreter"

    @property
    def item_types(self) -> tuple[str, ...]:
        return (_ITEM,)

    def serialize(self, tool: HostedTool[CodeInterpreterConfig]) -> dict[str, Any]:
        config = tool.config
        callers = allowed_callers_field(config.allowed_callers)
        if config.container_id is not None:
            return {"type": "code_interpreter", "container": config.container_id, **callers}
        container: dict[str, Any] = {"type": "auto"}
        if config.file_ids:
            container["file_ids"] = list(config.file_ids)
        if config.memory_limit is not None:
            container["memory_limit"] = config.memory_limit
        if config.network_policy is not None:
            container["network_policy"] = network_policy_wire(config.network_policy)
        return {"type": "code_interpreter", "container": container, **callers}

    def includes(self, tool: HostedTool[CodeInterpreterConfig]) -> tuple[str, ...]:
        return ("code_interpreter_call.outputs",) if tool.config.include_outputs else ()

    def tool_choice(self, tool: HostedTool[CodeInterpreterConfig]) -> dict[str, Any]:
        return {"type": "code_interpreter"}

    def _items(
        self, response_items: Sequence[Any], tool: HostedTool[CodeInterpreterConfig] | None
    ) -> list[object]:
        items = of_types(response_items, self.item_types)
        wanted = tool.config.container_id if tool is not None else None
        if wanted is None:
            return items
        return [item for item in items if text(item, "container_id") == wanted]

    def parse_calls(
        self, response_items: Sequence[Any], tool: HostedTool[CodeInterpreterConfig] | None
    ) -> tuple[HostedCall, ...]:
        calls: list[HostedCall] = []
        for item in self._items(response_items, tool):
            code, container = text(item, "code"), text(item, "container_id")
            params = CodeInterpreterCall(code=code, container_id=container)
            error = call_failure(item, f"in container {container}")
            output = CodeInterpreterResult(
                text="",
                codes=(code,) if code else (),
                container_id=container,
                logs=_logs(item),
                images=_images(item, response_items),
            )
            calls.append(hosted_call(self.kind, item, params=params, output=output, error=error))
        return tuple(calls)

    def parse_output(
        self, response_items: Sequence[Any], tool: HostedTool[CodeInterpreterConfig]
    ) -> CodeInterpreterResult | None:
        items = self._items(response_items, tool)
        if not items:
            return None
        reply = answer(response_items)
        codes = (text(item, "code") for item in items)
        return CodeInterpreterResult(
            text=reply.text,
            codes=tuple(code for code in codes if code),
            container_id=next((c for i in items if (c := text(i, "container_id"))), None),
            logs=tuple(log for item in items for log in _logs(item)),
            images=tuple(image for item in items for image in _images(item, response_items)),
            files=tuple(_file(a) for a in reply.of_type("container_file_citation", "file_path")),
        )
