"""aclnnBmm, aclnnAddmm, aclnnBaddbmm, transposed operands read in place, and the
acl_op types MatMulV2 (bias, FRACTAL_NZ operands) and BatchMatMul against numpy."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import from_device, round_to, to_device

FLOATS = {"float32": sim.ACL_FLOAT, "float16": sim.ACL_FLOAT16, "bfloat16": sim.ACL_BF16}
NZ = sim.ACL_FORMAT_FRACTAL_NZ
ND = sim.ACL_FORMAT_ND


def _values(shape, acl_type, rng):
    return round_to(rng.standard_normal(shape).astype(np.float32), acl_type)


def _check(got, want, acl_type, k):
    """16-bit results are rounded once from a float32 accumulator."""
    want = round_to(np.asarray(want, np.float64).astype(np.float32), acl_type)
    rtol = {sim.ACL_FLOAT: 1e-5, sim.ACL_FLOAT16: 2e-3, sim.ACL_BF16: 1e-2}[acl_type]
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * 10 * np.sqrt(max(1, k)))


# ---- aclnnBmm ----
@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("b,m,k,n", [(0, 2, 3, 4), (2, 0, 3, 4), (3, 4, 0, 5), (1, 1, 1, 1), (3, 7, 13, 5),
                                     (2, 129, 31, 131)])
def test_bmm_matches_numpy(acl, dtype, b, m, k, n):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(b * 7 + m * 5 + k * 3 + n)
    x, y = _values((b, m, k), acl_type, rng), _values((b, k, n), acl_type, rng)
    dx, dy = to_device(x, acl_type), to_device(y, acl_type)
    out = sim.DeviceArray.empty((b, m, n), acl_type)
    sim.check(sim.run_aclnn("aclnnBmm", dx.tensor(), dy.tensor(), out.tensor(), 0))
    _check(from_device(out), np.matmul(x.astype(np.float64), y), acl_type, k)


def test_bmm_reads_transposed_batches_in_place(acl):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((3, 40, 30)).astype(np.float32)  # viewed as (3, 30, 40)
    y = rng.standard_normal((3, 20, 40)).astype(np.float32)  # viewed as (3, 40, 20)
    dx, dy = sim.DeviceArray.from_numpy(x), sim.DeviceArray.from_numpy(y)
    out = sim.DeviceArray.empty((3, 30, 20), sim.ACL_FLOAT)
    tx = dx.tensor(shape=(3, 30, 40), strides=(1200, 1, 30))
    ty = dy.tensor(shape=(3, 40, 20), strides=(800, 1, 40))
    rc, workspace, _ = sim.aclnn_workspace("aclnnBmm", tx, ty, out.tensor(), 0)
    assert rc == 0 and workspace == 0  # no transposed copy in the workspace
    sim.check(sim.run_aclnn("aclnnBmm", tx, ty, out.tensor(), 0))
    want = np.matmul(x.transpose(0, 2, 1).astype(np.float64), y.transpose(0, 2, 1))
    np.testing.assert_allclose(out.to_numpy(), want, rtol=1e-5, atol=1e-4)


def test_bmm_rejects_bad_arguments(acl):
    a = sim.DeviceArray.empty((2, 3, 4), sim.ACL_FLOAT)
    b = sim.DeviceArray.empty((3, 4, 5), sim.ACL_FLOAT)
    o = sim.DeviceArray.empty((2, 3, 5), sim.ACL_FLOAT)
    assert sim.aclnn_workspace("aclnnBmm", a.tensor(), b.tensor(), o.tensor(), 0)[0] == sim.ACLNN_ERR_PARAM_INVALID
    assert "aclnnBmm: self [2, 3, 4] and mat2 [3, 4, 5] cannot be multiplied" in sim.recent_error()
    i = sim.DeviceArray.empty((2, 4, 5), sim.ACL_INT32)
    assert sim.aclnn_workspace("aclnnBmm", a.tensor(), i.tensor(), o.tensor(), 0)[0] == sim.ACLNN_ERR_PARAM_INVALID
    assert sim.recent_error().startswith("aclnnBmm: mat2 has dtype ACL_INT32, which is not supported")


# ---- aclnnMm: transposed operands ----
@pytest.mark.parametrize("t1,t2", [(True, False), (False, True), (True, True)])
@pytest.mark.parametrize("dtype", list(FLOATS))
def test_mm_reads_transposed_operands_without_a_copy(acl, dtype, t1, t2):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(11)
    m, k, n = 37, 300, 131  # more than one K slice and N tile
    a = _values((k, m) if t1 else (m, k), acl_type, rng)
    b = _values((n, k) if t2 else (k, n), acl_type, rng)
    da, db = to_device(a, acl_type), to_device(b, acl_type)
    ta = da.tensor(shape=(m, k), strides=(1, m)) if t1 else da.tensor()
    tb = db.tensor(shape=(k, n), strides=(1, k)) if t2 else db.tensor()
    out = sim.DeviceArray.empty((m, n), acl_type)
    rc, workspace, _ = sim.aclnn_workspace("aclnnMm", ta, tb, out.tensor(), 0)
    assert rc == 0 and workspace == 0
    sim.check(sim.run_aclnn("aclnnMm", ta, tb, out.tensor(), 0))
    _check(from_device(out), (a.T if t1 else a).astype(np.float64) @ (b.T if t2 else b), acl_type, k)


# ---- aclnnAddmm / aclnnBaddbmm ----
ADDMM_CASES = [
    # (self shape, m, k, n, beta, alpha)
    ((5,), 3, 4, 5, 1.0, 1.0),        # F.linear's bias row: Mmad's bias table
    ((1, 5), 3, 4, 5, 0.5, 2.0),      # a row, scaled
    ((3, 5), 3, 4, 5, 1.0, 1.0),      # a matrix: the accumulator's initial value
    ((3, 1), 3, 4, 5, -1.5, 0.25),    # broadcast column (view-copied to a matrix)
    ((), 3, 4, 5, 2.0, 1.0),          # a scalar
    ((131,), 129, 257, 131, 1.0, 1.0),  # tails in every dimension, more than one K slice
    ((129, 131), 129, 70, 131, 0.75, -1.0),
    ((6,), 4, 0, 6, 1.0, 1.0),        # K = 0: the bias alone
    ((1,), 1, 1, 1, 3.0, 1.0),
    ((0,), 5, 3, 0, 1.0, 1.0),        # empty result
]


@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("self_shape,m,k,n,beta,alpha", ADDMM_CASES)
def test_addmm_matches_numpy(acl, dtype, self_shape, m, k, n, beta, alpha):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(m * 31 + k * 7 + n + len(self_shape))
    s, a, b = _values(self_shape, acl_type, rng), _values((m, k), acl_type, rng), _values((k, n), acl_type, rng)
    ds, da, db = to_device(s, acl_type), to_device(a, acl_type), to_device(b, acl_type)
    out = sim.DeviceArray.empty((m, n), acl_type)
    sim.check(sim.run_aclnn("aclnnAddmm", ds.tensor(), da.tensor(), db.tensor(), sim.Scalar(beta),
                            sim.Scalar(alpha), out.tensor(), 0))
    want = beta * s.astype(np.float64) + alpha * (a.astype(np.float64) @ b)
    _check(from_device(out), want, acl_type, k)


def test_addmm_beta_zero_ignores_nan_in_self_and_alpha_zero_skips_the_product(acl):
    rng = np.random.default_rng(2)
    s = np.full((4, 6), np.nan, np.float32)
    a, b = rng.standard_normal((4, 3)).astype(np.float32), rng.standard_normal((3, 6)).astype(np.float32)
    ds, da, db = (sim.DeviceArray.from_numpy(x) for x in (s, a, b))
    out = sim.DeviceArray.empty((4, 6), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnAddmm", ds.tensor(), da.tensor(), db.tensor(), sim.Scalar(0.0), sim.Scalar(2.0),
                            out.tensor(), 0))
    np.testing.assert_allclose(out.to_numpy(), 2 * (a.astype(np.float64) @ b), rtol=1e-5, atol=1e-5)
    a[0, 0] = np.inf
    da.upload(a)
    bias = rng.standard_normal((6,)).astype(np.float32)
    dbias = sim.DeviceArray.from_numpy(bias)
    sim.check(sim.run_aclnn("aclnnAddmm", dbias.tensor(), da.tensor(), db.tensor(), sim.Scalar(3.0),
                            sim.Scalar(0.0), out.tensor(), 0))
    np.testing.assert_allclose(out.to_numpy(), np.broadcast_to(3 * bias, (4, 6)), rtol=1e-6)


def test_addmm_with_transposed_weight_and_in_place_out(acl):
    """F.linear: x @ w.t() + b with w read as stored; addmm_ writes over self."""
    rng = np.random.default_rng(8)
    x, w = rng.standard_normal((9, 20)).astype(np.float32), rng.standard_normal((17, 20)).astype(np.float32)
    s = rng.standard_normal((9, 17)).astype(np.float32)
    ds, dx, dw = (sim.DeviceArray.from_numpy(v) for v in (s, x, w))
    tw = dw.tensor(shape=(20, 17), strides=(1, 20))
    sim.check(sim.run_aclnn("aclnnAddmm", ds.tensor(), dx.tensor(), tw, sim.Scalar(1.0), sim.Scalar(1.0),
                            ds.tensor(), 0))
    np.testing.assert_allclose(ds.to_numpy(), s + x.astype(np.float64) @ w.T, rtol=1e-5, atol=1e-5)


def test_addmm_rejects_bad_arguments(acl):
    s = sim.DeviceArray.empty((4,), sim.ACL_FLOAT)
    a = sim.DeviceArray.empty((3, 2), sim.ACL_FLOAT)
    b = sim.DeviceArray.empty((2, 5), sim.ACL_FLOAT)
    o = sim.DeviceArray.empty((3, 5), sim.ACL_FLOAT)
    one = sim.Scalar(1.0)
    rc, _, _ = sim.aclnn_workspace("aclnnAddmm", s.tensor(), a.tensor(), b.tensor(), one, one, o.tensor(), 0)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "aclnnAddmm: self [4] does not broadcast to [3, 5]" in sim.recent_error()
    i = sim.DeviceArray.empty((3, 2), sim.ACL_INT32)
    rc, _, _ = sim.aclnn_workspace("aclnnAddmm", o.tensor(), i.tensor(), b.tensor(), one, one, o.tensor(), 0)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert sim.recent_error().startswith("aclnnAddmm: mat1 has dtype ACL_INT32, which is not supported")
    h = sim.DeviceArray.empty((3, 5), sim.ACL_FLOAT16)
    rc, _, _ = sim.aclnn_workspace("aclnnAddmm", h.tensor(), a.tensor(), b.tensor(), one, one, o.tensor(), 0)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "aclnnAddmm: self has dtype ACL_FLOAT16 but mat1 has ACL_FLOAT" in sim.recent_error()


@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("self_shape", [(6,), (1, 1, 6), (4, 6), (3, 4, 6), (3, 1, 6)])
def test_baddbmm_matches_numpy(acl, dtype, self_shape):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(len(self_shape))
    s, a, b = _values(self_shape, acl_type, rng), _values((3, 4, 5), acl_type, rng), _values((3, 5, 6), acl_type, rng)
    ds, da, db = to_device(s, acl_type), to_device(a, acl_type), to_device(b, acl_type)
    out = sim.DeviceArray.empty((3, 4, 6), acl_type)
    sim.check(sim.run_aclnn("aclnnBaddbmm", ds.tensor(), da.tensor(), db.tensor(), sim.Scalar(0.5),
                            sim.Scalar(2.0), out.tensor(), 0))
    _check(from_device(out), 0.5 * s.astype(np.float64) + 2.0 * np.matmul(a.astype(np.float64), b), acl_type, 5)


def test_baddbmm_rejects_an_unsupported_dtype(acl):
    a = sim.DeviceArray.empty((2, 3, 4), sim.ACL_INT64)
    b = sim.DeviceArray.empty((2, 4, 5), sim.ACL_INT64)
    o = sim.DeviceArray.empty((2, 3, 5), sim.ACL_INT64)
    one = sim.Scalar(1.0)
    rc, _, _ = sim.aclnn_workspace("aclnnBaddbmm", o.tensor(), a.tensor(), b.tensor(), one, one, o.tensor(), 0)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert sim.recent_error().startswith("aclnnBaddbmm: batch1 has dtype ACL_INT64, which is not supported")


# ---- acl_op MatMulV2 (bias, FRACTAL_NZ) and BatchMatMul ----
def _nz(a: np.ndarray) -> np.ndarray:
    """CANN's FRACTAL_NZ of a 2-D [M, N]: [ceil(N / 16), ceil(M / 16), 16, 16] (C0 16 for 2- and 4-byte types)."""
    rows, cols = a.shape
    m1, n1 = -(-rows // 16), -(-cols // 16)
    padded = np.zeros((m1 * 16, n1 * 16), a.dtype)
    padded[:rows, :cols] = a
    return np.ascontiguousarray(padded.reshape(m1, 16, n1, 16).transpose(2, 0, 1, 3))


@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("t2", [False, True])
def test_matmul_v2_with_bias(acl, dtype, t2):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(21)
    m, k, n = 19, 37, 141
    a = _values((m, k), acl_type, rng)
    w = _values((n, k) if t2 else (k, n), acl_type, rng)
    bias = _values((n,), acl_type, rng)
    da, dw, dbias = to_device(a, acl_type), to_device(w, acl_type), to_device(bias, acl_type)
    out = sim.DeviceArray.empty((m, n), acl_type)
    sim.check(sim.run_aclop("MatMulV2", [(da, (m, k), acl_type), (dw, w.shape, acl_type), (dbias, (n,), acl_type)],
                            [(out, (m, n), acl_type)], {"transpose_x2": t2}), "MatMulV2")
    _check(from_device(out), a.astype(np.float64) @ (w.T if t2 else w) + bias, acl_type, k)


@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("nz_x1,nz_x2,nz_y", [(False, True, False), (True, True, True), (True, False, False),
                                               (False, False, True)])
def test_matmul_v2_takes_fractal_nz_operands(acl, dtype, nz_x1, nz_x2, nz_y):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(13)
    m, k, n = 23, 50, 33  # none a multiple of 16: padded fractals
    a, w = _values((m, k), acl_type, rng), _values((k, n), acl_type, rng)

    def operand(values, nz):
        stored = _nz(values) if nz else values
        return (to_device(stored, acl_type), stored.shape, acl_type, NZ if nz else ND, None, values.shape)

    x1, x2 = operand(a, nz_x1), operand(w, nz_x2)
    y_storage = _nz(np.zeros((m, n), np.float32)).shape if nz_y else (m, n)
    out = sim.DeviceArray.empty(y_storage, acl_type)
    sim.check(sim.run_aclop("MatMulV2", [x1, x2], [(out, y_storage, acl_type, NZ if nz_y else ND, None, (m, n))]),
              "MatMulV2")
    got = from_device(out)
    want = a.astype(np.float64) @ w
    if nz_y:
        want = _nz(want)
    _check(got, want, acl_type, k)


def test_matmul_v2_rejects_a_bad_nz_storage_shape_and_bias(acl):
    x1 = sim.DeviceArray.empty((4, 6), sim.ACL_FLOAT)
    x2 = sim.DeviceArray.empty((1, 1, 16, 16), sim.ACL_FLOAT)
    out = sim.DeviceArray.empty((4, 3), sim.ACL_FLOAT)
    nz_x2 = (x2, (1, 1, 16, 16), sim.ACL_FLOAT, NZ, None, (6, 40))  # storage too small for origin [6, 40]
    rc = sim.run_aclop("MatMulV2", [(x1, (4, 6), sim.ACL_FLOAT), nz_x2], [(out, (4, 3), sim.ACL_FLOAT)])
    assert rc == sim.ACL_ERROR_INVALID_PARAM
    bias = sim.DeviceArray.empty((4,), sim.ACL_FLOAT)
    w = sim.DeviceArray.empty((6, 3), sim.ACL_FLOAT)
    rc = sim.run_aclop("MatMulV2", [(x1, (4, 6), sim.ACL_FLOAT), (w, (6, 3), sim.ACL_FLOAT),
                                    (bias, (4,), sim.ACL_FLOAT)], [(out, (4, 3), sim.ACL_FLOAT)])
    assert rc == sim.ACL_ERROR_INVALID_PARAM
    assert "op 'MatMulV2': input bias is ACL_FORMAT_ND [4], expected an ND [3]" in sim.recent_error()


@pytest.mark.parametrize("adj1,adj2", [(False, False), (True, False), (False, True), (True, True)])
def test_batch_matmul_adjoint_attributes(acl, adj1, adj2):
    rng = np.random.default_rng(4)
    b, m, k, n = 3, 17, 29, 11
    x = rng.standard_normal((b, k, m) if adj1 else (b, m, k)).astype(np.float32)
    y = rng.standard_normal((1, n, k) if adj2 else (1, k, n)).astype(np.float32)  # batch 1 broadcasts
    dx, dy = sim.DeviceArray.from_numpy(x), sim.DeviceArray.from_numpy(y)
    out = sim.DeviceArray.empty((b, m, n), sim.ACL_FLOAT)
    sim.check(sim.run_aclop("BatchMatMul", [(dx, x.shape, sim.ACL_FLOAT), (dy, y.shape, sim.ACL_FLOAT)],
                            [(out, (b, m, n), sim.ACL_FLOAT)], {"adj_x1": adj1, "adj_x2": adj2}), "BatchMatMul")
    want = np.matmul((x.transpose(0, 2, 1) if adj1 else x).astype(np.float64), y.transpose(0, 2, 1) if adj2 else y)
    np.testing.assert_allclose(out.to_numpy(), want, rtol=1e-5, atol=1e-4)


def test_batch_matmul_rejects_an_unsupported_dtype(acl):
    x = sim.DeviceArray.empty((2, 3, 4), sim.ACL_INT32)
    y = sim.DeviceArray.empty((2, 4, 5), sim.ACL_INT32)
    out = sim.DeviceArray.empty((2, 3, 5), sim.ACL_INT32)
    rc = sim.run_aclop("BatchMatMul", [(x, (2, 3, 4), sim.ACL_INT32), (y, (2, 4, 5), sim.ACL_INT32)],
                       [(out, (2, 3, 5), sim.ACL_INT32)])
    assert rc != sim.ACL_SUCCESS
    assert "op 'BatchMatMul'" in sim.recent_error() and "ACL_INT32" in sim.recent_error()


# ---- aclnnMv / aclnnDot ----
@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("m,k,transposed", [(0, 3, False), (3, 0, False), (1, 1, False), (131, 257, False),
                                            (37, 300, True)])
def test_mv_matches_numpy(acl, dtype, m, k, transposed):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(m + k)
    a = _values((k, m) if transposed else (m, k), acl_type, rng)
    v = _values((k,), acl_type, rng)
    da, dv = to_device(a, acl_type), to_device(v, acl_type)
    ta = da.tensor(shape=(m, k), strides=(1, m)) if transposed else da.tensor()
    out = sim.DeviceArray.empty((m,), acl_type)
    sim.check(sim.run_aclnn("aclnnMv", ta, dv.tensor(), out.tensor(), 0))
    _check(from_device(out), (a.T if transposed else a).astype(np.float64) @ v, acl_type, k)


@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("k", [0, 1, 7, 1031])
def test_dot_matches_numpy(acl, dtype, k):
    acl_type = FLOATS[dtype]
    rng = np.random.default_rng(k)
    a, b = _values((k,), acl_type, rng), _values((k,), acl_type, rng)
    da, db = to_device(a, acl_type), to_device(b, acl_type)
    out = sim.DeviceArray.empty((), acl_type)
    sim.check(sim.run_aclnn("aclnnDot", da.tensor(), db.tensor(), out.tensor(shape=(), strides=())))
    _check(from_device(out).reshape(()), np.dot(a.astype(np.float64), b), acl_type, k)


def test_mv_and_dot_reject_bad_shapes(acl):
    a, v = sim.DeviceArray.empty((3, 4), sim.ACL_FLOAT), sim.DeviceArray.empty((5,), sim.ACL_FLOAT)
    o = sim.DeviceArray.empty((3,), sim.ACL_FLOAT)
    assert sim.aclnn_workspace("aclnnMv", a.tensor(), v.tensor(), o.tensor(), 0)[0] == sim.ACLNN_ERR_PARAM_INVALID
    assert "aclnnMv: self [3, 4] (2-D) and vec [5] (1-D) cannot be multiplied" in sim.recent_error()
    s = sim.DeviceArray.empty((), sim.ACL_FLOAT)
    assert sim.aclnn_workspace("aclnnDot", o.tensor(), v.tensor(), s.tensor(shape=(), strides=()))[0] == \
        sim.ACLNN_ERR_PARAM_INVALID
    assert "aclnnDot: self [3] and tensor [5] must be 1-D of the same size" in sim.recent_error()
