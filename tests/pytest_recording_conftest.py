"""The conftest of a project that keeps pytest-recording's cassettes where it puts them.

Its ``vcr_cassette_dir`` is pytest-recording's own default written out
(``<module folder>/cassettes/<module name>``), as projects copy it from the
documentation; tests that give tooltape such a project write it as theirs.
"""

OWN_DEFAULT_FOLDER = """
import os

import pytest


@pytest.fixture(scope="module")
def vcr_config():
    return {"filter_headers": ["authorization"]}


@pytest.fixture(scope="module")
def vcr_cassette_dir(request):
    here = os.path.dirname(request.module.__file__)
    return os.path.join(here, "cassettes", request.module.__name__.split(".")[-1])
"""
