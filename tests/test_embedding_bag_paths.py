"""embedding_bag on both paths with the CPU fallback forbidden: _embedding_bag's and
_embedding_bag_forward_only's four outputs (the bags, offset2bag, bag_size, max_indices) equal CPU's for
sum, mean and max, padding_idx, per-sample weights, include_last_offset, empty bags, int32 and int64 indices
and four dtypes; nn.EmbeddingBag trains (the weight's and the per-sample weights' gradients equal CPU's);
bad offsets and indices fail naming the op."""

from __future__ import annotations

import opplugin_runtime  # noqa: F401
import pytest
import torch
import torch.nn.functional as F
from forced_path import on_path

DTYPES = [torch.float32, torch.float16, torch.bfloat16, torch.float64]
TOL = {torch.float32: (1e-5, 1e-5), torch.float64: (1e-12, 1e-12), torch.float16: (1e-3, 1e-3),
       torch.bfloat16: (8e-3, 8e-3)}
# (indices, offsets): bags [1 3 5 | 2 2 | 7 0 4 4] with an empty bag between; a single bag
CASES = [([1, 3, 5, 2, 2, 7, 0, 4, 4], [0, 3, 5, 5]), ([6, 1, 1, 6], [0])]


@pytest.fixture(autouse=True)
def _no_fallback():
    old = torch.npu.get_fallback_mode()
    torch.npu.set_fallback_mode("error")
    yield
    torch.npu.set_fallback_mode(old)


def _paths(dtype):
    return ["op_api"] if dtype == torch.float64 else ["op_api", "acl_op"]


@pytest.mark.parametrize("op", ["_embedding_bag", "_embedding_bag_forward_only"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode", [0, 1, 2])
@pytest.mark.parametrize("padding_idx", [-1, 2])
@pytest.mark.parametrize("include_last_offset", [False, True])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_the_four_outputs_equal_cpus(op, dtype, mode, padding_idx, include_last_offset, case) -> None:
    indices, offsets = CASES[case]
    generator = torch.Generator().manual_seed(case)
    weight = torch.randn(8, 5, generator=generator).to(dtype)
    weight[4, 1] = weight[0, 1]  # a tie for max
    idx = torch.tensor(indices)
    off = torch.tensor(offsets + ([len(indices)] if include_last_offset else []), dtype=torch.int32)
    psw = torch.rand(len(indices), generator=generator).to(dtype) if mode == 0 else None
    fn = getattr(torch.ops.aten, op)
    args = (False, mode, False)
    expected = fn(weight, idx, off, *args, psw, include_last_offset, padding_idx)
    for path in _paths(dtype):
        got = on_path(path, op, lambda: fn(weight.npu(), idx.npu(), off.npu(), *args,
                                           None if psw is None else psw.npu(), include_last_offset, padding_idx))
        rtol, atol = TOL[dtype]
        torch.testing.assert_close(got[0].cpu(), expected[0], rtol=rtol, atol=atol,
                                   msg=lambda m, p=path: f"{p} bags: {m}")
        for name, g, e in zip(("offset2bag", "bag_size", "max_indices"), got[1:], expected[1:]):
            assert g.dtype == e.dtype and g.shape == e.shape, (path, name, g.dtype, g.shape, e.dtype, e.shape)
            torch.testing.assert_close(g.cpu(), e, msg=lambda m, n=name, p=path: f"{p} {n}: {m}")


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("padding_idx", [None, 3])
@pytest.mark.parametrize("path", ["op_api", "acl_op"])
def test_embedding_bag_trains_as_on_cpu(dtype, mode, padding_idx, path) -> None:
    generator = torch.Generator().manual_seed(1)
    bag = torch.nn.EmbeddingBag(10, 6, mode=mode, padding_idx=padding_idx).to(dtype)
    inputs = torch.randint(0, 10, (4, 3), generator=generator)
    inputs[1, 1] = 3
    grad = torch.randn(4, 6, generator=generator).to(dtype)
    npu_bag = torch.nn.EmbeddingBag(10, 6, mode=mode, padding_idx=padding_idx).to(dtype).npu()
    npu_bag.load_state_dict(bag.state_dict())
    bag(inputs).backward(grad)
    on_path(path, "_embedding_bag", lambda: npu_bag(inputs.npu()).backward(grad.npu()))
    rtol, atol = TOL[dtype]
    torch.testing.assert_close(npu_bag.weight.grad.cpu(), bag.weight.grad, rtol=rtol * 4, atol=atol * 4)


@pytest.mark.parametrize("mode", ["sum", "mean"])
def test_scale_grad_by_freq_divides_by_each_words_count(mode) -> None:
    # against the definition, not CPU: CPU's kernel divides by the count of another word (CUDA's does not)
    generator = torch.Generator().manual_seed(3)
    idx, off = torch.tensor([5, 1, 5, 2, 5, 1, 7]), torch.tensor([0, 3, 5])
    grad = torch.randn(3, 3, generator=generator)
    weight = torch.randn(10, 3, generator=generator).npu().requires_grad_()
    on_path("op_api", "_embedding_bag", lambda: F.embedding_bag(
        idx.npu(), weight, off.npu(), mode=mode, scale_grad_by_freq=True).backward(grad.npu()))
    counts, bags, sizes = torch.bincount(idx, minlength=10), [0, 0, 0, 1, 1, 2, 2], [3, 2, 2]
    expected = torch.zeros(10, 3)
    for word, bag in zip(idx.tolist(), bags):
        expected[word] += grad[bag] / counts[word] / (sizes[bag] if mode == "mean" else 1)
    torch.testing.assert_close(weight.grad.cpu(), expected)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
def test_per_sample_weights_get_their_gradient(path) -> None:
    generator = torch.Generator().manual_seed(2)
    weight = torch.randn(9, 4, generator=generator, requires_grad=True)
    psw = torch.rand(7, generator=generator, requires_grad=True)
    idx, off = torch.tensor([1, 2, 8, 2, 0, 5, 2]), torch.tensor([0, 2, 2, 5])
    grad = torch.randn(4, 4, generator=generator)
    F.embedding_bag(idx, weight, off, mode="sum", per_sample_weights=psw, padding_idx=2).backward(grad)
    w, p = weight.detach().npu().requires_grad_(), psw.detach().npu().requires_grad_()
    on_path(path, "_embedding_bag_per_sample_weights_backward", lambda: F.embedding_bag(
        idx.npu(), w, off.npu(), mode="sum", per_sample_weights=p, padding_idx=2).backward(grad.npu()))
    torch.testing.assert_close(w.grad.cpu(), weight.grad)
    torch.testing.assert_close(p.grad.cpu(), psw.grad)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
def test_bad_offsets_and_indices_fail_naming_the_op(path) -> None:
    weight = torch.randn(5, 3).npu()
    with pytest.raises(RuntimeError, match="offsets\\[0\\] has to be 0"):
        on_path(path, "_embedding_bag_forward_only",
                lambda: F.embedding_bag(torch.tensor([1, 2]).npu(), weight, torch.tensor([1]).npu()).cpu())
    with pytest.raises(RuntimeError, match="offsets\\[-1\\] can not be greater than input's length 2"):
        on_path(path, "_embedding_bag_forward_only",
                lambda: F.embedding_bag(torch.tensor([1, 2]).npu(), weight, torch.tensor([0, 3]).npu()).cpu())
    with pytest.raises(RuntimeError, match="Expected idx >= 0 && idx < num_embeddings but found idx to be 7"):
        on_path(path, "_embedding_bag_forward_only",
                lambda: F.embedding_bag(torch.tensor([1, 7]).npu(), weight, torch.tensor([0]).npu()).cpu())
    with pytest.raises(RuntimeError, match="per_sample_weights only supported with mode='sum'"):
        torch.ops.aten._embedding_bag(weight, torch.tensor([1]).npu(), torch.tensor([0]).npu(), False, 1, False,
                                      torch.ones(1).npu())


def test_a_double_weight_is_refused_on_the_acl_op_path() -> None:
    with pytest.raises(RuntimeError, match="_embedding_bag_forward_only: weight of dtype Double is not supported on "
                                           "the acl_op path"):
        on_path("acl_op", "_embedding_bag_forward_only", lambda: F.embedding_bag(
            torch.tensor([1]).npu(), torch.randn(3, 2, dtype=torch.float64).npu(), torch.tensor([0]).npu()))
