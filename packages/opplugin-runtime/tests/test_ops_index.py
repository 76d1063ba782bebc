"""cat, stack, index_select, embedding (+ backward), arange and the composite factories
on npu against CPU, with NPU_FALLBACK=error (nothing may run on the CPU)."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F


@pytest.fixture(autouse=True)
def _no_fallback():
    torch.npu.set_fallback_mode("error")


# ---- cat / stack ----
def test_cat_matches_cpu(ledger, assert_same):
    a, b, c = torch.randn(2, 3), torch.randn(4, 3), torch.randn(1, 3)
    assert_same(torch.cat([a.npu(), b.npu(), c.npu()]), torch.cat([a, b, c]))
    x, y = torch.randn(3, 2, 5), torch.randn(3, 7, 5)
    assert_same(torch.cat([x.npu(), y.npu()], dim=-2), torch.cat([x, y], dim=-2))
    assert ledger()["cat"]["op_api"] == 2


def test_cat_promotes_reads_views_and_skips_legacy_empty(assert_same):
    i = torch.arange(6, dtype=torch.int32).reshape(2, 3)
    f = torch.randn(3, 4).t()  # non-contiguous (4, 3)
    h = torch.randn(1, 3).half()
    empty = torch.empty(0)
    assert_same(torch.cat([i.npu(), f.npu(), empty.npu(), h.npu()]), torch.cat([i, f, empty, h]))
    assert_same(torch.cat([empty.npu(), empty.npu()]), torch.cat([empty, empty]))
    z = torch.randn(0, 4)
    assert_same(torch.cat([z.npu(), torch.ones(2, 4).npu()]), torch.cat([z, torch.ones(2, 4)]))


def test_cat_out_resizes_and_casts(ledger, assert_same):
    a, b = torch.randn(2, 3), torch.randn(2, 2)
    out = torch.empty(0, dtype=torch.float64, device="npu")
    result = torch.cat([a.npu(), b.npu()], dim=1, out=out)
    assert result.data_ptr() == out.data_ptr()
    assert_same(out, torch.cat([a, b], dim=1, out=torch.empty(0, dtype=torch.float64)))
    strided = torch.empty(5, 2, device="npu").t()  # out viewed transposed: (2, 5)
    torch.cat([a.npu(), b.npu()], dim=1, out=strided)
    assert_same(strided, torch.cat([a, b], dim=1))
    assert ledger()["cat.out"]["op_api"] == 2


def test_cat_errors_name_the_op():
    with pytest.raises(RuntimeError, match="cat: Sizes of tensors must match except in dimension 0"):
        torch.cat([torch.ones(2, 3, device="npu"), torch.ones(2, 4, device="npu")])
    with pytest.raises(RuntimeError, match="cat: Tensors must have same number of dimensions"):
        torch.cat([torch.ones(2, 3, device="npu"), torch.ones(3, device="npu")])
    with pytest.raises(RuntimeError, match="cat: zero-dimensional tensor"):
        torch.cat([torch.tensor(1.0, device="npu")])


def test_stack_is_cat_on_npu(ledger, assert_same):
    xs = [torch.randn(3, 4) for _ in range(3)]
    assert_same(torch.stack([x.npu() for x in xs], dim=1), torch.stack(xs, dim=1))
    assert_same(torch.stack([x.npu() for x in xs], dim=-1), torch.stack(xs, dim=-1))
    assert "cat" in ledger() or "cat.out" in ledger()


def test_cat_backward_through_autograd(assert_same):
    a, b = torch.randn(2, 3, requires_grad=True), torch.randn(4, 3, requires_grad=True)
    an, bn = a.detach().npu().requires_grad_(), b.detach().npu().requires_grad_()
    g = torch.randn(6, 3)
    torch.cat([a, b]).backward(g)
    torch.cat([an, bn]).backward(g.npu())
    assert_same(an.grad, a.grad)
    assert_same(bn.grad, b.grad)


# ---- index_select ----
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.float64, torch.int64,
                                   torch.int8, torch.bool])
def test_index_select_dtypes(dtype, assert_same):
    x = (torch.randn(5, 7) * 10).to(dtype)
    index = torch.tensor([4, 0, 0, 2])
    assert_same(x.npu().index_select(0, index.npu()), x.index_select(0, index))
    assert_same(x.npu().index_select(1, index.int().npu()), x.index_select(1, index.int()))


def test_index_select_shapes_views_and_negative_dims(ledger, assert_same):
    x = torch.randn(3, 4, 5)
    index = torch.tensor([1, 1, 0])
    assert_same(x.npu().index_select(-1, index.npu()), x.index_select(-1, index))
    t = torch.randn(6, 8).t()  # non-contiguous (8, 6)
    assert_same(t.npu().index_select(0, torch.tensor([7, 2]).npu()), t.index_select(0, torch.tensor([7, 2])))
    assert_same(x.npu().index_select(1, torch.tensor([], dtype=torch.long).npu()),
                x.index_select(1, torch.tensor([], dtype=torch.long)))
    s = torch.tensor(3.5)
    assert_same(s.npu().index_select(0, torch.tensor([0]).npu()), s.index_select(0, torch.tensor([0])))
    big = torch.randn(1000, 129)
    index = torch.randint(0, 1000, (517,))
    assert_same(big.npu().index_select(0, index.npu()), big.index_select(0, index))
    assert ledger()["index_select"]["op_api"] == 5


def test_index_select_out(ledger, assert_same):
    x, index = torch.randn(4, 3), torch.tensor([3, 1])
    out = torch.empty(0, device="npu")
    torch.index_select(x.npu(), 0, index.npu(), out=out)
    assert_same(out, x.index_select(0, index))
    assert ledger()["index_select.out"]["op_api"] == 1
    with pytest.raises(RuntimeError, match=r"index_select\.out: self and out must have the same scalar type"):
        torch.index_select(x.npu(), 0, index.npu(), out=torch.empty(0, dtype=torch.float64, device="npu"))


def test_index_select_errors_name_the_op():
    x = torch.randn(4, 3, device="npu")
    with pytest.raises(RuntimeError, match="index_select: Expected dtype int32 or int64 for index"):
        x.index_select(0, torch.tensor([1.0], device="npu"))
    with pytest.raises(RuntimeError, match="index_select: Index is supposed to be a vector"):
        x.index_select(0, torch.tensor([[1]], device="npu"))
    with pytest.raises(IndexError, match="Dimension out of range"):
        x.index_select(2, torch.tensor([1], device="npu"))


def test_out_of_range_index_is_a_device_error_naming_the_op(run_python):
    result = run_python(
        """
        import torch, opplugin_runtime
        x = torch.randn(4, 3, device="npu")
        try:
            x.index_select(0, torch.tensor([1, 4], device="npu"))
        except RuntimeError as error:
            print("raised:", error)
        torch.npu.synchronize()
        w = torch.randn(5, 2, device="npu")
        try:
            torch.nn.functional.embedding(torch.tensor([7], device="npu"), w)
        except RuntimeError as error:
            print("raised:", error)
        print("alive", x.index_select(0, torch.tensor([3], device="npu")).shape)
        """,
        env={"ASCEND_LAUNCH_BLOCKING": "1", "NPU_FALLBACK": "error"},
    )
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stdout.splitlines() if line.startswith("raised:")]
    assert len(lines) == 2, result.stdout
    assert "index_select_custom" in lines[0] and "aclnnIndexSelect" in lines[0]
    assert "index 4 is out of range for a dimension of size 4" in lines[0]
    assert "index 7 is out of range for a dimension of size 5" in lines[1]
    assert "alive torch.Size([1, 3])" in result.stdout


# ---- embedding ----
@pytest.mark.parametrize("padding_idx,scale", [(None, False), (2, False), (-1, False), (None, True)])
def test_embedding_forward_and_backward(padding_idx, scale, ledger, assert_same):
    w = torch.randn(10, 6, requires_grad=True)
    wn = w.detach().npu().requires_grad_()
    idx = torch.tensor([[1, 2, 2, 9], [9, 0, 2, 1]])
    y = F.embedding(idx, w, padding_idx=padding_idx, scale_grad_by_freq=scale)
    yn = F.embedding(idx.npu(), wn, padding_idx=padding_idx, scale_grad_by_freq=scale)
    assert_same(yn, y)
    g = torch.randn_like(y)
    y.backward(g)
    yn.backward(g.npu())
    assert_same(wn.grad, w.grad)
    counts = ledger()
    assert counts["index_select"]["op_api"] == 1 and counts["embedding_dense_backward"]["op_api"] == 1


GRAD_LAYOUTS = {  # base shape, view of it with shape (4, 3, 6)
    "dense": ((4, 3, 6), lambda t: t),
    "transposed": ((3, 4, 6), lambda t: t.transpose(0, 1)),
    "sliced": ((4, 3, 12), lambda t: t[..., ::2]),
    "expanded": ((1, 3, 6), lambda t: t.expand(4, 3, 6)),
}
INDEX_LAYOUTS = {  # base shape, view of it with shape (4, 3)
    "dense": ((4, 3), lambda t: t),
    "transposed": ((3, 4), lambda t: t.t()),
    "sliced": ((4, 6), lambda t: t[:, ::2]),
}


@pytest.mark.parametrize("index_layout", list(INDEX_LAYOUTS))
@pytest.mark.parametrize("grad_layout", list(GRAD_LAYOUTS))
def test_embedding_dense_backward_reads_any_layout(grad_layout, index_layout, assert_same):
    """grad has one more dimension than the (rows, dim) matrix the kernel reads: it is
    reshaped, never broadcast, whatever its strides (and so are the indices)."""
    g = torch.Generator().manual_seed(5)
    grad_shape, grad_view = GRAD_LAYOUTS[grad_layout]
    index_shape, index_view = INDEX_LAYOUTS[index_layout]
    grad_base = torch.randn(grad_shape, generator=g)
    index_base = torch.randint(0, 7, index_shape, generator=g)
    grad, idx = grad_view(grad_base), index_view(index_base)
    grad_npu, idx_npu = grad_view(grad_base.npu()), index_view(index_base.npu())
    assert grad_npu.stride() == grad.stride() and idx_npu.stride() == idx.stride()
    for scale in (False, True):
        want = torch.ops.aten.embedding_dense_backward(grad, idx, 7, 2, scale)
        got = torch.ops.aten.embedding_dense_backward(grad_npu, idx_npu, 7, 2, scale)
        assert_same(got, want, rtol=1e-5, atol=1e-5)


def test_embedding_module_int32_indices_and_half(assert_same):
    emb = torch.nn.Embedding(50, 16)
    emb_n = torch.nn.Embedding(50, 16).npu()
    emb_n.load_state_dict(emb.state_dict())
    idx = torch.randint(0, 50, (4, 33), dtype=torch.int32)
    assert_same(emb_n(idx.npu()), emb(idx))
    w = torch.randn(7, 5).half()
    idx = torch.tensor([0, 6, 6, 3])
    g = torch.randn(4, 5).half()
    want = torch.ops.aten.embedding_dense_backward(g.float(), idx, 7, -1, False).half()
    got = torch.ops.aten.embedding_dense_backward(g.npu(), idx.npu(), 7, -1, False)
    assert_same(got, want)
    assert_same(F.embedding(idx.npu(), w.npu()), F.embedding(idx, w))


def test_embedding_dense_backward_errors_name_the_op():
    g = torch.randn(2, 3, device="npu")
    with pytest.raises(RuntimeError, match="embedding_dense_backward: Expected tensor for argument #1 'indices'"):
        torch.ops.aten.embedding_dense_backward(g, torch.tensor([0.0, 1.0], device="npu"), 4, -1, False)
    with pytest.raises(RuntimeError, match="embedding_dense_backward: grad_output of dtype Double"):
        torch.ops.aten.embedding_dense_backward(g.double(), torch.tensor([0, 1], device="npu"), 4, -1, False)


# ---- arange and the composite factories ----
@pytest.mark.parametrize("args,dtype", [((10,), None), ((0,), None), ((3, 10007), None), ((10, -7, -3), None),
                                        ((0.5, 7.25, 0.25), None), ((-1.0, 1.0, 0.1), torch.float64),
                                        ((0, 50, 2), torch.float16), ((1, 20, 3), torch.int32),
                                        ((0.5, 10, 1.5), torch.int64), ((0, 1, 0.1), torch.bfloat16)])
def test_arange_matches_cpu(args, dtype, ledger, assert_same):
    assert_same(torch.arange(*args, dtype=dtype, device="npu"), torch.arange(*args, dtype=dtype))
    assert ledger()["arange.start_out"]["op_api"] == 1


def test_arange_out_and_errors(assert_same):
    out = torch.empty(3, dtype=torch.int64, device="npu")
    with pytest.warns(UserWarning, match="will be resized"):
        torch.arange(5, out=out)
    assert_same(out, torch.arange(5))
    with pytest.raises(RuntimeError, match=r"arange\.start_out: step must be nonzero"):
        torch.arange(0, 5, 0, device="npu")
    with pytest.raises(RuntimeError, match=r"arange\.start_out: upper bound and larger bound inconsistent"):
        torch.arange(5, 0, 1, device="npu")


def test_factories_stay_on_npu(ledger, assert_same):
    assert_same(torch.zeros(2, 3, device="npu"), torch.zeros(2, 3))
    assert_same(torch.ones(4, dtype=torch.int32, device="npu"), torch.ones(4, dtype=torch.int32))
    assert_same(torch.full((2, 2), 3.5, device="npu"), torch.full((2, 2), 3.5))
    assert_same(torch.zeros(0, device="npu"), torch.zeros(0))
    assert all(paths["cpu_fallback"] == 0 for paths in ledger().values())  # also: NPU_FALLBACK=error


# ---- gather / scatter / scatter_add / index_add ----
def test_gather_forward_and_backward(ledger, assert_same):
    x = torch.randn(4, 6, requires_grad=True)
    xn = x.detach().npu().requires_grad_()
    index = torch.tensor([[0, 5, 5], [3, 2, 1]])
    y, yn = torch.gather(x, 1, index), torch.gather(xn, 1, index.npu())
    assert_same(yn, y)
    g = torch.randn_like(y)
    y.backward(g)  # gather's backward: zeros + scatter_add_
    yn.backward(g.npu())
    assert_same(xn.grad, x.grad)
    counts = ledger()
    assert counts["gather.out"]["op_api"] == 1 and counts["scatter_add.out"]["op_api"] == 1


def test_gather_dtypes_views_and_out(assert_same):
    for dtype in (torch.float16, torch.int64, torch.bool, torch.float64):
        x = (torch.randn(3, 5, 2) * 5).to(dtype)
        index = torch.randint(0, 3, (2, 5, 2))
        assert_same(torch.gather(x.npu(), 0, index.npu()), torch.gather(x, 0, index))
    t = torch.randn(7, 4).t()
    index = torch.randint(0, 7, (4, 9))
    assert_same(torch.gather(t.npu(), -1, index.npu()), torch.gather(t, -1, index))
    out = torch.empty(0, device="npu")
    torch.gather(t.npu(), 1, index.npu(), out=out)
    assert_same(out, torch.gather(t, 1, index))
    assert_same(torch.gather(t.npu(), 1, index[:0].npu()), torch.gather(t, 1, index[:0]))


def test_scatter_variants(ledger, assert_same):
    x = torch.zeros(3, 6)
    index = torch.tensor([[0, 2, 4], [1, 3, 5], [5, 4, 3]])  # no repeats within a row
    src = torch.arange(12.0).reshape(3, 4)
    assert_same(x.npu().scatter(1, index.npu(), src.npu()), x.scatter(1, index, src))
    assert_same(x.npu().scatter(1, index.npu(), 2.5), x.scatter(1, index, 2.5))
    n = x.npu()
    n.scatter_(1, index.npu(), src.npu())
    assert_same(n, x.clone().scatter_(1, index, src))
    n.scatter_(0, torch.tensor([[2, 0]]).npu(), -1.0)
    assert_same(n, x.clone().scatter_(1, index, src).scatter_(0, torch.tensor([[2, 0]]), -1.0))
    repeated = torch.randint(0, 6, (3, 8))
    values = torch.randn(3, 8)
    assert_same(x.npu().scatter_add(1, repeated.npu(), values.npu()), x.scatter_add(1, repeated, values))
    m = x.npu()
    m.scatter_add_(1, repeated.npu(), values.npu())
    assert_same(m, x.clone().scatter_add_(1, repeated, values))
    counts = ledger()
    assert counts["scatter.src_out"]["op_api"] == 2 and counts["scatter.value_out"]["op_api"] == 2
    assert counts["scatter_add.out"]["op_api"] == 2


def test_scatter_backward(assert_same):
    x, src = torch.randn(3, 6, requires_grad=True), torch.randn(3, 4, requires_grad=True)
    xn, srcn = x.detach().npu().requires_grad_(), src.detach().npu().requires_grad_()
    index = torch.tensor([[0, 2, 4, 1], [1, 3, 5, 0], [5, 4, 3, 2]])
    y, yn = x.scatter_add(1, index, src), xn.scatter_add(1, index.npu(), srcn)
    g = torch.randn(3, 6)
    y.backward(g)
    yn.backward(g.npu())
    assert_same(xn.grad, x.grad)
    assert_same(srcn.grad, src.grad)


def test_index_add_and_index_select_backward(ledger, assert_same):
    x, source = torch.randn(5, 3), torch.randn(4, 3)
    index = torch.tensor([4, 0, 4, 2])
    assert_same(x.npu().index_add(0, index.npu(), source.npu(), alpha=2), x.index_add(0, index, source, alpha=2))
    n = x.npu()
    n.index_add_(1, torch.tensor([2, 2]).npu(), torch.ones(5, 2).npu())
    assert_same(n, x.clone().index_add_(1, torch.tensor([2, 2]), torch.ones(5, 2)))
    i = torch.arange(6, dtype=torch.int32).reshape(3, 2)
    assert_same(i.npu().index_add(0, torch.tensor([1]).npu(), torch.full((1, 2), 7, dtype=torch.int32).npu()),
                i.index_add(0, torch.tensor([1]), torch.full((1, 2), 7, dtype=torch.int32)))
    w = torch.randn(6, 4, requires_grad=True)
    wn = w.detach().npu().requires_grad_()
    rows = torch.tensor([5, 1, 1])
    y, yn = w.index_select(0, rows), wn.index_select(0, rows.npu())
    g = torch.randn(3, 4)
    y.backward(g)
    yn.backward(g.npu())
    assert_same(wn.grad, w.grad)
    assert ledger()["index_add_"]["op_api"] >= 2
    with pytest.raises(RuntimeError, match="index_add: Number of indices"):
        x.npu().index_add(0, torch.tensor([0, 1]).npu(), source.npu())


def test_gather_out_of_range_is_a_device_error(run_python):
    result = run_python(
        """
        import torch, opplugin_runtime
        x = torch.randn(4, 3, device="npu")
        try:
            torch.gather(x, 0, torch.tensor([[0, 9, 1]], device="npu"))
        except RuntimeError as error:
            print("raised:", error)
        """,
        env={"ASCEND_LAUNCH_BLOCKING": "1"},
    )
    assert result.returncode == 0, result.stderr
    assert "gather: index 9 is out of bounds for dimension 0 with size 4" in result.stdout
