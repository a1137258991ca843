"""``decode_base64``: what the standard library accepts, decoded alike; the rest refused.

With or without the optional pybase64. Rules: every payload the standard
library's strict decoder accepts decodes to the same bytes (padding past the
last block included); one it refuses is a parse error naming where the
payload was and the standard library's reason.
"""

import base64
import binascii
import os

import pytest

from tooltape.adapters.openai.codecs import base64_data
from tooltape.adapters.openai.codecs.base64_data import clear_decoded, decode_base64
from tooltape.prompt import PromptEvaluationError


@pytest.fixture(autouse=True, params=["pybase64", "standard library"])
def decoder(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every rule holds with the optional fast decoder (``tooltape[fast]``) and without it."""
    if request.param == "pybase64":
        assert base64_data._FAST_DECODE is not None, "the dev extra installs tooltape[fast]"  # pyright: ignore[reportPrivateUsage]
    else:
        monkeypatch.setattr(base64_data, "_FAST_DECODE", None)


@pytest.mark.parametrize("size", [0, 1, 2, 3, 57, 4096, 190_000])
def test_a_payload_decodes_to_the_bytes_encoded(size: int) -> None:
    clear_decoded()
    data = os.urandom(size)
    assert decode_base64(base64.b64encode(data).decode(), where="output[0].result") == data


@pytest.mark.parametrize("payload", ["YWJj====", "YWJj="])
def test_padding_past_the_last_block_is_read_as_the_standard_library_reads_it(
    payload: str,
) -> None:
    clear_decoded()
    expected = base64.b64decode(payload, validate=True)
    assert decode_base64(payload, where="output[0].result") == expected


@pytest.mark.parametrize("payload", ["YWJ", "YW Jj", "YWJj\n", "ab=c", "é", "YQ=", "YWJjZA==="])
def test_a_payload_that_does_not_decode_names_where_and_why(payload: str) -> None:
    clear_decoded()
    try:
        base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError) as exc:
        reason = str(exc)
    else:
        pytest.fail(f"{payload!r} decodes")
    with pytest.raises(PromptEvaluationError) as caught:
        decode_base64(payload, where="output[3].result")
    assert caught.value.phase == "parse"
    assert caught.value.message.startswith("output[3].result: ")
    assert f"does not decode ({reason})" in caught.value.message
