"""A real HTTP server on loopback that stands in for the provider while recording.

``LoopbackProvider`` answers requests in order from a script of replies
(JSON or server-sent events, typically real recorded response bodies), or
from a function of each request (requests sent at once arrive in no fixed
order), and keeps every request it received. Point ``OPENAI_BASE_URL`` at
``provider.base_url`` and ``pytest --record-mode=once`` records tooltape
cassettes from it exactly as it would from the live API.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any


@dataclass(frozen=True, slots=True)
class LoopbackReply:
    """One scripted answer: a status, headers and body bytes (and the status line's
    reason phrase, ``""``: the standard one), sent ``delay_s`` seconds after the
    request arrived (later requests may be answered first). With ``cut_after``,
    the connection is closed after that many bytes of the body (its
    ``content-length`` still counts them all): a stream cut off mid-event."""

    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    headers: Mapping[str, str] = field(default_factory=lambda: dict[str, str]())
    reason: str = ""
    delay_s: float = 0.0
    cut_after: int | None = None

    @classmethod
    def json(
        cls,
        data: object,
        *,
        status: int = 200,
        headers: Mapping[str, str] | None = None,
        reason: str = "",
    ) -> LoopbackReply:
        """A JSON body."""
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        body = text.encode("utf-8")
        return cls(status, body, "application/json", dict(headers or {}), reason)

    @classmethod
    def sse(cls, stream: str | bytes, *, headers: Mapping[str, str] | None = None) -> LoopbackReply:
        """A server-sent events body, sent as given."""
        data = stream.encode("utf-8") if isinstance(stream, str) else stream
        return cls(200, data, "text/event-stream; charset=utf-8", dict(headers or {}))


@dataclass(frozen=True, slots=True)
class ReceivedRequest:
    """A request the loopback server received."""

    method: str
    path: str
    headers: Mapping[str, str]
    body: bytes

    def json(self) -> Any:
        """The body parsed as JSON."""
        return json.loads(self.body)


class LoopbackProvider:
    """A threaded HTTP server on ``127.0.0.1`` (a free port) answering from a script.

    Use it as a context manager; it stops and closes its socket on exit. A
    request that finds the script empty gets a 500 whose JSON error says so.
    ``responder``, when given, answers every request instead of the script: it
    is called once per request, one at a time, in the order they arrive (a
    ``delay_s`` of its reply is waited out after, so answers may overtake).
    """

    def __init__(
        self,
        replies: Sequence[LoopbackReply] = (),
        *,
        responder: Callable[[ReceivedRequest], LoopbackReply] | None = None,
    ) -> None:
        self._replies = list(replies)
        self._responder = responder
        self._lock = threading.Lock()
        self.requests: list[ReceivedRequest] = []
        provider = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _answer(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                reply = provider._take(
                    ReceivedRequest(self.command, self.path, dict(self.headers.items()), body)
                )
                if reply.delay_s > 0:
                    time.sleep(reply.delay_s)
                self.send_response(reply.status, reply.reason or None)
                self.send_header("content-type", reply.content_type)
                self.send_header("content-length", str(len(reply.body)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                if reply.cut_after is None:
                    self.wfile.write(reply.body)
                    return
                self.wfile.write(reply.body[: reply.cut_after])
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)

            do_GET = do_POST = do_DELETE = _answer

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def _take(self, request: ReceivedRequest) -> LoopbackReply:
        with self._lock:
            self.requests.append(request)
            if self._responder is not None:
                return self._responder(request)
            if self._replies:
                return self._replies.pop(0)
        return LoopbackReply.json(
            {
                "error": {
                    "code": "loopback_script_exhausted",
                    "message": f"the loopback script had no reply left for {request.path}",
                }
            },
            status=500,
        )

    def queue(self, *replies: LoopbackReply) -> None:
        """Append replies to the script."""
        with self._lock:
            self._replies.extend(replies)

    @property
    def port(self) -> int:
        """The port the server listens on."""
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``, what ``OPENAI_BASE_URL`` should be."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> LoopbackProvider:
        """Start serving in a background thread."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket (idempotent)."""
        if self._thread.is_alive():
            self._server.shutdown()
            self._thread.join(timeout=5)
        self._server.server_close()

    def __enter__(self) -> LoopbackProvider:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
