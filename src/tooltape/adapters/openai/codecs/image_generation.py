"""OpenAI wire format of ``image_generation``: spec and ``image_generation_call`` items."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tooltape.adapters.codec import HostedCall
from tooltape.adapters.openai.codecs.base64_data import decode_base64
from tooltape.adapters.openai.codecs.calls import hosted_call
from tooltape.adapters.openai.codecs.failures import call_failure
from tooltape.adapters.openai.codecs.items import locate, of_types, text
from tooltape.prompt import HostedTool
from tooltape.tools.image_generation import (
    GeneratedImage,
    ImageGenerationCall,
    ImageGenerationConfig,
    ImageGenerationResult,
)

_ITEM = "image_generation_call"
_SETTINGS = (
    "model",
    "size",
    "quality",
    "output_format",
    "background",
    "partial_images",
    "action",
    "moderation",
    "output_compression",
    "input_fidelity",
)


def _image(item: object, response_items: Sequence[Any]) -> GeneratedImage | None:
    result = text(item, "result")
    if not result:
        return None
    return GeneratedImage(
        data=decode_base64(result, where=locate(response_items, item, "result")),
        format=text(item, "output_format"),
        size=text(item, "size"),
        quality=text(item, "quality"),
        background=text(item, "background"),
        revised_prompt=text(item, "revised_prompt"),
    )


class ImageGenerationCodec:
    """``image_generation`` for the OpenAI Responses API."""

    @property
    def kind(self) -> str:
        return "image_generation"

    @property
    def item_types(self) -> tuple[str, ...]:
        return (_ITEM,)

    def serialize(self, tool: HostedTool[ImageGenerationConfig]) -> dict[str, Any]:
        spec: dict[str, Any] = {"type": "image_generation"}
        for key in _SETTINGS:
            value = getattr(tool.config, key)
            if value is not None:
                spec[key] = value
        mask = tool.config.input_image_mask
        if mask is not None:
            spec["input_image_mask"] = {
                key: value
                for key, value in (("image_url", mask.image_url), ("file_id", mask.file_id))
                if value is not None
            }
        return spec

    def includes(self, tool: HostedTool[ImageGenerationConfig]) -> tuple[str, ...]:
        return ()

    def tool_choice(self, tool: HostedTool[ImageGenerationConfig]) -> dict[str, Any]:
        return {"type": "image_generation"}

    def parse_calls(
        self, response_items: Sequence[Any], tool: HostedTool[ImageGenerationConfig] | None
    ) -> tuple[HostedCall, ...]:
        calls: list[HostedCall] = []
        for item in of_types(response_items, self.item_types):
            params = ImageGenerationCall(
                revised_prompt=text(item, "revised_prompt"), action=text(item, "action")
            )
            error = call_failure(item, "generating an image")
            image = None if error else _image(item, response_items)
            output = ImageGenerationResult(images=(image,) if image else ())
            calls.append(hosted_call(self.kind, item, params=params, output=output, error=error))
        return tuple(calls)

    def parse_output(
        self, response_items: Sequence[Any], tool: HostedTool[ImageGenerationConfig]
    ) -> ImageGenerationResult | None:
        items = of_types(response_items, self.item_types)
        if not items:
            return None
        images = (_image(item, response_items) for item in items if call_failure(item, "") is None)
        return ImageGenerationResult(images=tuple(image for image in images if image))
