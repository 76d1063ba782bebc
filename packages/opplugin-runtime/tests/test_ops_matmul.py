"""mm / bmm / addmm / baddbmm and what torch.matmul and F.linear reach, on both
paths (op_api: aclnnMm/Bmm/Addmm/Baddbmm; acl_op: MatMulV2/BatchMatMul), against CPU."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

PATHS = pytest.mark.parametrize("jit_compile", [False, True], ids=["op_api", "acl_op"])
# The cube accumulates in float32 in another order than CPU BLAS.
TOL = {torch.float32: {"rtol": 1e-5, "atol": 1e-4}, torch.float16: {"rtol": 2e-3, "atol": 2e-3},
       torch.bfloat16: {"rtol": 1.6e-2, "atol": 1e-2}}


def _path(jit_compile: bool) -> str:
    torch.npu.set_compile_mode(jit_compile=jit_compile)
    return "acl_op" if jit_compile else "op_api"


def _reference(fn, *tensors, dtype=torch.float32):
    """fn on CPU; 16-bit inputs computed in float32 and rounded once (the kernels' float32 accumulation)."""
    if dtype == torch.float32:
        return fn(*tensors)
    return fn(*(t.float() for t in tensors)).to(dtype)


@PATHS
@pytest.mark.parametrize("m,k,n", [(0, 3, 4), (3, 0, 4), (1, 1, 1), (7, 13, 5), (129, 31, 257), (64, 300, 17)])
def test_mm_matches_cpu(jit_compile, ledger, assert_same, m, k, n):
    path = _path(jit_compile)
    a, b = torch.randn(m, k), torch.randn(k, n)
    with torch.npu.expect_paths({"mm": path}):
        assert_same(torch.mm(a.npu(), b.npu()), torch.mm(a, b), **TOL[torch.float32])
    assert ledger()["mm"][path] == 1


@PATHS
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_mm_16_bit(jit_compile, assert_same, dtype):
    path = _path(jit_compile)
    a, b = torch.randn(33, 70).to(dtype), torch.randn(70, 19).to(dtype)
    with torch.npu.expect_paths({"mm": path, "bmm": path}):
        assert_same(torch.mm(a.npu(), b.npu()), _reference(torch.mm, a, b, dtype=dtype), **TOL[dtype])
        a3, b3 = torch.randn(3, 9, 20).to(dtype), torch.randn(3, 20, 7).to(dtype)
        assert_same(torch.bmm(a3.npu(), b3.npu()), _reference(torch.bmm, a3, b3, dtype=dtype), **TOL[dtype])


@PATHS
def test_mm_of_transposed_operands(jit_compile, ledger, assert_same):
    path = _path(jit_compile)
    a, b = torch.randn(40, 23), torch.randn(31, 40)
    with torch.npu.expect_paths({"mm": path}):
        assert_same(torch.mm(a.npu().t(), b.npu().t()), a.t() @ b.t(), **TOL[torch.float32])
        assert_same(torch.mm(a.npu().t(), a.npu()), a.t() @ a, **TOL[torch.float32])
        # a sliced (not dense) operand is copied first
        c = torch.randn(23, 40)
        assert_same(torch.mm(a.npu()[::2], c.npu()[:, ::3]), a[::2] @ c[:, ::3], **TOL[torch.float32])
    assert ledger()["mm"][path] == 3


@PATHS
def test_mm_out_and_errors(jit_compile, assert_same):
    path = _path(jit_compile)
    a, b = torch.randn(4, 6), torch.randn(6, 5)
    out = torch.empty(0).npu()
    with torch.npu.expect_paths({"mm.out": path}):
        r = torch.mm(a.npu(), b.npu(), out=out)
    assert r is out
    assert_same(out, a @ b, **TOL[torch.float32])
    strided = torch.zeros(5, 4).npu().t()  # a non-contiguous out of the right shape
    torch.mm(a.npu(), b.npu(), out=strided)
    assert_same(strided, a @ b, **TOL[torch.float32])
    with pytest.raises(RuntimeError, match=r"mm: mat1 and mat2 shapes cannot be multiplied \(4x6 and 5x6\) "
                                           r"\(mm: self and mat2\)"):
        torch.mm(a.npu(), torch.randn(5, 6).npu())
    with pytest.raises(RuntimeError, match="mm: self and mat2 must have the same dtype"):
        torch.mm(a.npu(), b.half().npu())
    with pytest.raises(RuntimeError, match="mm: self has dtype Int, which the npu matmul kernels do not support"):
        torch.mm(torch.ones(2, 2, dtype=torch.int32).npu(), torch.ones(2, 2, dtype=torch.int32).npu())
    with pytest.raises(RuntimeError, match="mm: self must be a matrix, got 3-D tensor"):
        torch.mm(torch.randn(2, 2, 2).npu(), b.npu())
    with pytest.raises(RuntimeError, match="mm_out: out has dtype Double"):
        torch.mm(a.npu(), b.npu(), out=torch.empty(4, 5, dtype=torch.float64).npu())


@PATHS
@pytest.mark.parametrize("batch,m,k,n", [(0, 2, 3, 4), (1, 1, 1, 1), (3, 7, 13, 5), (2, 129, 33, 130)])
def test_bmm_matches_cpu(jit_compile, ledger, assert_same, batch, m, k, n):
    path = _path(jit_compile)
    a, b = torch.randn(batch, m, k), torch.randn(batch, k, n)
    with torch.npu.expect_paths({"bmm": path, "bmm.out": path}):
        assert_same(torch.bmm(a.npu(), b.npu()), torch.bmm(a, b), **TOL[torch.float32])
        # transposed batches (transpose(1, 2) of dense tensors) are read as stored
        at, bt = a.transpose(1, 2).contiguous(), b.transpose(1, 2).contiguous()
        assert_same(torch.bmm(at.npu().transpose(1, 2), bt.npu().transpose(1, 2)), torch.bmm(a, b),
                    **TOL[torch.float32])
        out = torch.empty(0).npu()
        torch.bmm(a.npu(), b.npu(), out=out)
        assert_same(out, torch.bmm(a, b), **TOL[torch.float32])
    assert ledger()["bmm"][path] == 2
    with pytest.raises(RuntimeError, match=r"bmm: self \[2, 3, 4\] and mat2 \[3, 4, 5\] cannot be multiplied: "
                                           r"Expected size for first two dimensions of batch2 tensor to be: "
                                           r"\[2, 4\] but got: \[3, 4\]."):
        torch.bmm(torch.randn(2, 3, 4).npu(), torch.randn(3, 4, 5).npu())


ADDMM_CASES = [
    # (self shape, m, k, n, beta, alpha)
    ((5,), 3, 4, 5, 1, 1),          # F.linear's bias: the kernel's bias table / MatMulV2's bias input
    ((1, 5), 3, 4, 5, 0.5, 2),
    ((3, 5), 3, 4, 5, 1, 1),
    ((3, 1), 3, 4, 5, -1.5, 0.25),
    ((), 3, 4, 5, 2, 1),
    ((131,), 129, 257, 131, 1, 1),
    ((4, 6), 4, 0, 6, 1, 1),         # K = 0: beta * self
    ((0,), 2, 3, 0, 1, 1),
    ((5,), 3, 4, 5, 1, 0),           # alpha = 0: the product does not contribute
]


@PATHS
@pytest.mark.parametrize("self_shape,m,k,n,beta,alpha", ADDMM_CASES)
def test_addmm_matches_cpu(jit_compile, ledger, assert_same, self_shape, m, k, n, beta, alpha):
    path = _path(jit_compile)
    s, a, b = torch.randn(self_shape), torch.randn(m, k), torch.randn(k, n)
    with torch.npu.expect_paths({"addmm": path, "addmm.out": path}):
        assert_same(torch.addmm(s.npu(), a.npu(), b.npu(), beta=beta, alpha=alpha),
                    torch.addmm(s, a, b, beta=beta, alpha=alpha), **TOL[torch.float32])
        out = torch.empty(0).npu()
        torch.addmm(s.npu(), a.npu(), b.npu(), beta=beta, alpha=alpha, out=out)
        assert_same(out, torch.addmm(s, a, b, beta=beta, alpha=alpha), **TOL[torch.float32])
    assert ledger()["addmm"][path] == 1


@PATHS
def test_addmm_beta_zero_ignores_nan_and_in_place(jit_compile, assert_same):
    path = _path(jit_compile)
    a, b = torch.randn(4, 3), torch.randn(3, 6)
    s = torch.full((4, 6), float("nan"))
    assert_same(torch.addmm(s.npu(), a.npu(), b.npu(), beta=0), torch.addmm(s, a, b, beta=0), **TOL[torch.float32])
    c = torch.randn(4, 6)
    with torch.npu.expect_paths({"addmm_": path}):
        cn = c.npu()
        r = cn.addmm_(a.npu(), b.npu(), beta=0.5, alpha=2)
        assert r is cn
        assert_same(cn, c.clone().addmm_(a, b, beta=0.5, alpha=2), **TOL[torch.float32])
        # self is also an operand: the result must not be written while the product still reads it
        sq = torch.randn(5, 5)
        sqn = sq.npu()
        sqn.addmm_(sqn, sqn)
        assert_same(sqn, sq.clone().addmm_(sq, sq), **TOL[torch.float32])
    with pytest.raises(RuntimeError, match=r"addmm: self of shape \[4\] cannot be broadcast to the result shape"):
        torch.addmm(torch.randn(4).npu(), a.npu(), b.npu())
    with pytest.raises(RuntimeError, match="addmm: self and the matrices must have the same dtype"):
        torch.addmm(torch.randn(6).half().npu(), a.npu(), b.npu())


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@PATHS
def test_addmm_16_bit(jit_compile, assert_same, dtype):
    _path(jit_compile)
    s, a, b = torch.randn(19).to(dtype), torch.randn(8, 40).to(dtype), torch.randn(40, 19).to(dtype)
    assert_same(torch.addmm(s.npu(), a.npu(), b.npu()), _reference(torch.addmm, s, a, b, dtype=dtype), **TOL[dtype])


@pytest.mark.parametrize("self_shape", [(6,), (4, 6), (3, 4, 6), (3, 1, 6), ()])
def test_baddbmm_matches_cpu(ledger, assert_same, self_shape):
    s, a, b = torch.randn(self_shape), torch.randn(3, 4, 5), torch.randn(3, 5, 6)
    with torch.npu.expect_paths({"baddbmm": "op_api", "baddbmm.out": "op_api"}):
        assert_same(torch.baddbmm(s.npu(), a.npu(), b.npu(), beta=0.5, alpha=2),
                    torch.baddbmm(s, a, b, beta=0.5, alpha=2), **TOL[torch.float32])
        out = torch.empty(0).npu()
        torch.baddbmm(s.npu(), a.npu(), b.npu(), out=out)
        assert_same(out, torch.baddbmm(s, a, b), **TOL[torch.float32])
    c = torch.randn(3, 4, 6)
    cn = c.npu()
    cn.baddbmm_(a.npu(), b.npu(), alpha=-1)
    assert_same(cn, c.clone().baddbmm_(a, b, alpha=-1), **TOL[torch.float32])
    assert ledger()["baddbmm"]["op_api"] == 1


MATMUL_SHAPES = [((3, 5), (5, 4)), ((5,), (5, 4)), ((3, 5), (5,)), ((5,), (5,)), ((2, 3, 5), (5,)),
                 ((2, 3, 5), (5, 4)), ((2, 3, 5), (2, 5, 4)),
                 ((2, 1, 3, 5), (4, 5, 6)), ((3, 5), (2, 5, 4)), ((7,), (2, 7, 3))]


@PATHS
@pytest.mark.parametrize("sa,sb", MATMUL_SHAPES)
def test_matmul_forward_and_backward(jit_compile, assert_same, sa, sb):
    """torch.matmul decomposes (CompositeImplicit) into mm / bmm and views; its backward too."""
    path = _path(jit_compile)
    a, b = torch.randn(sa, requires_grad=True), torch.randn(sb, requires_grad=True)
    an, bn = a.detach().npu().requires_grad_(), b.detach().npu().requires_grad_()
    with torch.npu.expect_paths({"mm": path, "bmm": path, "mv": path, "dot": path}):
        rn = torch.matmul(an, bn)
    r = torch.matmul(a, b)
    assert_same(rn.detach(), r.detach(), **TOL[torch.float32])
    g = torch.randn(r.shape)
    r.backward(g)
    rn.backward(g.npu())
    assert_same(an.grad, a.grad, **TOL[torch.float32])
    assert_same(bn.grad, b.grad, **TOL[torch.float32])


@PATHS
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("lead", [(), (3,), (2, 3)])
def test_linear_forward_and_backward(jit_compile, ledger, assert_same, bias, lead):
    path = _path(jit_compile)
    x = torch.randn(*lead, 20, requires_grad=True) if lead else torch.randn(20, requires_grad=True)
    w = torch.randn(17, 20, requires_grad=True)
    bvec = torch.randn(17, requires_grad=True) if bias else None
    xn = x.detach().npu().requires_grad_()
    wn = w.detach().npu().requires_grad_()
    bn = bvec.detach().npu().requires_grad_() if bias else None
    with torch.npu.expect_paths({"mm": path, "addmm": path}):
        rn = F.linear(xn, wn, bn)
    r = F.linear(x, w, bvec)
    assert_same(rn.detach(), r.detach(), **TOL[torch.float32])
    g = torch.randn(r.shape)
    r.backward(g)
    rn.backward(g.npu())
    assert_same(xn.grad, x.grad, **TOL[torch.float32])
    assert_same(wn.grad, w.grad, **TOL[torch.float32])
    if bias:
        assert_same(bn.grad, bvec.grad, **TOL[torch.float32])
    counts = ledger()
    assert counts.get("mm", {}).get("cpu_fallback", 0) == 0 and counts.get("addmm", {}).get("cpu_fallback", 0) == 0


@PATHS
def test_mm_addmm_backward(jit_compile, assert_same):
    _path(jit_compile)
    s, a, b = torch.randn(6, requires_grad=True), torch.randn(4, 5, requires_grad=True), torch.randn(5, 6,
                                                                                                  requires_grad=True)
    sn, an, bn = (t.detach().npu().requires_grad_() for t in (s, a, b))
    torch.addmm(s, a, b, beta=0.5, alpha=2).sum().backward()
    (torch.addmm(sn, an, bn, beta=0.5, alpha=2) * 1).sum().backward()
    for got, want in ((sn.grad, s.grad), (an.grad, a.grad), (bn.grad, b.grad)):
        assert_same(got, want, **TOL[torch.float32])
    a3, b3 = torch.randn(2, 3, 4, requires_grad=True), torch.randn(2, 4, 5, requires_grad=True)
    a3n, b3n = (t.detach().npu().requires_grad_() for t in (a3, b3))
    g = torch.randn(2, 3, 5)
    torch.bmm(a3, b3).backward(g)
    torch.bmm(a3n, b3n).backward(g.npu())
    assert_same(a3n.grad, a3.grad, **TOL[torch.float32])
    assert_same(b3n.grad, b3.grad, **TOL[torch.float32])


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_fractal_nz_weight_runs_on_acl_op(ledger, assert_same, dtype):
    """An NZ weight (npu_format_cast(w, 29)) is not a base format: the choice takes MatMulV2,
    which reads the FRACTAL_NZ operand."""
    x, w, bias = torch.randn(23, 50).to(dtype), torch.randn(50, 33).to(dtype), torch.randn(33).to(dtype)
    w_nz = torch.npu.npu_format_cast(w.npu(), 29)
    assert torch.npu.get_npu_format(w_nz) == 29
    with torch.npu.expect_paths({"mm": "acl_op", "addmm": "acl_op"}):
        assert_same(torch.mm(x.npu(), w_nz), _reference(torch.mm, x, w, dtype=dtype), **TOL[dtype])
        assert_same(torch.addmm(bias.npu(), x.npu(), w_nz), _reference(torch.addmm, bias, x, w, dtype=dtype),
                    **TOL[dtype])
    assert ledger()["mm"] == {"op_api": 0, "acl_op": 1, "compat": 0, "cpu_fallback": 0, "dvm": 0}
    assert torch.npu.get_npu_format(w_nz) == 29  # the weight kept its format


def test_missing_aclnn_symbols_fall_back_to_acl_op(run_python):
    result = run_python(
        """
        import torch, opplugin_runtime
        a, b, s = torch.randn(4, 6), torch.randn(6, 3), torch.randn(3)
        torch.testing.assert_close(torch.mm(a.npu(), b.npu()).cpu(), a @ b, rtol=1e-5, atol=1e-5)
        torch.testing.assert_close(torch.addmm(s.npu(), a.npu(), b.npu()).cpu(), torch.addmm(s, a, b),
                                   rtol=1e-5, atol=1e-5)
        ledger = torch.npu.path_ledger()
        print(ledger["mm"]["compat"], ledger["addmm"]["compat"])
        """,
        env={"NPU_HIDE_ACLNN_SYMBOLS": "aclnnMm,aclnnAddmm"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "1 1"


def test_mv_and_dot(ledger, assert_same):
    a, v, w = torch.randn(37, 300), torch.randn(300), torch.randn(300)
    with torch.npu.expect_paths({"mv": "op_api", "dot": "op_api"}):
        assert_same(torch.mv(a.npu(), v.npu()), torch.mv(a, v), **TOL[torch.float32])
        assert_same(torch.mv(a.t().contiguous().npu().t(), v.npu()), torch.mv(a, v), **TOL[torch.float32])
        assert_same(torch.dot(v.npu(), w.npu()), torch.dot(v, w), rtol=1e-5, atol=1e-3)
        assert_same(torch.dot(v[:0].npu(), w[:0].npu()), torch.dot(v[:0], w[:0]))
        h = v.half()
        assert_same(torch.dot(h.npu(), h.npu()), torch.dot(h.float(), h.float()).half(), rtol=2e-3, atol=1e-1)
    assert ledger()["mv"]["op_api"] == 2 and ledger()["dot"]["op_api"] == 3
    with pytest.raises(RuntimeError, match="dot: self and tensor must have the same size: inconsistent tensor size"):
        torch.dot(torch.randn(3).npu(), torch.randn(4).npu())
    with pytest.raises(RuntimeError, match=r"mv: self and vec cannot be multiplied: "
                                           r"size mismatch, got input \(3\), mat \(3x4\), vec \(5\)"):
        torch.mv(torch.randn(3, 4).npu(), torch.randn(5).npu())
