"""Reductions with indices, variances, norms, scans and sorts (reduce_dim_custom, scan_custom,
sort_custom) against numpy: first-occurrence and NaN rules, stability, rows longer than one
unified-buffer chunk, strided inputs and argument errors."""

from __future__ import annotations

import warnings

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import from_device, round_to, to_device

FLOATS = {"float32": sim.ACL_FLOAT, "float16": sim.ACL_FLOAT16, "bfloat16": sim.ACL_BF16}
TOL = {sim.ACL_FLOAT: 1e-5, sim.ACL_FLOAT16: 2e-3, sim.ACL_BF16: 1e-2}


def _run(api, *args):
    sim.check(sim.run_aclnn(api, *args))


@pytest.mark.parametrize("dtype", list(FLOATS))
@pytest.mark.parametrize("shape,dims", [((7, 13), [1]), ((3, 5, 11), [0, 2]), ((2, 5000), []), ((4, 1), [1])])
@pytest.mark.parametrize("correction", [0, 1])
def test_var_mean_and_std_match_numpy(acl, dtype, shape, dims, correction):
    acl_type = FLOATS[dtype]
    x = round_to(np.random.default_rng(3).uniform(-3, 3, shape).astype(np.float32), acl_type)
    axes = tuple(dims) if dims else None
    with warnings.catch_warnings():  # a row of one element has no degree of freedom when correction is 1
        warnings.simplefilter("ignore", RuntimeWarning)
        want_var = x.astype(np.float64).var(axis=axes, ddof=correction)
    want_mean = x.astype(np.float64).mean(axis=axes)
    dx = to_device(x, acl_type)
    var, mean, std = (sim.DeviceArray.empty(np.shape(want_var), acl_type) for _ in range(3))
    _run("aclnnVarMean", dx.tensor(), sim.IntArray(dims), correction, False, var.tensor(), mean.tensor())
    _run("aclnnStd", dx.tensor(), sim.IntArray(dims), correction, False, std.tensor())
    tol = TOL[acl_type] * 4
    np.testing.assert_allclose(from_device(var), want_var, rtol=tol, atol=tol)
    np.testing.assert_allclose(from_device(mean), want_mean, rtol=tol, atol=tol)
    np.testing.assert_allclose(from_device(std), np.sqrt(want_var), rtol=tol, atol=tol)


def test_var_mean_of_long_rows_is_double_accurate_and_keeps_welford_nan_rules(acl):
    # Rows of several unified-buffer chunks: moments in double, so even an offset far above the
    # spread leaves the float32 results those of numpy's double computation; a row with an
    # infinity gives what Welford's update gives (mean inf when it is the last element, else NaN).
    x = np.random.default_rng(4).normal(1e4, 1.0, (5, 4500)).astype(np.float32)
    x[2, 100] = np.inf
    x[3, -1] = np.inf
    x[4, 7] = np.nan
    dx = sim.DeviceArray.from_numpy(x)
    var, mean = sim.DeviceArray.empty((5,), sim.ACL_FLOAT), sim.DeviceArray.empty((5,), sim.ACL_FLOAT)
    _run("aclnnVarMean", dx.tensor(), sim.IntArray([1]), 1, False, var.tensor(), mean.tensor())
    x64 = x[:2].astype(np.float64)
    np.testing.assert_allclose(var.to_numpy()[:2], x64.var(axis=1, ddof=1).astype(np.float32), rtol=1e-6)
    np.testing.assert_array_equal(mean.to_numpy()[:2], x64.mean(axis=1).astype(np.float32))
    assert np.isnan(var.to_numpy()[2:]).all()
    assert np.isnan(mean.to_numpy()[2]) and mean.to_numpy()[3] == np.inf and np.isnan(mean.to_numpy()[4])


def test_arg_extremes_take_the_first_occurrence_and_nan(acl):
    x = np.array([[1, 5, 5, 2], [3, np.nan, 7, np.nan], [-1, -4, -4, 0]], dtype=np.float32)
    dx = sim.DeviceArray.from_numpy(x)
    idx, values = sim.DeviceArray.empty((3,), sim.ACL_INT64), sim.DeviceArray.empty((3,), sim.ACL_FLOAT)
    _run("aclnnArgMax", dx.tensor(), 1, False, idx.tensor())
    assert idx.to_numpy().tolist() == [1, 1, 3]
    _run("aclnnMinDim", dx.tensor(), -1, False, values.tensor(), idx.tensor())
    assert idx.to_numpy().tolist() == [0, 1, 1]
    got = values.to_numpy()
    assert got[0] == 1 and np.isnan(got[1]) and got[2] == -4
    lo, hi = sim.DeviceArray.empty((), sim.ACL_FLOAT), sim.DeviceArray.empty((), sim.ACL_FLOAT)
    row = sim.DeviceArray.from_numpy(x[2])
    _run("aclnnAminmaxAll", row.tensor(), lo.tensor(), hi.tensor())
    assert lo.to_numpy() == -4 and hi.to_numpy() == 0
    empty, o = sim.DeviceArray.empty((3, 0), sim.ACL_FLOAT), sim.DeviceArray.empty((3,), sim.ACL_INT64)
    rc, _, _ = sim.aclnn_workspace("aclnnArgMax", empty.tensor(), 1, False, o.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "dimension of size 0" in sim.recent_error()
    rc, _, _ = sim.aclnn_workspace("aclnnArgMax", dx.tensor(), 2, False, idx.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "aclnnArgMax: dim 2 is out of range" in sim.recent_error()


def test_argmax_of_a_long_strided_row(acl):
    x = np.random.default_rng(5).uniform(-1, 1, (9000, 3)).astype(np.float32)
    x[6001, 1] = 7.0
    dx, idx = sim.DeviceArray.from_numpy(x), sim.DeviceArray.empty((3,), sim.ACL_INT64)
    _run("aclnnArgMax", dx.tensor(), 0, False, idx.tensor())
    assert idx.to_numpy().tolist() == x.argmax(axis=0).tolist()


@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, 3.0, np.inf, -np.inf])
def test_norm_matches_numpy(acl, p):
    x = np.random.default_rng(2).uniform(-2, 2, (6, 2100)).astype(np.float32)
    x[0, :5] = 0
    want = np.linalg.norm(x.astype(np.float64), ord=p, axis=1)
    dx, out = sim.DeviceArray.from_numpy(x), sim.DeviceArray.empty((6,), sim.ACL_FLOAT)
    _run("aclnnNorm", dx.tensor(), sim.Scalar(float(p)), sim.IntArray([1]), False, out.tensor())
    np.testing.assert_allclose(out.to_numpy(), want, rtol=1e-4)


def test_prod_nansum_trace_and_equal(acl):
    x = np.array([[1, 2, 3], [4, -5, 6]], dtype=np.int64)
    dx, out = sim.DeviceArray.from_numpy(x), sim.DeviceArray.empty((2,), sim.ACL_INT64)
    _run("aclnnProdDim", dx.tensor(), 1, False, sim.ACL_INT64, out.tensor())
    assert out.to_numpy().tolist() == [6, -120]
    t = sim.DeviceArray.empty((), sim.ACL_INT64)
    _run("aclnnTrace", dx.tensor(), t.tensor())
    assert t.to_numpy() == 1 - 5
    f = np.array([[1, np.nan, 2.5], [np.nan, np.nan, -1]], dtype=np.float32)
    df, s = sim.DeviceArray.from_numpy(f), sim.DeviceArray.empty((2,), sim.ACL_FLOAT)
    _run("aclnnReduceNansum", df.tensor(), sim.IntArray([1]), False, sim.ACL_FLOAT, s.tensor())
    assert s.to_numpy().tolist() == [3.5, -1.0]
    same, eq = sim.DeviceArray.from_numpy(x.astype(np.float32)), sim.DeviceArray.empty((1,), sim.ACL_BOOL)
    _run("aclnnEqual", dx.tensor(), same.tensor(), eq.tensor())
    assert eq.to_numpy().tolist() == [True]
    _run("aclnnEqual", dx.tensor(), dx.tensor(shape=(3, 2)), eq.tensor())
    assert eq.to_numpy().tolist() == [False]


@pytest.mark.parametrize("dtype", list(FLOATS))
def test_cumsum_and_logcumsumexp_along_a_long_dimension(acl, dtype):
    acl_type = FLOATS[dtype]
    x = round_to(np.random.default_rng(4).uniform(-1, 1, (5000, 2)).astype(np.float32), acl_type)
    dx, out = to_device(x, acl_type), sim.DeviceArray.empty((5000, 2), acl_type)
    _run("aclnnCumsum", dx.tensor(), 0, acl_type, out.tensor())
    want = np.cumsum(x.astype(np.float64), axis=0)
    tol = TOL[acl_type] * 10
    np.testing.assert_allclose(from_device(out), want, rtol=tol, atol=tol * 30)
    _run("aclnnLogCumsumExp", dx.tensor(), 0, out.tensor())
    want = np.logaddexp.accumulate(x.astype(np.float64), axis=0)
    np.testing.assert_allclose(from_device(out), want, rtol=tol, atol=tol)


def test_cummax_keeps_the_latest_tie_and_the_first_nan(acl):
    x = np.array([1, 3, 3, 2, np.nan, 5, np.nan], dtype=np.float32)
    dx = sim.DeviceArray.from_numpy(x)
    values, idx = sim.DeviceArray.empty((7,), sim.ACL_FLOAT), sim.DeviceArray.empty((7,), sim.ACL_INT64)
    _run("aclnnCummax", dx.tensor(), 0, values.tensor(), idx.tensor())
    assert idx.to_numpy().tolist() == [0, 1, 2, 2, 4, 4, 6]
    got = values.to_numpy()
    assert got[:4].tolist() == [1, 3, 3, 3] and np.isnan(got[4:]).all()
    ints = sim.DeviceArray.from_numpy(np.array([[2, 3], [4, 5]], dtype=np.int64))
    out = sim.DeviceArray.empty((2, 2), sim.ACL_INT64)
    _run("aclnnCumprod", ints.tensor(), sim.Scalar(0), sim.ACL_INT64, out.tensor())
    assert out.to_numpy().tolist() == [[2, 3], [8, 15]]


@pytest.mark.parametrize("descending", [False, True])
def test_sort_is_stable_with_nan_largest(acl, descending):
    rng = np.random.default_rng(8)
    x = rng.integers(0, 6, (3, 3000)).astype(np.float32)
    x[1, ::7] = np.nan
    dx = sim.DeviceArray.from_numpy(x)
    values, idx = sim.DeviceArray.empty(x.shape, sim.ACL_FLOAT), sim.DeviceArray.empty(x.shape, sim.ACL_INT64)
    _run("aclnnSort", dx.tensor(), True, 1, descending, values.tensor(), idx.tensor())
    key = np.where(np.isnan(x), np.inf, x)
    want = np.argsort(-key if descending else key, axis=1, kind="stable")
    np.testing.assert_array_equal(idx.to_numpy(), want)
    np.testing.assert_array_equal(values.to_numpy(), np.take_along_axis(x, want, axis=1))


def test_sort_a_strided_dimension_and_topk(acl):
    x = np.random.default_rng(9).permutation(40).astype(np.float32).reshape(8, 5)
    dx = sim.DeviceArray.from_numpy(x)
    values, idx = sim.DeviceArray.empty((3, 5), sim.ACL_FLOAT), sim.DeviceArray.empty((3, 5), sim.ACL_INT64)
    _run("aclnnTopk", dx.tensor(), 3, 0, True, True, values.tensor(), idx.tensor())
    want = np.argsort(-x, axis=0, kind="stable")[:3]
    np.testing.assert_array_equal(idx.to_numpy(), want)
    np.testing.assert_array_equal(values.to_numpy(), np.take_along_axis(x, want, axis=0))
    rc, _, _ = sim.aclnn_workspace("aclnnTopk", dx.tensor(), 9, 0, True, True, values.tensor(), idx.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "aclnnTopk: k = 9" in sim.recent_error()


def test_kthvalue_median_and_nanmedian(acl):
    x = np.array([[4, 1, 3, 2], [np.nan, 2, 1, np.nan]], dtype=np.float32)
    dx = sim.DeviceArray.from_numpy(x)
    values, idx = sim.DeviceArray.empty((2,), sim.ACL_FLOAT), sim.DeviceArray.empty((2,), sim.ACL_INT64)
    _run("aclnnKthvalue", dx.tensor(), 3, 1, False, values.tensor(), idx.tensor())
    assert values.to_numpy()[0] == 3 and idx.to_numpy()[0] == 2
    _run("aclnnMedianDim", dx.tensor(), 1, False, values.tensor(), idx.tensor())
    assert values.to_numpy()[0] == 2 and idx.to_numpy()[0] == 3
    assert np.isnan(values.to_numpy()[1]) and idx.to_numpy()[1] == 0
    _run("aclnnNanMedianDim", dx.tensor(), 1, False, values.tensor(), idx.tensor())
    assert values.to_numpy()[1] == 1 and idx.to_numpy()[1] == 2
    one = sim.DeviceArray.empty((), sim.ACL_FLOAT)
    _run("aclnnNanMedian", dx.tensor(), one.tensor())
    assert one.to_numpy() == 2


@pytest.mark.parametrize("p", [1.0, 2.0, 3.5, np.inf])
def test_renorm_scales_the_slices_above_maxnorm(acl, p):
    x = np.random.default_rng(11).uniform(-2, 2, (4, 3, 2500)).astype(np.float32)
    x[:, 1, :] *= 0.001  # slices of dim 1 are the rows; the middle one stays below maxnorm
    norms = np.linalg.norm(np.moveaxis(x, 1, 0).reshape(3, -1).astype(np.float64), ord=p, axis=1)
    maxnorm = float(norms[1] * 2)
    factor = np.where(norms > maxnorm, maxnorm / (norms + 1e-7), 1.0)
    want = x * factor.reshape(1, 3, 1)
    dx, out = sim.DeviceArray.from_numpy(x), sim.DeviceArray.empty(x.shape, sim.ACL_FLOAT)
    _run("aclnnRenorm", dx.tensor(), sim.Scalar(p), 1, sim.Scalar(maxnorm), out.tensor())
    np.testing.assert_allclose(out.to_numpy(), want, rtol=1e-4, atol=1e-6)
    np.testing.assert_array_equal(out.to_numpy()[:, 1, :], x[:, 1, :])
    rc, _, _ = sim.aclnn_workspace("aclnnRenorm", dx.tensor(), sim.Scalar(0.0), 1, sim.Scalar(1.0), out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "aclnnRenorm: p = 0 is not positive" in sim.recent_error()
