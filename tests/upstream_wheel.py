"""Upstream's torch-npu wheel from the package index, for the tests that read or run it: downloaded
at test time with ``pip download --no-deps`` into the v2.13 wheelhouse of the noxfile (NPU_WHEELHOUSE
moves it) and cached there; never committed. The tests skip, saying why, where it cannot be had."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

WHEEL_VERSION = "2.13.0"


def wheelhouse() -> Path:
    """The v2.13 wheelhouse of the noxfile (NPU_WHEELHOUSE moves it), or a cache of our own."""
    value = os.environ.get("NPU_WHEELHOUSE", "")
    if value and value.lower() != "off":
        return Path(value).expanduser() / "v2.13"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "npu-sim" / "wheelhouse" / "v2.13"


def torch_npu_wheel() -> Path:
    """The torch-npu wheel (downloaded once), or a pytest skip naming why it cannot be had."""
    house = wheelhouse()
    wheels = sorted(house.glob(f"torch_npu-{WHEEL_VERSION}-*.whl"))
    if not wheels:
        house.mkdir(parents=True, exist_ok=True)
        download = ["download", "-q", "--no-deps", f"torch-npu=={WHEEL_VERSION}", "-d", str(house)]
        result = subprocess.run([sys.executable, "-m", "pip", *download], capture_output=True, text=True, timeout=600)
        wheels = sorted(house.glob(f"torch_npu-{WHEEL_VERSION}-*.whl"))
        if not wheels:
            pytest.skip(f"torch-npu {WHEEL_VERSION} is not downloadable here: {result.stderr.strip()[-300:]}")
    return wheels[0]


def extract_torch_npu(root: Path) -> Path:
    """Upstream's ``torch_npu`` package (its Python files and libraries) alone in ``root``, which is
    returned: the wheel's other top-level packages (its own ``torchnpugen`` among them) are left out."""
    with zipfile.ZipFile(torch_npu_wheel()) as wheel:
        wheel.extractall(root, [m for m in wheel.namelist() if m.startswith("torch_npu/")])
    return root


def upstream_environment(package: Path, **extra: str) -> dict[str, str]:
    """This process's environment with upstream's torch_npu in ``package`` first on the path, in the
    simulator's CANN-style install (``ascendc_kernels.toolkit``), our runtime not autoloaded."""
    from ascendc_kernels.toolkit import environment

    env = environment(base={k: v for k, v in os.environ.items() if k != "LD_PRELOAD"})
    env.update(PYTHONPATH=str(package), TORCH_DEVICE_BACKEND_AUTOLOAD="0", **extra)
    return env
