"""Indexing, shape, factory and random aclnn apis of the index family against numpy:
aclnnFlip/aclnnRoll (view-copy steps), aclnnTriu, aclnnEye, aclnnLinspace/aclnnLogSpace
(sequence_custom), aclnnScatterReduce/aclnnIndexReduce and the multiplying scatters
(gather_scatter_custom), aclnnNonzero/aclnnMaskedSelect (compress_custom, the result's
shape read back with aclGetViewShape)/aclnnInplaceMaskedScatter, aclnnIndex/
aclnnIndexPutImpl/aclnnTake/aclnnInplacePut (advanced_index_custom), and the random
distributions (values from the Philox reference, statistics)."""

from __future__ import annotations

import ctypes

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import IntArray, Scalar, from_device, random_values, round_to, to_device

_vp = ctypes.c_void_p


def _sync_error() -> str:
    rc = sim.load().aclrtSynchronizeDevice()
    return "" if rc == 0 else sim.recent_error()


def _view_shape(tensor: int) -> tuple:
    """The view shape after a synchronisation (when an op of data-dependent size has set it)."""
    sim.check(sim.load().aclrtSynchronizeDevice())
    dims = ctypes.POINTER(ctypes.c_int64)()
    count = ctypes.c_uint64()
    sim.check(sim.load().aclGetViewShape(tensor, ctypes.byref(dims), ctypes.byref(count)))
    return tuple(dims[i] for i in range(count.value))


def _tensor_list(tensors: list) -> int:
    libs = sim.load()
    libs.aclCreateTensorList.restype = _vp
    libs.aclCreateTensorList.argtypes = [ctypes.POINTER(_vp), ctypes.c_uint64]
    arr = (_vp * max(1, len(tensors)))(*tensors)
    return libs.aclCreateTensorList(arr, len(tensors))


# ---- flip / roll ----
@pytest.mark.parametrize("shape,dims", [((7,), [0]), ((3, 5), [1]), ((3, 5), [0, 1]), ((2, 3, 4), [0, 2]),
                                        ((2, 3, 4), [-1]), ((4, 0, 3), [1]), ((), [])])
def test_flip_matches_numpy(acl, shape, dims):
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    dx, out = sim.DeviceArray.from_numpy(x), sim.DeviceArray.empty(shape, sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnFlip", dx.tensor(), IntArray(dims), out.tensor()))
    np.testing.assert_array_equal(out.to_numpy(), np.flip(x, dims) if dims else x)


def test_flip_of_a_transposed_view_and_repeated_dims(acl):
    x = np.arange(12, dtype=np.int64).reshape(3, 4)
    dx, out = sim.DeviceArray.from_numpy(x), sim.DeviceArray.empty((4, 3), sim.ACL_INT64)
    sim.check(sim.run_aclnn("aclnnFlip", dx.tensor(shape=(4, 3), strides=(1, 4)), IntArray([0]), out.tensor()))
    np.testing.assert_array_equal(out.to_numpy(), np.flip(x.T, 0))
    rc, _, _ = sim.aclnn_workspace("aclnnFlip", dx.tensor(), IntArray([0, -2]), out.tensor(shape=(3, 4)))
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "appears multiple times" in sim.recent_error()


@pytest.mark.parametrize("shape,shifts,dims", [((10,), [3], []), ((10,), [-13], [0]), ((3, 4), [1], []),
                                               ((3, 4), [1, -1], [0, 1]), ((2, 3, 5), [7, 2], [2, 0]),
                                               ((2, 3, 5), [1, 1], [1, 1]), ((4, 5), [0], [1])])
def test_roll_matches_numpy(acl, shape, shifts, dims):
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    dx, out = sim.DeviceArray.from_numpy(x), sim.DeviceArray.empty(shape, sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnRoll", dx.tensor(), IntArray(shifts), IntArray(dims), out.tensor()))
    want = np.roll(x, shifts[0]) if not dims else np.roll(x, shifts, dims)
    np.testing.assert_array_equal(out.to_numpy(), want)


# ---- triu ----
@pytest.mark.parametrize("acl_type", [sim.ACL_FLOAT, sim.ACL_FLOAT16, sim.ACL_INT8, sim.ACL_BOOL, sim.ACL_INT64])
@pytest.mark.parametrize("shape", [(0, 3), (1, 1), (7, 13), (13, 7), (2, 3, 17, 19), (3, 4099)])
def test_triu_matches_numpy(acl, acl_type, shape):
    rng = np.random.default_rng(sum(shape))
    x = random_values(shape, acl_type, rng, low=1, high=50)
    dx = to_device(x, acl_type)
    for diagonal in (0, 1, -1, 5, -(shape[-2] + 2), shape[-1] + 1):
        out = sim.DeviceArray.empty(shape, acl_type)
        sim.check(sim.run_aclnn("aclnnTriu", dx.tensor(), diagonal, out.tensor()))
        np.testing.assert_array_equal(from_device(out), np.triu(x, diagonal), err_msg=f"diagonal {diagonal}")


def test_inplace_triu_of_a_strided_view(acl):
    x = np.arange(1, 31, dtype=np.float32).reshape(5, 6)
    dx = sim.DeviceArray.from_numpy(x)
    sim.check(sim.run_aclnn("aclnnInplaceTriu", dx.tensor(shape=(6, 5), strides=(1, 6)), 1))
    np.testing.assert_array_equal(dx.to_numpy().T, np.triu(x.T, 1))


# ---- eye / linspace / logspace ----
@pytest.mark.parametrize("n,m", [(1, 1), (3, 3), (2, 5), (6, 2), (0, 4)])
@pytest.mark.parametrize("acl_type", [sim.ACL_FLOAT, sim.ACL_BOOL, sim.ACL_INT32])
def test_eye_matches_numpy(acl, n, m, acl_type):
    out = sim.DeviceArray.empty((n, m), acl_type)
    sim.check(sim.run_aclnn("aclnnEye", n, m, out.tensor()))
    np.testing.assert_array_equal(from_device(out), np.eye(n, m).astype(sim.numpy_dtype(acl_type)))


def test_eye_into_a_transposed_out(acl):
    out = sim.DeviceArray.empty((4, 3), sim.ACL_FLOAT)
    out.upload(np.full((4, 3), 7, np.float32))
    sim.check(sim.run_aclnn("aclnnEye", 3, 4, out.tensor(shape=(3, 4), strides=(1, 3))))
    np.testing.assert_array_equal(out.to_numpy().T, np.eye(3, 4))


@pytest.mark.parametrize("start,end,steps", [(0.0, 1.0, 5), (-3.0, 7.5, 101), (2.0, 2.0, 3), (5.0, -5.0, 4),
                                             (1.0, 9.0, 1), (0.0, 1.0, 0), (0.0, 1.0, 70001)])
def test_linspace_matches_numpy(acl, start, end, steps):
    out = sim.DeviceArray.empty((steps,), sim.ACL_DOUBLE)
    sim.check(sim.run_aclnn("aclnnLinspace", Scalar(start), Scalar(end), steps, out.tensor()))
    np.testing.assert_allclose(out.to_numpy(), np.linspace(start, end, steps), rtol=1e-12, atol=1e-12)
    if steps:
        assert out.to_numpy()[0] == start and (steps == 1 or out.to_numpy()[-1] == end)


def test_linspace_float32_and_integers(acl):
    out = sim.DeviceArray.empty((7,), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnLinspace", Scalar(-1.0), Scalar(2.0), 7, out.tensor()))
    np.testing.assert_allclose(out.to_numpy(), np.linspace(-1, 2, 7, dtype=np.float32), rtol=1e-6)
    ints = sim.DeviceArray.empty((5,), sim.ACL_INT64)
    sim.check(sim.run_aclnn("aclnnLinspace", Scalar(0), Scalar(10), 5, ints.tensor()))
    np.testing.assert_array_equal(ints.to_numpy(), [0, 2, 5, 7, 10])


def test_logspace_matches_numpy(acl):
    out = sim.DeviceArray.empty((9,), sim.ACL_DOUBLE)
    sim.check(sim.run_aclnn("aclnnLogSpace", Scalar(-2.0), Scalar(3.0), 9, 2.0, out.tensor()))
    np.testing.assert_allclose(out.to_numpy(), np.logspace(-2, 3, 9, base=2.0), rtol=1e-12)


# ---- reducing scatters ----
def _scatter_reduce_reference(x, dim, index, src, reduce, include_self):
    out = x.astype(np.float64).copy()
    counts = np.zeros(x.shape, np.int64)
    touched = np.zeros(x.shape, bool)
    for pos in np.ndindex(index.shape):
        target = list(pos)
        target[dim] = index[pos]
        target = tuple(target)
        if not include_self and not touched[target]:
            out[target] = {"sum": 0, "mean": 0, "prod": 1, "amax": -np.inf, "amin": np.inf}[reduce]
        touched[target] = True
        v = src[pos]
        if reduce in ("sum", "mean"):
            out[target] += v
        elif reduce == "prod":
            out[target] *= v
        elif reduce == "amax":
            out[target] = max(out[target], v)
        else:
            out[target] = min(out[target], v)
        counts[target] += 1
    if reduce == "mean":
        n = counts + (1 if include_self else 0)
        out = np.where(counts > 0, out / np.maximum(n, 1), out)
    return out


REDUCE_CODES = {"sum": 1, "prod": 2, "amax": 3, "amin": 4, "mean": 5}


@pytest.mark.parametrize("reduce", list(REDUCE_CODES))
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("shape,dim", [((5,), 0), ((4, 6), 1), ((4, 6), 0), ((3, 4, 5), 2)])
def test_scatter_reduce_matches_reference(acl, reduce, include_self, shape, dim):
    rng = np.random.default_rng(len(shape) * 10 + dim)
    x = rng.uniform(-2, 2, shape).astype(np.float32)
    src_shape = list(shape)
    src_shape[dim] += 2
    src = rng.uniform(-2, 2, src_shape).astype(np.float32)
    index = rng.integers(0, shape[dim], size=src_shape)
    want = _scatter_reduce_reference(x, dim, index, src, reduce, include_self)
    dx, ds, di = sim.DeviceArray.from_numpy(x), sim.DeviceArray.from_numpy(src), to_device(index, sim.ACL_INT64)
    out = sim.DeviceArray.empty(shape, sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnScatterReduce", dx.tensor(), dim, di.tensor(), ds.tensor(), REDUCE_CODES[reduce],
                            include_self, out.tensor()))
    np.testing.assert_allclose(out.to_numpy(), want.astype(np.float32), rtol=1e-5, atol=1e-5)


def test_scatter_reduce_mean_of_integers_rounds_down(acl):
    x = np.array([1, -7, 4], np.int64)
    index = np.array([1, 1, 0, 2])
    src = np.array([2, 4, -3, 5], np.int64)
    dx, ds, di = to_device(x, sim.ACL_INT64), to_device(src, sim.ACL_INT64), to_device(index, sim.ACL_INT64)
    out = sim.DeviceArray.empty((3,), sim.ACL_INT64)
    sim.check(sim.run_aclnn("aclnnScatterReduce", dx.tensor(), 0, di.tensor(), ds.tensor(), 5, True, out.tensor()))
    np.testing.assert_array_equal(out.to_numpy(), [(1 - 3) // 2, (-7 + 2 + 4) // 3, (4 + 5) // 2])


def test_scatter_multiply_and_value_add(acl):
    x = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    index = np.array([[1, 1], [1, 0]])
    src = np.array([[2.0, 3.0], [5.0, 7.0]], np.float32)
    dx, ds, di = sim.DeviceArray.from_numpy(x), sim.DeviceArray.from_numpy(src), to_device(index, sim.ACL_INT64)
    out = sim.DeviceArray.empty((2, 2), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnScatter", dx.tensor(), 0, di.tensor(), ds.tensor(), 2, out.tensor()))
    np.testing.assert_array_equal(out.to_numpy(), [[1.0, 2.0 * 7.0], [3.0 * 2.0 * 5.0, 4.0 * 3.0]])
    sim.check(sim.run_aclnn("aclnnScatterValue", dx.tensor(), 0, di.tensor(), Scalar(1.5), 1, out.tensor()))
    np.testing.assert_array_equal(out.to_numpy(), [[1.0, 3.5], [6.0, 5.5]])


@pytest.mark.parametrize("reduce", ["prod", "amax", "amin", "mean"])
@pytest.mark.parametrize("include_self", [True, False])
def test_index_reduce_matches_reference(acl, reduce, include_self):
    rng = np.random.default_rng(3)
    x = rng.uniform(-2, 2, (4, 5, 3)).astype(np.float32)
    index = np.array([3, 0, 3, 1, 3, 0])
    source = rng.uniform(-2, 2, (4, 6, 3)).astype(np.float32)
    full_index = np.broadcast_to(index[None, :, None], source.shape)
    want = _scatter_reduce_reference(x, 1, full_index, source, reduce, include_self)
    dx, ds, di = sim.DeviceArray.from_numpy(x), sim.DeviceArray.from_numpy(source), to_device(index, sim.ACL_INT32)
    out = sim.DeviceArray.empty(x.shape, sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnIndexReduce", dx.tensor(), 1, di.tensor(), ds.tensor(), REDUCE_CODES[reduce],
                            include_self, out.tensor()))
    np.testing.assert_allclose(out.to_numpy(), want.astype(np.float32), rtol=1e-5, atol=1e-5)


# ---- nonzero / masked_select / masked_scatter ----
@pytest.mark.parametrize("shape", [(0,), (1,), (17,), (4, 5), (3, 0, 2), (2, 3, 4), (300, 700), ()])
def test_nonzero_matches_numpy_and_reports_its_shape(acl, shape):
    rng = np.random.default_rng(sum(shape) + len(shape))
    x = (rng.uniform(0, 1, shape) < 0.3).astype(np.float32) * rng.uniform(1, 2, shape).astype(np.float32)
    x = np.asarray(x, np.float32).reshape(shape)
    dx = sim.DeviceArray.from_numpy(x)
    out = sim.DeviceArray.empty((x.size, len(shape)), sim.ACL_INT64)
    out_tensor = out.tensor()
    sim.check(sim.run_aclnn("aclnnNonzero", dx.tensor(), out_tensor))
    want = np.argwhere(x)
    assert _view_shape(out_tensor) == (len(want), len(shape))
    np.testing.assert_array_equal(out.to_numpy().reshape(-1)[: want.size].reshape(want.shape), want)


def test_nonzero_counts_nan_and_reads_a_strided_view(acl):
    x = np.array([[0.0, np.nan, 0.0], [2.0, 0.0, -0.0]], np.float32)
    dx = sim.DeviceArray.from_numpy(x)
    out = sim.DeviceArray.empty((6, 2), sim.ACL_INT64)
    out_tensor = out.tensor()
    sim.check(sim.run_aclnn("aclnnNonzero", dx.tensor(shape=(3, 2), strides=(1, 3)), out_tensor))
    assert _view_shape(out_tensor) == (2, 2)
    np.testing.assert_array_equal(out.to_numpy()[:2], np.argwhere(np.where(np.isnan(x.T), 1, x.T)))


@pytest.mark.parametrize("acl_type", [sim.ACL_FLOAT, sim.ACL_FLOAT16, sim.ACL_INT64, sim.ACL_BOOL])
def test_masked_select_broadcasts_and_reports_its_shape(acl, acl_type):
    rng = np.random.default_rng(acl_type)
    x = random_values((3, 1, 5), acl_type, rng)
    mask = rng.integers(0, 2, (4, 5)).astype(bool)
    shape = np.broadcast_shapes(x.shape, mask.shape)
    want = np.broadcast_to(x, shape)[np.broadcast_to(mask, shape)]
    dx, dm = to_device(x, acl_type), to_device(mask, sim.ACL_BOOL)
    out = sim.DeviceArray.empty((int(np.prod(shape)),), acl_type)
    out_tensor = out.tensor()
    sim.check(sim.run_aclnn("aclnnMaskedSelect", dx.tensor(), dm.tensor(), out_tensor))
    assert _view_shape(out_tensor) == (len(want),)
    np.testing.assert_array_equal(from_device(out)[: len(want)], round_to(want, acl_type))


def test_masked_scatter_fills_in_order_and_fails_on_a_short_source(acl):
    x = np.zeros((3, 4), np.float32)
    mask = np.array([True, False, True, True])
    source = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
    dx, dm, ds = sim.DeviceArray.from_numpy(x), to_device(mask, sim.ACL_BOOL), sim.DeviceArray.from_numpy(source)
    sim.check(sim.run_aclnn("aclnnInplaceMaskedScatter", dx.tensor(), dm.tensor(), ds.tensor()))
    want = x.copy()
    want[np.broadcast_to(mask, x.shape)] = source.reshape(-1)[:9]
    np.testing.assert_array_equal(dx.to_numpy(), want)
    short = sim.DeviceArray.from_numpy(np.ones(4, np.float32))
    sim.check(sim.run_aclnn("aclnnInplaceMaskedScatter", dx.tensor(), dm.tensor(), short.tensor()))
    assert "at least as many elements as ones in mask" in _sync_error()


# ---- advanced indexing ----
def _none(acl_type=sim.ACL_BOOL):
    return sim.DeviceArray.empty((0,), acl_type)


@pytest.mark.parametrize("case", ["first", "middle", "two_adjacent", "split", "broadcast", "negative"])
def test_index_matches_numpy(acl, case):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((4, 5, 6)).astype(np.float32)
    i0, i1 = np.array([3, 0, 3]), np.array([[1], [4]])
    none = _none()
    entries = {
        "first": ([i0], lambda: x[i0]),
        "middle": ([None, i0], lambda: x[:, i0]),
        "two_adjacent": ([None, i1, np.array([0, 5, 2])], lambda: x[:, i1, np.array([0, 5, 2])]),
        "split": ([i0, None, np.array([5, 1, 0])], lambda: x[i0, :, np.array([5, 1, 0])]),
        "broadcast": ([i1 - 1, np.array([0, 2, 4])], lambda: x[i1 - 1, np.array([0, 2, 4])]),
        "negative": ([np.array([-1, -4])], lambda: x[np.array([-1, -4])]),
    }
    indices, reference = entries[case]
    want = reference()
    arrays = [None if i is None else to_device(i, sim.ACL_INT64) for i in indices]
    handles = [none.tensor() if a is None else a.tensor() for a in arrays]
    dx, out = sim.DeviceArray.from_numpy(x), sim.DeviceArray.empty(want.shape, sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnIndex", dx.tensor(), _tensor_list(handles), out.tensor()))
    np.testing.assert_array_equal(out.to_numpy(), want)


def test_index_put_accumulates_duplicates_and_broadcasts_values(acl):
    x = np.zeros((4, 3), np.float32)
    index = np.array([1, 3, 1, 1])
    values = np.array([1.0, 2.0, 4.0], np.float32)
    dx, di, dv = sim.DeviceArray.from_numpy(x), to_device(index, sim.ACL_INT64), sim.DeviceArray.from_numpy(values)
    sim.check(sim.run_aclnn("aclnnIndexPutImpl", dx.tensor(), _tensor_list([di.tensor()]), dv.tensor(), True, False))
    want = x.copy()
    np.add.at(want, index, values)
    np.testing.assert_array_equal(dx.to_numpy(), want)
    sim.check(sim.run_aclnn("aclnnIndexPutImpl", dx.tensor(), _tensor_list([di.tensor()]), dv.tensor(), False, False))
    want[index] = values
    np.testing.assert_array_equal(dx.to_numpy(), want)


def test_index_out_of_range_fails_the_kernel(acl):
    dx = sim.DeviceArray.from_numpy(np.zeros((4, 3), np.float32))
    di = to_device(np.array([0, 4]), sim.ACL_INT64)
    out = sim.DeviceArray.empty((2, 3), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnIndex", dx.tensor(), _tensor_list([di.tensor()]), out.tensor()))
    assert "index 4 is out of bounds for dimension 0 with size 4" in _sync_error()


def test_take_and_put(acl):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    index = np.array([[11, 0], [-1, 5]])
    dx, di = sim.DeviceArray.from_numpy(x), to_device(index, sim.ACL_INT64)
    out = sim.DeviceArray.empty((2, 2), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnTake", dx.tensor(shape=(4, 3), strides=(1, 4)), di.tensor(), out.tensor()))
    np.testing.assert_array_equal(out.to_numpy(), np.take(x.T, index))
    source = sim.DeviceArray.from_numpy(np.array([1.0, 2.0, 3.0, 4.0], np.float32))
    sim.check(sim.run_aclnn("aclnnInplacePut", dx.tensor(), di.tensor(), source.tensor(), True))
    want = x.copy().reshape(-1)
    np.add.at(want, index.reshape(-1), [1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(dx.to_numpy().reshape(-1), want)


# ---- random distributions ----
def _uniform_of(n, seed, offset):
    return (philox_words(n, seed, offset)[:, 0] >> 8).astype(np.float64) / 16777216.0


def philox_words(n, seed, offset):
    return sim.philox_blocks(n, seed, offset)


def test_exponential_is_the_inverse_of_the_philox_uniform(acl):
    n, seed, offset = 4096, 1234, 7
    out = sim.DeviceArray.empty((n,), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnInplaceExponential", out.tensor(), 2.5, seed, offset))
    want = -np.log1p(-_uniform_of(n, seed, offset)) / 2.5
    np.testing.assert_allclose(out.to_numpy(), want.astype(np.float32), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("api,args,mean,var", [
    ("aclnnInplaceExponential", (0.5,), 2.0, 4.0),
    ("aclnnInplaceLogNormal", (0.2, 0.3), np.exp(0.2 + 0.045), (np.exp(0.09) - 1) * np.exp(0.4 + 0.09)),
    ("aclnnInplaceGeometric", (0.25,), 4.0, 12.0),
])
@pytest.mark.parametrize("acl_type", [sim.ACL_FLOAT, sim.ACL_FLOAT16, sim.ACL_BF16, sim.ACL_DOUBLE])
def test_distribution_moments(acl, api, args, mean, var, acl_type):
    n = 200000
    out = sim.DeviceArray.empty((n,), acl_type)
    sim.check(sim.run_aclnn(api, out.tensor(), *args, 42, 3))
    v = from_device(out).astype(np.float64)
    assert abs(v.mean() - mean) < 6 * np.sqrt(var / n) + 0.01 * mean
    assert abs(v.var() - var) < 0.1 * var


def test_cauchy_median_and_quartiles(acl):
    n = 100000
    out = sim.DeviceArray.empty((n,), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnInplaceCauchy", out.tensor(), 1.5, 2.0, 9, 0))
    q1, q2, q3 = np.percentile(out.to_numpy(), [25, 50, 75])
    assert abs(q2 - 1.5) < 0.05 and abs(q1 - (1.5 - 2.0)) < 0.08 and abs(q3 - (1.5 + 2.0)) < 0.08


@pytest.mark.parametrize("acl_type,low,high", [(sim.ACL_INT64, -5, 6), (sim.ACL_UINT8, 0, 256), (sim.ACL_BOOL, 0, 2),
                                               (sim.ACL_FLOAT, 3, 10), (sim.ACL_INT8, -128, 128)])
def test_random_integers_cover_the_range_uniformly(acl, acl_type, low, high):
    n = 60000
    out = sim.DeviceArray.empty((n,), acl_type)
    sim.check(sim.run_aclnn("aclnnInplaceRandom", out.tensor(), low, high, 5, 1))
    v = from_device(out).astype(np.int64)
    assert v.min() == low and v.max() == high - 1
    counts = np.bincount(v - low, minlength=high - low)
    expected = n / (high - low)
    assert np.all(np.abs(counts - expected) < 6 * np.sqrt(expected))


def test_random_apis_check_their_arguments(acl):
    out = sim.DeviceArray.empty((4,), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnInplaceExponential", out.tensor(), -1.0, 0, 0)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "lambd must be positive" in sim.recent_error()
    rc, _, _ = sim.aclnn_workspace("aclnnInplaceRandom", out.tensor(), 5, 5, 0, 0)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "from (5) must be less than to (5)" in sim.recent_error()
    ints = sim.DeviceArray.empty((4,), sim.ACL_INT32)
    rc, _, _ = sim.aclnn_workspace("aclnnInplaceCauchy", ints.tensor(), 0.0, 1.0, 0, 0)
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "ACL_INT32" in sim.recent_error()


# ---- index_copy / index_fill / fill tensor / repeat_interleave ----
def test_index_copy_and_index_fill(acl):
    x = np.zeros((3, 5), np.float32)
    index = np.array([4, 0, 4])
    source = np.arange(9, dtype=np.float32).reshape(3, 3)
    dx, di, ds = sim.DeviceArray.from_numpy(x), to_device(index, sim.ACL_INT64), sim.DeviceArray.from_numpy(source)
    out = sim.DeviceArray.empty((3, 5), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnIndexCopy", dx.tensor(), 1, di.tensor(), ds.tensor(), out.tensor()))
    want = x.copy()
    for k, i in enumerate(index):  # the last slice of a repeated index wins
        want[:, i] = source[:, k]
    np.testing.assert_array_equal(out.to_numpy(), want)
    negative = to_device(np.array([-1, 1]), sim.ACL_INT64)
    sim.check(sim.run_aclnn("aclnnInplaceIndexFill", dx.tensor(), 0, negative.tensor(), Scalar(2.5)))
    want = x.copy()
    want[[-1, 1]] = 2.5
    np.testing.assert_array_equal(dx.to_numpy(), want)


def test_fill_tensor_converts_and_broadcasts(acl):
    dx = sim.DeviceArray.from_numpy(np.zeros((4, 3), np.int32))
    value = sim.DeviceArray.from_numpy(np.array(7.9, np.float32))
    sim.check(sim.run_aclnn("aclnnInplaceFillTensor", dx.tensor(shape=(3, 4), strides=(1, 3)), value.tensor(shape=())))
    np.testing.assert_array_equal(dx.to_numpy(), np.full((4, 3), 7, np.int32))


def test_repeat_interleave_tensor(acl):
    repeats = np.array([2, 0, 3, 1])
    dr = to_device(repeats, sim.ACL_INT64)
    out = sim.DeviceArray.empty((6,), sim.ACL_INT64)
    sim.check(sim.run_aclnn("aclnnRepeatInterleaveTensor", dr.tensor(), 6, out.tensor()))
    np.testing.assert_array_equal(out.to_numpy(), np.repeat(np.arange(4), repeats))
    short = sim.DeviceArray.empty((5,), sim.ACL_INT64)
    sim.check(sim.run_aclnn("aclnnRepeatInterleaveTensor", dr.tensor(), 5, short.tensor()))
    assert "sum past output_size 5" in _sync_error()


# ---- searchsorted / bucketize / histc ----
@pytest.mark.parametrize("right", [False, True])
def test_searchsorted_matches_numpy(acl, right):
    boundaries = np.array([1.0, 2.0, 2.0, 5.0], np.float32)
    values = np.array([[0.0, 2.0, 2.5, 7.0, np.nan], [5.0, 1.0, -1.0, 2.0, 6.0]], np.float32)
    db, dv = sim.DeviceArray.from_numpy(boundaries), sim.DeviceArray.from_numpy(values)
    out = sim.DeviceArray.empty(values.shape, sim.ACL_INT64)
    sim.check(sim.run_aclnn("aclnnSearchSorted", db.tensor(), dv.tensor(), False, right, None, out.tensor()))
    want = np.searchsorted(boundaries, values, side="right" if right else "left")
    np.testing.assert_array_equal(out.to_numpy(), want)


def test_searchsorted_rows_with_a_sorter_and_int32_out(acl):
    rows = np.array([[3, 1, 2], [10, 30, 20]], np.int64)
    sorter = np.argsort(rows, axis=1)
    values = np.array([[2, 4], [25, 5]], np.int64)
    dr, ds, dv = to_device(rows, sim.ACL_INT64), to_device(sorter, sim.ACL_INT64), to_device(values, sim.ACL_INT64)
    out = sim.DeviceArray.empty((2, 2), sim.ACL_INT32)
    sim.check(sim.run_aclnn("aclnnSearchSorted", dr.tensor(), dv.tensor(), True, False, ds.tensor(), out.tensor()))
    want = [np.searchsorted(np.sort(rows[r]), values[r]) for r in range(2)]
    np.testing.assert_array_equal(out.to_numpy(), want)


def test_bucketize_promotes_the_values(acl):
    boundaries = to_device(np.array([1, 3, 5], np.int64), sim.ACL_INT64)
    values = sim.DeviceArray.from_numpy(np.array([0.5, 3.0, 4.2, 9.0], np.float32))
    out = sim.DeviceArray.empty((4,), sim.ACL_INT64)
    sim.check(sim.run_aclnn("aclnnBucketize", values.tensor(), boundaries.tensor(), False, True, out.tensor()))
    np.testing.assert_array_equal(out.to_numpy(), np.searchsorted([1, 3, 5], [0.5, 3.0, 4.2, 9.0], side="right"))


@pytest.mark.parametrize("acl_type", [sim.ACL_FLOAT, sim.ACL_DOUBLE, sim.ACL_FLOAT16])
def test_histc_matches_numpy(acl, acl_type):
    rng = np.random.default_rng(4)
    x = random_values((1000,), acl_type, rng, low=-3, high=3)
    x[:3] = [-2.0, 2.0, np.nan]  # both ends, NaN skipped
    dx = to_device(x, acl_type)
    out = sim.DeviceArray.empty((8,), acl_type)
    sim.check(sim.run_aclnn("aclnnHistc", dx.tensor(), 8, Scalar(-2.0), Scalar(2.0), out.tensor()))
    inside = x[(x >= -2) & (x <= 2)]
    want, _ = np.histogram(inside, bins=8, range=(-2, 2))
    np.testing.assert_array_equal(from_device(out), want)


# ---- sampling ----
def test_normal_with_tensor_moments(acl):
    n = 100000
    mean = sim.DeviceArray.from_numpy(np.array([-5.0, 0.0, 5.0], np.float32))
    std = sim.DeviceArray.from_numpy(np.array([[0.5], [2.0]], np.float32))
    out = sim.DeviceArray.empty((n, 2, 3), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnNormalTensorTensor", mean.tensor(), std.tensor(), 3, 4, out.tensor()))
    v = out.to_numpy()
    np.testing.assert_allclose(v.mean(0), [[-5, 0, 5], [-5, 0, 5]], atol=0.03)
    np.testing.assert_allclose(v.std(0), [[0.5] * 3, [2.0] * 3], rtol=0.02)
    z = (v[:, 0, 1] / 0.5).astype(np.float64)
    blocks = sim.philox_blocks(n * 6, 3, 4)
    u1 = 1.0 - (blocks[1::6, 0] >> 8) / 16777216.0
    u2 = (blocks[1::6, 1] >> 8) / 16777216.0
    np.testing.assert_allclose(z, np.sqrt(-2 * np.log(u1)) * np.cos(2 * np.pi * u2), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("replacement", [True, False])
def test_multinomial_frequencies(acl, replacement):
    weights = np.array([[0.0, 1.0, 3.0, 6.0]] * 20000, np.float32)
    dw = sim.DeviceArray.from_numpy(weights)
    out = sim.DeviceArray.empty((20000, 2), sim.ACL_INT64)
    sim.check(sim.run_aclnn("aclnnMultinomial", dw.tensor(), 2, replacement, 8, 0, out.tensor()))
    draws = out.to_numpy()
    np.testing.assert_allclose(np.bincount(draws[:, 0], minlength=4) / 20000, [0, 0.1, 0.3, 0.6], atol=0.015)
    if not replacement:
        assert np.all(draws[:, 0] != draws[:, 1])
    bad = sim.DeviceArray.from_numpy(np.array([1.0, -1.0], np.float32))
    one = sim.DeviceArray.empty((1,), sim.ACL_INT64)
    sim.check(sim.run_aclnn("aclnnMultinomial", bad.tensor(), 1, True, 0, 0, one.tensor()))
    assert "element < 0" in _sync_error()


def test_randperm_is_a_permutation(acl):
    out = sim.DeviceArray.empty((1000,), sim.ACL_INT64)
    sim.check(sim.run_aclnn("aclnnRandperm", 1000, 11, 2, out.tensor()))
    perm = out.to_numpy()
    np.testing.assert_array_equal(np.sort(perm), np.arange(1000))
    assert not np.array_equal(perm, np.arange(1000))


# ---- unique ----
@pytest.mark.parametrize("consecutive", [False, True])
def test_unique_reports_groups_inverse_and_counts(acl, consecutive):
    x = np.array([[3.0, 1.0, 1.0], [np.nan, 3.0, 3.0], [2.0, np.nan, 1.0]], np.float32)
    dx = sim.DeviceArray.from_numpy(x)
    y = sim.DeviceArray.empty((9,), sim.ACL_FLOAT)
    inverse = sim.DeviceArray.empty((3, 3), sim.ACL_INT64)
    counts = sim.DeviceArray.empty((9,), sim.ACL_INT64)
    yt, ct = y.tensor(), counts.tensor()
    if consecutive:
        sim.check(sim.run_aclnn("aclnnUniqueConsecutive", dx.tensor(), True, True, 1000, yt, inverse.tensor(), ct))
        want_y = [3.0, 1.0, np.nan, 3.0, 2.0, np.nan, 1.0]
        want_counts = [1, 2, 1, 2, 1, 1, 1]
    else:
        sim.check(sim.run_aclnn("aclnnUnique2", dx.tensor(), True, True, True, yt, inverse.tensor(), ct))
        want_y = [1.0, 2.0, 3.0, np.nan, np.nan]
        want_counts = [3, 1, 3, 1, 1]
    groups = len(want_y)
    assert _view_shape(yt) == (groups,) and _view_shape(ct) == (groups,)
    got = y.to_numpy()[:groups]
    np.testing.assert_array_equal(got, np.array(want_y, np.float32))
    np.testing.assert_array_equal(counts.to_numpy()[:groups], want_counts)
    np.testing.assert_array_equal(got[inverse.to_numpy().reshape(-1)], x.reshape(-1))
