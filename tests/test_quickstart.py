"""The README's "Quick start" code runs as written.

The python code under the "Quick start" heading of ``README.md`` is extracted
and executed as a script in an empty directory. The test is skipped only
while the README does not exist; once it does, a missing "Quick start"
section or a section without python code is a failure.
"""

import re
import runpy
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^(`{3,}|~{3,})\s*([\w+-]*)")


def quick_start_code(markdown: str) -> str:
    """The python blocks of the "Quick start" section, joined in order."""
    lines = markdown.splitlines()
    start = level = None
    for index, line in enumerate(lines):
        heading = HEADING.match(line)
        if heading and re.fullmatch(r"quick\s*start", heading.group(2), re.IGNORECASE):
            start, level = index + 1, len(heading.group(1))
            break
    if start is None or level is None:
        pytest.fail(f'{README} has no "Quick start" heading; add one with a python example.')

    blocks: list[str] = []
    fence: str | None = None
    is_python = False
    current: list[str] = []
    for line in lines[start:]:
        if fence is None:
            heading = HEADING.match(line)
            if heading and len(heading.group(1)) <= level:
                break
            opening = FENCE.match(line)
            if opening:
                fence, is_python, current = (
                    opening.group(1),
                    opening.group(2) in ("python", "py"),
                    [],
                )
        elif line.strip().startswith(fence[0] * len(fence)) and not line.strip().strip(fence[0]):
            if is_python:
                blocks.append("\n".join(current))
            fence = None
        else:
            current.append(line)
    code = "\n\n".join(blocks)
    if not code.strip():
        pytest.fail(f'The "Quick start" section of {README} has no python code block.')
    return code


def test_quick_start_extraction_reads_only_the_python_blocks_of_that_section() -> None:
    markdown = "\n".join(
        [
            "# Project",
            "```python",
            "raise SystemExit('not in the section')",
            "```",
            "## Quick start",
            "```bash",
            "pip install project",
            "```",
            "```python",
            "x = 1",
            "```",
            "### Details",
            "~~~py",
            "y = x + 1",
            "~~~",
            "## Next",
            "```python",
            "raise SystemExit('after the section')",
            "```",
        ]
    )
    assert quick_start_code(markdown) == "x = 1\n\ny = x + 1"


def test_readme_quick_start_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "quickstart.py"
    script.write_text(quick_start_code(README.read_text(encoding="utf-8")), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    runpy.run_path(str(script), run_name="__main__")
