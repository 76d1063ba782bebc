"""aclnnAbs, aclnnClampMin, aclnnInplaceClampMin, aclnnInplaceFillScalar, aclnnInplaceZero and
aclnnInplaceCopy."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import DTYPES, from_device, random_values, round_to, to_device


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("n", [0, 1, 13, 70_001])
def test_abs_matches_numpy(acl, dtype, n):
    acl_type = DTYPES[dtype]
    a = random_values((n,), acl_type, np.random.default_rng(n))
    x = to_device(a, acl_type)
    out = sim.DeviceArray.empty((n,), acl_type)
    sim.check(sim.run_aclnn("aclnnAbs", x.tensor(), out.tensor()))
    np.testing.assert_array_equal(from_device(out), np.abs(a))


def test_abs_of_a_transposed_view_into_a_wider_dtype(acl):
    a = np.arange(-12, 12, dtype=np.int32).reshape(4, 6)
    x = sim.DeviceArray.from_numpy(a)
    out = sim.DeviceArray.empty((6, 4), sim.ACL_INT64)
    sim.check(sim.run_aclnn("aclnnAbs", x.tensor(shape=(6, 4), strides=(1, 6)), out.tensor()))
    np.testing.assert_array_equal(out.to_numpy(), np.abs(a.T).astype(np.int64))


def test_abs_rejects_bool(acl):
    b = sim.DeviceArray.empty((4,), sim.ACL_BOOL)
    rc, _, _ = sim.aclnn_workspace("aclnnAbs", b.tensor(), b.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert sim.recent_error().startswith("aclnnAbs: self has dtype ACL_BOOL, which is not supported")


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d != "bool"])
@pytest.mark.parametrize("n", [0, 1, 13, 70_001])
def test_clamp_min_matches_numpy(acl, dtype, n):
    acl_type = DTYPES[dtype]
    a = random_values((n,), acl_type, np.random.default_rng(n))
    bound = 0 if dtype.startswith(("int", "uint")) else 0.25
    x = to_device(a, acl_type)
    out = sim.DeviceArray.empty((n,), acl_type)
    sim.check(sim.run_aclnn("aclnnClampMin", x.tensor(), sim.Scalar(bound), out.tensor()))
    expected = np.maximum(a, np.asarray(bound).astype(a.dtype))
    np.testing.assert_array_equal(from_device(out), expected)


def test_clamp_min_keeps_nan_and_runs_in_place_on_a_strided_view(acl):
    a = np.array([[-1.0, np.nan, 3.0], [0.5, -0.0, -7.0]], dtype=np.float32)
    t = sim.DeviceArray.from_numpy(a)
    view = t.tensor(shape=(3, 2), strides=(1, 3))  # the transpose
    sim.check(sim.run_aclnn("aclnnInplaceClampMin", view, sim.Scalar(0.0)))
    got = t.to_numpy()
    assert np.isnan(got[0, 1])
    np.testing.assert_array_equal(np.nan_to_num(got, nan=-1), [[0.0, -1, 3.0], [0.5, 0.0, 0.0]])


def test_clamp_min_of_an_integral_tensor_with_a_floating_bound_is_float(acl):
    a = np.array([-2, 0, 3], dtype=np.int32)
    x = sim.DeviceArray.from_numpy(a)
    out = sim.DeviceArray.empty((3,), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnClampMin", x.tensor(), sim.Scalar(0.5), out.tensor()))
    np.testing.assert_array_equal(out.to_numpy(), [0.5, 0.5, 3.0])
    rc, _, _ = sim.aclnn_workspace("aclnnInplaceClampMin", x.tensor(), sim.Scalar(0.5))
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert sim.recent_error().startswith("aclnnInplaceClampMin: ")


def test_clamp_min_rejects_bool_and_a_shape_mismatch(acl):
    b = sim.DeviceArray.empty((4,), sim.ACL_BOOL)
    rc, _, _ = sim.aclnn_workspace("aclnnClampMin", b.tensor(), sim.Scalar(0), b.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "self has dtype ACL_BOOL" in sim.recent_error()
    x = sim.DeviceArray.empty((4,), sim.ACL_FLOAT)
    out = sim.DeviceArray.empty((5,), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnClampMin", x.tensor(), sim.Scalar(0.0), out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "out shape [5] differs from self shape [4]" in sim.recent_error()


@pytest.mark.parametrize("acl_type,value,expected", [
    (sim.ACL_FLOAT, 2.5, 2.5),
    (sim.ACL_FLOAT16, 1.0 / 3.0, np.float16(1.0 / 3.0)),
    (sim.ACL_BF16, 3.0, 3.0),
    (sim.ACL_INT32, 7.9, 7),         # float value into an integral tensor truncates
    (sim.ACL_INT64, 2**40 + 1, 2**40 + 1),
    (sim.ACL_INT8, -3, -3),
    (sim.ACL_UINT8, 200, 200),
    (sim.ACL_INT16, 1234, 1234),
    (sim.ACL_BOOL, 5, True),
    (sim.ACL_DOUBLE, 0.1, 0.1),
])
def test_fill_dense_all_dtypes(acl, acl_type, value, expected):
    t = sim.DeviceArray.empty((1001,), acl_type)
    sim.check(sim.run_aclnn("aclnnInplaceFillScalar", t.tensor(), sim.Scalar(value)))
    got = from_device(t)
    if acl_type == sim.ACL_FLOAT16:
        got = got.astype(np.float16)
    assert (got == expected).all()


def test_fill_and_zero_a_strided_view(acl):
    t = sim.DeviceArray.from_numpy(np.full((8, 9), -1, dtype=np.int32))
    view = t.tensor(shape=(4, 3), strides=(18, 3), offset=1)  # rows 0,2,4,6; columns 1,4,7
    sim.check(sim.run_aclnn("aclnnInplaceFillScalar", view, sim.Scalar(2.75)))
    expected = np.full((8, 9), -1, dtype=np.int32)
    expected[0:8:2, 1:9:3] = 2
    np.testing.assert_array_equal(t.to_numpy(), expected)
    column = t.tensor(shape=(8,), strides=(9,), offset=8)
    sim.check(sim.run_aclnn("aclnnInplaceZero", column))
    expected[:, 8] = 0
    np.testing.assert_array_equal(t.to_numpy(), expected)


def test_copy_between_strided_views_with_a_cast(acl):
    src = np.arange(24, dtype=np.float32).reshape(4, 6) - 10.5
    s = sim.DeviceArray.from_numpy(src)
    dst = sim.DeviceArray.from_numpy(np.zeros((6, 8), dtype=np.int16))
    # dst[:, :4] (6x4 of an 8-wide row) = src.T cast to int16 (truncation)
    sim.check(sim.run_aclnn("aclnnInplaceCopy", dst.tensor(shape=(6, 4), strides=(8, 1)),
                            s.tensor(shape=(6, 4), strides=(1, 6))))
    expected = np.zeros((6, 8), dtype=np.int16)
    expected[:, :4] = np.trunc(src.T).astype(np.int16)
    np.testing.assert_array_equal(dst.to_numpy(), expected)


def test_copy_broadcasts_the_source(acl):
    row = np.array([1.5, -2.25, 3.0], dtype=np.float32)
    s = sim.DeviceArray.from_numpy(row)
    dst = sim.DeviceArray.empty((5, 3), sim.ACL_BF16)
    sim.check(sim.run_aclnn("aclnnInplaceCopy", dst.tensor(), s.tensor()))
    np.testing.assert_array_equal(from_device(dst), np.broadcast_to(round_to(row, sim.ACL_BF16), (5, 3)))


@pytest.mark.parametrize("src_type,dst_type", [
    (sim.ACL_FLOAT, sim.ACL_FLOAT16), (sim.ACL_FLOAT16, sim.ACL_FLOAT), (sim.ACL_FLOAT, sim.ACL_BF16),
    (sim.ACL_INT64, sim.ACL_INT32), (sim.ACL_INT32, sim.ACL_DOUBLE), (sim.ACL_FLOAT, sim.ACL_BOOL),
    (sim.ACL_BOOL, sim.ACL_FLOAT), (sim.ACL_UINT8, sim.ACL_INT64), (sim.ACL_FLOAT, sim.ACL_INT8),
])
def test_copy_casts_like_numpy(acl, src_type, dst_type):
    rng = np.random.default_rng(11)
    values = random_values((2000,), src_type, rng, -100, 100)
    s = to_device(values, src_type)
    dst = sim.DeviceArray.empty((2000,), dst_type)
    sim.check(sim.run_aclnn("aclnnInplaceCopy", dst.tensor(), s.tensor()))
    if dst_type in (sim.ACL_FLOAT16, sim.ACL_BF16, sim.ACL_FLOAT):
        expected = round_to(np.asarray(values, dtype=np.float32), dst_type)
    else:
        expected = np.asarray(values).astype(sim.numpy_dtype(dst_type))
    np.testing.assert_array_equal(from_device(dst), expected)


def test_copy_rejects_a_source_that_does_not_broadcast(acl):
    a = sim.DeviceArray.empty((3, 4), sim.ACL_FLOAT)
    b = sim.DeviceArray.empty((5,), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnInplaceCopy", a.tensor(), b.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert sim.recent_error() == "aclnnInplaceCopy: src shape [5] cannot broadcast to selfRef shape [3, 4]"
