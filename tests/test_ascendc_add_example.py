"""The seed's single-op flow: a user's Ascend C kernel reaches PyTorch through
TORCH_LIBRARY (torch.ops) and through pybind11, built against the installed runtime."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import opplugin_runtime  # noqa: F401
import pytest
import torch

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "ascendc_add"


@pytest.fixture(scope="module")
def built_example(label: str) -> Path:
    """Builds both artifacts once per label into build/examples/ (incremental with ninja)."""
    out = EXAMPLE.parent.parent / "build" / "examples" / "ascendc_add" / label
    subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--build-lib", str(out / "lib"),
         "--build-temp", str(out / "tmp")],
        cwd=EXAMPLE, check=True, env={**os.environ, "MAX_JOBS": "2"},
    )
    return out / "lib"


@pytest.fixture(scope="module")
def torch_op(built_example: Path):
    (library,) = built_example.glob("libascendc_ops*.so")
    torch.ops.load_library(str(library))
    return torch.ops.ascendc_ops.ascendc_add


@pytest.fixture(scope="module")
def pybind_op(built_example: Path):
    (module_file,) = built_example.glob("ascendc_ops*.so")
    spec = importlib.util.spec_from_file_location("ascendc_ops", module_file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.ascendc_add


@pytest.fixture(params=["torch_ops", "pybind11"])
def ascendc_add(request, torch_op, pybind_op):
    return torch_op if request.param == "torch_ops" else pybind_op


def test_the_seed_check(ascendc_add) -> None:
    x = torch.rand((8, 2048), dtype=torch.float16)
    y = torch.rand_like(x)
    actual = ascendc_add(x.npu(), y.npu()).cpu()
    torch.testing.assert_close(actual, x + y, rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("shape", [(1,), (17,), (31, 3), (1_000_003,), (3, 700_001)])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32])
def test_tails_and_sizes_above_one_block(ascendc_add, shape, dtype) -> None:
    x = torch.randn(shape).to(dtype)
    y = torch.randn(shape).to(dtype)
    torch.testing.assert_close(ascendc_add(x.npu(), y.npu()).cpu(), x + y)


def test_negatives_and_zeros(ascendc_add) -> None:
    x = torch.linspace(-1000, 1000, 4099)
    zeros = torch.zeros_like(x)
    assert torch.equal(ascendc_add(x.npu(), (-x).npu()).cpu(), zeros)
    assert torch.equal(ascendc_add(x.npu(), zeros.npu()).cpu(), x)


def test_empty_input_gives_an_empty_output(ascendc_add) -> None:
    x = torch.empty((0, 5), device="npu")
    result = ascendc_add(x, x)
    assert result.shape == (0, 5) and result.device.type == "npu"


def test_runs_on_the_current_stream_in_order_with_other_ops(ascendc_add) -> None:
    x = torch.randn(100_000)
    z = ascendc_add(x.npu(), x.npu())  # queued; the next op on the stream runs after it
    torch.testing.assert_close(torch.add(z, x.npu(), alpha=2).cpu(), x + x + 2 * x)


@pytest.mark.parametrize(
    ("make_inputs", "message"),
    [
        (lambda: (torch.ones(4), torch.ones(4, device="npu")), "x must be on npu"),
        (lambda: (torch.ones(4, device="npu"), torch.ones(4, device="npu", dtype=torch.float16)), "dtype"),
        (lambda: (torch.ones(4, device="npu"), torch.ones(5, device="npu")), "does not broadcast"),
        (lambda: (torch.ones(4, 4, device="npu").t(), torch.ones(4, 4, device="npu")), "not contiguous"),
        (lambda: (torch.ones(4, dtype=torch.int32).npu(), torch.ones(4, dtype=torch.int32).npu()), "supports Half"),
        (lambda: (torch.ones(4, device="npu:0"), torch.ones(4, device="npu:1")), "npu:1"),
    ],
    ids=["cpu-input", "dtype-mismatch", "shape-mismatch", "non-contiguous", "int32", "two-devices"],
)
def test_rejects_what_the_kernel_cannot_do(ascendc_add, make_inputs, message) -> None:
    x, y = make_inputs()
    with pytest.raises(RuntimeError, match=message):
        ascendc_add(x, y)
