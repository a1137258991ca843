"""Function tools for the PMO test card."""


def add_one(x: int) -> int:
    """Add one to a number."""
    return x + 1


def wipe(path: str) -> str:
    """Pretend to delete a path (the guard must block it)."""
    raise AssertionError("the guard should have blocked wipe")
