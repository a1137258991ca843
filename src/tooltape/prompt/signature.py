"""Call-shape checks done when something is declared, not when it first runs."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, cast

from tooltape.prompt.errors import PromptValidationError


def is_callable_instance(fn: object) -> bool:
    """Whether ``fn`` is an object whose class defines ``__call__`` (not a function,
    method, class or partial)."""
    return (
        callable(fn)
        and not inspect.isroutine(fn)
        and not inspect.isclass(fn)
        and not isinstance(fn, functools.partial)
    )


def called(fn: object) -> object:
    """The code that runs when ``fn`` is called: the function a partial wraps, a callable
    instance's ``__call__``, else ``fn`` itself (where its annotations and docs live)."""
    while isinstance(fn, functools.partial):
        fn = cast("functools.partial[Any]", fn).func
    return type(fn).__call__ if is_callable_instance(fn) else fn


def describe(fn: object) -> str:
    """A readable name for a callable in error messages: the function, method or class
    the user wrote (``mod.Weather.__call__``, ``functools.partial(mod.add)``)."""
    if isinstance(fn, functools.partial):
        return f"functools.partial({describe(cast('functools.partial[Any]', fn).func)})"
    target = type(fn).__call__ if is_callable_instance(fn) else fn
    module = getattr(target, "__module__", None)
    name = getattr(target, "__qualname__", None) or repr(target)
    return f"{module}.{name}" if module else str(name)


def signature_of(fn: Callable[..., Any], *, owner: str) -> inspect.Signature:
    """``inspect.signature(fn)`` or a ``PromptValidationError`` naming ``owner``."""
    if not callable(fn):
        raise PromptValidationError(f"{owner}: {fn!r} is not callable.")
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError) as exc:
        raise PromptValidationError(
            f"{owner}: cannot read the signature of {describe(fn)} ({exc})."
        ) from exc


def is_async(fn: object) -> bool:
    """Whether calling ``fn`` gives a coroutine or an async generator (``async __call__`` too)."""
    call: object = fn
    if not (inspect.isroutine(fn) or isinstance(fn, functools.partial)):
        call = inspect.getattr_static(type(fn), "__call__", fn)  # an instance: as its class calls
    return inspect.iscoroutinefunction(call) or inspect.isasyncgenfunction(call)


def refuse_async_tool(fn: Callable[..., Any], *, owner: str) -> None:
    """Raise when ``fn`` is async: a tool runs synchronously, so its coroutine would never run."""
    if is_async(fn):
        name = getattr(called(fn), "__name__", "handler")
        raise PromptValidationError(
            f"{owner}: {describe(fn)} is async; tooltape runs tools synchronously, so it would "
            f"never be awaited. Write it as a plain `def {name}(...)` (run a coroutine inside "
            "with asyncio.run, or use the library's blocking client)."
        )


def check_positional_call(fn: Callable[..., Any], count: int, *, owner: str, shape: str) -> None:
    """Raise unless ``fn`` can be called with ``count`` positional arguments.

    ``shape`` is how the call looks (for example ``"hook(ctx, args, call_next)"``)
    so the error can say what is expected.
    """
    sig = signature_of(fn, owner=owner)
    if is_async(fn):
        raise PromptValidationError(
            f"{owner}: {describe(fn)} is async; tooltape calls it synchronously as {shape}."
        )
    try:
        sig.bind(*([None] * count))
    except TypeError as exc:
        raise PromptValidationError(
            f"{owner}: {describe(fn)}{sig} cannot be called as {shape} ({exc})."
        ) from exc
