"""A volatile path that request matching cannot parse is a settings error, not a traceback.

Every entry of ``volatile`` (and of its pytest mirror ``tooltape_volatile``, and of
``@pytest.mark.tooltape(volatile=...)``) is parsed by the parser request matching
uses, when the settings are read, so a typo stops the run with one line naming it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tooltape.cli import main
from tooltape.testing.settings import SettingsError, load_settings

_BAD_PATHS = ["..", "", "a..b", "input[", "input[*", "tools[0]filters"]


@pytest.mark.parametrize("entry", _BAD_PATHS)
def test_a_malformed_volatile_entry_names_the_file_the_key_the_entry_and_the_form(
    tmp_path: Path, entry: str
) -> None:
    (tmp_path / "pyproject.toml").write_text(
        f'[tool.tooltape]\nvolatile = ["metadata.run_id", "{entry}"]\n', encoding="utf-8"
    )
    with pytest.raises(SettingsError) as caught:
        load_settings(tmp_path)
    message = str(caught.value)
    assert message.startswith(f"{tmp_path / 'pyproject.toml'}: volatile entry {entry!r} ")
    assert '"input[0].content"' in message  # what a valid path looks like
    assert "\n" not in message


def test_a_malformed_entry_of_the_pytest_mirror_names_its_file(tmp_path: Path) -> None:
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\ntooltape_volatile =\n    metadata.a\n    input[\n", encoding="utf-8"
    )
    with pytest.raises(SettingsError) as caught:
        load_settings(tmp_path)
    assert str(caught.value).startswith(
        f"{tmp_path / 'pytest.ini'}: tooltape_volatile entry 'input[' "
    )


@pytest.mark.parametrize("entry", ["metadata.run_id", "input[0].content", "**.id", "[*]"])
def test_well_formed_paths_are_kept(tmp_path: Path, entry: str) -> None:
    (tmp_path / "pyproject.toml").write_text(
        f'[tool.tooltape]\nvolatile = ["{entry}"]\n', encoding="utf-8"
    )
    assert load_settings(tmp_path).volatile == (entry,)


@pytest.mark.parametrize("command", ["check", "lint"])
def test_the_cli_stops_with_the_settings_error(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: str,
) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.tooltape]\nvolatile = [".."]\n')
    (tmp_path / "cassettes").mkdir()
    monkeypatch.chdir(tmp_path)
    assert main([command]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tooltape {command}: error: {tmp_path / 'pyproject.toml'}: volatile ")
    assert err.count("\n") == 1


_TEST = """
import pytest

@pytest.mark.vcr
def test_answer():
    pass
"""


@pytest.mark.parametrize("entry", ["..", "input["])
def test_the_plugin_stops_with_the_settings_error_before_any_test(
    pytester: pytest.Pytester, entry: str
) -> None:
    pytester.makepyprojecttoml(f'[tool.tooltape]\nvolatile = ["{entry}"]\n')
    pytester.makepyfile(test_api=_TEST)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    err = result.stderr.str()
    assert f"tooltape: {pytester.path / 'pyproject.toml'}: volatile entry {entry!r}" in err
    assert "Traceback" not in err + result.stdout.str()


def test_a_volatile_path_given_with_dash_o_is_checked_too(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_api=_TEST)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-o", "tooltape_volatile=a..b")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "tooltape_volatile entry 'a..b' is not a request field path" in result.stderr.str()


def test_a_malformed_marker_path_fails_its_test_with_one_line(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_api="""
import pytest

@pytest.mark.vcr
@pytest.mark.tooltape(volatile=["input[*"])
def test_marked():
    pass

def test_plain():
    pass
"""
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-rE")
    result.assert_outcomes(passed=1, errors=1)
    out = result.stdout.str()
    assert (
        "tooltape: @pytest.mark.tooltape of test_api.py::test_marked: volatile entry 'input[*'"
        in out
    )
    assert "matchers.py" not in out and "matching.py" not in out


_ODD_MARKS = {
    "test_number": ("volatile=5", "volatile must be a request field path or a list of them"),
    "test_numbers": ("volatile=[1]", "volatile must be a request field path or a list of them"),
    "test_yes": ("allow_unplayed='yes'", "allow_unplayed must be True or False"),
    "test_int_provenance": ("provenance=1", "provenance must be text"),
    "test_positional": ("'input'", "takes keyword arguments only"),
    "test_misspelt": ("volatiles=['a']", "unknown argument(s) 'volatiles'"),
}


def test_a_marker_argument_of_the_wrong_type_fails_its_test_with_one_line(
    pytester: pytest.Pytester,
) -> None:
    tests = "".join(
        f"\n@pytest.mark.vcr\n@pytest.mark.tooltape({arguments})\ndef {name}():\n    pass\n"
        for name, (arguments, _) in _ODD_MARKS.items()
    )
    pytester.makepyfile(test_api=f"import pytest\n{tests}")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-rE")
    result.assert_outcomes(errors=len(_ODD_MARKS))  # one each: setup, and no teardown error
    out = result.stdout.str()
    for name, (_, said) in _ODD_MARKS.items():
        assert f"tooltape: @pytest.mark.tooltape of test_api.py::{name}: {said}" in out
    assert "Traceback" not in out and "KeyError" not in out
