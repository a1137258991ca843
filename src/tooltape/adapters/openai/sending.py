"""Sending a Responses request and waiting for a finished response.

A response whose ``status`` is ``queued`` or ``in_progress`` is not an answer.
In background mode (``background: true``) the provider answers that way at
once, and the response is fetched again with ``GET /v1/responses/{id}``
(through the SDK's ``client.responses.retrieve``, so cassettes record and
replay it) every ``poll_interval_s`` seconds until it reaches a final status
or ``poll_timeout_s`` has passed. Outside background mode such a response is
an error, never an empty answer.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import urlsplit, urlunsplit

import openai
from pydantic_core import from_json

from tooltape.adapters.openai.key_redaction import client_key, scrub_key
from tooltape.adapters.openai.reading import check_response, describe_error, is_mapping
from tooltape.prompt import PromptEvaluationError
from tooltape.prompt.json_text import escape_surrogates_in

PENDING = ("queued", "in_progress")
_UTF8 = ("utf-8", "utf8")
FAILED = ("failed", "incomplete", "cancelled")


def _body(http_response: Any) -> bytes | str:
    """The body's bytes when it is UTF-8 (or says no charset), else the client's text."""
    charset = cast("str | None", http_response.charset_encoding)
    if charset is None or charset.lower().replace("_", "-") in _UTF8:
        return cast("bytes", http_response.content)
    return cast("str", http_response.text)


MAX_BODY_DEPTH = 200
"""Deepest response body read: pydantic-core's own bound (real bodies nest ~15 deep)."""


class UnreadableBodyError(ValueError):
    """JSON the adapter will not read: nested too deep, or a number Python cannot convert."""


def _deeper_than(tree: object, limit: int) -> bool:
    """Whether ``tree`` nests more than ``limit`` containers deep (walked without recursion)."""
    stack: list[tuple[object, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Iterable[object] = cast("dict[str, object]", node).values()
        elif isinstance(node, list):
            children = cast("list[object]", node)
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def read_json_body(raw: bytes | str) -> object:
    """The JSON value of a response body, parsed once, in Rust (``pydantic_core``).

    A body that parser refuses goes to the standard library's, which either
    accepts it (a lone surrogate escape) or raises ``json.JSONDecodeError``
    saying where it breaks; bytes that are not UTF-8 are read with
    replacement characters, as the HTTP client's ``text`` would. JSON nested
    deeper than ``MAX_BODY_DEPTH``, or holding an integer with more digits
    than Python converts, raises ``UnreadableBodyError``: whatever reads the
    body after this would recurse past Python's limit or fail on the number.
    """
    try:
        return from_json(raw)
    except ValueError as error:
        if "recursion limit exceeded" in str(error):
            raise UnreadableBodyError(f"nested deeper than {MAX_BODY_DEPTH} levels") from None
    text = raw if isinstance(raw, str) else raw.decode("utf-8", errors="replace")
    try:
        tree: object = json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise UnreadableBodyError(f"nested deeper than {MAX_BODY_DEPTH} levels") from None
    except ValueError:  # the int conversion limit (sys.get_int_max_str_digits)
        raise UnreadableBodyError(
            "a number has more digits than Python converts to an integer"
        ) from None
    if _deeper_than(tree, MAX_BODY_DEPTH):
        raise UnreadableBodyError(f"nested deeper than {MAX_BODY_DEPTH} levels")
    return tree


@dataclass(frozen=True, slots=True)
class ResponseSender:
    """Sends request bodies with an OpenAI client and returns finished responses as dicts.

    The raw body is parsed, not the SDK's model: parsing stays tolerant of
    fields no SDK version knows, and an unparsable body is ours to report.
    """

    client: Callable[[], openai.OpenAI]
    poll_interval_s: float = 1.0
    poll_timeout_s: float = 600.0
    sleep: Callable[[float], None] = field(default=time.sleep)
    clock: Callable[[], float] = field(default=time.monotonic)

    def create(self, body: dict[str, Any], prompt_name: str) -> dict[str, Any]:
        """``POST /v1/responses`` with ``body``; polls a background response to its end.

        An error never carries the client's API key, wherever the provider echoed it.
        """
        try:
            return self._create(body, prompt_name)
        except PromptEvaluationError as error:
            scrub_key(error, client_key(self.client()))
            raise

    def _create(self, body: dict[str, Any], prompt_name: str) -> dict[str, Any]:
        create: Callable[..., Any] = self.client().responses.with_raw_response.create
        response = self._call(lambda: _send(create, body), prompt_name)
        if response.get("status") in PENDING:
            if not body.get("background"):
                raise PromptEvaluationError(
                    f"OpenAI response {response.get('id')} is {response.get('status')}, not "
                    "finished, although background mode was not asked for; it is not an answer. "
                    "Pass background=True to poll for it.",
                    prompt_name=prompt_name,
                    phase="response",
                    provider_payload=response,
                )
            response = self._poll(response, prompt_name)
        return self._finished(response, prompt_name)

    def _poll(self, response: dict[str, Any], prompt_name: str) -> dict[str, Any]:
        response_id = response.get("id")
        if not isinstance(response_id, str) or not response_id:
            raise PromptEvaluationError(
                "OpenAI returned a background response without an id; it cannot be polled.",
                prompt_name=prompt_name,
                phase="parse",
                provider_payload=response,
            )
        retrieve: Callable[..., Any] = self.client().responses.with_raw_response.retrieve
        deadline = self.clock() + self.poll_timeout_s
        while response.get("status") in PENDING:
            if self.clock() >= deadline:
                raise PromptEvaluationError(
                    f"OpenAI response {response_id} was still {response.get('status')} after "
                    f"{self.poll_timeout_s:g} s of polling; raise poll_timeout_s, or retrieve it "
                    "later by its id.",
                    prompt_name=prompt_name,
                    phase="response",
                    provider_payload={"id": response_id, "status": response.get("status")},
                )
            self.sleep(self.poll_interval_s)
            response = self._call(lambda: retrieve(response_id), prompt_name)
        return response

    def _call(self, send: Callable[[], Any], prompt_name: str) -> dict[str, Any]:
        try:
            raw: Any = send()
            body = _body(raw.http_response)
        except openai.APIStatusError as exc:
            payload: object = exc.body
            raise PromptEvaluationError(
                f"OpenAI answered HTTP {exc.status_code}: {describe_error(payload)}",
                prompt_name=prompt_name,
                phase="request",
                provider_payload=payload,
            ) from exc
        except openai.APIConnectionError as exc:
            raise PromptEvaluationError(
                f"Could not reach OpenAI at {_where(exc)} ({type(exc).__name__}: {exc}); check "
                "the network, or OPENAI_BASE_URL if it points at a local server.",
                prompt_name=prompt_name,
                phase="request",
            ) from exc
        except Exception as exc:
            # Transports may raise their own errors (a cassette that cannot answer,
            # a custom http_client); the cause stays chained for whoever explains it.
            raise PromptEvaluationError(
                f"The request to OpenAI failed in the HTTP client ({type(exc).__name__}: {exc}).",
                prompt_name=prompt_name,
                phase="request",
            ) from exc
        try:
            data = read_json_body(body)
        except (json.JSONDecodeError, UnreadableBodyError) as exc:
            text = body if isinstance(body, str) else body.decode("utf-8", errors="replace")
            raise PromptEvaluationError(
                _not_json(exc, text)
                if isinstance(exc, json.JSONDecodeError)
                else f"OpenAI returned JSON that cannot be read safely ({exc}); "
                "it is not a Response.",
                prompt_name=prompt_name,
                phase="parse",
                provider_payload=text[:2000],
            ) from exc
        if not is_mapping(data) or not isinstance(data.get("output"), list):
            raise PromptEvaluationError(
                "OpenAI returned JSON without an 'output' list; it is not a Response.",
                prompt_name=prompt_name,
                phase="parse",
                provider_payload=data,
            )
        response = dict(data)
        check_response(response, prompt_name)
        return response

    def _finished(self, response: dict[str, Any], prompt_name: str) -> dict[str, Any]:
        status = response.get("status")
        if status in FAILED:
            payload = response.get("error") or response.get("incomplete_details")
            detail = describe_error(payload) if payload else "no details given"
            raise PromptEvaluationError(
                f"OpenAI response {response.get('id')} is {status}: {detail}",
                prompt_name=prompt_name,
                phase="response",
                provider_payload=payload,
            )
        return response


_EVENT_STREAM_LINE = re.compile(r"(?:event|data|id|retry)?:")


def _not_json(error: json.JSONDecodeError, text: str) -> str:
    """Why a body is not a Response: an event stream (said as such, with what to check), or
    where the JSON breaks."""
    if _EVENT_STREAM_LINE.match(text.lstrip()):
        return (
            "OpenAI returned an event stream (server-sent events), not a JSON Response. The "
            "adapter reads whole responses and never asks for a stream: check that no "
            "'stream' option reaches the request (a client's default_query or extra_body) and "
            "that no proxy or custom http_client streams the answer."
        )
    return f"OpenAI returned a body that is not JSON ({error.msg} at position {error.pos})."


def _send(create: Callable[..., Any], body: dict[str, Any]) -> Any:
    """``create(**body)``; text UTF-8 cannot carry goes as the ``\\uXXXX`` escape it is written as.

    The SDK encodes bodies as strict UTF-8, so a lone surrogate (in a tool's
    output, or resent from the provider's own items) would end the
    evaluation. It fails before anything is sent; the body is then walked
    once, and only then.
    """
    try:
        return create(**body)
    except UnicodeEncodeError:
        return create(**escape_surrogates_in(body))


def _where(error: openai.APIConnectionError) -> str:
    """The URL a failed request went to, without credentials or query values."""
    request: object = getattr(error, "request", None)
    url = str(getattr(request, "url", "") or "")
    if not url:
        return "an unknown URL"
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))
