"""max_unpool2d / max_unpool3d on both paths: an unbatched input, a strided out=, the 3-D form and an index
outside the output (a device fault at the next synchronisation, as CUDA's device-side assert) each run once
on op_api (jit_compile=False) and once on acl_op (jit_compile=True), give CPU's results, and took the path
the run forced."""

from __future__ import annotations

import opplugin_runtime  # noqa: F401
import pytest
import torch
import torch.nn.functional as F


def _on_path(path: str, fn, *args):
    torch.npu.set_compile_mode(jit_compile=path == "acl_op")
    try:
        torch.npu.reset_path_ledger()
        result = fn(*args)
        if isinstance(result, torch.Tensor):
            result = result.cpu()
        return result, torch.npu.path_ledger()
    finally:
        torch.npu.set_compile_mode(jit_compile=False)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
def test_max_unpool_on_each_path_equals_cpus(path) -> None:
    generator = torch.Generator().manual_seed(0)
    values, indices = F.max_pool2d(torch.randn(2, 3, 6, 8, generator=generator), 2, return_indices=True)
    expected = torch.ops.aten.max_unpool2d(values, indices, [6, 8])
    got, ledger = _on_path(path, torch.ops.aten.max_unpool2d, values.npu(), indices.npu(), [6, 8])
    assert ledger["max_unpool2d"][path] == 1
    torch.testing.assert_close(got, expected, rtol=0, atol=0)
    got, _ = _on_path(path, torch.ops.aten.max_unpool2d, values[0].npu(), indices[0].npu(), [6, 8])
    torch.testing.assert_close(got, expected[0], rtol=0, atol=0)
    out = torch.empty(2, 3, 8, 6).npu().transpose(2, 3)
    _, ledger = _on_path(path, lambda: torch.ops.aten.max_unpool2d.out(values.npu(), indices.npu(), [6, 8], out=out))
    assert ledger["max_unpool2d.out"][path] == 1
    torch.testing.assert_close(out.cpu(), expected, rtol=0, atol=0)
    values3, indices3 = F.max_pool3d(torch.randn(2, 2, 4, 4, 4, generator=generator), 2, return_indices=True)
    args3 = ([4, 4, 4], [2, 2, 2], [0, 0, 0])
    got, ledger = _on_path(path, torch.ops.aten.max_unpool3d, values3.npu(), indices3.npu(), *args3)
    assert ledger["max_unpool3d"][path] == 1
    torch.testing.assert_close(got, torch.ops.aten.max_unpool3d(values3, indices3, *args3), rtol=0, atol=0)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
def test_an_index_outside_the_output_faults_on_each_path(path) -> None:
    values, indices = F.max_pool2d(torch.randn(1, 1, 4, 4), 2, return_indices=True)
    indices[0, 0, 0, 0] = 1000
    with pytest.raises(RuntimeError, match="index 1000 is out"):
        _on_path(path, torch.ops.aten.max_unpool2d, values.npu(), indices.npu(), [4, 4])
