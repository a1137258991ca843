"""tooltape cassettes: the model, the JSON file format, scrubbing, import.

A cassette is a :class:`Cassette` of :class:`Interaction` values. Read one with
:func:`load_cassette` (tooltape JSON, or a plain vcrpy YAML/JSON cassette),
write it with :func:`save_cassette` (atomic). ``tooltape.testing.vcr`` plugs
the format into vcrpy.
"""

from tooltape.testing.cassette._errors import (
    CassetteError,
    CassetteSecretError,
    SecretFinding,
)
from tooltape.testing.cassette._format import (
    dump_cassette,
    load_cassette,
    parse_cassette,
    save_cassette,
    tooltape_version,
    write_atomic,
)
from tooltape.testing.cassette._import import import_cassette
from tooltape.testing.cassette._model import (
    BinaryBody,
    Body,
    Cassette,
    CassetteFormat,
    CassetteHeader,
    CassetteSource,
    EmptyBody,
    Headers,
    Interaction,
    JsonBody,
    RecordedRequest,
    RecordedResponse,
    SseBody,
    SseEvent,
    TextBody,
    wire_headers,
)
from tooltape.testing.cassette._patterns import (
    ENCRYPTED_PLACEHOLDER,
    KEY_PLACEHOLDER,
    REDACTED,
    is_credential_header,
)
from tooltape.testing.cassette._scan import find_secrets
from tooltape.testing.cassette._scrub import (
    drop_credential_headers,
    scrub_body,
    scrub_cassette,
    scrub_interaction,
    scrub_request,
    scrub_response,
    scrub_tree,
)
from tooltape.testing.cassette._sse import parse_sse
from tooltape.testing.cassette._vcrpy_format import (
    cassette_from_vcr,
    cassette_to_vcr,
    request_from_vcr,
    request_to_vcr,
    response_from_vcr,
    response_to_vcr,
)

__all__ = [
    "ENCRYPTED_PLACEHOLDER",
    "KEY_PLACEHOLDER",
    "REDACTED",
    "BinaryBody",
    "Body",
    "Cassette",
    "CassetteError",
    "CassetteFormat",
    "CassetteHeader",
    "CassetteSecretError",
    "CassetteSource",
    "EmptyBody",
    "Headers",
    "Interaction",
    "JsonBody",
    "RecordedRequest",
    "RecordedResponse",
    "SecretFinding",
    "SseBody",
    "SseEvent",
    "TextBody",
    "cassette_from_vcr",
    "cassette_to_vcr",
    "drop_credential_headers",
    "dump_cassette",
    "find_secrets",
    "import_cassette",
    "is_credential_header",
    "load_cassette",
    "parse_cassette",
    "parse_sse",
    "request_from_vcr",
    "request_to_vcr",
    "response_from_vcr",
    "response_to_vcr",
    "save_cassette",
    "scrub_body",
    "scrub_cassette",
    "scrub_interaction",
    "scrub_request",
    "scrub_response",
    "scrub_tree",
    "tooltape_version",
    "wire_headers",
    "write_atomic",
]
