"""Semantic JSON diffs, their report, and the vcrpy matchers built on them."""

from __future__ import annotations

import gzip
import json
import zlib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx2
import pytest
import vcr
import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from vcr.errors import CannotOverwriteExistingCassetteException
from vcr.request import Request

from tooltape.testing.matching import (
    DEFAULT_VOLATILE_FIELDS,
    DifferenceKind,
    FieldDifference,
    diff_json,
    format_differences,
    format_path,
)
from tooltape.testing.vcr.matchers import make_body_matcher, path_matcher
from tooltape.testing.volatile import VolatilePatternError, compile_pattern

RECORDED: dict[str, Any] = {
    "model": "gpt-4o",
    "input": [{"role": "user", "content": "hi"}],
    "tools": [
        {
            "type": "web_search",
            "filters": {"allowed_domains": ["a.com", "b.com"]},
            "search_context_size": "low",
        }
    ],
    "temperature": 1,
}


def _current(**changes: Any) -> dict[str, Any]:
    body = json.loads(json.dumps(RECORDED))
    body.update(changes)
    return body


# --- diff_json: examples ---------------------------------------------------


def test_equal_documents_have_no_differences_whatever_the_key_order() -> None:
    reordered = dict(reversed(list(RECORDED.items())))
    reordered["tools"] = [dict(reversed(list(RECORDED["tools"][0].items())))]
    assert diff_json(RECORDED, reordered) == ()


def test_numbers_compare_by_value_but_booleans_are_not_numbers() -> None:
    assert diff_json({"t": 1}, {"t": 1.0}) == ()
    (diff,) = diff_json({"t": 1}, {"t": True})
    assert diff.kind is DifferenceKind.TYPE_CHANGED
    assert (diff.recorded, diff.current) == (1, True)


def test_a_changed_list_item_is_reported_with_its_full_path() -> None:
    current = _current()
    current["tools"][0]["filters"]["allowed_domains"][1] = "c.com"
    assert diff_json(RECORDED, current) == (
        FieldDifference(
            ("tools", 0, "filters", "allowed_domains", 1), DifferenceKind.CHANGED, "b.com", "c.com"
        ),
    )
    assert diff_json(RECORDED, current)[0].path == "tools[0].filters.allowed_domains[1]"


def test_list_order_matters() -> None:
    diffs = diff_json({"include": ["a", "b"]}, {"include": ["b", "a"]})
    assert [(d.path, d.kind) for d in diffs] == [
        ("include[0]", DifferenceKind.CHANGED),
        ("include[1]", DifferenceKind.CHANGED),
    ]


def test_added_removed_and_type_changed_fields() -> None:
    current = _current(store=False, temperature="1")
    del current["model"]
    diffs = diff_json(RECORDED, current)
    assert [(d.path, d.kind, d.recorded, d.current) for d in diffs] == [
        ("model", DifferenceKind.REMOVED, "gpt-4o", None),
        ("store", DifferenceKind.ADDED, None, False),
        ("temperature", DifferenceKind.TYPE_CHANGED, 1, "1"),
    ]


def test_an_inserted_list_item_is_reported_once_not_as_a_shift() -> None:
    file_search = {"type": "file_search", "vector_store_ids": ["vs_1"]}
    current = _current(tools=[file_search, *RECORDED["tools"]])
    assert diff_json(RECORDED, current) == (
        FieldDifference(("tools", 0), DifferenceKind.ADDED, None, file_search),
    )
    assert diff_json(current, RECORDED) == (
        FieldDifference(("tools", 0), DifferenceKind.REMOVED, file_search, None),
    )


def test_alignment_ignores_volatile_fields() -> None:
    recorded = {"input": [{"type": "reasoning", "encrypted_content": "A"}, {"role": "user"}]}
    current = {
        "input": [
            {"type": "reasoning", "encrypted_content": "B"},
            {"role": "system"},
            {"role": "user"},
        ]
    }
    diffs = diff_json(recorded, current, volatile=["input.*.encrypted_content"])
    assert [(d.path, d.kind) for d in diffs] == [("input[1]", DifferenceKind.ADDED)]


def test_json_text_is_parsed_before_comparing() -> None:
    assert diff_json(json.dumps(RECORDED), json.dumps(RECORDED, indent=2).encode()) == ()
    assert diff_json('{"a": 1}', {"a": 1}) == ()
    (diff,) = diff_json("not json", "not json either")
    assert (diff.path, diff.kind) == ("", DifferenceKind.CHANGED)


def test_root_type_change() -> None:
    (diff,) = diff_json([1], {"a": 1})
    assert (diff.parts, diff.kind) == ((), DifferenceKind.TYPE_CHANGED)


@pytest.mark.parametrize(
    ("parts", "text"),
    [
        (("tools", 0, "type"), "tools[0].type"),
        ((0, "id"), "[0].id"),
        (("metadata", "a.b"), 'metadata["a.b"]'),
        (("has space",), '["has space"]'),
        ((), ""),
    ],
)
def test_format_path(parts: tuple[str | int, ...], text: str) -> None:
    assert format_path(parts) == text


# --- volatile patterns -----------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "ignored"),
    [
        ("metadata", {"metadata"}),
        ("input.*.encrypted_content", {"input[0].encrypted_content"}),
        ("input[*].encrypted_content", {"input[0].encrypted_content"}),
        ("input[0].encrypted_content", {"input[0].encrypted_content"}),
        ("[*]", {"metadata", "input", "tools"}),
        ("**.id", {"input[0].id", "tools[0].server.id"}),
        ("**", {"metadata", "input[0].id", "input[0].encrypted_content", "tools[0].server.id"}),
        ("tools.*.server", {"tools[0].server.id"}),
        ("*.*.id", {"input[0].id"}),
        ("input.1.id", set()),
    ],
)
def test_volatile_patterns_suppress_what_they_name(pattern: str, ignored: set[str]) -> None:
    recorded = {
        "metadata": {"run": "1"},
        "input": [{"id": "a", "encrypted_content": "x"}],
        "tools": [{"server": {"id": "s1"}}],
    }
    current = {
        "metadata": {"run": "2"},
        "input": [{"id": "b", "encrypted_content": "y"}],
        "tools": [{"server": {"id": "s2"}}],
    }
    everything = {d.path for d in diff_json(recorded, current)}
    assert everything == {
        "metadata.run",
        "input[0].id",
        "input[0].encrypted_content",
        "tools[0].server.id",
    }
    left = {d.path for d in diff_json(recorded, current, volatile=[pattern])}
    assert left == {p for p in everything if not any(p.startswith(i) for i in ignored)}


def test_volatile_applies_to_added_and_removed_fields() -> None:
    assert diff_json({"a": 1}, {"a": 1, "metadata": {"x": 1}}, volatile=["metadata"]) == ()
    assert diff_json({"a": 1, "user": "u"}, {"a": 1}, volatile=["user"]) == ()


@pytest.mark.parametrize("pattern", ["", "a..b", ".a", "a.", "a[]", "..", " "])
def test_invalid_patterns_are_rejected(pattern: str) -> None:
    with pytest.raises(ValueError, match="Invalid volatile path pattern"):
        diff_json({}, {}, volatile=[pattern])


@pytest.mark.parametrize("pattern", ["input[", "input[*", "input[0", "a]b", "tools[0]type", "[0"])
def test_a_bracket_that_does_not_close_a_key_or_index_is_rejected(pattern: str) -> None:
    # Read as a key holding "[" or "]", it could never name the field that was meant.
    with pytest.raises(VolatilePatternError, match=r'a "\[" must be closed by "\]"') as caught:
        compile_pattern(pattern)
    assert caught.value.pattern == pattern
    assert '"input[0].content"' in str(caught.value)


def test_default_volatile_fields_cover_run_specific_bookkeeping() -> None:
    recorded = _current(metadata={"run": "1"}, user="u1", prompt_cache_key="k1")
    current = _current(metadata={"run": "2"}, safety_identifier="s", prompt_cache_key="k2")
    current["input"] = [*RECORDED["input"], {"type": "reasoning", "encrypted_content": "zz"}]
    recorded["input"] = [*RECORDED["input"], {"type": "reasoning", "encrypted_content": "yy"}]
    assert diff_json(recorded, current, volatile=DEFAULT_VOLATILE_FIELDS) == ()
    assert {d.path for d in diff_json(recorded, current)} == {
        "metadata.run",
        "user",
        "safety_identifier",
        "prompt_cache_key",
        "input[1].encrypted_content",
    }


# --- diff_json: properties -------------------------------------------------

_KEYS = st.text(alphabet="abcdefgh_0123", min_size=1, max_size=4)
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
)
JSON = st.recursive(
    _SCALARS,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_KEYS, children, max_size=4),
    max_leaves=20,
)


def _leaves(value: Any, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    if isinstance(value, dict) and value:
        return [leaf for k, v in value.items() for leaf in _leaves(v, (*path, k))]
    if isinstance(value, list) and value:
        return [leaf for i, v in enumerate(value) for leaf in _leaves(v, (*path, i))]
    return [path]


def _get(value: Any, path: tuple[str | int, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


def _set(value: Any, path: tuple[str | int, ...], new: Any) -> Any:
    if not path:
        return new
    copy = json.loads(json.dumps(value))
    _get(copy, path[:-1])[path[-1]] = new
    return copy


def _is_json_text(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _different(old: Any) -> Any:
    """A value no JSON reader would take for ``old``."""
    if isinstance(old, bool):
        return not old
    if isinstance(old, (int, float)):
        return old + 1 if abs(old) < 1e15 else "big"
    if isinstance(old, str):
        return old + "!"
    if old is None:
        return 0
    return "was a container"


@settings(max_examples=200)
@given(JSON)
def test_a_document_never_differs_from_itself(doc: Any) -> None:
    assert diff_json(doc, doc) == ()
    assert diff_json(doc, json.loads(json.dumps(doc))) == ()


@settings(max_examples=200)
@given(JSON, st.data())
def test_a_single_changed_leaf_is_reported_at_exactly_its_path(
    doc: Any, data: st.DataObject
) -> None:
    # A whole document given as text is read as JSON text (``"[]"`` is an empty list).
    assume(not (isinstance(doc, str) and _is_json_text(doc)))
    path = data.draw(st.sampled_from(_leaves(doc)))
    old = _get(doc, path)
    new = _different(old)
    (diff,) = diff_json(doc, _set(doc, path, new))
    assert diff.parts == path
    assert (diff.recorded, diff.current) == (old, new)
    same_kind = type(old) is type(new) or {type(old), type(new)} <= {int, float}
    assert diff.kind is (DifferenceKind.CHANGED if same_kind else DifferenceKind.TYPE_CHANGED)


def _reference_match(pattern: tuple[str, ...], path: tuple[str | int, ...]) -> bool:
    if not pattern:
        return not path
    if pattern[0] == "**":
        return any(_reference_match(pattern[1:], path[i:]) for i in range(len(path) + 1))
    return (
        bool(path) and pattern[0] in ("*", str(path[0])) and _reference_match(pattern[1:], path[1:])
    )


@st.composite
def _pattern_for(draw: st.DrawFn, path: tuple[str | int, ...]) -> tuple[str, ...]:
    segments = [draw(st.sampled_from([str(part), str(part), "*"])) for part in path]
    if segments and draw(st.booleans()):
        cut = draw(st.integers(0, len(segments)))
        segments = ["**", *segments[cut:]]
    return tuple(segments) or ("**",)


@settings(max_examples=300)
@given(JSON, st.data())
def test_volatile_paths_suppress_exactly_what_they_match(doc: Any, data: st.DataObject) -> None:
    leaves = _leaves(doc)
    changed = data.draw(st.lists(st.sampled_from(leaves), min_size=1, max_size=4, unique=True))
    current = doc
    for path in changed:
        current = _set(current, path, _different(_get(current, path)))
    patterns = data.draw(
        st.lists(st.sampled_from(leaves).flatmap(_pattern_for), min_size=1, max_size=3)
    )
    texts = [".".join(p) for p in patterns]

    def ignored(parts: tuple[str | int, ...]) -> bool:
        prefixes = (parts[:n] for n in range(len(parts) + 1))
        return any(_reference_match(p, prefix) for prefix in prefixes for p in patterns)

    expected = tuple(d for d in diff_json(doc, current) if not ignored(d.parts))
    assert diff_json(doc, current, volatile=texts) == expected


# --- format_differences ----------------------------------------------------


def test_report_lines_are_stable_and_readable() -> None:
    current = _current(store=False, temperature="1")
    current["tools"][0]["filters"]["allowed_domains"] = ["c.com"]
    del current["model"]
    assert format_differences(diff_json(RECORDED, current)) == "\n".join(
        [
            '- model: "gpt-4o"',
            "+ store: false",
            '~ temperature: 1 -> "1" (number -> string)',
            '~ tools[0].filters.allowed_domains[0]: "a.com" -> "c.com"',
            '- tools[0].filters.allowed_domains[1]: "b.com"',
        ]
    )


def test_report_shows_a_whole_changed_subtree_compactly_with_sorted_keys() -> None:
    diffs = diff_json({"tools": [1]}, {"tools": [1, {"z": 1, "a": [True, None]}]})
    assert format_differences(diffs) == '+ tools[1]: {"a": [true, null], "z": 1}'


def test_report_elides_long_values_and_counts_what_it_leaves_out() -> None:
    recorded = {f"k{i:02}": i for i in range(30)}
    current = {**{k: v + 1 for k, v in recorded.items()}, "long": "x" * 500}
    lines = format_differences(diff_json(recorded, current), limit=3).splitlines()
    assert lines == ["~ k00: 0 -> 1", "~ k01: 1 -> 2", "~ k02: 2 -> 3", "… and 28 more differences"]
    (long_line,) = format_differences(diff_json({}, {"long": "x" * 500})).splitlines()
    assert long_line.startswith('+ long: "xxx') and long_line.endswith("… (502 chars)")
    assert len(long_line) < 110


def test_report_of_nothing_is_empty_and_root_is_named() -> None:
    assert format_differences(()) == ""
    assert format_differences(diff_json(1, 2)) == "~ (root): 1 -> 2"


# --- vcrpy matchers --------------------------------------------------------

URI = "https://api.openai.com/v1/responses"


def _request(body: object, headers: dict[str, str] | None = None, uri: str = URI) -> Request:
    if isinstance(body, dict):
        body = json.dumps(body)
    return Request("POST", uri, body, headers or {"content-type": "application/json"})


def test_body_matcher_accepts_the_same_json_written_differently() -> None:
    matcher = make_body_matcher()
    recorded = _request(json.dumps(RECORDED, indent=2).encode())
    current = _request(dict(reversed(list(RECORDED.items()))))
    assert matcher(current, recorded) is None


def test_body_matcher_reports_the_field_diff_recorded_to_current() -> None:
    matcher = make_body_matcher()
    current = _current(temperature=0.5)
    current["tools"][0]["filters"]["allowed_domains"][1] = "c.com"
    with pytest.raises(AssertionError) as caught:
        matcher(_request(current), _request(RECORDED))
    assert str(caught.value) == "\n".join(
        [
            "2 fields differ in the JSON body (recorded -> this request):",
            "~ temperature: 1 -> 0.5",
            '~ tools[0].filters.allowed_domains[1]: "b.com" -> "c.com"',
        ]
    )
    assert matcher.__name__ == "json_body"


def test_body_matcher_ignores_default_and_declared_volatile_fields() -> None:
    recorded = _request(_current(metadata={"run": "1"}, seed=1))
    current = _request(_current(metadata={"run": "2"}, seed=2))
    make_body_matcher(["seed"])(current, recorded)
    with pytest.raises(
        AssertionError, match=r"^1 field differs in the JSON body .*\n~ seed: 1 -> 2$"
    ):
        make_body_matcher()(current, recorded)
    with pytest.raises(AssertionError, match=r"~ metadata.run"):
        make_body_matcher(["seed"], include_defaults=False)(current, recorded)


def test_body_matcher_rejects_bad_patterns_when_built() -> None:
    with pytest.raises(ValueError, match=r"a\.\.b"):
        make_body_matcher(["a..b"])


def test_body_matcher_decodes_gzip_and_text_bodies() -> None:
    zipped = _request(
        gzip.compress(json.dumps(RECORDED).encode()),
        {"content-type": "application/json", "content-encoding": "gzip"},
    )
    make_body_matcher()(_request(json.dumps(RECORDED)), zipped)
    make_body_matcher()(zipped, _request(json.dumps(RECORDED)))
    # a gzip body whose header was dropped is still recognised by its magic bytes
    bare = _request(gzip.compress(json.dumps(RECORDED).encode()), {})
    make_body_matcher()(bare, _request(RECORDED))


@pytest.mark.parametrize("spelling", ["content-encoding", "Content-Encoding", "CONTENT-ENCODING"])
def test_body_matcher_reads_the_encoding_header_in_any_case_from_any_mapping(
    spelling: str,
) -> None:
    # deflate has no magic bytes: only the header says the body is compressed
    deflated = zlib.compress(json.dumps(RECORDED).encode())
    plain = _request(json.dumps(RECORDED))
    make_body_matcher()(_request(deflated, {spelling: "deflate"}), plain)

    # not a vcrpy request: a plain dict of value lists
    listed = SimpleNamespace(
        body=deflated, headers={"Content-Type": ["application/json"], spelling: ["deflate", "gzip"]}
    )
    make_body_matcher()(listed, plain)
    with pytest.raises(AssertionError, match="this request's body is not JSON"):
        make_body_matcher()(_request(deflated, {f"x-{spelling}": "deflate"}), plain)


def test_body_matcher_compares_non_json_bodies_byte_for_byte() -> None:
    matcher = make_body_matcher()
    plain = {"content-type": "text/plain"}
    matcher(_request(b"hello", plain), _request("hello", plain))
    with pytest.raises(
        AssertionError,
        match="5 bytes recorded, 5 bytes in this request; first difference at byte 4",
    ):
        matcher(_request(b"hellO", plain), _request(b"hello", plain))
    with pytest.raises(AssertionError, match="this request's body is not JSON"):
        matcher(_request(b"hello", plain), _request(RECORDED))
    with pytest.raises(AssertionError, match="the recorded body is not JSON"):
        matcher(_request(RECORDED), _request(b"hello", plain))
    matcher(_request(None, {}), _request(b"", {}))


def test_body_matcher_reads_file_and_iterator_bodies() -> None:
    import io

    data = json.dumps(RECORDED).encode()
    make_body_matcher()(_request(io.BytesIO(data)), _request(iter([data[:10], data[10:]])))


def test_vcrpy_shows_the_field_diff_when_no_recorded_request_matches(tmp_path: Path) -> None:
    cassette = tmp_path / "drift.yaml"
    cassette.write_text(
        yaml.safe_dump(
            {
                "version": 1,
                "interactions": [
                    {
                        "request": {
                            "method": "POST",
                            "uri": URI,
                            "body": json.dumps(RECORDED),
                            "headers": {"content-type": ["application/json"]},
                        },
                        "response": {
                            "status": {"code": 200, "message": "OK"},
                            "headers": {"content-type": ["application/json"]},
                            "body": {"string": '{"output": []}'},
                        },
                    }
                ],
            }
        )
    )
    recorder = vcr.VCR(record_mode="none", match_on=["method", "api_path", "json_body"])
    recorder.register_matcher("json_body", make_body_matcher())
    recorder.register_matcher("api_path", path_matcher)
    drifted = _current()
    drifted["tools"][0]["search_context_size"] = "high"
    with recorder.use_cassette(str(cassette)), httpx2.Client() as client:
        assert client.post(URI, json=RECORDED).json() == {"output": []}
        with pytest.raises(CannotOverwriteExistingCassetteException) as caught:
            client.post("https://gateway.example/openai/v1/responses/", json=drifted)
    message = str(caught.value)
    assert "json_body differs:" in message
    assert '~ tools[0].search_context_size: "low" -> "high"' in message
    assert "api_path differs" not in message


@pytest.mark.parametrize(
    ("current", "recorded"),
    [
        ("https://api.openai.com/v1/responses", "https://api.openai.com/v1/responses"),
        ("https://proxy.local/openai/v1/responses/", "https://api.openai.com/v1/responses"),
        ("https://api.openai.com//v1//responses", "https://api.openai.com/v1/responses"),
        ("http://x/no/version", "http://y/no/version/"),
    ],
)
def test_path_matcher_compares_the_api_path(current: str, recorded: str) -> None:
    path_matcher(_request({}, uri=current), _request({}, uri=recorded))


def test_path_matcher_reports_different_endpoints() -> None:
    with pytest.raises(AssertionError, match=r"/v1/files != /v1/responses"):
        path_matcher(_request({}, uri="https://x/v1/files"), _request({}, uri=URI))
    with pytest.raises(AssertionError):
        path_matcher(_request({}, uri="https://x/v2/responses"), _request({}, uri=URI))
