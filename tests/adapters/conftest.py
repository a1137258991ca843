"""Shared fixtures of the adapter tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tooltape.testing.provider.loopback import LoopbackProvider


@pytest.fixture
def provider() -> Iterator[LoopbackProvider]:
    """A real HTTP server on loopback standing in for the provider; queue its replies."""
    with LoopbackProvider() as server:
        yield server
