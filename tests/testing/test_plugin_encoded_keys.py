"""Recording keys an encoder spelled: none reaches a cassette or the terminal, and the
cassette replays.

A small project (``pytester``) records against a real HTTP server on loopback. Its
answers hold keys of other accounts (not the key the client runs with, so no value
in the environment finds them; only their shape can): in an HTML page every
character of a key a character reference, a token whose ``_`` is ``&lowbar;``, a
webhook URL percent-encoded, a key across the soft line breaks of a
quoted-printable mail; and an error page echoing one the same way. Every key is
synthetic: the right shape, never a real credential.
"""

from __future__ import annotations

import html
import json
import quopri
import re
from urllib.parse import quote, unquote

import pytest

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

pytest_plugins = ["pytester"]

CLIENT_KEY = "sk-proj-" + "Cl1eNtKeY" * 4  # the key the client runs with
OTHER_KEY = "sk-proj-" + "0tHeRkEy7Qw" * 4 + "T3BlbkFJ" + "Zx2cVb9nMl" * 4
GITHUB = "ghp_" + "GiThUbToKeN" * 3 + "42"
HOOK = "https://hooks.slack.com/services/T0001ABCD/B0001ABCD/" + "HoOkSeCrEt" * 2 + "1234"
MAILED_KEY = "sk-proj-" + "MaIlEdKeY5" * 5

# Their tails: what must not be readable anywhere, in any spelling.
TAILS = {
    "other": "0tHeRkEy7Qw",
    "github": "GiThUbToKeN",
    "hook": "HoOkSeCrEt",
    "mail": "MaIlEdKeY5",
}


def _references(text: str) -> str:
    return "".join(f"&#x{ord(char):x};" for char in text)


def _quoted_printable(text: str) -> str:
    return quopri.encodestring(text.encode()).decode().replace("\n", "\r\n")


PAGE = (
    f"<p>Your key: <code>{_references(OTHER_KEY)}</code></p>"
    f"<p>Deploy token: {GITHUB.replace('_', '&lowbar;')}</p>"
    f"<a href='/hooks?target={quote(HOOK, safe='')}&amp;n=1'>hook</a>"
)
MAIL = "Content-Transfer-Encoding: quoted-printable\r\n\r\n" + _quoted_printable(
    "Hello, the key for the staging project is below; keep it out of tickets. "
    + MAILED_KEY
    + "\nThanks\n"
)
ERROR_PAGE = f"<html><body>Key {_references(OTHER_KEY)} is revoked.</body></html>"

TEST_MODULE = """
import openai
import pytest


@pytest.mark.vcr
def test_fetch_page():
    response = openai.OpenAI().responses.create(model="gpt-5", input="Fetch the page.")
    item = response.output[0]
    print("page:", item.arguments)  # shown by -rA: the terminal must not show the keys
    assert item.name == "save"


@pytest.mark.vcr
def test_error_page():
    with pytest.raises(openai.AuthenticationError) as raised:
        openai.OpenAI().responses.create(model="gpt-5", input="hi")
    page = raised.value.response.text
    assert "revoked" not in page, page  # fails: pytest shows the page
"""


def _replies() -> list[LoopbackReply]:
    """Synthetic answers in the Responses API's shape, then a synthetic error page."""
    call = {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_1",
        "name": "save",
        "arguments": json.dumps({"page": PAGE, "mail": MAIL}),
        "status": "completed",
    }
    answer = {
        "id": "resp_1",
        "object": "response",
        "status": "completed",
        "model": "gpt-5",
        "output": [call],
    }
    error = LoopbackReply(401, ERROR_PAGE.encode(), "text/html")
    return [LoopbackReply.json(answer), error]


def _readable(text: str) -> str:
    """``text`` and what each encoder's decoder reads in it."""
    joined = re.sub(r"=\r?\n", "", text)  # quoted-printable soft line breaks
    return "\n".join((text, html.unescape(text), unquote(text), joined, html.unescape(joined)))


def test_encoded_keys_reach_no_cassette_nor_the_terminal_and_the_cassette_replays(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(test_pages=TEST_MODULE)
    with LoopbackProvider(_replies()) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", CLIENT_KEY)
        result = pytester.runpytest_subprocess(
            "--record-mode=once", "-p", "no:cacheprovider", "-rA", "-vv"
        )
    result.assert_outcomes(passed=1, failed=1)
    output = result.stdout.str() + result.stderr.str()
    assert "is revoked.</body></html>" in output  # the page was shown
    assert "page: " in output
    [cassette] = pytester.path.rglob("test_fetch_page.json")  # a failing test writes none
    text = cassette.read_text(encoding="utf-8")
    response = json.loads(text)["interactions"][0]["response"]
    arguments = json.loads(response["body"]["json"]["output"][0]["arguments"])
    for name, tail in TAILS.items():
        assert tail not in _readable(output), name
        assert tail not in _readable(text), name
        assert tail not in _readable(arguments["page"] + arguments["mail"]), name

    assert html.unescape(arguments["page"]) == (
        "<p>Your key: <code>sk-REDACTED</code></p><p>Deploy token: REDACTED</p>"
        "<a href='/hooks?target=https%3A%2F%2FREDACTED&n=1'>hook</a>"
    )
    lines = arguments["mail"].split("\r\n")
    assert max(len(line) for line in lines) <= 76  # still quoted-printable
    assert (
        quopri.decodestring(arguments["mail"].encode())
        .decode()
        .endswith("keep it out of tickets. sk-REDACTED\r\nThanks\r\n")
    )

    # The scrubbed recording replays, with the server gone.
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    replay = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-k", "fetch_page")
    replay.assert_outcomes(passed=1)
