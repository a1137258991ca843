"""Wire form of the container settings hosted kinds share: network policy and skills."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any

from tooltape.tools.network import NetworkAllowlist, NetworkPolicy
from tooltape.tools.skills import InlineSkill, LocalSkill, SkillReference


def network_policy_wire(policy: NetworkPolicy) -> dict[str, Any]:
    """``{"type": "disabled"}`` or ``{"type": "allowlist", "allowed_domains": [...]...}``."""
    if not isinstance(policy, NetworkAllowlist):
        return {"type": "disabled"}
    wire: dict[str, Any] = {"type": "allowlist", "allowed_domains": list(policy.allowed_domains)}
    if policy.domain_secrets:
        wire["domain_secrets"] = [
            {"domain": s.domain, "name": s.name, "value": s.value} for s in policy.domain_secrets
        ]
    return wire


def container_skill_wire(skill: SkillReference | InlineSkill) -> dict[str, Any]:
    """A ``skill_reference`` or an ``inline`` skill (its zip as base64)."""
    if isinstance(skill, SkillReference):
        wire: dict[str, Any] = {"type": "skill_reference", "skill_id": skill.skill_id}
        if skill.version is not None:
            wire["version"] = skill.version
        return wire
    return {
        "type": "inline",
        "name": skill.name,
        "description": skill.description,
        "source": {
            "type": "base64",
            "media_type": "application/zip",
            "data": base64.b64encode(skill.bundle).decode("ascii"),
        },
    }


def local_skills_wire(skills: Sequence[LocalSkill]) -> list[dict[str, Any]]:
    """Local skills as the ``local`` environment lists them."""
    return [{"name": s.name, "description": s.description, "path": s.path} for s in skills]
