"""Cassette files: read (tooltape JSON or vcrpy YAML/JSON), write, write atomically.

A tooltape cassette is a ``.json`` file written with ``indent=2``,
``ensure_ascii=False`` and a trailing newline, header first, headers sorted by
name, body trees in their original key order.
"""

from __future__ import annotations

import codecs
import json
import os
import shlex
import stat
from collections.abc import Mapping
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import cast

from packaging.version import InvalidVersion, Version
from pydantic_core import from_json

from tooltape.testing.cassette._document import cassette_from_document, cassette_to_document
from tooltape.testing.cassette._errors import (
    REPAIR_HINT,
    CassetteError,
    StructureError,
)
from tooltape.testing.cassette._files import write_atomic
from tooltape.testing.cassette._limits import (
    MAX_DOCUMENT_DEPTH,
    NON_FINITE_HINT,
    NonFiniteNumberError,
    TreeLimitError,
    check_finite,
    parse_json_text,
)
from tooltape.testing.cassette._model import Cassette, CassetteHeader, escape_lone_surrogates
from tooltape.testing.cassette._paths import irregular_file_error, not_regular_error
from tooltape.testing.cassette._vcrpy_format import cassette_from_vcr
from tooltape.testing.cassette._yaml import YamlProblem, load_yaml

__all__ = [
    "dump_cassette",
    "load_cassette",
    "non_finite_error",
    "parse_cassette",
    "save_cassette",
    "tooltape_version",
    "write_atomic",
]

_CONFLICT_MARKERS = ("<<<<<<< ", ">>>>>>> ")
_LFS_POINTER = "version https://git-lfs.github.com/spec/"


_UNKNOWN_VERSION = "0+unknown"
"""What :func:`tooltape_version` says when tooltape is not installed."""


def tooltape_version() -> str:
    """The installed tooltape version (``"0+unknown"`` when not installed)."""
    try:
        return version("tooltape")
    except PackageNotFoundError:
        return _UNKNOWN_VERSION


def _newer_writer(header: object) -> str | None:
    """The version that wrote a cassette header, if it is newer than this tooltape.

    A newer tooltape may write what this one cannot read: only when reading
    fails is that the likelier cause than damage, so only then is it said.
    Local labels (``+dirty``) are left out of the comparison: they say how a
    build was made, not that it is newer.
    """
    if not isinstance(header, dict):
        return None
    written = cast("Mapping[str, object]", header).get("version")
    installed = tooltape_version()
    if not isinstance(written, str) or installed == _UNKNOWN_VERSION or len(written) > 64:
        return None
    try:
        newer = Version(Version(written).public) > Version(Version(installed).public)
    except InvalidVersion:  # a hand-edited value
        return None
    return written if newer else None


def dump_cassette(cassette: Cassette) -> str:
    """The cassette as tooltape JSON text, ending with a newline.

    A lone surrogate a provider sent (``"\\ud83d"``) is written as that escape,
    so the file is valid UTF-8 and reads back to the same text. A number JSON
    cannot hold (``NaN``, an infinity) raises :class:`NonFiniteNumberError`
    naming where it is in the document: nothing is written in its place.
    """
    document = cassette_to_document(cassette)
    try:
        text = json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    except ValueError:
        check_finite(document)
        raise
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return escape_lone_surrogates(text)
    return text


def non_finite_error(path: Path | str, error: NonFiniteNumberError) -> CassetteError:
    """The :class:`CassetteError` of a cassette holding a number JSON cannot hold."""
    return CassetteError(path, f"{error.where or '/'}: {error.problem}", hint=NON_FINITE_HINT)


def save_cassette(path: Path | str, cassette: Cassette) -> None:
    """Write the cassette as tooltape JSON, atomically."""
    try:
        text = dump_cassette(cassette)
    except NonFiniteNumberError as error:
        raise non_finite_error(path, error) from None
    write_atomic(path, text)


def _line_of(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


def _check_not_special(text: str, path: Path) -> None:
    if text.startswith(_LFS_POINTER):
        raise CassetteError(
            path,
            "this is a Git LFS pointer, not the cassette itself",
            hint="fetch the real file with `git lfs pull`",
        )
    for marker in _CONFLICT_MARKERS:
        if text.startswith(marker):
            offset = 0
        else:
            found = text.find("\n" + marker)
            if found < 0:
                continue
            offset = found + 1
        line, _ = _line_of(text, offset)
        raise CassetteError(
            path,
            "contains git merge conflict markers",
            line=line,
            hint="resolve the conflict (or take one side with `git checkout --ours/--theirs "
            "<file>`) or re-record it with `pytest --record-mode=rewrite <test nodeid>`",
        )


def _first_char(text: str) -> str:
    for char in text[:4096]:  # never copy a large text just to strip it
        if not char.isspace():
            return char
    return text.lstrip()[:1]


LIMIT_HINT = (
    "real cassettes nest about twenty levels deep and use YAML aliases sparingly, so this "
    "file was damaged or made by hand: restore it from version control (`git checkout -- "
    "<file>`) or re-record it with `pytest --record-mode=rewrite <test nodeid>`"
)
"""What to do about a cassette refused by the reading bounds."""


def _unreadable_value(error: ValueError) -> str:
    if "integer string conversion" in str(error):
        return "a number has more digits than can be read (over 4300)"
    text = str(error)
    return text if len(text) <= 120 else text[:117] + "..."


def _parse_tree(text: str, path: Path, raw: bytes | None = None) -> object:
    suffix = path.suffix.lower()
    if _first_char(text) == "{" or suffix == ".json":
        try:
            # From the file's bytes when there are any: a fresh str that is not
            # ASCII costs from_json a UTF-8 copy first (~1 ms for 300 KiB).
            source = text if raw is None else raw
            return parse_json_text(source, max_depth=MAX_DOCUMENT_DEPTH)
        except TreeLimitError as error:
            raise CassetteError(path, f"refused: {error}", hint=LIMIT_HINT) from None
        except NonFiniteNumberError as error:
            raise non_finite_error(path, error) from None
        except json.JSONDecodeError as error:
            _check_not_special(text, path)
            raise CassetteError(
                path,
                f"invalid JSON: {error.msg}",
                line=error.lineno,
                column=error.colno,
            ) from None
        except ValueError as error:
            raise CassetteError(path, f"invalid JSON: {_unreadable_value(error)}") from None
    _check_not_special(text, path)
    try:
        tree = load_yaml(text)
        check_finite(tree)  # YAML's .nan and .inf, and 1e400, read as floats JSON cannot hold
        return tree
    except NonFiniteNumberError as error:
        raise non_finite_error(path, error) from None
    except YamlProblem as problem:
        if problem.limit:
            raise CassetteError(path, f"refused: {problem.problem}", hint=LIMIT_HINT) from None
        if suffix not in (".yaml", ".yml", ""):
            raise CassetteError(
                path,
                f"not a cassette: neither JSON nor YAML ({problem.problem} at line {problem.line})",
                hint="cassettes are the .json files tooltape writes or vcrpy .yaml files",
            ) from None
        raise CassetteError(
            path, f"invalid YAML: {problem.problem}", line=problem.line, column=problem.column
        ) from None


def parse_cassette(text: str, *, path: Path | str = "<string>") -> Cassette:
    """Parse cassette text of either format; ``path`` only names it in errors.

    The format is detected from the content: a JSON object with a ``tooltape``
    header is a tooltape cassette, anything with an ``interactions`` list
    (vcrpy YAML, vcrpy JSON, pytest-recording) is a vcrpy cassette.
    """
    return _parse_cassette(text, Path(path), None)


def _parse_cassette(text: str, where: Path, raw: bytes | None) -> Cassette:
    """``parse_cassette``; ``raw`` is the UTF-8 bytes ``text`` was decoded from, if any."""
    if text.startswith("\ufeff"):
        text, raw = text[1:], None
    if not _first_char(text):
        raise CassetteError(where, "the file is empty")
    return _cassette_from_tree(_parse_tree(text, where, raw), where)


def _json_of_bytes(data: bytes) -> object | None:
    """The JSON object ``data`` holds if pydantic reads it as it is, else ``None``.

    pydantic refuses bytes that are not UTF-8 (anywhere: outside strings any
    byte past ASCII is a syntax error), so what it reads needs no decoding
    first (about 0.1 ms for a 300 KiB non-ASCII cassette). Anything it
    refuses goes the way of text, which says what is wrong and where
    (``NaN`` and ``Infinity`` among them).
    """
    if data[:1] != b"{":
        return None
    try:
        return from_json(data, allow_inf_nan=False)
    except ValueError:
        return None


def _cassette_from_tree(tree: object, where: Path) -> Cassette:
    empty: Mapping[str, object] = {}
    doc = cast("Mapping[str, object]", tree) if isinstance(tree, dict) else empty
    try:
        if "tooltape" in doc:
            return cassette_from_document(doc)
        if "interactions" in doc:
            header = CassetteHeader(
                tooltape_version=tooltape_version(),
                source="live",
                provenance=f"vcrpy cassette {where.name}",
            )
            return cassette_from_vcr(doc, header)
    except StructureError as error:
        problem = f"unexpected content at {error.where or '/'}: {error.problem}"
        newer = _newer_writer(doc.get("tooltape"))
        if newer is None:
            raise CassetteError(where, problem, hint=error.hint or REPAIR_HINT) from None
        raise CassetteError(
            where,
            f"{problem} (it was written by tooltape {newer}, newer than this tooltape "
            f"{tooltape_version()})",
            hint="upgrade tooltape (`pip install -U tooltape`) to read it, or re-record it "
            "with `pytest --record-mode=rewrite <test nodeid>`",
        ) from None
    raise CassetteError(
        where,
        "not a cassette: neither a tooltape header (`tooltape`) nor a vcrpy `interactions` list",
    )


_NO_WAIT = getattr(os, "O_NONBLOCK", 0)  # POSIX only; elsewhere there is no pipe to wait on


def _read_regular(where: Path) -> bytes:
    """The bytes of the regular file ``where``; a folder, named pipe, socket or device is
    refused.

    Opened without blocking, so a named pipe with no writer opens at once (and is
    refused) instead of being waited on for ever; the file is then checked by its
    descriptor, which costs no second look-up of the path.
    """
    fd = os.open(where, os.O_RDONLY | _NO_WAIT)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            # The path again, for a symlink's target; the descriptor's mode if that changed.
            raise irregular_file_error(where) or not_regular_error(where, mode)
        with open(fd, "rb", closefd=False) as file:
            return file.read()
    finally:
        os.close(fd)


_BYTE_ORDER_MARKS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),  # before UTF-16's: it starts with the same two bytes
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def _wide_encoding(data: bytes) -> str | None:
    """The encoding a byte order mark at the start of ``data`` names, when not UTF-8."""
    return next((name for mark, name in _BYTE_ORDER_MARKS if data.startswith(mark)), None)


def load_cassette(path: Path | str, *, check_numbers: bool = True) -> Cassette:
    """Read a tooltape JSON cassette or a plain vcrpy / pytest-recording cassette.

    ``Cassette.format`` tells which one was read. Any file that cannot be read
    raises :class:`CassetteError` naming the file, the problem and the fix; so
    does one holding ``NaN``, ``Infinity`` or a number past a double (``1e400``).
    ``check_numbers=False`` leaves finding the last of those in a tooltape JSON
    file to whoever writes its bodies back to bytes (replay does, as it plays a
    response, and says where): looking costs a walk of every value, a sixth of
    a load.
    """
    where = Path(path)
    try:
        data = _read_regular(where)
    except OSError as error:  # a dangling symlink or a symlink loop among them
        irregular = irregular_file_error(where)
        if irregular is not None:
            raise irregular from None
        if isinstance(error, PermissionError):
            raise CassetteError(
                where,
                f"cannot be read ({error.strerror or error})",
                hint=f"give it read permission (`chmod u+r {shlex.quote(str(where))}`), then "
                "run again",
            ) from None
        if not isinstance(error, FileNotFoundError):
            raise CassetteError(where, f"cannot be read ({error.strerror or error})") from None
        raise CassetteError(
            where,
            "no such file",
            hint="record it with `pytest --record-mode=once <test nodeid>`",
        ) from None
    tree = _json_of_bytes(data)
    if tree is not None:
        if check_numbers:
            try:
                check_finite(tree)
            except NonFiniteNumberError as error:
                raise non_finite_error(where, error) from None
        return _cassette_from_tree(tree, where)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        wide = _wide_encoding(data)
        if wide is not None:  # an editor (or PowerShell's `>`) saved it so
            raise CassetteError(
                where,
                f"{wide} text, not UTF-8 (it starts with a {wide} byte order mark)",
                hint=f"save it as UTF-8 (`iconv -f {wide} -t UTF-8`, or the editor's "
                "encoding menu), then run again",
            ) from None
        prefix = data[: error.start].decode("utf-8", "replace")
        line, column = _line_of(prefix, len(prefix))
        raise CassetteError(
            where,
            f"not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start})",
            line=line,
            column=column,
        ) from None
    return _parse_cassette(text, where, data)
