"""The wire truth tests validate against: components of OpenAI's official OpenAPI document.

``tests/data/openapi/create-response.json`` carries every schema the request
body of ``POST /v1/responses`` (``CreateResponse``) reaches, the ``Tool``
union included, so tests never read the document itself. Regenerate it with::

    python tests/openapi_wire.py ../shared/openai-openapi/openapi.json

The extraction copies the schemas unchanged except for the rewrites listed in
``REWRITES`` (each says why), and records where the document came from.
Validation uses a JSON Schema Draft 2020-12 validator (``jsonschema``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

EXTRACT = Path(__file__).resolve().parent / "data" / "openapi" / "create-response.json"
ROOTS = ("CreateResponse",)
"""The components extracted, with everything they reference."""

REWRITES = {
    "CompoundFilter": "`$recursiveRef: #` (a Draft 2019-09 keyword the document uses for the "
    "nested filters) becomes `$ref: #/components/schemas/CompoundFilter`, which Draft 2020-12 "
    "validators resolve",
    "MCPApprovalResponse": "`request_id` is dropped from `required`: the schema defines no such "
    "property, the openai SDK's `McpApprovalResponse` has none, and the API's own example "
    "sends `approval_request_id` alone",
}


def _references(node: object, found: set[str]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                found.add(value.rsplit("/", 1)[-1])
            else:
                _references(value, found)
    elif isinstance(node, list):
        for value in node:
            _references(value, found)


def _rewrite_recursive_refs(node: object, owner: str) -> object:
    if isinstance(node, dict):
        return {
            ("$ref" if key == "$recursiveRef" else key): (
                f"#/components/schemas/{owner}"
                if key == "$recursiveRef"
                else _rewrite_recursive_refs(value, owner)
            )
            for key, value in node.items()
            if key != "$recursiveAnchor"
        }
    if isinstance(node, list):
        return [_rewrite_recursive_refs(value, owner) for value in node]
    return node


def extract(document: Mapping[str, Any], source: str) -> dict[str, Any]:
    """The schemas ``ROOTS`` reach in ``document``, rewritten as ``REWRITES`` says."""
    schemas: Mapping[str, Any] = document["components"]["schemas"]
    wanted: set[str] = set()
    pending = list(ROOTS)
    while pending:
        name = pending.pop()
        if name in wanted:
            continue
        wanted.add(name)
        found: set[str] = set()
        _references(schemas[name], found)
        pending.extend(found - wanted)
    extracted = {name: schemas[name] for name in sorted(wanted)}
    extracted["CompoundFilter"] = _rewrite_recursive_refs(
        extracted["CompoundFilter"], "CompoundFilter"
    )
    approval = dict(extracted["MCPApprovalResponse"])
    approval["required"] = [r for r in approval["required"] if r != "request_id"]
    extracted["MCPApprovalResponse"] = approval
    return {
        "_provenance": {
            "source": source,
            "document": f"{document['info']['title']} {document['info']['version']} "
            f"(OpenAPI {document['openapi']})",
            "extracted_by": "tests/openapi_wire.py",
            "roots": list(ROOTS),
            "rewrites": REWRITES,
        },
        "components": {"schemas": extracted},
    }


@functools.cache
def _components() -> Mapping[str, Any]:
    return json.loads(EXTRACT.read_text(encoding="utf-8"))["components"]


@functools.cache
def validator(component: str) -> Draft202012Validator:
    """A validator for one extracted component (``CreateResponse``, ``Tool``...)."""
    schema = {"$ref": f"#/components/schemas/{component}", "components": _components()}
    return Draft202012Validator(schema)


def problems(component: str, value: object) -> list[str]:
    """Why ``value`` is not a valid ``component`` (empty when it is)."""
    errors = list(validator(component).iter_errors(value))
    if not errors:
        return []
    best = best_match(errors)
    where = "/".join(str(part) for part in best.absolute_path) or "<root>"
    return [f"{where}: {best.message}"] + [
        f"{'/'.join(str(p) for p in e.absolute_path) or '<root>'}: {e.message[:200]}"
        for e in errors
        if e is not best
    ]


def assert_valid(component: str, value: object) -> None:
    """Fail with the most relevant schema error when ``value`` is not a valid ``component``."""
    found = problems(component, value)
    assert not found, f"not a valid {component}:\n  " + "\n  ".join(found[:8])


def assert_valid_request_body(body: object) -> None:
    """Fail unless ``body`` is a valid ``POST /v1/responses`` request body."""
    assert_valid("CreateResponse", body)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(f"usage: python {Path(__file__).name} PATH/TO/openapi.json", file=sys.stderr)
        return 2
    path = Path(argv[0])
    raw = path.read_bytes()
    document = json.loads(raw)
    digest = hashlib.sha256(raw).hexdigest()
    source = (
        f"openai/openai-openapi openapi.json (sha256 {digest}), components reachable from "
        f"{', '.join(ROOTS)}"
    )
    EXTRACT.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(extract(document, source), indent=1, sort_keys=True, ensure_ascii=False)
    EXTRACT.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {EXTRACT} ({len(text)} characters)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
