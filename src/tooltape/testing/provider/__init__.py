"""Stand-ins for the provider: scripted replies, faults, and a real loopback server.

- :mod:`~tooltape.testing.provider.replies`: reply values (a Responses body,
  an event stream, a 429, a 5xx, a timeout, malformed JSON, a cut stream);
- :mod:`~tooltape.testing.provider.faults`: :class:`ProviderFaults` answers an
  OpenAI client from a script of those replies, without a socket (the
  ``provider_faults`` fixture);
- :mod:`~tooltape.testing.provider.loopback`: :class:`LoopbackProvider`, a real
  HTTP server on 127.0.0.1 to record cassettes against.
"""

from tooltape.testing.provider.faults import ProviderCall, ProviderFaults, ScriptExhausted
from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply, ReceivedRequest
from tooltape.testing.provider.replies import response_events, response_json

__all__ = [
    "LoopbackProvider",
    "LoopbackReply",
    "ProviderCall",
    "ProviderFaults",
    "ReceivedRequest",
    "ScriptExhausted",
    "response_events",
    "response_json",
]
