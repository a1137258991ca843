"""What a secret looks like: key shapes, credential header names, already-masked values.

Shared by the scrubber (which replaces secrets) and the scanner (which refuses
a cassette that still holds one), so both always agree. Which header and
query values are kept at all is the allowlist in ``_policy``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "ENCRYPTED_PLACEHOLDER",
    "KEY_PLACEHOLDER",
    "REDACTED",
    "SECRET_RULES",
    "SecretRule",
    "base64_runs",
    "is_credential_header",
    "is_masked",
    "mask",
    "project_rule",
    "value_rule",
]

REDACTED = "REDACTED"
"""What a redacted value becomes."""

KEY_PLACEHOLDER = "sk-REDACTED"
"""What an OpenAI-style ``sk-...`` key becomes (still recognisably a key)."""

ENCRYPTED_PLACEHOLDER = "REDACTED"
"""What an opaque, account-bound ``encrypted_content`` blob becomes."""

_CREDENTIAL_HEADERS = frozenset(
    {
        "authorization",
        "proxy-authorization",
        "api-key",
        "apikey",
        "x-api-key",
        "cookie",
        "set-cookie",
        "openai-organization",
        "openai-project",
    }
)


_KEY_SUFFIXES = ("-api-key", "_api_key", "-subscription-key", "-access-key", "-secret-key")


def is_credential_header(name: str) -> bool:
    """Whether a header is known to carry credentials or account identity.

    Recording redacts every header outside the safe set anyway; these are the
    ones an imported cassette drops altogether: the fixed names above, API,
    subscription and access keys, and anything naming a token, secret,
    password or auth, except the ``x-ratelimit-*-tokens`` counters.
    """
    lowered = name.lower()
    if lowered in _CREDENTIAL_HEADERS or lowered.endswith(_KEY_SUFFIXES):
        return True
    if lowered.startswith("x-ratelimit-"):
        return False
    return any(word in lowered for word in ("token", "secret", "password", "auth"))


# A value someone already hid: REDACTED, [FILTERED], <redacted>, ***, XXXXXX, and
# the same after an auth scheme ("Bearer REDACTED").
_MASKED = re.compile(
    r"(?i)(?:(?:bearer|basic|token|apikey)\s+)?"
    r"(?:[\W_]*(?:redacted|filtered|removed|scrubbed|masked|hidden)[\W_]*"
    r"|sk-redacted|[*x#•.…-]{3,})"
)


def is_masked(value: str) -> bool:
    """Whether ``value`` is empty or already a placeholder (nothing left to hide)."""
    return not value or value == REDACTED or _MASKED.fullmatch(value.strip()) is not None


# Every byte that cannot be part of a base64 run (either alphabet) becomes a space.
_RUN_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-")
_RUN_BYTES = bytes(byte if byte in _RUN_CHARS else 32 for byte in range(256))


def base64_runs(text: str, length: int = 28) -> list[bytes]:
    """The runs of base64 characters in ``text`` at least ``length`` long.

    A byte translation and a split, in C: several times faster than the
    equivalent regex on the short texts most bodies hold.
    """
    if len(text) < length:
        return []
    ascii_only = text.encode("ascii", "replace").translate(_RUN_BYTES)
    return [run for run in ascii_only.split() if len(run) >= length]


def mask(value: str) -> str:
    """How a secret is shown: its length only, never a character of it."""
    return f"… ({len(value)} chars)"


@dataclass(frozen=True, slots=True)
class SecretRule:
    """One kind of key-shaped string: how to find it and what replaces it.

    ``needles`` are literal strings every match contains at least one of
    (compared with ``text.lower()`` when ``fold_case``); a text holding none
    of them cannot match, so the regex is not run over it. Scanning a large
    body (a base64 image) with a literal search is about a hundred times
    faster than with the regex. No needles: the regex itself is the check.
    """

    kind: str
    pattern: re.Pattern[str]
    replacement: str = REDACTED
    needles: tuple[str, ...] = ()
    fold_case: bool = False
    loose: re.Pattern[str] | None = None
    """The pattern without what may not precede a match, for a search over serialised
    JSON (where an escape such as ``\\n`` puts a letter right before a key); ``None``:
    that search trusts the needles alone."""

    def might_match(self, text: str) -> bool:
        """``False`` only when ``text`` cannot hold a match."""
        if not self.needles:
            return self.pattern.search(text) is not None
        haystack = text.lower() if self.fold_case else text
        # A plain loop, not any(<generator>): this runs for every string scrubbed.
        for needle in self.needles:  # noqa: SIM110
            if needle in haystack:
                return True
        return False

    def redact(self, text: str) -> str:
        """``text`` with every match replaced."""
        if not self.might_match(text):
            return text
        return self.pattern.sub(self.replacement, text)


def project_rule(pattern: str, index: int) -> SecretRule:
    """A rule for one of the project's ``secret_patterns`` (``[tool.tooltape.scrub]``)."""
    compiled = re.compile(pattern)
    return SecretRule(f"project secret pattern #{index + 1}", compiled, loose=compiled)


def value_rule(kind: str, value: str, replacement: str = REDACTED) -> SecretRule:
    """A rule for one secret known by its value (a live key read from the environment),
    whatever its shape: found wherever the value itself is, in any case (a header's
    name arrives lowercased)."""
    compiled = re.compile(re.escape(value), re.IGNORECASE)
    return SecretRule(kind, compiled, replacement, (value.lower(),), True, compiled)


_NOT_AFTER_TOKEN = r"(?<![A-Za-z0-9_-])"
_NOT_AFTER_BASE64 = r"(?<![A-Za-z0-9+/_-])"
# A key joined to a word by ``-`` or ``_`` (``raw-sk-proj-...``, ``token_ghp_...``): for
# shapes whose tail no name or slug spells (a long run of letters and digits, hex of a
# fixed length, a distinctive prefix), a joiner before them does not make them a word.
_NOT_AFTER_WORD = r"(?<![A-Za-z0-9])"
_NOT_AFTER_BASE64_WORD = r"(?<![A-Za-z0-9+/])"
_END = r"(?![A-Za-z0-9_-])"
_LOOKBEHINDS = (
    _NOT_AFTER_TOKEN,
    _NOT_AFTER_BASE64,
    _NOT_AFTER_WORD,
    _NOT_AFTER_BASE64_WORD,
)


def _rule(
    kind: str,
    pattern: str,
    *needles: str,
    replacement: str = REDACTED,
    fold_case: bool = False,
    loose: str | None = None,
) -> SecretRule:
    """A rule; ``loose`` defaults to ``pattern`` without its leading lookbehind."""
    if loose is None:
        for prefix in _LOOKBEHINDS:
            if pattern.startswith(prefix):
                loose = pattern.removeprefix(prefix)
    compiled_loose = None if loose is None else re.compile(loose)
    return SecretRule(kind, re.compile(pattern), replacement, needles, fold_case, compiled_loose)


OPENAI_MARKER = "T3BlbkFJ"
"""The base64 of ``OpenAI`` that every OpenAI key carries (user, project, service
account and admin keys alike)."""

# Tails of a random key hold a digit, a capital and a small letter; a slug does not.
_RANDOM_TAIL = "".join(rf"(?=[A-Za-z0-9_-]*{chars})" for chars in ("[0-9]", "[A-Z]", "[a-z]"))

# One pattern, led by its literal, for every spelling (a regex engine finds a literal
# fast, and one needle is looked for in every text scrubbed, not three):
# - standing alone;
# - a project, service account, admin or user key after a joiner (``raw-sk-proj-...``);
# - carrying the marker, even glued to letters or digits (``abcsk-...``), the marker
#   within the length of a real key's first half and fewer than 64 characters of a
#   token before ``sk-``: URL-safe base64 of a text naming OpenAI holds the marker,
#   and an ``sk-`` by chance, far apart in one long run.
_OPENAI_KEY = (
    r"sk-(?:(?<![A-Za-z0-9_-]sk-)[A-Za-z0-9_-]{20,}"
    r"|(?<=[_-]sk-)(?:proj|svcacct|admin|None)-" + _RANDOM_TAIL + r"[A-Za-z0-9_-]{20,}"
    r"|(?<![A-Za-z0-9_-]{67})[A-Za-z0-9_-]{20,160}" + OPENAI_MARKER + r"[A-Za-z0-9_-]*)"
)

# Standing alone, or after a joiner with a versioned prefix (``x-sk-ant-api03-...``).
_ANTHROPIC_KEY = (
    r"sk-ant-(?:(?<![A-Za-z0-9_-]sk-ant-)"
    r"|(?<=[_-]sk-ant-)(?=(?:api|admin|oat|ort)[0-9]{2}-))[A-Za-z0-9_-]{20,}"
)


SECRET_RULES: tuple[SecretRule, ...] = (
    SecretRule(
        "bearer token",
        re.compile(
            r"(?i)(?<![A-Za-z0-9_-])(bearer)(\s+)(?!REDACTED(?![A-Za-z0-9._~+/=-]))"
            r"[A-Za-z0-9._~+/=-]{16,}"
        ),
        r"\1\2REDACTED",
        needles=("bearer",),
        fold_case=True,
    ),
    _rule(
        "private key",
        # A form writes its spaces "+" (urlencode).
        r"(?s)-----BEGIN([ +])((?:[A-Z0-9]+\1)*)PRIVATE\1KEY-----"
        r"(?:.*?-----END\1\2PRIVATE\1KEY-----|.*)",
        "KEY-----",
    ),
    _rule("Anthropic API key", _ANTHROPIC_KEY, "sk-ant-", loose=r"sk-ant-[A-Za-z0-9_-]{20,}"),
    _rule(
        "OpenAI-style key",
        _OPENAI_KEY,
        "sk-",
        replacement=KEY_PLACEHOLDER,
        loose=r"sk-[A-Za-z0-9_-]{20,}",
    ),
    _rule(
        "Stripe secret key",
        _NOT_AFTER_TOKEN + r"(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{10,}",
        "sk_",
        "rk_",
    ),
    _rule("Stripe webhook secret", _NOT_AFTER_TOKEN + r"whsec_[0-9A-Za-z+/]{20,}", "whsec_"),
    _rule(
        "Slack token",
        _NOT_AFTER_TOKEN + r"(?:xox[abeoprs]-|xapp-)[0-9A-Za-z][0-9A-Za-z-]{8,}",
        "xox",
        "xapp-",
    ),
    _rule(
        "Slack webhook",
        r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]{10,}",
        "hooks.slack.com/",
    ),
    _rule(
        "Cloudflare cookie",
        r"(__cf_bm|_cfuvid)=(?!REDACTED(?:[;\s,&\"]|$))[^;\s,&\"]+",
        "__cf_bm=",
        "_cfuvid=",
        replacement=r"\1=REDACTED",
    ),
    _rule(
        "GitHub token",
        # A fine-grained token's tail may hold "_": after a joiner it would be a name
        # (load_github_pat_from_env).
        r"(?:" + _NOT_AFTER_WORD + r"gh[pousr]_[A-Za-z0-9]{30,}"
        r"|" + _NOT_AFTER_TOKEN + r"github_pat_[A-Za-z0-9_]{30,})",
        "ghp_",
        "gho_",
        "ghu_",
        "ghs_",
        "ghr_",
        "github_pat_",
        loose=r"gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}",
    ),
    _rule(
        "GitLab token",
        _NOT_AFTER_TOKEN + r"(?:glpat|gldt|glrt|glptt|glsoat|glcbt)-[0-9A-Za-z_-]{20,}",
        "glpat-",
        "gldt-",
        "glrt-",
        "glptt-",
        "glsoat-",
        "glcbt-",
    ),
    _rule("Google API key", _NOT_AFTER_BASE64 + r"AIza[0-9A-Za-z_-]{35}", "AIza"),
    _rule("Google OAuth token", _NOT_AFTER_WORD + r"ya29\.[0-9A-Za-z_-]{20,}", "ya29."),
    _rule(
        "AWS access key id",
        _NOT_AFTER_BASE64_WORD + r"(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}(?![0-9A-Z])",
        "AKIA",
        "ASIA",
        "ABIA",
        "ACCA",
    ),
    _rule(
        "AWS secret access key",
        r"(?i)(aws_secret_access_key|secretaccesskey)(\W{1,4})[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])",
        "aws_secret_access_key",
        "secretaccesskey",
        replacement=r"\1\2REDACTED",
        fold_case=True,
    ),
    _rule("Hugging Face token", _NOT_AFTER_WORD + r"hf_[A-Za-z0-9]{30,}" + _END, "hf_"),
    _rule("npm token", _NOT_AFTER_WORD + r"npm_[A-Za-z0-9]{36}" + _END, "npm_"),
    _rule("PyPI token", _NOT_AFTER_WORD + r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{40,}", "pypi-AgEI"),
    _rule(
        "SendGrid key",
        _NOT_AFTER_WORD + r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,50}",
        "SG.",
    ),
    _rule("Groq API key", _NOT_AFTER_WORD + r"gsk_[A-Za-z0-9]{40,}", "gsk_"),
    _rule("xAI API key", _NOT_AFTER_WORD + r"xai-[A-Za-z0-9]{60,}", "xai-"),
    _rule("Replicate token", _NOT_AFTER_WORD + r"r8_[A-Za-z0-9]{30,}", "r8_"),
    _rule("Perplexity API key", _NOT_AFTER_WORD + r"pplx-[A-Za-z0-9]{40,}", "pplx-"),
    _rule("DigitalOcean token", _NOT_AFTER_WORD + r"do[opr]_v1_[a-f0-9]{64}", "_v1_"),
    _rule(
        "Shopify token",
        _NOT_AFTER_WORD + r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}",
        "shp",
    ),
    _rule("Databricks token", _NOT_AFTER_BASE64_WORD + r"dapi[a-f0-9]{32}(?:-\d)?" + _END, "dapi"),
    _rule(
        "Azure storage key",
        r"(AccountKey|SharedAccessKey)=[A-Za-z0-9+/]{20,}={0,2}",
        "AccountKey=",
        "SharedAccessKey=",
        replacement=r"\1=REDACTED",
    ),
    # Account identity rather than a credential, as the openai-organization and
    # openai-project headers are: a 429's message names them ("in organization org-...").
    _rule(
        "OpenAI organization id",
        _NOT_AFTER_TOKEN + "org-" + _RANDOM_TAIL + r"[A-Za-z0-9]{24}" + _END,
        "org-",
        replacement="org-REDACTED",
    ),
    _rule(
        "OpenAI project id",
        _NOT_AFTER_TOKEN + "proj_" + _RANDOM_TAIL + r"[A-Za-z0-9]{24}" + _END,
        "proj_",
        replacement="proj_REDACTED",
    ),
    _rule(
        "JSON web token",
        _NOT_AFTER_WORD + r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
        ".eyJ",
    ),
)
"""Every built-in key shape, applied in this order."""
