"""`import torch` alone makes the npu device available, through the `torch.backends`
entry point of opplugin-runtime (torch >= 2.5 autoloads device backends)."""

from __future__ import annotations

import pytest
import torch

HAS_AUTOLOAD = hasattr(torch, "_import_device_backends")
pytestmark = pytest.mark.skipif(
    not HAS_AUTOLOAD, reason="this torch has no device-backend autoload (torch.backends entry points, torch >= 2.5)"
)


def test_import_torch_alone_loads_npu(run_python):
    result = run_python(
        """
        import torch
        assert torch._C._get_privateuse1_backend_name() == "npu"
        x = torch.ones(3, device="npu") + 1
        print(torch.npu.is_available(), torch.npu.device_count(), x.device, x.cpu().tolist())
        """,
        env={"TORCH_DEVICE_BACKEND_AUTOLOAD": "1"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "2", "npu:0", "[2.0,", "2.0,", "2.0]"]


def test_importing_the_package_first_still_works(run_python):
    """opplugin_runtime imports torch, which autoloads opplugin_runtime: no import cycle."""
    result = run_python(
        "import opplugin_runtime, torch; print(torch.ones(2, device='npu').is_npu)",
        env={"TORCH_DEVICE_BACKEND_AUTOLOAD": "1"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"


def test_autoload_can_be_disabled(run_python):
    result = run_python(
        "import torch; print(hasattr(torch, 'npu'), torch._C._get_privateuse1_backend_name())",
        env={"TORCH_DEVICE_BACKEND_AUTOLOAD": "0"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "privateuseone"]
