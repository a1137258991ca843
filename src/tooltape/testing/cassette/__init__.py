"""tooltape cassettes: the model, the JSON file format, scrubbing, import.

A cassette is a :class:`Cassette` of :class:`Interaction` values. Read one with
:func:`load_cassette` (tooltape JSON, or a plain vcrpy YAML/JSON cassette),
write it with :func:`save_cassette` (atomic). Scrubbing follows a
:class:`ScrubPolicy` (an allowlist for headers and query values, key shapes
anywhere; :func:`scrub_policy` adds a project's ``[tool.tooltape.scrub]``).
``tooltape.testing.vcr`` plugs the format into vcrpy.
"""

from tooltape.testing.cassette._encoded import encoded_bodies, refuse_encoded_bodies
from tooltape.testing.cassette._errors import (
    CassetteEncodedError,
    CassetteError,
    CassetteSecretError,
    CassetteWriteError,
    EncodedBody,
    SecretFinding,
)
from tooltape.testing.cassette._files import TempFile, stray_temp_files
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
    is_masked,
)
from tooltape.testing.cassette._policy import (
    DEFAULT_POLICY,
    REPLAY_API_KEY,
    ScrubPolicy,
    live_policy,
    live_secrets,
    scrub_policy,
)
from tooltape.testing.cassette._redaction import Redaction, redaction
from tooltape.testing.cassette._scan import find_secrets
from tooltape.testing.cassette._scrub import (
    drop_credential_headers,
    scrub_body,
    scrub_cassette,
    scrub_interaction,
    scrub_request,
    scrub_response,
    scrub_text,
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
    "DEFAULT_POLICY",
    "REDACTED",
    "REPLAY_API_KEY",
    "BinaryBody",
    "Body",
    "Cassette",
    "CassetteEncodedError",
    "CassetteError",
    "CassetteFormat",
    "CassetteHeader",
    "CassetteSecretError",
    "CassetteSource",
    "CassetteWriteError",
    "EmptyBody",
    "EncodedBody",
    "Headers",
    "Interaction",
    "JsonBody",
    "RecordedRequest",
    "RecordedResponse",
    "Redaction",
    "ScrubPolicy",
    "SecretFinding",
    "SseBody",
    "SseEvent",
    "TempFile",
    "TextBody",
    "cassette_from_vcr",
    "cassette_to_vcr",
    "drop_credential_headers",
    "dump_cassette",
    "encoded_bodies",
    "find_secrets",
    "import_cassette",
    "is_credential_header",
    "is_masked",
    "live_policy",
    "live_secrets",
    "load_cassette",
    "parse_cassette",
    "parse_sse",
    "redaction",
    "refuse_encoded_bodies",
    "request_from_vcr",
    "request_to_vcr",
    "response_from_vcr",
    "response_to_vcr",
    "save_cassette",
    "scrub_body",
    "scrub_cassette",
    "scrub_interaction",
    "scrub_policy",
    "scrub_request",
    "scrub_response",
    "scrub_text",
    "scrub_tree",
    "stray_temp_files",
    "tooltape_version",
    "wire_headers",
    "write_atomic",
]
