"""Image generation: the provider draws images from the conversation."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from tooltape.prompt import HostedTool
from tooltape.prompt.section import EnabledPredicate
from tooltape.tools.hosted_section import HostedToolSection
from tooltape.tools.rendering import JsonRendered
from tooltape.tools.validation import check_choice, check_int_range, check_text, invalid

# The values the official OpenAPI document's ImageGenTool accepts; newer SDK
# releases list more (xhigh, gif, svg...) that the API spec still refuses.
ImageQuality = Literal["low", "medium", "high", "auto"]
ImageFormat = Literal["png", "webp", "jpeg"]
ImageBackground = Literal["transparent", "opaque", "auto"]
ImageAction = Literal["generate", "edit", "auto"]
ImageModeration = Literal["auto", "low"]
InputFidelity = Literal["high", "low"]

_QUALITIES = ("low", "medium", "high", "auto")
_FORMATS = ("png", "webp", "jpeg")
_BACKGROUNDS = ("transparent", "opaque", "auto")
_ACTIONS = ("generate", "edit", "auto")
_MODERATIONS = ("auto", "low")
_FIDELITIES = ("high", "low")
_SIZE = re.compile(r"^[1-9][0-9]*x[1-9][0-9]*$")
_MIME = {"png": "image/png", "webp": "image/webp", "jpeg": "image/jpeg", "gif": "image/gif"}


def image_mime_type(output_format: str | None) -> str:
    """The MIME type of an image ``output_format`` (``png`` when unknown)."""
    if output_format == "svg":
        return "image/svg+xml"
    return _MIME.get(output_format or "png", f"image/{output_format}")


@dataclass(frozen=True, slots=True)
class ImageMask:
    """An inpainting mask: a base64 ``data:`` URL (``image_url``) or an uploaded ``file_id``."""

    image_url: str | None = None
    file_id: str | None = None

    def __post_init__(self) -> None:
        check_text("ImageMask", "image_url", self.image_url)
        check_text("ImageMask", "file_id", self.file_id)
        if self.image_url is None and self.file_id is None:
            invalid("ImageMask", "image_url", "the mask is empty", "give image_url or file_id")


@dataclass(frozen=True, slots=True)
class ImageGenerationConfig:
    """How images are drawn; ``None`` leaves a setting to the provider.

    ``size`` is ``"auto"`` or ``"WIDTHxHEIGHT"``; ``partial_images`` (0-3)
    is how many previews to stream; a transparent ``background`` needs a
    ``png`` or ``webp`` ``output_format``. ``action`` chooses between a new
    image and an edit, ``moderation`` is ``auto`` or ``low``,
    ``output_compression`` (0-100) applies to ``jpeg``/``webp``,
    ``input_fidelity`` says how closely edits follow the input images and
    ``input_image_mask`` is an ``ImageMask`` for inpainting. Every value the
    provider's specification refuses is refused here, naming the choices.
    """

    model: str | None = None
    size: str | None = None
    quality: ImageQuality | None = None
    output_format: ImageFormat | None = None
    background: ImageBackground | None = None
    partial_images: int | None = None
    action: ImageAction | None = None
    moderation: ImageModeration | None = None
    output_compression: int | None = None
    input_fidelity: InputFidelity | None = None
    input_image_mask: ImageMask | None = None

    def __post_init__(self) -> None:
        owner = "ImageGenerationConfig"
        check_text(owner, "model", self.model)
        if (
            self.size is not None
            and self.size != "auto"
            and not (isinstance(self.size, str) and _SIZE.fullmatch(self.size))
        ):
            invalid(owner, "size", f"{self.size!r} is not a size", "use 'auto' or e.g. '1024x1536'")
        check_choice(owner, "quality", self.quality, _QUALITIES)
        check_choice(owner, "output_format", self.output_format, _FORMATS)
        check_choice(owner, "background", self.background, _BACKGROUNDS)
        check_int_range(owner, "partial_images", self.partial_images, 0, 3)
        check_choice(owner, "action", self.action, _ACTIONS)
        check_choice(owner, "moderation", self.moderation, _MODERATIONS)
        check_int_range(owner, "output_compression", self.output_compression, 0, 100)
        check_choice(owner, "input_fidelity", self.input_fidelity, _FIDELITIES)
        if self.input_image_mask is not None and not isinstance(self.input_image_mask, ImageMask):
            invalid(owner, "input_image_mask", "is not an ImageMask", "wrap it: ImageMask(...)")
        if self.background == "transparent" and self.output_format not in (None, "png", "webp"):
            invalid(
                owner,
                "background",
                f"transparent backgrounds cannot be {self.output_format}",
                "set output_format to 'png' or 'webp', or use an opaque background",
            )


DEFAULT_IMAGE_GENERATION_CONFIG = ImageGenerationConfig()


@dataclass(frozen=True, slots=True)
class GeneratedImage:
    """One image: its bytes and the settings the provider reports it used."""

    data: bytes
    format: str | None = None
    size: str | None = None
    quality: str | None = None
    background: str | None = None
    revised_prompt: str | None = None

    @property
    def mime_type(self) -> str:
        """MIME type matching ``format``."""
        return image_mime_type(self.format)


@dataclass(frozen=True, slots=True)
class ImageGenerationCall:
    """One generation: the prompt the provider drew from, and the action it took."""

    revised_prompt: str | None = None
    action: str | None = None


@dataclass(frozen=True, slots=True)
class ImageGenerationResult(JsonRendered):
    """The images generated, in order; the properties read the first one."""

    images: tuple[GeneratedImage, ...]

    def _first(self) -> GeneratedImage | None:
        return self.images[0] if self.images else None

    @property
    def image(self) -> bytes:
        """The first image's bytes (``b""`` when there is none)."""
        first = self._first()
        return first.data if first is not None else b""

    @property
    def format(self) -> str | None:
        """The first image's format (``jpeg``, ``png``...)."""
        first = self._first()
        return first.format if first is not None else None

    @property
    def size(self) -> str | None:
        """The first image's size, e.g. ``"1536x1024"``."""
        first = self._first()
        return first.size if first is not None else None

    @property
    def quality(self) -> str | None:
        """The first image's quality."""
        first = self._first()
        return first.quality if first is not None else None

    @property
    def background(self) -> str | None:
        """The first image's background."""
        first = self._first()
        return first.background if first is not None else None

    @property
    def revised_prompt(self) -> str | None:
        """The prompt the provider actually drew the first image from."""
        first = self._first()
        return first.revised_prompt if first is not None else None


def image_generation_tool(
    config: ImageGenerationConfig = DEFAULT_IMAGE_GENERATION_CONFIG,
    *,
    name: str = "image_generation",
) -> HostedTool[ImageGenerationConfig]:
    """An image generation hosted tool."""
    return HostedTool(
        kind="image_generation",
        name=name,
        description="Generate or edit images from a description.",
        config=config,
    )


_TEMPLATE = (
    "You can generate images. Generate one when the user asks for a picture, and describe "
    "the subject, style and composition precisely."
)


class ImageGenerationSection(HostedToolSection):
    """A section that explains image generation and carries the tool."""

    def __init__(
        self,
        config: ImageGenerationConfig = DEFAULT_IMAGE_GENERATION_CONFIG,
        *,
        key: str = "image_generation",
        name: str = "image_generation",
        enabled: bool | EnabledPredicate | None = None,
    ) -> None:
        tool = image_generation_tool(config, name=name)
        super().__init__(
            tool,
            title="Image Generation",
            key=key,
            template=_TEMPLATE,
            enabled=enabled,
        )
