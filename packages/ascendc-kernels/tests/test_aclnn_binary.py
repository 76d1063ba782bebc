"""aclnnAdd, aclnnInplaceAdd, aclnnMul against numpy: dtypes, shapes, broadcasting,
strided views, type promotion, alpha and argument errors."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import DTYPES, from_device, random_values, round_to, to_device

SIZES = [0, 1, 7, 997, 70_001]  # empty, one, primes, several blocks and tiles


def run_binary(api, a, b, acl_type, out_type=None, alpha=None):
    out_type = acl_type if out_type is None else out_type
    x, y = to_device(a, acl_type), to_device(b, acl_type)
    shape = np.broadcast_shapes(a.shape, b.shape)
    out = sim.DeviceArray.empty(shape, out_type)
    args = [x.tensor(), y.tensor()] + ([alpha] if alpha is not None else []) + [out.tensor()]
    sim.check(sim.run_aclnn(api, *args))
    return from_device(out)


def reference(op, a, b, acl_type, alpha=1):
    if acl_type in (sim.ACL_INT32, sim.ACL_INT64):
        dt = sim.numpy_dtype(acl_type)
        return op(a.astype(dt), (b * alpha).astype(dt)).astype(dt)
    return round_to(op(a.astype(np.float32), b.astype(np.float32) * np.float32(alpha)), acl_type)


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("n", SIZES)
def test_add_matches_numpy(acl, dtype, n):
    acl_type = DTYPES[dtype]
    rng = np.random.default_rng(n)
    a, b = random_values((n,), acl_type, rng), random_values((n,), acl_type, rng)
    alpha = sim.Scalar(1.0 if acl_type in (sim.ACL_FLOAT, sim.ACL_FLOAT16, sim.ACL_BF16) else 1)
    got = run_binary("aclnnAdd", a, b, acl_type, alpha=alpha)
    np.testing.assert_array_equal(got, reference(np.add, a, b, acl_type))


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("n", SIZES)
def test_mul_matches_numpy(acl, dtype, n):
    acl_type = DTYPES[dtype]
    rng = np.random.default_rng(100 + n)
    a, b = random_values((n,), acl_type, rng), random_values((n,), acl_type, rng)
    got = run_binary("aclnnMul", a, b, acl_type)
    np.testing.assert_array_equal(got, reference(np.multiply, a, b, acl_type))


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_add_with_alpha(acl, dtype):
    acl_type = DTYPES[dtype]
    rng = np.random.default_rng(3)
    a, b = random_values((1000,), acl_type, rng), random_values((1000,), acl_type, rng)
    floating = acl_type in (sim.ACL_FLOAT, sim.ACL_FLOAT16, sim.ACL_BF16)
    alpha = 0.5 if floating else 3
    got = run_binary("aclnnAdd", a, b, acl_type, alpha=sim.Scalar(alpha))
    expected = reference(np.add, a, b, acl_type, alpha)
    if floating:
        np.testing.assert_allclose(got, expected, rtol=1e-2 if acl_type == sim.ACL_BF16 else 1e-3)
    else:
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("shapes", [((3, 1, 5), (4, 1)), ((1,), (2, 3)), ((2, 3), ()), ((0, 3), (1, 3)),
                                    ((64, 1), (1, 513))])
def test_broadcasting(acl, shapes):
    rng = np.random.default_rng(4)
    a = random_values(shapes[0], sim.ACL_FLOAT, rng)
    b = random_values(shapes[1], sim.ACL_FLOAT, rng)
    np.testing.assert_array_equal(run_binary("aclnnAdd", a, b, sim.ACL_FLOAT, alpha=sim.Scalar(1.0)), a + b)
    np.testing.assert_array_equal(run_binary("aclnnMul", a, b, sim.ACL_FLOAT), a * b)


def test_strided_inputs_and_output(acl):
    rng = np.random.default_rng(5)
    base_a = random_values((40, 30), sim.ACL_FLOAT, rng)
    base_b = random_values((60, 20), sim.ACL_FLOAT, rng)
    x, y = sim.DeviceArray.from_numpy(base_a), sim.DeviceArray.from_numpy(base_b)
    out = sim.DeviceArray.from_numpy(np.zeros((2, 30, 40), dtype=np.float32))
    a_t = x.tensor(shape=(30, 40), strides=(1, 30))                  # base_a.T
    b_t = y.tensor(shape=(30, 1), strides=(40, 1), offset=20 + 7)    # base_b[1::2, 7:8][:30], broadcast
    out_t = out.tensor(shape=(30, 40), strides=(40, 1), offset=1200)  # out[1]
    sim.check(sim.run_aclnn("aclnnAdd", a_t, b_t, sim.Scalar(1.0), out_t))
    got = out.to_numpy()
    np.testing.assert_array_equal(got[1], base_a.T + base_b[1::2, 7:8][:30])
    assert (got[0] == 0).all()


def test_transposed_output(acl):
    rng = np.random.default_rng(6)
    a = random_values((17, 23), sim.ACL_INT32, rng)
    x = to_device(a, sim.ACL_INT32)
    out = sim.DeviceArray.from_numpy(np.zeros((23, 17), dtype=np.int32))
    out_t = out.tensor(shape=(17, 23), strides=(1, 17))  # out.T as a view
    sim.check(sim.run_aclnn("aclnnMul", x.tensor(), x.tensor(), out_t))
    np.testing.assert_array_equal(out.to_numpy().T, a * a)


@pytest.mark.parametrize("left,right,out,promoted,expected", [
    (sim.ACL_FLOAT16, sim.ACL_FLOAT, sim.ACL_FLOAT, np.float32, np.float32),
    (sim.ACL_INT32, sim.ACL_FLOAT, sim.ACL_FLOAT, np.float32, np.float32),
    (sim.ACL_BOOL, sim.ACL_INT64, sim.ACL_INT64, np.int64, np.int64),
    (sim.ACL_INT32, sim.ACL_INT64, sim.ACL_INT64, np.int64, np.int64),
    (sim.ACL_UINT8, sim.ACL_INT8, sim.ACL_INT16, np.int16, np.int16),
    # out wider than the result type: computed in float16 (as PyTorch does), then widened
    (sim.ACL_FLOAT16, sim.ACL_FLOAT16, sim.ACL_FLOAT, np.float16, np.float32),
    (sim.ACL_FLOAT, sim.ACL_FLOAT, sim.ACL_FLOAT16, np.float32, np.float16),
])
def test_type_promotion(acl, left, right, out, promoted, expected):
    rng = np.random.default_rng(7)
    a = random_values((300,), left, rng, 0, 50)
    b = random_values((300,), right, rng, 0, 50)
    x, y = to_device(a, left), to_device(b, right)
    o = sim.DeviceArray.empty((300,), out)
    sim.check(sim.run_aclnn("aclnnAdd", x.tensor(), y.tensor(), sim.Scalar(1), o.tensor()))
    ref = (np.asarray(a).astype(promoted) + np.asarray(b).astype(promoted)).astype(expected)
    np.testing.assert_array_equal(o.to_numpy(), ref)


def test_zero_dim_tensor_does_not_promote_within_its_category(acl):
    a = np.arange(10, dtype=np.int32)
    x = sim.DeviceArray.from_numpy(a)
    s = sim.DeviceArray.from_numpy(np.array(5, dtype=np.int64))  # 0-dim int64
    out = sim.DeviceArray.empty((10,), sim.ACL_INT32)
    sim.check(sim.run_aclnn("aclnnMul", x.tensor(), s.tensor(shape=()), out.tensor()))
    np.testing.assert_array_equal(out.to_numpy(), a * 5)


def test_inplace_add_on_a_strided_view(acl):
    base = np.arange(60, dtype=np.float32).reshape(6, 10)
    x = sim.DeviceArray.from_numpy(base)
    other = sim.DeviceArray.from_numpy(np.full((3,), 100, dtype=np.float16))
    view = x.tensor(shape=(6, 3), strides=(10, 3), offset=1)  # columns 1, 4, 7
    sim.check(sim.run_aclnn("aclnnInplaceAdd", view, other.tensor(), sim.Scalar(2.0)))
    expected = base.copy()
    expected[:, 1:10:3] += 200
    np.testing.assert_array_equal(x.to_numpy(), expected)


def status_and_message(api, *args):
    rc, _, executor = sim.aclnn_workspace(api, *args)
    if executor:
        sim.load().aclDestroyAclOpExecutor(executor)
    return rc, sim.recent_error()


def test_rejected_dtypes_and_promotions_name_the_argument(acl):
    f = sim.DeviceArray.empty((4,), sim.ACL_FLOAT)
    i = sim.DeviceArray.empty((4,), sim.ACL_INT32)
    u16 = sim.DeviceArray.empty((4,), sim.ACL_FLOAT16)
    rc, msg = status_and_message("aclnnAdd", f.tensor(), f.tensor(), sim.Scalar(1.0),
                                 i.tensor(acl_type=sim.ACL_UINT16))
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert msg.startswith("aclnnAdd: out has dtype ACL_UINT16, which is not supported")
    rc, msg = status_and_message("aclnnAdd", i.tensor(), f.tensor(), sim.Scalar(1), i.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert msg == "aclnnAdd: out has dtype ACL_INT32, which cannot hold the result type ACL_FLOAT of self and other"
    rc, msg = status_and_message("aclnnMul", f.tensor(), f.tensor(), i.tensor(acl_type=sim.ACL_BOOL))
    assert "aclnnMul: out has dtype ACL_BOOL, which cannot hold the result type ACL_FLOAT" in msg
    rc, msg = status_and_message("aclnnAdd", i.tensor(), i.tensor(), sim.Scalar(0.5), i.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert "aclnnAdd: alpha has floating dtype ACL_DOUBLE but the result type ACL_INT32 is integral" in msg
    rc, msg = status_and_message("aclnnAdd", u16.tensor(), u16.tensor(), sim.Scalar(True), u16.tensor())
    assert "alpha has dtype ACL_BOOL" in msg


def test_null_arguments_and_shape_errors(acl):
    f = sim.DeviceArray.empty((2, 3), sim.ACL_FLOAT)
    g = sim.DeviceArray.empty((4,), sim.ACL_FLOAT)
    rc, msg = status_and_message("aclnnAdd", None, f.tensor(), sim.Scalar(1.0), f.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_NULLPTR and msg == "aclnnAdd: self must not be null"
    rc, msg = status_and_message("aclnnAdd", f.tensor(), f.tensor(), None, f.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_NULLPTR and "alpha" in msg
    rc, msg = status_and_message("aclnnMul", f.tensor(), g.tensor(), f.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert msg == "aclnnMul: self shape [2, 3] and other shape [4] cannot broadcast"
    rc, msg = status_and_message("aclnnMul", f.tensor(), f.tensor(shape=(1, 3), strides=(3, 1)), g.tensor())
    assert "aclnnMul: out shape [4] differs from the broadcast shape [2, 3]" in msg
    rc, msg = status_and_message("aclnnMul", f.tensor(), f.tensor(shape=(2, 3), strides=(3, 2)), f.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "outside its storage of 6 elements" in msg


def test_executor_is_consumed_and_checked(acl):
    f = sim.DeviceArray.from_numpy(np.ones(4, dtype=np.float32))
    rc, size, executor = sim.aclnn_workspace("aclnnMul", f.tensor(), f.tensor(), f.tensor())
    sim.check(rc)
    assert acl.opapi.aclnnAdd(None, 0, executor, None) == sim.ACLNN_ERR_PARAM_INVALID
    assert "created by aclnnMulGetWorkspaceSize" in sim.recent_error()
    sim.check(acl.opapi.aclnnMul(None, size, executor, None))
    assert acl.opapi.aclnnMul(None, 0, None, None) == sim.ACLNN_ERR_PARAM_NULLPTR


def test_workspace_must_be_large_enough(acl):
    a = sim.DeviceArray.from_numpy(np.ones((4, 4), dtype=np.float32))
    rc, size, executor = sim.aclnn_workspace("aclnnAdd", a.tensor(shape=(4, 4), strides=(1, 4)), a.tensor(),
                                             sim.Scalar(1.0), a.tensor())
    sim.check(rc)
    assert size > 0
    assert acl.opapi.aclnnAdd(None, size - 1, executor, None) == sim.ACLNN_ERR_PARAM_INVALID
    assert "smaller than the" in sim.recent_error()
    acl.aclDestroyAclOpExecutor(executor)


def test_recycled_tensors_and_executors_start_fresh(acl):
    """aclTensor and aclOpExecutor objects are recycled per thread: a tensor created
    after a destroyed strided, offset 3-d one (and an executor after one that needed a
    workspace) carries only its own shape, strides, offset and steps."""
    libs = sim.load()
    rng = np.random.default_rng(11)
    a = random_values((4, 6), sim.ACL_FLOAT, rng)
    b = random_values((4, 6), sim.ACL_FLOAT, rng)
    x, y = sim.DeviceArray.from_numpy(a), sim.DeviceArray.from_numpy(b)
    out = sim.DeviceArray.from_numpy(np.zeros((2, 4, 6), dtype=np.float32))
    # A launch with strided views, an offset output and a workspace (transposed input)...
    a_t = x.tensor(shape=(6, 4), strides=(1, 6))
    b_t = y.tensor(shape=(6, 4), strides=(1, 6))
    out_t = out.tensor(shape=(6, 4), strides=(1, 6), offset=24)
    sim.check(sim.run_aclnn("aclnnAdd", a_t, b_t, sim.Scalar(2.0), out_t))
    np.testing.assert_array_equal(out.to_numpy()[1], a + np.float32(2.0) * b)
    for arr in (x, y, out):
        arr.free_tensors()
    # ...then 1-d tensors without explicit strides (contiguous) and a dense launch.
    shape = sim._int64_array([24])
    storage = sim._int64_array([24])
    handles = [
        libs.aclCreateTensor(shape, 1, sim.ACL_FLOAT, None, 0, sim.ACL_FORMAT_ND, storage, 1, arr.ptr)
        for arr in (x, y, out)
    ]
    try:
        sim.check(sim.run_aclnn("aclnnAdd", handles[0], handles[1], sim.Scalar(1.0), handles[2]))
        np.testing.assert_array_equal(out.to_numpy().reshape(-1)[:24], (a + b).reshape(-1))
    finally:
        for handle in handles:
            libs.aclDestroyTensor(handle)
