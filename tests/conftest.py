"""Cross-package tests run against the installed wheels of one label.

The backend is imported before anything from torch.testing._internal, or
PyTorch's device-type test machinery generates no npu tests.
"""

import os
from pathlib import Path

import opplugin_runtime  # noqa: F401
import pytest

REPO = Path(__file__).resolve().parent.parent


def _label() -> str:
    return os.environ.get("NPU_TEST_LABEL", "v2.13")


@pytest.fixture(scope="session")
def label() -> str:
    return _label()


@pytest.fixture(scope="session")
def generated_dir(label: str) -> Path:
    path = Path(os.environ.get("NPU_GENERATED_DIR", REPO / "build" / "generated" / label))
    if not path.is_dir():
        pytest.fail(f"{path} does not exist: run `nox -s generate -- {label}`")
    return path
