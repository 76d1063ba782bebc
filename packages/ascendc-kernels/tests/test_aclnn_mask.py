"""aclnnTril / aclnnInplaceTril (row kernel tril_custom), aclnnIsNegInf and aclnnAll
against numpy: shapes 0, 1, primes and several blocks / column tiles, batched matrices,
diagonals on both sides, every dtype, strided views, rejected dtypes and shapes."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import from_device, random_values, to_device

ALL_TYPES = {
    "float32": sim.ACL_FLOAT, "float16": sim.ACL_FLOAT16, "bfloat16": sim.ACL_BF16, "float64": sim.ACL_DOUBLE,
    "int8": sim.ACL_INT8, "uint8": sim.ACL_UINT8, "int16": sim.ACL_INT16, "int32": sim.ACL_INT32,
    "int64": sim.ACL_INT64, "bool": sim.ACL_BOOL,
}
FLOATS = {k: v for k, v in ALL_TYPES.items() if k in ("float32", "float16", "bfloat16", "float64")}
# (..., m, n): empty, one, primes, a row longer than one column tile, several blocks
TRIL_SHAPES = [(0, 3), (3, 0), (2, 0, 4), (1, 1), (7, 13), (13, 7), (3, 5, 11), (2, 3, 17, 19), (3, 4099),
               (521, 257)]


def _values(shape, acl_type, seed):
    rng = np.random.default_rng(seed)
    x = random_values(shape, acl_type, rng, low=-50, high=50)
    if acl_type != sim.ACL_BOOL:
        x[x == 0] = 1  # zeros above the diagonal must come from the kernel
    return x


@pytest.mark.parametrize("name", list(ALL_TYPES))
@pytest.mark.parametrize("shape", TRIL_SHAPES)
def test_tril_matches_numpy(acl, name, shape):
    acl_type = ALL_TYPES[name]
    x = _values(shape, acl_type, sum(shape) + acl_type)
    m, dx = shape[-2], to_device(x, acl_type)
    for diagonal in sorted({0, 1, -1, 3, -(m + 2), shape[-1] + 1}):
        out = sim.DeviceArray.empty(shape, acl_type)
        sim.check(sim.run_aclnn("aclnnTril", dx.tensor(), diagonal, out.tensor()))
        np.testing.assert_array_equal(from_device(out), np.tril(x, diagonal), err_msg=f"diagonal {diagonal}")


@pytest.mark.parametrize("shape", [(1, 1), (5, 3), (4, 9, 600), (2049, 8)])
def test_inplace_tril_on_dense_and_strided_views(acl, shape):
    x = _values(shape, sim.ACL_FLOAT, 3)
    dx = to_device(x, sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnInplaceTril", dx.tensor(), -1))
    np.testing.assert_array_equal(from_device(dx), np.tril(x, -1))
    # the transpose of a dense (n x m) storage: written back through the view
    base = _values(shape[:-2] + (shape[-1], shape[-2]), sim.ACL_FLOAT, 4)
    db = to_device(base, sim.ACL_FLOAT)
    strides = list(np.array(base.strides) // base.itemsize)
    strides[-1], strides[-2] = strides[-2], strides[-1]
    view = db.tensor(shape=shape, strides=strides)
    sim.check(sim.run_aclnn("aclnnInplaceTril", view, 2))
    want = np.swapaxes(np.tril(np.swapaxes(base, -1, -2), 2), -1, -2)
    np.testing.assert_array_equal(from_device(db), want)


def test_tril_strided_out_and_checks(acl):
    x = _values((6, 10), sim.ACL_INT32, 5)
    out_base = sim.DeviceArray.empty((6, 20), sim.ACL_INT32)
    out_base.upload(np.full((6, 20), 7, np.int32))
    out_view = out_base.tensor(shape=(6, 10), strides=(20, 2))
    dx = to_device(x, sim.ACL_INT32)
    sim.check(sim.run_aclnn("aclnnTril", dx.tensor(), 0, out_view))
    got = out_base.to_numpy()
    np.testing.assert_array_equal(got[:, ::2], np.tril(x))
    assert (got[:, 1::2] == 7).all()
    one_d = sim.DeviceArray.empty((5,), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnTril", one_d.tensor(), 0, one_d.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "aclnnTril: self must have at least 2 dimensions" in sim.recent_error()
    a, b = sim.DeviceArray.empty((3, 4), sim.ACL_FLOAT), sim.DeviceArray.empty((3, 4), sim.ACL_FLOAT16)
    rc, _, _ = sim.aclnn_workspace("aclnnTril", a.tensor(), 0, b.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "aclnnTril: out has dtype" in sim.recent_error()
    c = sim.DeviceArray.empty((4, 3), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnTril", a.tensor(), 0, c.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "aclnnTril: out shape [4, 3] differs" in sim.recent_error()
    rc, _, _ = sim.aclnn_workspace("aclnnTril", a.tensor(acl_type=sim.ACL_UINT16), 0, a.tensor(acl_type=sim.ACL_UINT16))
    assert rc != sim.ACL_SUCCESS and "aclnnTril: self" in sim.recent_error()


@pytest.mark.parametrize("name", list(ALL_TYPES))
@pytest.mark.parametrize("size", [0, 1, 7, 997, 70_001])
def test_isneginf_matches_numpy(acl, name, size):
    acl_type = ALL_TYPES[name]
    x = random_values((size,), acl_type, np.random.default_rng(size + acl_type))
    if acl_type in FLOATS.values() and size:
        x[::3] = -np.inf
        x[1::5] = np.inf
        x[2::7] = np.nan
    out, dx = sim.DeviceArray.empty((size,), sim.ACL_BOOL), to_device(x, acl_type)
    sim.check(sim.run_aclnn("aclnnIsNegInf", dx.tensor(), out.tensor()))
    want = np.isneginf(x) if acl_type in FLOATS.values() else np.zeros(size, np.bool_)
    np.testing.assert_array_equal(out.to_numpy(), want)
    if acl_type in FLOATS.values() and size:
        assert want.any()


def test_isneginf_strided_and_checks(acl):
    x = np.array([[-np.inf, 1, np.inf, -np.inf], [0, -np.inf, np.nan, 2]], np.float32)
    dx = to_device(x, sim.ACL_FLOAT)
    out = sim.DeviceArray.empty((4, 2), sim.ACL_BOOL)
    sim.check(sim.run_aclnn("aclnnIsNegInf", dx.tensor(shape=(4, 2), strides=(1, 4)), out.tensor()))
    np.testing.assert_array_equal(out.to_numpy(), np.isneginf(x.T))
    wrong = sim.DeviceArray.empty((2, 4), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnIsNegInf", dx.tensor(), wrong.tensor())
    assert rc != sim.ACL_SUCCESS and "aclnnIsNegInf: out" in sim.recent_error()
    small = sim.DeviceArray.empty((2, 3), sim.ACL_BOOL)
    rc, _, _ = sim.aclnn_workspace("aclnnIsNegInf", dx.tensor(), small.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "aclnnIsNegInf: out shape [2, 3] differs" in sim.recent_error()
    rc, _, _ = sim.aclnn_workspace("aclnnIsNegInf", dx.tensor(acl_type=sim.ACL_UINT32), small.tensor())
    assert rc != sim.ACL_SUCCESS and "aclnnIsNegInf: self" in sim.recent_error()


ALL_CASES = [((0,), []), ((5,), []), ((1, 1), [0, 1]), ((7, 13), [-1]), ((7, 13), [0]), ((3, 5, 11), [0, 2]),
             ((2, 9001), [1]), ((64, 1024), []), ((4, 0, 3), [1]), ((4, 0, 3), [0])]


@pytest.mark.parametrize("name", list(ALL_TYPES))
@pytest.mark.parametrize("shape,dims", ALL_CASES)
@pytest.mark.parametrize("keep", [False, True])
def test_all_matches_numpy(acl, name, shape, dims, keep):
    acl_type = ALL_TYPES[name]
    rng = np.random.default_rng(sum(shape) + len(dims) + acl_type)
    x = random_values(shape, acl_type, rng, low=-3, high=3)
    if x.size and acl_type != sim.ACL_BOOL:
        x[x == 0] = 1
        flat = x.reshape(-1)
        flat[rng.integers(0, flat.size, size=max(1, flat.size // 50))] = 0  # some rows all-true, some not
        if acl_type in FLOATS.values():
            flat[::11] = np.nan  # NaN is true
    axes = tuple(dims) if dims else None
    want = np.all(x, axis=axes, keepdims=keep)
    out, dx = sim.DeviceArray.empty(np.shape(want), sim.ACL_BOOL), to_device(x, acl_type)
    sim.check(sim.run_aclnn("aclnnAll", dx.tensor(), sim.IntArray(dims), keep, out.tensor()))
    np.testing.assert_array_equal(out.to_numpy(), want)


def test_all_uint8_out_strided_self_and_checks(acl):
    x = np.ones((6, 8), np.float32)
    x[2, 5] = 0
    dx = to_device(x, sim.ACL_FLOAT)
    out = sim.DeviceArray.empty((8,), sim.ACL_UINT8)
    sim.check(sim.run_aclnn("aclnnAll", dx.tensor(shape=(8, 6), strides=(1, 8)), sim.IntArray([1]), False,
                            out.tensor()))
    np.testing.assert_array_equal(out.to_numpy(), np.all(x.T, axis=1).astype(np.uint8))
    bad = sim.DeviceArray.empty((8,), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnAll", dx.tensor(), sim.IntArray([0]), False, bad.tensor())
    assert rc != sim.ACL_SUCCESS and "aclnnAll: out" in sim.recent_error()
    o = sim.DeviceArray.empty((8,), sim.ACL_BOOL)
    rc, _, _ = sim.aclnn_workspace("aclnnAll", dx.tensor(), sim.IntArray([0, -2]), False, o.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "aclnnAll: dim 0 appears more than once" in sim.recent_error()
    rc, _, _ = sim.aclnn_workspace("aclnnAll", dx.tensor(), sim.IntArray([2]), False, o.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "aclnnAll: dim 2 is out of range" in sim.recent_error()
    rc, _, _ = sim.aclnn_workspace("aclnnAll", dx.tensor(), sim.IntArray([0]), True, o.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "aclnnAll: out has shape [8], expected [1, 8]" in sim.recent_error()
    rc, _, _ = sim.aclnn_workspace("aclnnAll", dx.tensor(acl_type=sim.ACL_UINT16), sim.IntArray([0]), False,
                                   o.tensor())
    assert rc != sim.ACL_SUCCESS and "aclnnAll: self" in sim.recent_error()
