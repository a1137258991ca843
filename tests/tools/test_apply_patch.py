"""apply_patch edits files under its root with V4A diffs and nowhere else."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

from tooltape.prompt import PromptValidationError, ToolResult
from tooltape.tools.apply_patch import ApplyPatchCall, PatchApplied, apply_patch_tool
from tooltape.tools.client import ClientExecutedTool

SOURCE = """

def main():
    print("hello")
    return 0


def helper():
    return 1
"""


def patch(root: Path, kind: str, path: str, diff: str = "") -> ToolResult[Any]:
    tool = apply_patch_tool(root)
    params = tool.schema.validate({"operation": {"type": kind, "path": path, "diff": diff}})
    assert isinstance(params, ApplyPatchCall)
    assert tool.handler is not None
    return tool.handler(params, context=cast(Any, None))


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() if p.is_file() and not p.is_symlink() else b"<>"
        for p in sorted(root.rglob("*"))
    }


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "app.py").write_text(SOURCE)
    return root


def test_it_is_a_client_executed_apply_patch_tool(workspace: Path) -> None:
    tool = apply_patch_tool(workspace)
    assert isinstance(tool, ClientExecutedTool)
    assert (tool.kind, tool.name, tool.params_type) == (
        "apply_patch",
        "apply_patch",
        ApplyPatchCall,
    )
    with pytest.raises(PromptValidationError, match="existing directory"):
        apply_patch_tool(workspace / "missing")


def test_create_file_with_parents(workspace: Path) -> None:
    result = patch(workspace, "create_file", "pkg/new.py", "+x = 1\n+\n+y = 2\n")
    assert result.success and result.message == "Created pkg/new.py."
    assert result.value == PatchApplied("create_file", "pkg/new.py")
    assert result.model_output() == "Created pkg/new.py."
    assert (workspace / "pkg" / "new.py").read_text() == "x = 1\n\ny = 2\n"


def test_create_refuses_existing_and_malformed(workspace: Path) -> None:
    before = snapshot(workspace)
    exists = patch(workspace, "create_file", "app.py", "+x\n")
    assert not exists.success and "already exists; use update_file" in exists.message
    malformed = patch(workspace, "create_file", "b.py", "+ok\nnot added\n")
    assert not malformed.success and "line 2" in malformed.message and "'+'" in malformed.message
    assert snapshot(workspace) == before


def test_update_with_anchor_context_and_two_sections(workspace: Path) -> None:
    diff = (
        "@@ def main():\n"
        '-    print("hello")\n'
        '+    print("hello, world")\n'
        "     return 0\n"
        "@@ def helper():\n"
        "-    return 1\n"
        "+    return 2\n"
    )
    result = patch(workspace, "update_file", "app.py", diff)
    assert result.success, result.message
    assert (workspace / "app.py").read_text() == SOURCE.replace(
        'print("hello")', 'print("hello, world")'
    ).replace("return 1", "return 2")


def test_update_tolerates_lost_indentation_and_keeps_crlf(workspace: Path) -> None:
    (workspace / "win.txt").write_bytes(b"alpha\r\n  beta\r\ngamma\r\n")
    result = patch(workspace, "update_file", "win.txt", "@@\n alpha\n-beta\n+BETA\n")
    assert result.success, result.message
    assert (workspace / "win.txt").read_bytes() == b"alpha\r\nBETA\r\ngamma\r\n"


def test_end_of_file_section_appends(workspace: Path) -> None:
    result = patch(workspace, "update_file", "app.py", "@@\n+# end\n*** End of File\n")
    assert result.success, result.message
    assert (workspace / "app.py").read_text() == SOURCE + "# end\n"


def test_failed_hunk_says_what_it_expected_and_writes_nothing(workspace: Path) -> None:
    before = snapshot(workspace)
    diff = "@@ def main():\n-    print('bye')\n+    print('ciao')\n"
    result = patch(workspace, "update_file", "app.py", diff)
    assert not result.success and result.value is None
    assert "does not match" in result.message
    assert "after '@@ def main():'" in result.message
    assert "|    print('bye')" in result.message
    assert "Re-read the file" in result.message
    missing_anchor = patch(workspace, "update_file", "app.py", "@@ def nowhere():\n-x\n+y\n")
    assert not missing_anchor.success and "'@@ def nowhere():'" in missing_anchor.message
    assert snapshot(workspace) == before


def test_update_and_delete_need_an_existing_file(workspace: Path) -> None:
    update = patch(workspace, "update_file", "ghost.py", "-a\n+b\n")
    assert not update.success and "does not exist; use create_file" in update.message
    delete = patch(workspace, "delete_file", "ghost.py")
    assert not delete.success and "nothing was deleted" in delete.message


def test_delete_file(workspace: Path) -> None:
    result = patch(workspace, "delete_file", "app.py")
    assert result.success and result.message == "Deleted app.py."
    assert not (workspace / "app.py").exists()


ESCAPES = [
    ("create_file", "../escape.txt", "+x\n"),
    ("create_file", "sub/../../escape.txt", "+x\n"),
    ("create_file", "<tmp>/escape.txt", "+x\n"),
    ("update_file", "../outside.txt", "-secret\n+changed\n"),
    ("delete_file", "../outside.txt", ""),
    ("create_file", "out/escape.txt", "+x\n"),
    ("update_file", "link.txt", "-secret\n+changed\n"),
    ("delete_file", "link.txt", ""),
]


@pytest.mark.parametrize(("kind", "path", "diff"), ESCAPES)
def test_paths_leaving_the_root_are_refused(
    tmp_path: Path, workspace: Path, kind: str, path: str, diff: str
) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("secret\n")
    (workspace / "out").symlink_to(tmp_path, target_is_directory=True)
    (workspace / "link.txt").symlink_to(outside)
    before_inside, before_outside = snapshot(workspace), snapshot(tmp_path)
    result = patch(workspace, kind, path.replace("<tmp>", str(tmp_path)), diff)
    assert not result.success and result.value is None
    assert any(word in result.message for word in ("absolute", "'..'", "outside the workspace"))
    assert snapshot(workspace) == before_inside
    assert snapshot(tmp_path) == before_outside
    assert outside.read_text() == "secret\n"
    assert not (tmp_path / "escape.txt").exists()


def test_absolute_path_is_refused_by_name(workspace: Path) -> None:
    target = workspace / "abs.txt"
    result = patch(workspace, "create_file", str(target), "+x\n")
    assert not result.success and "absolute" in result.message
    assert not target.exists()


def test_symlink_inside_the_root_is_followed_but_delete_removes_the_link(workspace: Path) -> None:
    (workspace / "alias.py").symlink_to(workspace / "app.py")
    result = patch(
        workspace, "update_file", "alias.py", "@@ def helper():\n-    return 1\n+    return 3\n"
    )
    assert result.success, result.message
    assert "return 3" in (workspace / "app.py").read_text()
    assert patch(workspace, "delete_file", "alias.py").success
    assert not (workspace / "alias.py").is_symlink() and (workspace / "app.py").exists()


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o7777


@pytest.fixture
def umask_022() -> Iterator[None]:
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


def test_update_keeps_the_file_mode(workspace: Path) -> None:
    script = workspace / "run.sh"
    script.write_text("#!/bin/sh\necho one\n")
    script.chmod(0o755)
    private = workspace / "secret.cfg"
    private.write_text("token = a\n")
    private.chmod(0o640)
    assert patch(workspace, "update_file", "run.sh", "@@\n-echo one\n+echo two\n").success
    assert patch(workspace, "update_file", "secret.cfg", "-token = a\n+token = b\n").success
    assert script.read_text() == "#!/bin/sh\necho two\n"
    assert (mode(script), mode(private)) == (0o755, 0o640)
    assert sorted(p.name for p in workspace.iterdir()) == ["app.py", "run.sh", "secret.cfg"]


def test_update_of_a_read_only_file_keeps_it_read_only(workspace: Path) -> None:
    frozen = workspace / "frozen.txt"
    frozen.write_text("a\n")
    frozen.chmod(0o444)
    assert patch(workspace, "update_file", "frozen.txt", "-a\n+b\n").success
    assert (frozen.read_text(), mode(frozen)) == ("b\n", 0o444)


@pytest.mark.usefixtures("umask_022")
def test_created_files_follow_the_umask_like_any_new_file(workspace: Path) -> None:
    assert patch(workspace, "create_file", "new/tool.py", "+print(1)\n").success
    (workspace / "by_hand.py").write_text("print(1)\n")
    assert mode(workspace / "new" / "tool.py") == mode(workspace / "by_hand.py") == 0o644
    os.umask(0o077)
    assert patch(workspace, "create_file", "private.txt", "+x\n").success
    assert mode(workspace / "private.txt") == 0o600


def test_text_utf8_cannot_encode_is_refused_by_name(workspace: Path) -> None:
    before = snapshot(workspace)
    result = patch(workspace, "create_file", "odd.txt", "+half \ud83d\n")
    assert not result.success and "odd.txt" in result.message and "UTF-8" in result.message
    assert snapshot(workspace) == before
