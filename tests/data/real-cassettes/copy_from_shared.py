"""Copy the real recordings into the repository with their secrets redacted.

    python tests/data/real-cassettes/copy_from_shared.py ../shared/real-cassettes

The published recordings carry what their recorder left in: Cloudflare
cookies, the organization and the project in the headers, the headers a
hosted MCP tool sends its server, and reasoning ``encrypted_content`` (an
opaque blob bound to the account that made it). The copies here replace the
value of every interaction header outside tooltape's safe set (the set the
recorder keeps), of every MCP tool header and of every ``encrypted_content``
(a YAML entry, or a JSON field inside a body string) with ``REDACTED``, line
by line, so every other byte is the published one. Each copy is then read
back and must equal the original with exactly those values replaced; the
script refuses to write anything else.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import yaml

from tooltape.testing.cassette import DEFAULT_POLICY

HERE = Path(__file__).resolve().parent
SUBFOLDER = "openai-responses"
REDACTED = "REDACTED"

_HEADERS = re.compile(r"^(?P<indent> *)headers:\s*$")
_ENTRY = re.compile(r"^(?P<indent> *)(?P<name>[A-Za-z0-9_-]+):(?P<value> .*)?$")
_ITEM = re.compile(r"^(?P<indent> *)- ")
_ENCRYPTED_ENTRY = re.compile(r"^(?P<key> *(?:- )?encrypted_content: )(?P<value>.+)$", re.MULTILINE)
_ENCRYPTED_FIELD = re.compile(r'(?P<key>"encrypted_content":")(?P<value>[^"\\\n]*)"')


def _needs_redacting(value: object) -> bool:
    # "<redacted>" is the mask the publishing project's recorder wrote itself
    return value not in ("", REDACTED, "<redacted>")


def _encrypted_entry(match: re.Match[str]) -> str:
    keep = not _needs_redacting(yaml.safe_load(match["value"]))
    return match[0] if keep else f"{match['key']}{REDACTED}"


def _encrypted_field(match: re.Match[str]) -> str:
    keep = not _needs_redacting(match["value"])
    return match[0] if keep else f'{match["key"]}{REDACTED}"'


def redact_text(text: str) -> str:
    """``text`` with the values of unsafe interaction headers, of MCP tool headers and of
    ``encrypted_content`` redacted."""
    text = _ENCRYPTED_ENTRY.sub(_encrypted_entry, text)
    text = _ENCRYPTED_FIELD.sub(_encrypted_field, text)
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        out.append(line)
        index += 1
        block = _HEADERS.match(line)
        if block is None:
            continue
        entry_indent = len(block["indent"]) + 2
        while index < len(lines):
            entry = _ENTRY.match(lines[index])
            if entry is None or len(entry["indent"]) != entry_indent:
                break
            if entry["value"] is not None:  # "name: value": an MCP tool's header
                value = yaml.safe_load(entry["value"])
                keep = not _needs_redacting(value)
                out.append(
                    lines[index] if keep else f"{entry['indent']}{entry['name']}: {REDACTED}\n"
                )
                index += 1
                continue
            out.append(lines[index])
            index += 1
            unsafe = not DEFAULT_POLICY.is_safe_header(entry["name"])
            # the header's list: "- value" items, each perhaps folded over deeper lines
            while index < len(lines):
                item = _ITEM.match(lines[index])
                if item is None or len(item["indent"]) != entry_indent:
                    break
                start = index
                index += 1
                while index < len(lines) and _indent(lines[index]) > entry_indent + 1:
                    index += 1
                value = "".join(lines[start:index])
                if unsafe and _needs_redacting(yaml.safe_load(value[entry_indent:])[0]):
                    out.append(f"{item['indent']}- {REDACTED}\n")
                else:
                    out.append(value)
    return "".join(out)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" ")) if line.strip() else 10**6


def _without_encrypted(node: Any) -> Any:
    """``node`` with every ``encrypted_content`` value (a key's, or a JSON field's in a
    string) redacted."""
    if isinstance(node, dict):
        return {
            key: REDACTED
            if key == "encrypted_content" and isinstance(value, str) and _needs_redacting(value)
            else _without_encrypted(value)
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [_without_encrypted(item) for item in node]
    if isinstance(node, str):
        return _ENCRYPTED_FIELD.sub(_encrypted_field, node)
    return node


def _expected(tree: Any) -> Any:
    tree = _without_encrypted(tree)
    for interaction in tree["interactions"]:
        body = interaction["request"].get("parsed_body")
        tools = body.get("tools") if isinstance(body, dict) else None
        for tool in tools if isinstance(tools, list) else ():
            headers = tool.get("headers") if isinstance(tool, dict) else None
            for name, value in (headers or {}).items():
                if _needs_redacting(value):
                    headers[name] = REDACTED
        for side in ("request", "response"):
            headers = interaction[side].get("headers") or {}
            for name, values in headers.items():
                if not DEFAULT_POLICY.is_safe_header(name):
                    headers[name] = [REDACTED if _needs_redacting(v) else v for v in values]
    return tree


def copy(source: Path, target: Path) -> None:
    """Write the redacted copy of ``source`` to ``target``, proven equal but for the headers."""
    text = source.read_text(encoding="utf-8")
    redacted = redact_text(text)
    loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    expected = _expected(yaml.load(text, Loader=loader))
    if yaml.load(redacted, Loader=loader) != expected:
        raise SystemExit(f"{source}: the line-wise redaction changed more than header values")
    target.write_text(redacted, encoding="utf-8")


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    sources = sorted((Path(argv[0]) / SUBFOLDER).glob("*.yaml"))
    if not sources:
        print(f"no {SUBFOLDER}/*.yaml under {argv[0]}", file=sys.stderr)
        return 2
    for source in sources:
        copy(source, HERE / SUBFOLDER / source.name)
        print(f"copied {source.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
