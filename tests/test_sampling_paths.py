"""randperm and multinomial on both paths: each run once on op_api (jit_compile=False) and once on acl_op
(jit_compile=True) took that path; a randperm is a permutation of 0..n-1 in the out dtype; multinomial's
draws follow the weights (a zero weight is never drawn; without replacement a row has no repeats; with
replacement the frequencies are near the weights); and after the same torch.npu.manual_seed both paths
draw the same numbers (one Philox stream, one kernel)."""

from __future__ import annotations

import opplugin_runtime  # noqa: F401
import pytest
import torch
from forced_path import on_path  # tests/conftest.py loads it

PATHS = ["op_api", "acl_op"]


def seeded(path: str, op: str, fn):
    torch.npu.manual_seed(1234)
    return on_path(path, op, fn).cpu()


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.float32, torch.float16])
@pytest.mark.parametrize("n", [0, 1, 7, 1000])
def test_randperm(n: int, dtype: torch.dtype) -> None:
    results = {path: seeded(path, "randperm.generator_out", lambda: torch.randperm(n, dtype=dtype, device="npu"))
               for path in PATHS}
    for result in results.values():
        assert result.dtype == dtype and result.shape == (n,)
        assert torch.equal(result.long().sort().values, torch.arange(n))
    torch.testing.assert_close(results["op_api"], results["acl_op"], rtol=0, atol=0)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.float64])
def test_multinomial_follows_the_weights(dtype: torch.dtype) -> None:
    weights = torch.tensor([[0.0, 1.0, 3.0, 0.0, 4.0], [2.0, 2.0, 0.0, 4.0, 0.0]], dtype=dtype)
    draws = {}
    for path in PATHS:
        with_replacement = seeded(path, "multinomial",
                                  lambda: torch.multinomial(weights.npu(), 4000, replacement=True))
        frequencies = torch.stack([torch.bincount(row, minlength=5) for row in with_replacement]).double() / 4000
        torch.testing.assert_close(frequencies, (weights / weights.sum(1, keepdim=True)).double(), atol=0.03, rtol=0)
        without = seeded(path, "multinomial", lambda: torch.multinomial(weights.npu(), 3))
        for row, w in zip(without, weights):
            assert len(set(row.tolist())) == 3 and all(w[i] > 0 for i in row.tolist())
        draws[path] = (with_replacement, without)
    for a, b in zip(draws["op_api"], draws["acl_op"]):
        assert torch.equal(a, b)


@pytest.mark.parametrize("path", PATHS)
def test_multinomial_out_and_its_checks(path: str) -> None:
    weights = torch.tensor([1.0, 2.0, 3.0])
    out = torch.empty(0, dtype=torch.long).npu()
    on_path(path, "multinomial.out", lambda: torch.multinomial(weights.npu(), 2, out=out))
    assert out.shape == (2,) and len(set(out.cpu().tolist())) == 2
    with pytest.raises(RuntimeError, match="cannot sample n_sample > prob_dist.size"):
        on_path(path, "multinomial", lambda: torch.multinomial(weights.npu(), 4))
