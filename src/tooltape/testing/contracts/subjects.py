"""What is under contract in a project: one codec and one representative tool per kind.

The built-in kinds come from the OpenAI adapter's registry with their canonical
tools (``tooltape.testing.kinds``). A project adds its own codecs in
``[tool.tooltape] codecs`` as ``module:attr``, naming either

- a ``HostedToolCodecContract`` subclass (its ``codec`` and ``tool``), or
- a codec (an instance, or a class built with no arguments) whose
  ``canonical_tool`` attribute (a ``HostedTool``, or a function returning
  one) is the tool its spec snapshot is taken of.

A project codec replaces the built-in one of its kind.

The client-executed kinds (apply_patch, the local shell, computer use, custom
tools, namespaces, client tool search) and plain ``function`` tools are rows
too (:class:`ClientSubject`): a row named after its kind, or
``<kind>-client`` where a hosted kind has the same name.

Where a spec snapshot lives is a function of the subject alone, so
``tooltape check`` and a ``HostedToolCodecContract`` subclass checking the
same codec with the same tool share one file, and any other pair gets its own
(:func:`snapshot_stem`); neither can overwrite the other's.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from tooltape.adapters.codec import ClientToolCodec, HostedToolCodec
from tooltape.adapters.openai.codecs.function import FunctionCodec
from tooltape.adapters.openai.codecs.registry import (
    default_client_tool_codecs,
    default_hosted_tool_codecs,
)
from tooltape.prompt import HostedTool, Tool
from tooltape.testing.kinds import canonical_client_tools, canonical_function_tool, canonical_tools

__all__ = [
    "ClientSubject",
    "ContractSetupError",
    "ContractSubject",
    "Subject",
    "builtin_subjects",
    "client_subjects",
    "load_subject",
    "project_subjects",
    "representative_tool",
    "snapshot_stem",
]


class ContractSetupError(ValueError):
    """A codec the project names cannot be put under contract; the message says why."""


@dataclass(frozen=True, slots=True)
class ContractSubject:
    """One kind under contract: its codec, the tool whose spec is snapshotted, and who said so.

    ``owner`` is the name of the ``HostedToolCodecContract`` subclass that
    declared it, if one did.
    """

    codec: HostedToolCodec[Any, Any]
    tool: HostedTool[Any]
    origin: str = "built-in"
    owner: str | None = None

    @property
    def kind(self) -> str:
        return self.codec.kind

    def wire_spec(self) -> dict[str, Any]:
        """The codec's ``tools[]`` entry for the tool."""
        return self.codec.serialize(self.tool)


@dataclass(frozen=True, slots=True)
class ClientSubject:
    """One client-executed kind under contract: its codec and the tool its spec is taken of.

    ``kind`` is the row's name: the codec's kind, or ``<kind>-client`` when a
    hosted kind has the same name (``shell-client``, ``tool_search-client``).
    """

    kind: str
    codec: ClientToolCodec
    tool: Tool[Any, Any]
    origin: str = "built-in"

    def wire_spec(self) -> dict[str, Any]:
        """The codec's ``tools[]`` entry for the tool."""
        return self.codec.serialize(self.tool)

    @property
    def user_defined_params(self) -> bool:
        """Whether the recorded calls carry the project's own parameters (functions), not
        ones the provider defines for the kind."""
        return self.codec.kind in (FUNCTION_ROW, "namespace")


Subject = ContractSubject | ClientSubject
"""A row of the contract matrix."""

FUNCTION_ROW = "function"


def _codec_tool(codec: object) -> HostedTool[Any] | None:
    declared: object = getattr(codec, "canonical_tool", None)
    if callable(declared):
        declared = declared()
    return cast("HostedTool[Any]", declared) if isinstance(declared, HostedTool) else None


def _is_builtin(codec: HostedToolCodec[Any, Any]) -> bool:
    builtin = default_hosted_tool_codecs().get(codec.kind)
    return builtin is not None and type(builtin) is type(codec)


def representative_tool(codec: HostedToolCodec[Any, Any]) -> HostedTool[Any] | None:
    """The tool a codec's spec snapshot is taken of when nobody names another one:
    its own ``canonical_tool``, else (for a built-in codec) the kind's canonical tool."""
    declared = _codec_tool(codec)
    if declared is not None:
        return declared
    return canonical_tools().get(codec.kind) if _is_builtin(codec) else None


def snapshot_stem(subject: Subject) -> str:
    """The spec snapshot's file name without ``.json``, under ``<cassettes>/specs/``.

    ``<kind>`` for a built-in codec and its canonical tool (what ``tooltape
    check`` writes); ``<kind>.<owner>`` for anything else, the owner being the
    contract class that declared it or else the codec's class; a client row's
    name for a client-executed kind.
    """
    if isinstance(subject, ClientSubject):
        return subject.kind
    if _is_builtin(subject.codec) and subject.tool == canonical_tools().get(subject.kind):
        return subject.kind
    owner = subject.owner or type(subject.codec).__name__
    return f"{subject.kind}.{owner}"


def builtin_subjects() -> dict[str, ContractSubject]:
    """Every built-in hosted kind with its canonical tool."""
    tools = canonical_tools()
    return {
        kind: ContractSubject(codec, tools[kind])
        for kind, codec in default_hosted_tool_codecs().items()
        if kind in tools
    }


def client_subjects() -> dict[str, ClientSubject]:
    """Every built-in client-executed kind, and ``function``, with its canonical tool."""
    hosted = default_hosted_tool_codecs()
    tools = canonical_client_tools()
    subjects = {
        FUNCTION_ROW: ClientSubject(FUNCTION_ROW, FunctionCodec(), canonical_function_tool())
    }
    for kind, codec in default_client_tool_codecs().items():
        if kind in tools:
            row = f"{kind}-client" if kind in hosted else kind
            subjects[row] = ClientSubject(row, codec, tools[kind])
    return subjects


def _import(spec: str, root: Path) -> object:
    module_name, colon, attribute = spec.partition(":")
    if not colon or not module_name or not attribute:
        raise ContractSetupError(
            f"codec {spec!r} is not module:attr (e.g. 'myproject.codecs:SearchCodec')"
        )
    entry = str(root.resolve())
    added = entry not in sys.path
    if added:
        sys.path.insert(0, entry)
    try:
        module = importlib.import_module(module_name)
    except (Exception, SystemExit) as exc:  # sys.exit() in it; KeyboardInterrupt interrupts
        raise ContractSetupError(
            f"codec {spec!r}: importing {module_name} failed ({type(exc).__name__}: {exc}); "
            f"it must be importable from {root}"
        ) from exc
    finally:
        if added and entry in sys.path:
            sys.path.remove(entry)
    value: object = module
    for part in attribute.split("."):
        if not hasattr(value, part):
            raise ContractSetupError(f"codec {spec!r}: module {module_name} has no {attribute!r}")
        value = getattr(value, part)
    return value


def _as_codec(spec: str, value: object) -> HostedToolCodec[Any, Any]:
    if isinstance(value, type):
        try:
            value = value()
        except (Exception, SystemExit) as exc:
            raise ContractSetupError(
                f"codec {spec!r} is a class that cannot be built with no arguments "
                f"({type(exc).__name__}: {exc}); name an instance instead"
            ) from exc
    needed = ("kind", "item_types", "serialize", "parse_calls", "parse_output")
    missing = [name for name in needed if not hasattr(value, name)]
    if missing:
        raise ContractSetupError(
            f"codec {spec!r} is a {type(value).__name__}, not a hosted tool codec "
            f"(it lacks {', '.join(missing)})"
        )
    return value  # pyright: ignore[reportReturnType]


def load_subject(spec: str, root: Path) -> ContractSubject:
    """The subject ``spec`` (``module:attr``) names, importing it from ``root``."""
    from tooltape.testing.contracts.suite import HostedToolCodecContract

    value = _import(spec, root)
    if isinstance(value, type) and issubclass(value, HostedToolCodecContract):
        return value.subject(origin=spec)
    value = cast(object, value)
    codec = _as_codec(spec, value)
    tool = representative_tool(codec)
    if tool is None:
        raise ContractSetupError(
            f"codec {spec!r} (kind {codec.kind!r}) has no tool to snapshot: give it a "
            "canonical_tool attribute, or name a HostedToolCodecContract subclass instead"
        )
    return ContractSubject(codec, tool, origin=spec)


def project_subjects(specs: Iterable[str], root: Path) -> dict[str, Subject]:
    """The built-in subjects, with the project's codecs (``module:attr``) added or replacing."""
    subjects: dict[str, Subject] = {**builtin_subjects(), **client_subjects()}
    for spec in specs:
        subject = load_subject(spec, root)
        subjects[subject.kind] = subject
    return subjects


def subjects_from(
    codecs: Mapping[str, HostedToolCodec[Any, Any]],
    tools: Mapping[str, HostedTool[Any]] | None = None,
) -> dict[str, ContractSubject | str]:
    """Subjects for explicit codecs (and tools); a kind with no tool maps to why not."""
    named = dict(tools or {})
    subjects: dict[str, ContractSubject | str] = {}
    for kind, codec in codecs.items():
        tool = named.get(kind) or representative_tool(codec)
        if tool is None:
            subjects[kind] = (
                f"no representative tool for kind {kind!r}: give its codec a canonical_tool "
                f"(or pass tools={{{kind!r}: ...}}) so its spec can be snapshotted"
            )
        else:
            subjects[kind] = ContractSubject(codec, tool)
    return subjects
