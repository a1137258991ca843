"""The README's examples run as written.

The code under a heading of ``README.md`` is extracted and run: the "Quick
start" as a script in an empty directory; the contract example and the
project settings in a new project (``pytester``), with pytest and
``tooltape check``. A missing section or a section without code fails.
"""

import re
import runpy
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^(`{3,}|~{3,})\s*([\w+-]*)")


def section_code(markdown: str, title: str, languages: tuple[str, ...] = ("python", "py")) -> str:
    """The code blocks in ``languages`` of the section titled ``title``, joined in order."""
    lines = markdown.splitlines()
    start = level = None
    for index, line in enumerate(lines):
        heading = HEADING.match(line)
        if heading and re.fullmatch(title, heading.group(2), re.IGNORECASE):
            start, level = index + 1, len(heading.group(1))
            break
    if start is None or level is None:
        pytest.fail(f"{README} has no {title!r} heading; add one with an example.")

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
                    opening.group(2) in languages,
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
        pytest.fail(f"The {title!r} section of {README} has no {languages[0]} code block.")
    return code


def quick_start_code(markdown: str) -> str:
    """The python blocks of the "Quick start" section, joined in order."""
    return section_code(markdown, r"quick\s*start")


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


def test_readme_contract_example_and_settings_work_in_a_new_project(
    pytester: pytest.Pytester,
) -> None:
    markdown = README.read_text(encoding="utf-8")
    tests = pytester.path / "tests"
    tests.mkdir()
    (tests / "__init__.py").write_text("")
    (tests / "test_contracts.py").write_text(section_code(markdown, r"contracts for .*"))
    pytester.makepyprojecttoml(section_code(markdown, r"project settings", ("toml",)))
    recorded = pytester.path / "cassettes" / "tests" / "test_weather"
    recorded.mkdir(parents=True)
    real = README.parent / "cassettes" / "imported" / "model_web_search_tool.json"
    (recorded / "test_weather.json").write_bytes(real.read_bytes())

    first = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--snapshot-update")
    first.assert_outcomes(passed=3)
    assert (pytester.path / "cassettes" / "specs" / "web_search.TestDocsSearch.json").is_file()
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=3)

    check = pytester.run("tooltape", "check", "--update-specs")
    assert check.ret == 0, check.stdout.str()
    check = pytester.run("tooltape", "check")
    assert check.ret == 0, check.stdout.str()
    assert "settings: [tool.tooltape] in" in check.stdout.str()
