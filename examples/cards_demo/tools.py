"""Function tools of the demo card (loaded by ``function_tools: [tools.py:add_one]``)."""


def add_one(x: int) -> int:
    """Add one to a number."""
    return x + 1
