"""Crash-safe files: no temp file outlives its write, failures name the file, any text
a provider sends (lone surrogates included) is recorded and replays byte for byte."""

from __future__ import annotations

import errno
import json
import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from contract_project import WEB_SEARCH_CASSETTE
from folder_refusal import refuse_reading

from tooltape.testing.cassette import (
    Cassette,
    CassetteError,
    CassetteHeader,
    CassetteWriteError,
    EmptyBody,
    Interaction,
    RecordedRequest,
    RecordedResponse,
    SseBody,
    load_cassette,
    save_cassette,
    stray_temp_files,
    write_atomic,
)
from tooltape.testing.cassette._bodies import body_from_bytes
from tooltape.testing.cassette._files import _HOST, STALE_AFTER
from tooltape.testing.vcr import before_record_response

# Run as a separate process: writes a big text and stops inside the write, so
# that it can be killed with the temp file half written.
_KILLED_WRITER = """
import os, sys, time
from tooltape.testing.cassette import write_atomic

def stall(fd):
    print("writing", flush=True)
    time.sleep(60)

os.fsync = stall
write_atomic(sys.argv[1], "x" * 1_000_000)
"""


def _temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_write_killed_midway_leaves_a_temp_file_the_next_write_removes(tmp_path: Path) -> None:
    target = tmp_path / "cassettes" / "test_api" / "test_x.json"
    write_atomic(target, '{"old": true}\n')
    writer = subprocess.Popen(
        [sys.executable, "-c", _KILLED_WRITER, str(target)], stdout=subprocess.PIPE, text=True
    )
    assert writer.stdout is not None and writer.stdout.readline() == "writing\n"
    writer.send_signal(signal.SIGKILL)
    writer.wait(timeout=30)
    [left] = _temps(target.parent)
    assert left.startswith(".test_x.json.")
    assert target.read_text() == '{"old": true}\n'  # the cassette itself is intact
    assert [t.path.name for t in stray_temp_files(tmp_path)] == [left]

    write_atomic(target.parent / "test_y.json", "{}\n")  # any write to that folder

    assert _temps(target.parent) == []


def test_the_temp_file_of_a_writer_still_running_is_left_alone(tmp_path: Path) -> None:
    # Another pytest-xdist worker, writing at this very moment.
    worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        busy = tmp_path / f".test_a.json.{_HOST}-{worker.pid}-abcd1234.tmp"
        busy.write_text("half")
        write_atomic(tmp_path / "test_b.json", "{}\n")
        assert busy.exists()
        old = time.time() - STALE_AFTER - 60  # still there an hour on: abandoned anyway
        os.utime(busy, (old, old))
        write_atomic(tmp_path / "test_b.json", "{}\n")
        assert not busy.exists()
    finally:
        worker.kill()
        worker.wait()


def test_only_temp_files_tooltape_made_are_removed(tmp_path: Path) -> None:
    old = time.time() - STALE_AFTER - 60
    earlier = tmp_path / ".test_c.json.k2j4h5g6.tmp"  # what an earlier version left
    foreign = [tmp_path / ".editor-swap.tmp", tmp_path / "notes.tmp"]
    for path in (earlier, *foreign):
        path.write_text("x")
        os.utime(path, (old, old))
    write_atomic(tmp_path / "test_c.json", "{}\n")
    assert not earlier.exists()
    assert all(path.exists() for path in foreign)


@pytest.fixture
def umask_027() -> Iterator[None]:
    previous = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(previous)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


@pytest.mark.usefixtures("umask_027")
def test_a_new_file_gets_the_mode_open_gives_a_new_file(tmp_path: Path) -> None:
    write_atomic(tmp_path / "test_new.json", "{}\n")
    assert _mode(tmp_path / "test_new.json") == 0o640  # 0o666 less the umask


@pytest.mark.usefixtures("umask_027")
def test_a_regular_file_written_over_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "test_x.json"
    target.write_text("{}\n")
    target.chmod(0o604)
    write_atomic(target, '{"new": true}\n')
    assert _mode(target) == 0o604


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.usefixtures("umask_027")
def test_a_device_written_over_lends_the_file_no_mode(tmp_path: Path) -> None:
    target = tmp_path / "test_zero.json"
    target.symlink_to("/dev/zero")  # a device anyone may write: mode 0o666
    write_atomic(target, "{}\n")
    assert not target.is_symlink() and target.read_text() == "{}\n"
    assert _mode(target) == 0o640


def test_a_write_that_fails_names_the_file_and_leaves_nothing(tmp_path: Path) -> None:
    (tmp_path / "cassettes").write_text("a file where the folder should be")
    target = tmp_path / "cassettes" / "test_api" / "test_x.json"
    with pytest.raises(CassetteWriteError) as failed:
        write_atomic(target, "{}\n")
    assert isinstance(failed.value, OSError)
    assert str(target) in str(failed.value)


def test_a_full_disk_names_the_file_and_keeps_the_old_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "test_x.json"
    target.write_text('{"old": true}\n')

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(CassetteWriteError) as failed:
        save_cassette(target, Cassette(CassetteHeader("0.1.0", "synthetic"), ()))
    message = str(failed.value)
    assert str(target) in message and "No space left on device" in message
    assert failed.value.errno == errno.ENOSPC
    assert target.read_text() == '{"old": true}\n'
    assert _temps(tmp_path) == []


@pytest.mark.parametrize(
    ("content_type", "wire"),
    [
        ("application/json", b'{"text":"half an emoji: \\ud83d","code":"\\udc00x"}'),
        ("text/event-stream", b'event: delta\ndata: {"delta":"\\ud83d"}\n\n'),
    ],
)
def test_a_lone_surrogate_is_recorded_and_replays_byte_for_byte(
    tmp_path: Path, content_type: str, wire: bytes
) -> None:
    recorded = before_record_response(
        {
            "status": {"code": 200, "message": "OK"},
            "headers": {"content-type": [content_type]},
            "body": {"string": wire},
        }
    )
    body = body_from_bytes({"content-type": (content_type,)}, recorded["body"]["string"])
    cassette = Cassette(
        CassetteHeader("0.1.0", "synthetic", "synthetic: test_cassette_files"),
        (
            Interaction(
                RecordedRequest("GET", "https://x.test/v1/r", {}, EmptyBody()),
                RecordedResponse(200, "OK", {"content-type": (content_type,)}, body),
            ),
        ),
    )
    path = tmp_path / "surrogate.json"
    save_cassette(path, cassette)
    json.loads(path.read_bytes().decode("utf-8"))  # valid UTF-8, valid JSON
    [interaction] = load_cassette(path).interactions
    assert interaction.response.body.to_bytes() == wire
    if content_type == "text/event-stream":
        assert isinstance(interaction.response.body, SseBody)


def test_a_cassette_the_system_will_not_open_is_named_with_the_permission_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cassette = tmp_path / "locked cassettes" / "test_x.json"
    cassette.parent.mkdir()
    cassette.write_bytes(WEB_SEARCH_CASSETTE.read_bytes())
    refuse_reading(monkeypatch, cassette)

    with pytest.raises(CassetteError) as raised:
        load_cassette(cassette)

    message = str(raised.value)
    assert f"cassette {cassette}: cannot be read (Permission denied)" in message
    assert f"give it read permission (`chmod u+r '{cassette}'`), then run again" in message
    assert "re-record" not in message and "git checkout" not in message
