"""A cassette the contract checks cannot read fails the pytest contract suite, as it fails
``tooltape check``: no contract can say what a file it cannot read holds. The broken
cassette is synthetic (hand-cut JSON); the readable one is a real recording."""

from __future__ import annotations

import pytest
from contract_project import WEB_SEARCH_CASSETTE, contract_project

pytest_plugins = ["pytester"]


def test_an_unreadable_cassette_fails_the_replay_contract_naming_it(
    pytester: pytest.Pytester,
) -> None:
    folder = contract_project(pytester, "imported/web_search.json")
    broken = folder / "imported" / "cut.json"
    broken.write_text(WEB_SEARCH_CASSETTE.read_text()[:200])

    result = pytester.runpytest_inprocess(
        "test_contracts.py", "-p", "no:cacheprovider", "-k", "replay or failure"
    )

    result.assert_outcomes(passed=1, failed=1)
    output = result.stdout.str()
    assert "FAILED test_contracts.py::TestWebSearch::test_recordings_replay_into_typed" in output
    assert str(broken) in output
    assert "1 cassette" in output and "cannot be read" in output
    assert "Traceback" not in output


def test_without_unreadable_cassettes_the_replay_contract_holds(
    pytester: pytest.Pytester,
) -> None:
    contract_project(pytester, "imported/web_search.json")

    result = pytester.runpytest_inprocess(
        "test_contracts.py", "-p", "no:cacheprovider", "-k", "replay or failure"
    )

    result.assert_outcomes(passed=2)
