"""The elementwise, compare, select, reduce and softmax acl_op types against numpy references:
broadcasting, constant scalar inputs, attributes, permuted reduction axes, empty reductions."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import dev, op_in, out_of

F32 = sim.ACL_FLOAT


def const(value, acl_type=F32):
    v = np.asarray(value, dtype=sim.numpy_dtype(acl_type))
    return (None, tuple(v.shape), acl_type, sim.ACL_FORMAT_ND, v)


def run(op, inputs, outputs, attrs=None):
    sim.check(sim.run_aclop(op, inputs, [op_in(o) for o in outputs], attrs), op)
    return [o.to_numpy() for o in outputs]


def sigmoid(v):
    return 1 / (1 + np.exp(-v))


@pytest.mark.parametrize("op,fn,lo", [
    ("Exp", np.exp, -3), ("Log", np.log, 0.1), ("Sqrt", np.sqrt, 0.1), ("Rsqrt", lambda v: 1 / np.sqrt(v), 0.1),
    ("Reciprocal", lambda v: 1 / v, 0.5), ("Tanh", np.tanh, -3), ("Sigmoid", sigmoid, -3),
    ("Swish", lambda v: v * sigmoid(v), -3), ("Neg", np.negative, -3), ("Relu", lambda v: np.maximum(v, 0), -3),
])
def test_unary_types(acl, op, fn, lo):
    a = np.linspace(lo, 3, 777, dtype=np.float32)
    (y,) = run(op, [op_in(dev(a))], [out_of(a.shape)])
    np.testing.assert_allclose(y, fn(a.astype(np.float64)), rtol=2e-6, atol=1e-6)


def test_exp_and_log_refuse_other_bases(acl):
    x = dev(np.ones(4, np.float32))
    assert sim.run_aclop("Exp", [op_in(x)], [op_in(out_of((4,)))], {"base": 2.0}) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "only base -1 (e), scale 1 and shift 0 are supported" in sim.recent_error()


def test_gelu_v2_modes(acl):
    from math import erf, sqrt, tanh
    a = np.linspace(-4, 4, 301, dtype=np.float32)
    (y,) = run("GeluV2", [op_in(dev(a))], [out_of(a.shape)])
    np.testing.assert_allclose(y, [v * 0.5 * (1 + erf(v / sqrt(2))) for v in a.astype(np.float64)], atol=2e-6)
    (t,) = run("GeluV2", [op_in(dev(a))], [out_of(a.shape)], {"approximate": "tanh"})
    ref = [0.5 * v * (1 + tanh(sqrt(2 / np.pi) * (v + 0.044715 * v ** 3))) for v in a.astype(np.float64)]
    np.testing.assert_allclose(t, ref, atol=2e-6)
    assert sim.run_aclop("GeluV2", [op_in(dev(a))], [op_in(out_of(a.shape))], {"approximate": "fast"}) == \
        sim.ACL_ERROR_INVALID_PARAM


def test_binary_types_broadcast(acl):
    a = np.arange(12, dtype=np.float32).reshape(3, 1, 4) - 5
    b = np.arange(5, dtype=np.float32).reshape(5, 1) + 0.5
    for op, fn in [("Sub", np.subtract), ("RealDiv", np.divide), ("Maximum", np.maximum), ("Minimum", np.minimum)]:
        (y,) = run(op, [op_in(dev(a)), op_in(dev(b))], [out_of((3, 5, 4))])
        np.testing.assert_allclose(y, fn(a, b), rtol=1e-6, err_msg=op)
    n = np.array([1.0, np.nan, 3.0], np.float32)
    (y,) = run("Maximum", [op_in(dev(n)), op_in(dev(np.array([2.0, 0.0, np.nan], np.float32)))], [out_of((3,))])
    np.testing.assert_array_equal(np.isnan(y), [False, True, True])
    i = np.arange(-6, 6, dtype=np.int64)
    (y,) = run("Sub", [op_in(dev(i)), op_in(dev(i[::-1].copy()))], [out_of((12,), sim.ACL_INT64)])
    np.testing.assert_array_equal(y, i - i[::-1])


@pytest.mark.parametrize("op,fn", [("Equal", np.equal), ("NotEqual", np.not_equal), ("Less", np.less),
                                   ("LessEqual", np.less_equal), ("Greater", np.greater),
                                   ("GreaterEqual", np.greater_equal)])
def test_compares_write_bool(acl, op, fn):
    a = np.array([[1, 2, 3], [4, 5, 6]], np.int64)
    b = np.array([3, 2, 7], np.int64)
    (y,) = run(op, [op_in(dev(a)), op_in(dev(b))], [out_of((2, 3), sim.ACL_BOOL)])
    np.testing.assert_array_equal(y, fn(a, b))
    (s,) = run(op, [op_in(dev(a)), const(4, sim.ACL_INT64)], [out_of((2, 3), sim.ACL_BOOL)])
    np.testing.assert_array_equal(s, fn(a, 4))


def test_pow_clip_and_tril(acl):
    a = np.linspace(0.5, 3, 64, dtype=np.float32).reshape(8, 8)
    (y,) = run("Pow", [op_in(dev(a)), const(2.5)], [out_of(a.shape)])
    np.testing.assert_allclose(y, a.astype(np.float64) ** 2.5, rtol=2e-6)
    (t,) = run("Pow", [op_in(dev(a)), op_in(dev(a[:1]))], [out_of(a.shape)])  # a tensor exponent broadcasts
    np.testing.assert_allclose(t, a.astype(np.float64) ** a[:1].astype(np.float64), rtol=2e-6)
    n = np.array([np.nan, -1.0, 0.5, 2.0], np.float32)
    (c,) = run("ClipByValueV2", [op_in(dev(n)), const(0.0), const(np.inf)], [out_of((4,))])
    np.testing.assert_array_equal(c, [np.nan, 0.0, 0.5, 2.0])
    b = np.arange(2 * 3 * 4, dtype=np.int32).reshape(2, 3, 4)
    (t,) = run("Tril", [op_in(dev(b))], [out_of(b.shape, sim.ACL_INT32)], {"diagonal": 1})
    np.testing.assert_array_equal(t, np.tril(b, 1))


def test_ternary_and_select_types(acl):
    rng = np.random.default_rng(3)
    s, t1 = rng.standard_normal((4, 5)).astype(np.float32), rng.standard_normal((5,)).astype(np.float32)
    t2 = (rng.random((4, 1)) + 0.5).astype(np.float32)
    (y,) = run("Addcmul", [op_in(dev(s)), op_in(dev(t1)), op_in(dev(t2)), const(0.5)], [out_of(s.shape)])
    np.testing.assert_allclose(y, s + 0.5 * t1 * t2, rtol=1e-6, atol=1e-6)
    (y,) = run("Addcdiv", [op_in(dev(s)), op_in(dev(t1)), op_in(dev(t2)), const(-2.0)], [out_of(s.shape)])
    np.testing.assert_allclose(y, s - 2.0 * t1 / t2, rtol=1e-5, atol=1e-6)
    (y,) = run("Lerp", [op_in(dev(s)), op_in(dev(t1)), const(0.25)], [out_of(s.shape)])
    np.testing.assert_allclose(y, s + 0.25 * (t1 - s), rtol=1e-5, atol=1e-6)
    (y,) = run("Lerp", [op_in(dev(s)), op_in(dev(t1)), op_in(dev(t2))], [out_of(s.shape)])
    np.testing.assert_allclose(y, s + t2 * (t1 - s), rtol=1e-5, atol=1e-5)
    cond = rng.random((4, 5)) > 0.5
    (y,) = run("Select", [op_in(dev(cond)), op_in(dev(s)), op_in(dev(t1))], [out_of(s.shape)])
    np.testing.assert_array_equal(y, np.where(cond, s, t1))
    mask = np.array([True, False, True, False, False])
    (y,) = run("MaskedFill", [op_in(dev(s)), op_in(dev(mask)), const(7.0)], [out_of(s.shape)])
    np.testing.assert_array_equal(y, np.where(mask, np.float32(7.0), s))


def test_activation_gradients(acl):
    rng = np.random.default_rng(4)
    x, g = rng.standard_normal(100).astype(np.float32), rng.standard_normal(100).astype(np.float32)
    sy, ty = sigmoid(x).astype(np.float32), np.tanh(x).astype(np.float32)
    (z,) = run("SigmoidGrad", [op_in(dev(sy)), op_in(dev(g))], [out_of(x.shape)])
    np.testing.assert_allclose(z, g * sy * (1 - sy), rtol=1e-5, atol=1e-6)
    (z,) = run("TanhGrad", [op_in(dev(ty)), op_in(dev(g))], [out_of(x.shape)])
    np.testing.assert_allclose(z, g * (1 - ty * ty), rtol=1e-5, atol=1e-6)
    s = sigmoid(x.astype(np.float64))
    (z,) = run("SiluGrad", [op_in(dev(g)), op_in(dev(x))], [out_of(x.shape)])
    np.testing.assert_allclose(z, g * s * (1 + x * (1 - s)), rtol=1e-5, atol=1e-6)
    (z,) = run("ThresholdGradV2D", [op_in(dev(g)), op_in(dev(x))], [out_of(x.shape)], {"threshold": 0.25})
    np.testing.assert_array_equal(z, np.where(x <= 0.25, 0, g))


@pytest.mark.parametrize("acl_type", [sim.ACL_FLOAT, sim.ACL_INT32, sim.ACL_DOUBLE])
@pytest.mark.parametrize("axes,keep", [([1], False), ([0, 2], True), ([], False), ([-1], True)])
def test_reductions_over_axes(acl, acl_type, axes, keep):
    a = (np.arange(3 * 4 * 5) % 11 - 5).reshape(3, 4, 5).astype(sim.numpy_dtype(acl_type))
    dims = tuple(axes) if axes else None
    cases = [("ReduceSum", np.sum), ("ReduceMax", np.max), ("ReduceMin", np.min)]
    if acl_type != sim.ACL_INT32:
        cases.append(("ReduceMean", np.mean))
    for op, fn in cases:
        expected = np.asarray(fn(a, axis=dims, keepdims=keep)).astype(a.dtype)
        (y,) = run(op, [op_in(dev(a)), const(axes, sim.ACL_INT64)], [out_of(expected.shape, acl_type)],
                   {"keep_dims": keep})
        np.testing.assert_allclose(y, expected, rtol=1e-6, err_msg=op)
    b = a > 0
    expected = np.all(b, axis=dims, keepdims=keep)
    (y,) = run("ReduceAll", [op_in(dev(b)), const(axes, sim.ACL_INT32)], [out_of(expected.shape, sim.ACL_BOOL)],
               {"keep_dims": keep})
    np.testing.assert_array_equal(y, expected)
    b = a > 3  # some rows with no true element
    expected = np.any(b, axis=dims, keepdims=keep)
    (y,) = run("ReduceAny", [op_in(dev(b)), const(axes, sim.ACL_INT32)], [out_of(expected.shape, sim.ACL_BOOL)],
               {"keep_dims": keep})
    np.testing.assert_array_equal(y, expected)


def test_reductions_of_a_0d_tensor(acl):
    for acl_type, value in [(sim.ACL_INT64, 7), (sim.ACL_FLOAT, 2.5), (sim.ACL_BOOL, True)]:
        x = dev(np.array(value, dtype=sim.numpy_dtype(acl_type)))
        op = "ReduceAll" if acl_type == sim.ACL_BOOL else "ReduceMax"
        (y,) = run(op, [op_in(x), const([], sim.ACL_INT64)], [out_of((), acl_type)])
        assert y == value, (op, acl_type)


def test_empty_reductions(acl):
    x = sim.DeviceArray.empty((3, 0), F32)
    (y,) = run("ReduceSum", [op_in(x), const([1], sim.ACL_INT64)], [out_of((3,))])
    np.testing.assert_array_equal(y, np.zeros(3))
    (y,) = run("ReduceMean", [op_in(x), const([1], sim.ACL_INT64)], [out_of((3,))])
    assert np.isnan(y).all()
    assert sim.run_aclop("ReduceMax", [op_in(x), const([1], sim.ACL_INT64)], [op_in(out_of((3,)))]) == \
        sim.ACL_ERROR_INVALID_PARAM
    assert "cannot reduce over a dimension of size 0" in sim.recent_error()
    (n,) = run("ReduceAny", [op_in(sim.DeviceArray.empty((3, 0), sim.ACL_BOOL)), const([1], sim.ACL_INT64)],
               [out_of((3,), sim.ACL_BOOL)])
    np.testing.assert_array_equal(n, [False] * 3)  # the any of no elements
    assert sim.run_aclop("ReduceSum", [op_in(x), const([2], sim.ACL_INT64)], [op_in(out_of((3,)))]) == \
        sim.ACL_ERROR_INVALID_PARAM
    assert "axis 2 is out of range for a 2-D x" in sim.recent_error()


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_softmax_types_along_any_dimension(acl, dim):
    rng = np.random.default_rng(5)
    a = rng.standard_normal((3, 4, 5)).astype(np.float32)
    e = np.exp(a - a.max(axis=dim, keepdims=True))
    sm = e / e.sum(axis=dim, keepdims=True)
    (y,) = run("SoftmaxV2", [op_in(dev(a))], [out_of(a.shape)], {"axes": [dim]})
    np.testing.assert_allclose(y, sm, rtol=1e-5, atol=1e-6)
    (ly,) = run("LogSoftmaxV2", [op_in(dev(a))], [out_of(a.shape)], {"axes": [dim]})
    np.testing.assert_allclose(ly, np.log(sm), rtol=1e-5, atol=1e-5)
    g = rng.standard_normal(a.shape).astype(np.float32)
    (dx,) = run("SoftmaxGrad", [op_in(dev(sm)), op_in(dev(g))], [out_of(a.shape)], {"axes": [dim]})
    np.testing.assert_allclose(dx, sm * (g - (g * sm).sum(axis=dim, keepdims=True)), rtol=1e-4, atol=1e-5)
    (dl,) = run("LogSoftmaxGrad", [op_in(dev(g)), op_in(dev(np.log(sm).astype(np.float32)))], [out_of(a.shape)],
                {"axis": [dim]})
    np.testing.assert_allclose(dl, g - sm * g.sum(axis=dim, keepdims=True), rtol=1e-4, atol=1e-5)


def test_gather_v2_and_range(acl):
    a = np.arange(2 * 5 * 3, dtype=np.float32).reshape(2, 5, 3)
    idx = np.array([4, 0, 4], np.int64)
    (y,) = run("GatherV2", [op_in(dev(a)), op_in(dev(idx)), const(1, sim.ACL_INT64)], [out_of((2, 3, 3))])
    np.testing.assert_array_equal(y, a[:, idx])
    (y,) = run("GatherV2", [op_in(dev(a)), op_in(dev(np.array([2, 0], np.int32))), const(-1, sim.ACL_INT32)],
               [out_of((2, 5, 2))])
    np.testing.assert_array_equal(y, a[..., [2, 0]])
    (r,) = run("Range", [const(0.5, sim.ACL_DOUBLE), const(3.0, sim.ACL_DOUBLE), const(0.25, sim.ACL_DOUBLE)],
               [out_of((10,))])
    np.testing.assert_allclose(r, 0.5 + 0.25 * np.arange(10), rtol=1e-7)
    (r,) = run("Range", [const(7, sim.ACL_INT64), const(-3, sim.ACL_INT64), const(-2, sim.ACL_INT64)],
               [out_of((5,), sim.ACL_INT64)])
    np.testing.assert_array_equal(r, [7, 5, 3, 1, -1])


def test_embedding_dense_grad(acl):
    g = np.arange(4 * 3, dtype=np.float32).reshape(4, 3)
    idx = np.array([1, 0, 1, 2], np.int64)
    (y,) = run("EmbeddingDenseGrad", [op_in(dev(g)), op_in(dev(idx))], [out_of((3, 3))],
               {"num_weights": 3, "padding_idx": 2, "scale_grad_by_freq": True})
    np.testing.assert_allclose(y, [g[1], (g[0] + g[2]) / 2, np.zeros(3)], rtol=1e-6)


def test_stateless_random_types(acl):
    shape = const([64, 64], sim.ACL_INT64)
    key, counter, alg = const([123], sim.ACL_INT64), const([0, 0], sim.ACL_INT64), const(1, sim.ACL_INT32)
    (u,) = run("StatelessRandomUniformV2", [shape, key, counter, alg], [out_of((64, 64))])
    (u2,) = run("StatelessRandomUniformV2", [shape, key, counter, alg], [out_of((64, 64))])
    np.testing.assert_array_equal(u, u2)  # the same (seed, offset): the same draw
    assert 0 <= u.min() and u.max() < 1 and abs(u.mean() - 0.5) < 0.02
    (n,) = run("StatelessRandomNormalV2", [shape, key, const([4096, 0], sim.ACL_INT64), alg], [out_of((64, 64))])
    assert abs(n.mean()) < 0.05 and abs(n.std() - 1) < 0.05
    (b,) = run("StatelessBernoulli", [shape, const(0.25, sim.ACL_DOUBLE), const(7, sim.ACL_INT64),
                                      const(0, sim.ACL_INT64)], [out_of((64, 64))])
    assert set(np.unique(b)) <= {0.0, 1.0} and abs(b.mean() - 0.25) < 0.03
    assert sim.run_aclop("StatelessRandomUniformV2", [shape, key, counter, const(2, sim.ACL_INT32)],
                         [op_in(out_of((64, 64)))]) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "only 1 (Philox) is supported" in sim.recent_error()


def test_randperm_and_multinomial_types(acl):
    seed, offset = const(11, sim.ACL_INT64), const(0, sim.ACL_INT64)
    for n, acl_type in ((1000, sim.ACL_INT64), (50, sim.ACL_FLOAT)):
        (p,) = run("StatelessRandperm", [const(n, sim.ACL_INT64), seed, offset], [out_of((n,), acl_type)],
                   {"dtype": sim.DataTypeAttr(acl_type)})
        np.testing.assert_array_equal(np.sort(p), np.arange(n))
    weights = np.array([[0.0, 1.0, 3.0, 0.0], [5.0, 0.0, 0.0, 5.0]], np.float32)
    (m,) = run("MultinomialWithReplacement", [op_in(dev(weights)), seed, offset], [out_of((2, 4000), sim.ACL_INT64)],
               {"numsamples": 4000, "replacement": True})
    frequencies = np.stack([np.bincount(row, minlength=4) for row in m]) / 4000
    np.testing.assert_allclose(frequencies, weights / weights.sum(1, keepdims=True), atol=0.03)
    (w,) = run("MultinomialWithReplacement", [op_in(dev(weights)), seed, offset], [out_of((2, 2), sim.ACL_INT64)],
               {"numsamples": 2})
    assert sorted(w[0]) == [1, 2] and sorted(w[1]) == [0, 3]  # without replacement: the categories of weight
    assert sim.run_aclop("StatelessRandperm", [const(5, sim.ACL_INT64), seed, offset], [op_in(out_of((5,)))],
                         {"dtype": sim.DataTypeAttr(sim.ACL_INT64)}) == sim.ACL_ERROR_INVALID_PARAM
    assert "attribute dtype is ACL_INT64 but output y is ACL_FLOAT" in sim.recent_error()


def test_gather_scatter_and_index_add_types(acl):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    idx = np.array([[0, 3], [2, 1], [1, 1]], np.int64)
    (y,) = run("GatherElements", [op_in(dev(x)), op_in(dev(idx))], [out_of((3, 2))], {"dim": 1})
    np.testing.assert_array_equal(y, np.take_along_axis(x, idx, 1))
    src = -np.arange(6, dtype=np.float32).reshape(3, 2) - 1
    (s,) = run("ScatterElements", [op_in(dev(x)), op_in(dev(idx)), op_in(dev(src))], [out_of((3, 4))], {"axis": 1})
    expected = x.copy()
    np.put_along_axis(expected, idx, src, 1)
    np.testing.assert_array_equal(s, expected)
    (a,) = run("ScatterElements", [op_in(dev(x)), op_in(dev(idx)), op_in(dev(src))], [out_of((3, 4))],
               {"axis": 1, "reduction": "add"})
    expected = x.copy()
    for i in range(3):
        for j in range(2):
            expected[i, idx[i, j]] += src[i, j]
    np.testing.assert_array_equal(a, expected)
    (v,) = run("ScatterElements", [op_in(dev(x)), op_in(dev(idx)), const(9.0)], [out_of((3, 4))], {"axis": 1})
    expected = x.copy()
    np.put_along_axis(expected, idx, 9.0, 1)
    np.testing.assert_array_equal(v, expected)
    rows = np.array([2, 0, 2], np.int64)
    upd = np.ones((3, 4), np.float32)
    (ia,) = run("InplaceIndexAdd", [op_in(dev(x)), op_in(dev(rows)), op_in(dev(upd)), const(0.5)], [out_of((3, 4))],
                {"axis": 0})
    expected = x.copy()
    for k, r in enumerate(rows):
        expected[r] += 0.5 * upd[k]
    np.testing.assert_array_equal(ia, expected)
