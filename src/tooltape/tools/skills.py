"""Skills a shell may use: provider skills by id, inline zip bundles, or local folders."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import cast

from tooltape.tools.validation import check_text, invalid

MAX_SKILLS = 200
_MAX_SKILL_ID = 64


@dataclass(frozen=True, slots=True)
class SkillReference:
    """A skill uploaded to the provider, by id; ``version`` is a number, ``"latest"`` or unset."""

    skill_id: str
    version: str | None = None

    def __post_init__(self) -> None:
        check_text("SkillReference", "skill_id", self.skill_id)
        if len(self.skill_id) > _MAX_SKILL_ID:
            invalid("SkillReference", "skill_id", "is longer than 64 characters", "use the id")
        if self.version is not None and not (
            self.version == "latest" or (self.version.isdigit() and int(self.version) > 0)
        ):
            invalid(
                "SkillReference",
                "version",
                f"{self.version!r} is not a version",
                "use a positive integer such as '2', 'latest', or leave it unset",
            )


@dataclass(frozen=True, slots=True)
class InlineSkill:
    """A skill sent with the request: ``bundle`` is the skill folder as zip bytes."""

    name: str
    description: str
    bundle: bytes = field(repr=False)

    def __post_init__(self) -> None:
        check_text("InlineSkill", "name", self.name)
        check_text("InlineSkill", "description", self.description)
        if not isinstance(self.bundle, bytes) or not self.bundle:
            invalid("InlineSkill", "bundle", "is empty", "pass the zip archive's bytes")


@dataclass(frozen=True, slots=True)
class LocalSkill:
    """A skill folder on the machine that runs a local shell."""

    name: str
    description: str
    path: str

    def __post_init__(self) -> None:
        for name in ("name", "description", "path"):
            check_text("LocalSkill", name, getattr(self, name))


ContainerSkill = SkillReference | InlineSkill


def skill_tuple(owner: str, values: object, kinds: tuple[type, ...]) -> tuple[object, ...]:
    """``values`` as a tuple of skills of ``kinds``, at most 200 of them."""
    if isinstance(values, str | bytes) or not isinstance(values, tuple | list):
        invalid(owner, "skills", f"{values!r} is not a sequence", "pass a tuple of skills")
    skills = tuple(cast("Iterable[object]", values))
    names = ", ".join(kind.__name__ for kind in kinds)
    for skill in skills:
        if not isinstance(skill, kinds):
            invalid(owner, "skills", f"{skill!r} is not a skill", f"use {names}")
    if len(skills) > MAX_SKILLS:
        invalid(owner, "skills", f"{len(skills)} skills", f"send at most {MAX_SKILLS}")
    return skills
