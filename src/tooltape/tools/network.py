"""Outbound network access of a provider container (code interpreter, hosted shell)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tooltape.tools.validation import check_domain, check_text, invalid, string_tuple


@dataclass(frozen=True, slots=True)
class NetworkDisabled:
    """The container reaches no network at all."""


@dataclass(frozen=True, slots=True)
class DomainSecret:
    """A secret the provider injects for requests to ``domain`` under the header/env ``name``.

    ``value`` is a credential: it never appears in the repr, and cassettes
    redact it like any other secret in a request body.
    """

    domain: str
    name: str
    value: str = field(repr=False)

    def __post_init__(self) -> None:
        check_domain("DomainSecret", "domain", self.domain)
        check_text("DomainSecret", "name", self.name)
        if not isinstance(self.value, str) or not self.value:
            invalid("DomainSecret", "value", "is empty", "give the secret's value")


@dataclass(frozen=True, slots=True)
class NetworkAllowlist:
    """The container reaches only ``allowed_domains`` (with optional per-domain secrets)."""

    allowed_domains: tuple[str, ...]
    domain_secrets: tuple[DomainSecret, ...] = ()

    def __post_init__(self) -> None:
        owner = "NetworkAllowlist"
        domains = string_tuple(owner, "allowed_domains", self.allowed_domains)
        if not domains:
            invalid(owner, "allowed_domains", "is empty", "name a domain, or use NetworkDisabled()")
        for domain in domains:
            check_domain(owner, "allowed_domains", domain)
        object.__setattr__(self, "allowed_domains", domains)
        secrets = tuple(self.domain_secrets)
        for secret in secrets:
            if not isinstance(secret, DomainSecret):
                invalid(owner, "domain_secrets", f"{secret!r}", "wrap each in DomainSecret(...)")
            if secret.domain not in domains:
                invalid(
                    owner,
                    "domain_secrets",
                    f"{secret.domain!r} is not an allowed domain",
                    "add it to allowed_domains or drop the secret",
                )
        object.__setattr__(self, "domain_secrets", secrets)


NetworkPolicy = NetworkDisabled | NetworkAllowlist


def check_network_policy(owner: str, value: object) -> None:
    """``value`` is ``None``, ``NetworkDisabled()`` or ``NetworkAllowlist(...)``."""
    if value is not None and not isinstance(value, NetworkDisabled | NetworkAllowlist):
        invalid(
            owner,
            "network_policy",
            f"{value!r} is not a network policy",
            "use NetworkDisabled() or NetworkAllowlist(allowed_domains=(...))",
        )
