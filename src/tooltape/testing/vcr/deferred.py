"""A replayed response written to vcrpy's dict only when something reads it.

Replay loads every interaction of a cassette before the test runs, and
vcrpy needs each response as ``{"status", "headers", "body": {"string"}}``:
the body as bytes, ``content-length`` matching them. Writing JSON trees and
event streams back to bytes was about a quarter of what loading cost, also
for the responses a test never plays. A response read from a tooltape cassette is handed to
vcrpy as a :class:`DeferredResponse` instead: written on first read, so the
bytes are paid for by the responses played (or saved), not by every one
loaded.

It is a ``dict`` (vcrpy's stubs, its serializers and users' hooks test for
one) that, once written, is exactly the dict loading used to build. Until
then it holds only the :data:`SCANNED` mark, which is all the recording hook
reads of a response loaded from a tooltape cassette (such a response was
scrubbed and scanned when written, and is passed through as it is). Only a
response with no ``content-encoding`` is deferred, so vcrpy's decoding step
(``record_hooks.decode_compressed_response``) passes a pending one unread.

Code that reads a dict's storage directly instead of through its methods
(``pydantic_core.to_json`` does) sees only the mark until something else
has read it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import yaml

from tooltape.testing.cassette._vcrpy_format import SCANNED

if TYPE_CHECKING:
    from _collections_abc import dict_items, dict_keys, dict_values

__all__ = ["DeferredResponse"]


class DeferredResponse(dict[str, Any]):
    """vcrpy's response dict for a response loaded from a tooltape cassette, written on first read.

    ``write`` returns the dict (``status``, ``headers``, ``body``, each new);
    :data:`SCANNED` is set after them. Reading anything but the mark (an
    item, ``get``, ``in``, ``len``, iteration, the views, ``==``, ``repr``,
    copies, pickling) or changing anything writes it first: from then on it
    is that dict, and every change is kept. ``write`` and what it reads are
    never changed, so ``copy.deepcopy`` of one not yet written (vcrpy's
    ``Cassette.append`` deep-copies every loaded response) is another
    unwritten one sharing ``write``; once written, it deep-copies as the
    plain dict it is.
    """

    __slots__ = ("_write",)

    def __init__(self, write: Callable[[], dict[str, Any]]) -> None:
        super().__init__({SCANNED: True})
        self._write: Callable[[], dict[str, Any]] | None = write

    @property
    def pending(self) -> bool:
        """Whether it is still to be written: nothing but the mark has been read."""
        return self._write is not None

    def _write_now(self) -> None:
        write = self._write
        if write is None:
            return
        contents = write()
        contents[SCANNED] = True
        super().clear()
        super().update(contents)
        self._write = None

    def _write_both(self, other: object) -> None:
        # dict's own comparison reads the other side's storage directly.
        self._write_now()
        if isinstance(other, DeferredResponse):
            other._write_now()

    def _read(self, key: object) -> None:
        if key != SCANNED:
            self._write_now()

    # Reads of one key: the mark needs no writing.
    def __getitem__(self, key: str) -> Any:
        self._read(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None, /) -> Any:
        self._read(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self._read(key)
        return super().__contains__(key)

    # Every other read. Overriding __iter__ also makes dict(x), {**x}, x | y,
    # x.copy() and update(x) go through keys() and __getitem__, not the storage.
    def __iter__(self) -> Iterator[str]:
        self._write_now()
        return super().__iter__()

    def __reversed__(self) -> Iterator[str]:
        self._write_now()
        return super().__reversed__()

    def __len__(self) -> int:
        self._write_now()
        return super().__len__()

    def keys(self) -> dict_keys[str, Any]:
        self._write_now()
        return super().keys()

    def values(self) -> dict_values[str, Any]:
        self._write_now()
        return super().values()

    def items(self) -> dict_items[str, Any]:
        self._write_now()
        return super().items()

    def __eq__(self, other: object) -> bool:
        self._write_both(other)
        return super().__eq__(other)

    def __ne__(self, other: object) -> bool:
        self._write_both(other)
        return super().__ne__(other)

    def __repr__(self) -> str:
        self._write_now()
        return super().__repr__()

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        if self._write is not None:
            return DeferredResponse(self._write)
        return {key: copy.deepcopy(value, memo) for key, value in self.items()}

    def __reduce__(self) -> tuple[type[dict[str, Any]], tuple[dict[str, Any]]]:
        # copy.copy and pickle: the plain dict it stands for.
        return dict, (self.copy(),)

    # Every change: written first, so writing never overwrites one.
    def __setitem__(self, key: str, value: Any) -> None:
        self._write_now()
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        self._write_now()
        super().__delitem__(key)

    def __ior__(self, other: Any) -> Any:
        self._write_now()
        return super().__ior__(other)

    def update(self, *args: Any, **kwargs: Any) -> None:
        self._write_now()
        super().update(*args, **kwargs)

    def setdefault(self, key: str, default: Any = None, /) -> Any:
        self._write_now()
        return super().setdefault(key, default)

    def pop(self, *args: Any) -> Any:
        self._write_now()
        return super().pop(*args)

    def popitem(self) -> tuple[str, Any]:
        self._write_now()
        return super().popitem()

    def clear(self) -> None:
        self._write_now()
        super().clear()


def _represent(representer: yaml.representer.SafeRepresenter, data: DeferredResponse) -> Any:
    return representer.represent_dict(data)


# PyYAML picks a representer by exact type: without these a dict subclass would be
# dumped as a Python object (which vcrpy's YAML serializer refuses to save).
yaml.representer.SafeRepresenter.add_representer(DeferredResponse, _represent)
yaml.representer.Representer.add_representer(DeferredResponse, _represent)
