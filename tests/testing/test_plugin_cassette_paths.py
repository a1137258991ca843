"""What the plugin says when something other than a cassette sits at a test's cassette path.

A folder, a named pipe, a symlink to a device or to nothing at the path is
refused before the test sends anything, with what is there and what to do; a
cassette that holds no interactions is said to be empty, not missing. Each
test runs pytest in a subprocess on a small project (``pytester``) against a
real loopback server, which counts what reached it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from web_search_reply import real_web_search_body

from tooltape.testing.provider.loopback import LoopbackProvider, LoopbackReply

pytest_plugins = ["pytester"]

FAKE_KEY = "sk-proj-" + "Qp4" * 12

TEST_MODULE = """
def test_ask(openai_client):
    response = openai_client.responses.create(model="gpt-4o-mini", input="Weather in SF?")
    assert response.output
"""

posix_only = pytest.mark.skipif(os.name == "nt", reason="named pipes and /dev/zero are POSIX")


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(test_paths=TEST_MODULE)
    pytester.makeini("[pytest]\n")
    return pytester


def _cassette(project: pytest.Pytester) -> Path:
    folder = project.path / "cassettes" / "test_paths"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "test_ask.json"


def _run(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[Any, LoopbackProvider]:
    """pytest with a key and a loopback provider (``args`` choose the record mode)."""
    with LoopbackProvider([LoopbackReply.json(real_web_search_body())]) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
        # a named pipe that were read would block for ever: the timeout makes that a failure
        result = project.runpytest_subprocess("-p", "no:cacheprovider", *args, timeout=60)
    return result, server


def _make(kind: str, path: Path) -> None:
    if kind == "folder":
        path.mkdir()
    elif kind == "named pipe":
        os.mkfifo(path)
    elif kind == "symlink to /dev/zero":
        path.symlink_to("/dev/zero")
    else:
        path.symlink_to("nowhere.json")


SAID = {
    "folder": "is not a regular file: it is a folder",
    "named pipe": "is not a regular file: it is a named pipe",
    "symlink to /dev/zero": "is not a regular file: it is a symlink to /dev/zero, a character "
    "device",
    "dangling symlink": "is a symlink to nowhere.json, which does not exist",
}


@posix_only
@pytest.mark.parametrize(
    ("kind", "mode"),
    [
        ("folder", "once"),
        ("folder", "rewrite"),
        ("folder", "none"),
        ("named pipe", "once"),
        ("symlink to /dev/zero", "once"),
        ("dangling symlink", "none"),
    ],
)
def test_what_sits_at_the_cassette_path_is_refused_before_any_request(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, kind: str, mode: str
) -> None:
    path = _cassette(project)
    _make(kind, path)
    result, server = _run(project, monkeypatch, f"--record-mode={mode}")
    output = result.stdout.str()
    assert result.ret != 0, output
    assert server.requests == []  # nothing reached the provider
    assert f"cassette {path}: {SAID[kind]}" in output
    assert "remove" in output  # what to do
    assert "pytest --record-mode=once test_paths.py::test_ask" in output
    assert "No cassette at" not in output and "could not write" not in output
    assert "Traceback" not in output
    assert os.path.lexists(path) and path.is_symlink() == kind.startswith(("symlink", "dangling"))


@posix_only
def test_a_named_pipe_at_the_yaml_fallback_is_refused_before_any_request(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With no tooltape JSON, the plugin reads pytest-recording's YAML of the same name.
    path = _cassette(project).with_suffix(".yaml")
    os.mkfifo(path)
    result, server = _run(project, monkeypatch, "--record-mode=once")
    output = result.stdout.str()
    assert result.ret != 0, output
    assert server.requests == []
    assert f"cassette {path}: {SAID['named pipe']}" in output
    assert "No cassette at" not in output and "Traceback" not in output


def test_a_cassette_with_no_interactions_is_said_to_be_empty_not_missing(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _cassette(project)
    header = {"version": "0.1.0", "source": "loopback"}
    path.write_text(json.dumps({"tooltape": header, "interactions": []}))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    result = project.runpytest_subprocess("-p", "no:cacheprovider", timeout=60)
    output = result.stdout.str()
    result.assert_outcomes(failed=1)
    assert f"Cassette {path} for test_paths.py::test_ask exists but holds no interactions" in output
    assert "pytest --record-mode=rewrite test_paths.py::test_ask" in output
    assert "No cassette at" not in output


def test_a_cassette_with_no_interactions_records_again_with_rewrite(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _cassette(project)
    header = {"version": "0.1.0", "source": "loopback"}
    path.write_text(json.dumps({"tooltape": header, "interactions": []}))
    result, server = _run(project, monkeypatch, "--record-mode=rewrite")
    result.assert_outcomes(passed=1)
    assert len(server.requests) == 1
    assert len(json.loads(path.read_text())["interactions"]) == 1
