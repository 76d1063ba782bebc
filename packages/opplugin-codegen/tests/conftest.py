"""Test setup: the package's ``src/`` and this directory on sys.path (nothing to install).

Works both for ``pytest packages/opplugin-codegen/tests`` and for the repository-wide run
(``--import-mode=importlib``), where test directories are not put on sys.path.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_HERE = Path(__file__).resolve().parent
for _path in (_HERE.parent / "src", _HERE):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from opplugin_codegen_testing import make_yaml_dir  # noqa: E402


@pytest.fixture
def yaml_dir(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Factory: ``yaml_dir(ops_text, derivatives_text=None)`` -> path of a yaml/ dir."""

    def make(ops: str, derivatives: str | None = None) -> Path:
        return make_yaml_dir(tmp_path, ops, derivatives)

    return make
