"""The V4A diff rules on their own: sections, anchors, end of file, and refusals."""

from __future__ import annotations

import pytest

from tooltape.tools.v4a import PatchError, apply_update, create_text

CLASSES = """class A:
    def run(self):
        return "a"


class B:
    def run(self):
        return "b"
"""


def test_create_text() -> None:
    assert create_text("+one\n+two\n") == "one\ntwo\n"
    assert create_text("+only\n*** End of File\n") == "only\n"
    assert create_text("") == ""
    with pytest.raises(PatchError, match="line 1"):
        create_text(" context\n")


def test_nested_anchors_pick_the_right_method() -> None:
    diff = '@@ class B:\n@@     def run(self):\n-        return "b"\n+        return "B"\n'
    assert apply_update(CLASSES, diff, path="m.py") == CLASSES.replace('"b"', '"B"')


def test_sections_apply_in_order_after_each_other() -> None:
    text = "x\ny\nx\ny\n"
    diff = "@@\n x\n-y\n+1\n@@\n x\n-y\n+2\n"
    assert apply_update(text, diff, path="t") == "x\n1\nx\n2\n"


def test_pure_insertion_after_anchor() -> None:
    diff = "@@ class A:\n+    '''Doc.'''\n"
    assert apply_update(CLASSES, diff, path="m.py").startswith("class A:\n    '''Doc.'''\n")


def test_end_of_file_section_matches_the_last_lines() -> None:
    text = "a\nb\na\nb\n"
    assert apply_update(text, "@@\n-a\n-b\n+c\n*** End of File\n", path="t") == "a\nb\nc\n"


def test_refusals() -> None:
    with pytest.raises(PatchError, match="no changes"):
        apply_update("a\n", "", path="t")
    with pytest.raises(PatchError, match="line 2"):
        apply_update("a\n", "@@\n?a\n", path="t")
    with pytest.raises(PatchError, match="expected these lines"):
        apply_update("a\n", "-b\n+c\n", path="t")
