"""pytest wiring for torchnpugen's tests; the helpers live in torchnpugen_testlib.py."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_TESTS = Path(__file__).resolve().parent
# Works in prepend and importlib import modes, alone or next to other packages' tests.
if str(_TESTS) not in sys.path:
    sys.path.insert(0, str(_TESTS))
if importlib.util.find_spec("torchnpugen") is None:  # not installed: test the source tree
    sys.path.insert(0, str(_TESTS.parent / "src"))

from torchnpugen_testlib import generate, make_workspace  # noqa: E402


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: takes more than ~10 s (deselect with -m 'not slow')")


@pytest.fixture
def workspace(tmp_path: Path) -> dict[str, Path]:
    return make_workspace(tmp_path)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    ws = make_workspace(tmp_path_factory.mktemp("gen"))
    generate(ws)
    return ws
