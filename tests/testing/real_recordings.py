"""The repository's copies of the real recordings, and synthetic secrets to put back in them.

The copies have the live values their publisher's recorder left in redacted
(``tests/data/real-cassettes/copy_from_shared.py``): header values, MCP tool
headers, reasoning ``encrypted_content``. A test that proves a secret gets
scrubbed puts a synthetic canary back where each of those values was.
"""

from __future__ import annotations

from pathlib import Path

import yaml

REAL = Path(__file__).resolve().parents[1] / "data" / "real-cassettes" / "openai-responses"
"""Real recordings of the live API from a public project (see PROVENANCE.md there)."""

CANARIES = {
    "cookie": "__cf_bm=SYNTHETICcfbm0123456789abcdef-1.0.1.1-x; _cfuvid=SYNTHETICcfuvid-604800",
    "openai-organization": "org-synthetic-canary",
    "openai-project": "proj_SyntheticCanary0123456789",
}
MCP_HEADER_CANARY = "synthetic-mcp-header-canary"
ENCRYPTED_CANARY = "gAAAAABsynthetic-encrypted-content-canary"
"""Shaped like the opaque blobs the API returns (they all start ``gAAAAAB``)."""

_REDACTED_FIELD = '"encrypted_content":"REDACTED"'


def with_encrypted_canaries(text: str) -> str:
    """JSON text with each redacted ``encrypted_content`` field holding the canary again."""
    return text.replace(_REDACTED_FIELD, f'"encrypted_content":"{ENCRYPTED_CANARY}"')


def _encrypted_canaries(node: object) -> object:
    if isinstance(node, dict):
        return {
            key: ENCRYPTED_CANARY
            if key == "encrypted_content" and value == "REDACTED"
            else _encrypted_canaries(value)
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [_encrypted_canaries(item) for item in node]
    if isinstance(node, str):
        return with_encrypted_canaries(node)
    return node


def raw_recording(path: Path) -> dict[str, object]:
    """The copy at ``path`` as its YAML tree."""
    with path.open(encoding="utf-8") as handle:
        return yaml.load(handle, Loader=yaml.CSafeLoader)


def canary_tree(path: Path) -> dict[str, object]:
    """The copy at ``path`` as a tree with every redacted secret a synthetic canary again."""
    tree = _encrypted_canaries(raw_recording(path))
    assert isinstance(tree, dict)
    interactions = tree["interactions"]
    assert isinstance(interactions, list)
    for interaction in interactions:
        interaction["request"].setdefault("headers", {})["cookie"] = [CANARIES["cookie"]]
        response_headers = interaction["response"].setdefault("headers", {})
        for name in ("openai-organization", "openai-project"):
            response_headers[name] = [CANARIES[name]]
        body = interaction["request"].get("parsed_body")
        for tool in body.get("tools", []) if isinstance(body, dict) else []:
            if isinstance(tool, dict) and isinstance(tool.get("headers"), dict):
                tool["headers"] = dict.fromkeys(tool["headers"], MCP_HEADER_CANARY)
    return tree


def with_canaries(path: Path, folder: Path) -> Path:
    """A copy of the recording at ``path``, written in ``folder``, carrying the canaries."""
    target = folder / path.name
    target.write_text(yaml.safe_dump(canary_tree(path), sort_keys=False), encoding="utf-8")
    return target
