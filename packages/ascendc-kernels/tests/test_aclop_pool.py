"""The pooling acl_op types (abi/aclop/pool.decl, max_pool.decl) against numpy: adaptive windows, strided
windows with padding (counted or not), ceil_mode, divisor_override, their gradients as adjoints, and
attributes the simulator lacks."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import op_in

F32 = sim.ACL_FLOAT


def dev(a):
    return sim.DeviceArray.from_numpy(np.ascontiguousarray(a, dtype=np.float32))


def const(values, acl_type):
    v = np.asarray(values, dtype=sim.numpy_dtype(acl_type))
    return (None, tuple(v.shape), acl_type, sim.ACL_FORMAT_ND, v)


def run(op, inputs, out_shape, attrs):
    out = sim.DeviceArray.empty(tuple(out_shape), F32)
    sim.check(sim.run_aclop(op, inputs, [op_in(out)], attrs), op)
    return out.to_numpy()


X = np.random.default_rng(0).normal(size=(2, 3, 7, 6)).astype(np.float32)


def adaptive_matrix(n_in, n_out):
    m = np.zeros((n_out, n_in))
    for o in range(n_out):
        lo, hi = (o * n_in) // n_out, -((-(o + 1) * n_in) // n_out)
        m[o, lo:hi] = 1.0 / (hi - lo)
    return m


def window_matrix(n_in, k, s, p, ceil, count_pad):
    n_out = (n_in + 2 * p - k + (s - 1 if ceil else 0)) // s + 1
    if ceil and (n_out - 1) * s >= n_in + p:
        n_out -= 1
    m = np.zeros((n_out, n_in))
    for o in range(n_out):
        start, end = o * s - p, min(o * s - p + k, n_in + p)
        size = end - start
        lo, hi = max(start, 0), min(end, n_in)
        m[o, lo:hi] = 1.0 / (size if count_pad else hi - lo)
    return m


def separable(x, mh, mw):
    return np.einsum("oh,nchw,pw->ncop", mh, x.astype(np.float64), mw)


def test_adaptive_average_pooling_and_gradient(acl):
    mh, mw = adaptive_matrix(7, 3), adaptive_matrix(6, 4)
    y = run("AdaptiveAvgPool2d", [op_in(dev(X))], (2, 3, 3, 4), {"output_size": [3, 4]})
    np.testing.assert_allclose(y, separable(X, mh, mw), rtol=1e-5, atol=1e-6)
    g = np.random.default_rng(1).normal(size=(2, 3, 3, 4)).astype(np.float32)
    dx = run("AdaptiveAvgPool2dGrad", [op_in(dev(g))], X.shape, {"orig_input_shape": list(X.shape)})
    np.testing.assert_allclose(dx, separable(g, mh.T, mw.T), rtol=1e-5, atol=1e-6)


def test_three_dimensional_adaptive_average_pooling_and_gradient(acl):
    x = np.random.default_rng(3).normal(size=(2, 5, 4, 7, 6)).astype(np.float32)
    md, mh, mw = adaptive_matrix(4, 2), adaptive_matrix(7, 3), adaptive_matrix(6, 7)
    expected = np.einsum("ed,ncdhw,oh,pw->nceop", md, x.astype(np.float64), mh, mw)
    y = run("AdaptiveAvgPool3d", [op_in(dev(x))], (2, 5, 2, 3, 7), {"output_size": [2, 3, 7], "data_format": "NCDHW"})
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-6)
    g = np.random.default_rng(4).normal(size=y.shape).astype(np.float32)
    dx = run("AdaptiveAvgPool3dGrad", [op_in(dev(g)), op_in(dev(x))], x.shape, {"data_format": "NCDHW"})
    np.testing.assert_allclose(dx, np.einsum("ed,nceop,oh,pw->ncdhw", md, g.astype(np.float64), mh, mw),
                               rtol=1e-5, atol=1e-6)
    # CANN's default layout, NDHWC, is not simulated; a gradient whose sizes are not a pooling of x is refused
    assert sim.run_aclop("AdaptiveAvgPool3d", [op_in(dev(x))], [op_in(sim.DeviceArray.empty(y.shape, F32))],
                         {"output_size": [2, 3, 7]}) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "data_format 'NDHWC'" in sim.recent_error()
    assert sim.run_aclop("AdaptiveAvgPool3dGrad", [op_in(dev(g)), op_in(dev(x[:, :4]))],
                         [op_in(sim.DeviceArray.empty(x.shape, F32))], {"data_format": "NCDHW"}
                         ) == sim.ACL_ERROR_INVALID_PARAM


@pytest.mark.parametrize("ceil,exclusive,divisor", [(False, False, 0), (True, True, 0), (True, False, 5)])
def test_window_average_pooling_and_gradient(acl, ceil, exclusive, divisor):
    attrs = {"ksize": [1, 1, 3, 2], "strides": [1, 1, 2, 2], "pads": [1, 1, 1, 1], "ceil_mode": ceil,
             "exclusive": exclusive, "divisor_override": divisor}
    mh = window_matrix(7, 3, 2, 1, ceil, not exclusive)
    mw = window_matrix(6, 2, 2, 1, ceil, not exclusive)
    if divisor:  # every window divides by the override
        mh, mw = (mh > 0) * 1.0, (mw > 0) / divisor
    y = run("AvgPoolV2", [op_in(dev(X))], (2, 3, mh.shape[0], mw.shape[0]), attrs)
    np.testing.assert_allclose(y, separable(X, mh, mw), rtol=1e-5, atol=1e-6)
    g = np.random.default_rng(2).normal(size=y.shape).astype(np.float32)
    dx = run("AvgPoolV2Grad", [const(list(X.shape), sim.ACL_INT64), op_in(dev(g))], X.shape, attrs)
    np.testing.assert_allclose(dx, separable(g, mh.T, mw.T), rtol=1e-5, atol=1e-6)


def test_unsimulated_attributes_are_refused(acl):
    x = dev(X)
    out = sim.DeviceArray.empty((2, 3, 7, 6), F32)
    assert sim.run_aclop("AvgPoolV2", [op_in(x)], [op_in(out)],
                         {"ksize": [1, 1, 1, 1], "strides": [1, 1, 1, 1], "data_format": "NHWC"}
                         ) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "data_format 'NHWC'" in sim.recent_error()
    assert sim.run_aclop("AdaptiveAvgPool2d", [op_in(x)], [op_in(out)], {"output_size": [3]}
                         ) == sim.ACL_ERROR_INVALID_PARAM
    assert "attribute output_size [3] must hold two sizes" in sim.recent_error()


@pytest.mark.parametrize("ksize", [[2, 3, 2], [1, 1, 2, 3, 2]])
def test_three_dimensional_window_average_pooling_and_gradient(acl, ksize):
    x = np.random.default_rng(3).normal(size=(2, 5, 6, 4)).astype(np.float32)  # C, D, H, W
    attrs = {"ksize": ksize, "strides": [2, 2, 1], "pads": [1, 1, 1, 1, 0, 0], "ceil_mode": True,
             "count_include_pad": False, "data_format": "NCDHW"}
    md = window_matrix(5, 2, 2, 1, True, False)
    mh = window_matrix(6, 3, 2, 1, True, False)
    mw = window_matrix(4, 2, 1, 0, True, False)
    expected = np.einsum("ad,cdhw,bh,ew->cabe", md, x.astype(np.float64), mh, mw)
    y = run("AvgPool3D", [op_in(dev(x))], expected.shape, attrs)
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-6)
    g = np.random.default_rng(4).normal(size=y.shape).astype(np.float32)
    dx = run("AvgPool3DGrad", [const(list(x.shape), sim.ACL_INT32), op_in(dev(g))], x.shape, attrs)
    np.testing.assert_allclose(dx, np.einsum("ad,cabe,bh,ew->cdhw", md, g.astype(np.float64), mh, mw),
                               rtol=1e-5, atol=1e-6)


def test_three_dimensional_pooling_needs_ncdhw(acl):
    x = dev(np.zeros((1, 2, 2, 2), np.float32))
    out = sim.DeviceArray.empty((1, 1, 1, 1), F32)
    attrs = {"ksize": [2, 2, 2], "strides": [2, 2, 2], "pads": [0] * 6}
    assert sim.run_aclop("AvgPool3D", [op_in(x)], [op_in(out)], attrs) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "data_format 'NDHWC' is not supported (NCDHW is)" in sim.recent_error()


# Max pooling with ATen's indices (abi/aclop/max_pool.decl).

def max_pool_reference(x, windows):
    """values, indices of x [..., D, H, W] pooled over `windows` (per axis: a function of the output
    coordinate giving the input coordinates in window order), as PyTorch's CPU kernels: the first valid
    position at -inf, then a larger value or any NaN takes over."""
    lead, (d_in, h_in, w_in) = x.shape[:-3], x.shape[-3:]
    sizes = [len(w) for w in windows]
    planes = x.reshape(-1, d_in, h_in, w_in).astype(np.float64)
    values = np.empty((planes.shape[0], *sizes))
    indices = np.empty((planes.shape[0], *sizes), dtype=np.int64)
    for p, plane in enumerate(planes):
        for od, ds in enumerate(windows[0]):
            for oh, hs in enumerate(windows[1]):
                for ow, ws in enumerate(windows[2]):
                    best, at = -np.inf, (ds[0] * h_in + hs[0]) * w_in + ws[0]
                    for d in ds:
                        for h in hs:
                            for w in ws:
                                v = plane[d, h, w]
                                if v > best or np.isnan(v):
                                    best, at = v, (d * h_in + h) * w_in + w
                    values[p, od, oh, ow], indices[p, od, oh, ow] = best, at
    return values.reshape(*lead, *sizes), indices.reshape(*lead, *sizes)


def max_windows(n_in, k, s, p, dil, ceil):
    n_out = (n_in + 2 * p - dil * (k - 1) - 1 + (s - 1 if ceil else 0)) // s + 1
    if ceil and (n_out - 1) * s >= n_in + p:
        n_out -= 1
    return [[i for i in range(o * s - p, o * s - p + dil * (k - 1) + 1, dil) if 0 <= i < n_in] for o in range(n_out)]


def adaptive_windows(n_in, n_out):
    return [list(range((o * n_in) // n_out, -((-(o + 1) * n_in) // n_out))) for o in range(n_out)]


def tricky(shape, seed):
    """Small integers (many ties), some NaN, and one plane's corner all -inf."""
    rng = np.random.default_rng(seed)
    x = rng.integers(-2, 3, size=shape).astype(np.float32)
    x.reshape(-1)[rng.choice(x.size, size=max(1, x.size // 40), replace=False)] = np.nan
    x[(0,) * (x.ndim - 3) + (slice(0, 2), slice(0, 3), slice(0, 3))] = -np.inf
    return x


def scatter_reference(grad, indices, shape):
    planes = int(np.prod(shape[:-3])) if len(shape) > 3 else 1
    inner = int(np.prod(shape[-3:]))
    out = np.zeros((planes, inner))
    np.add.at(out, (np.arange(planes)[:, None], indices.reshape(planes, -1)), grad.reshape(planes, -1))
    return out.reshape(shape)


def max_pool3d(x, attrs, index_type, acl_type=F32):
    ks, ss, ps, ds = attrs["ksize"], attrs["strides"], attrs["pads"], attrs.get("dilation", [1, 1, 1])
    windows = [max_windows(x.shape[-3 + i], ks[i], ss[i], ps[i], ds[i], attrs.get("ceil_mode", False))
               for i in range(3)]
    shape = x.shape[:-3] + tuple(len(w) for w in windows)
    y = sim.DeviceArray.empty(shape, acl_type)
    argmax = sim.DeviceArray.empty(shape, index_type)
    dtype = 3 if index_type == sim.ACL_INT32 else 9
    xd = sim.DeviceArray.from_numpy(x, acl_type)
    sim.check(sim.run_aclop("MaxPool3DWithArgmaxV2", [op_in(xd)], [op_in(y), op_in(argmax)],
                            {**attrs, "dtype": dtype}), "MaxPool3DWithArgmaxV2")
    return xd, windows, y, argmax


@pytest.mark.parametrize("ceil", [False, True])
@pytest.mark.parametrize("index_type", [sim.ACL_INT64, sim.ACL_INT32])
def test_three_dimensional_max_pooling_with_aten_indices_and_gradient(acl, ceil, index_type):
    x = tricky((2, 3, 5, 7, 8), 5)
    attrs = {"ksize": [2, 3, 3], "strides": [2, 2, 3], "pads": [1, 1, 0], "dilation": [1, 2, 1],
             "ceil_mode": ceil, "data_format": "NCDHW"}
    xd, windows, y, argmax = max_pool3d(x, attrs, index_type)
    values, indices = max_pool_reference(x, windows)
    np.testing.assert_array_equal(y.to_numpy(), values.astype(np.float32))
    np.testing.assert_array_equal(argmax.to_numpy(), indices)
    g = np.random.default_rng(6).normal(size=values.shape).astype(np.float32)
    dx = sim.DeviceArray.empty(x.shape, F32)
    sim.check(sim.run_aclop("MaxPool3DGradWithArgmax", [op_in(xd), op_in(dev(g)), op_in(argmax)], [op_in(dx)],
                            attrs), "MaxPool3DGradWithArgmax")
    np.testing.assert_allclose(dx.to_numpy(), scatter_reference(g, indices, x.shape), rtol=1e-6, atol=1e-6)


def test_two_dimensional_max_pooling_runs_with_one_depth(acl):
    # max_pool2d as a depth of 1 (C, 1, H, W), float16 values
    x = tricky((3, 1, 9, 6), 7)
    attrs = {"ksize": [1, 3, 2], "strides": [1, 2, 1], "pads": [0, 1, 1], "dilation": [1, 1, 2], "ceil_mode": True}
    _, windows, y, argmax = max_pool3d(x.astype(np.float16), attrs, sim.ACL_INT64, sim.ACL_FLOAT16)
    values, indices = max_pool_reference(x.astype(np.float16), windows)
    np.testing.assert_array_equal(y.to_numpy(), values.astype(np.float16))
    np.testing.assert_array_equal(argmax.to_numpy(), indices)


@pytest.mark.parametrize("index_type", [sim.ACL_INT64, sim.ACL_INT32])
def test_adaptive_max_pooling_and_gradient(acl, index_type):
    x = tricky((2, 3, 1, 7, 9), 8)[:, :, 0]
    windows = [[[0]], adaptive_windows(7, 3), adaptive_windows(9, 4)]
    values, indices = max_pool_reference(x[:, :, None], windows)
    values, indices = values[:, :, 0], indices[:, :, 0]
    y = sim.DeviceArray.empty(values.shape, F32)
    argmax = sim.DeviceArray.empty(values.shape, index_type)
    xd = dev(x)
    sim.check(sim.run_aclop("AdaptiveMaxPool2d", [op_in(xd)], [op_in(y), op_in(argmax)], {"output_size": [3, 4]}),
              "AdaptiveMaxPool2d")
    np.testing.assert_array_equal(y.to_numpy(), values.astype(np.float32))
    np.testing.assert_array_equal(argmax.to_numpy(), indices)
    g = np.random.default_rng(9).normal(size=values.shape).astype(np.float32)
    dx = sim.DeviceArray.empty(x.shape, F32)
    sim.check(sim.run_aclop("AdaptiveMaxPool2dGrad", [op_in(dev(g)), op_in(xd), op_in(argmax)], [op_in(dx)]),
              "AdaptiveMaxPool2dGrad")
    expected = scatter_reference(g[:, :, None], indices[:, :, None], x[:, :, None].shape)[:, :, 0]
    np.testing.assert_allclose(dx.to_numpy(), expected, rtol=1e-6, atol=1e-6)


def test_max_pooling_refuses_bad_operands(acl):
    x = dev(tricky((1, 2, 4, 4, 4), 10))
    attrs = {"ksize": [2, 2, 2], "strides": [2, 2, 2], "pads": [0, 0, 0]}
    y = sim.DeviceArray.empty((1, 2, 2, 2, 2), F32)

    def forward(argmax, **extra):
        return sim.run_aclop("MaxPool3DWithArgmaxV2", [op_in(x)], [op_in(y), op_in(argmax)], {**attrs, **extra})

    # argmax's dtype must be the one attribute dtype names (3: int32 by default)
    assert forward(sim.DeviceArray.empty(y.shape, sim.ACL_INT64)) == sim.ACL_ERROR_INVALID_PARAM
    assert "does not match attribute dtype" in sim.recent_error()
    assert forward(sim.DeviceArray.empty(y.shape, sim.ACL_INT32), dtype=4) == sim.ACL_ERROR_INVALID_PARAM
    # the pooled shape
    assert forward(sim.DeviceArray.empty((1, 2, 2, 2, 3), sim.ACL_INT32)) == sim.ACL_ERROR_INVALID_PARAM
    assert "output argmax has shape" in sim.recent_error()
    # CANN's other layout, NDHWC, is not simulated
    assert forward(sim.DeviceArray.empty(y.shape, sim.ACL_INT32), data_format="NDHWC") == \
        sim.ACL_ERROR_FEATURE_UNSUPPORTED
    # the gradient's argmax must have the pooled shape; an int16 argmax is not an index type
    g = dev(np.zeros((1, 2, 2, 2, 2), np.float32))
    dx = sim.DeviceArray.empty((1, 2, 4, 4, 4), F32)
    bad = sim.DeviceArray.empty((1, 2, 2, 2, 1), sim.ACL_INT64)
    assert sim.run_aclop("MaxPool3DGradWithArgmax", [op_in(x), op_in(g), op_in(bad)], [op_in(dx)],
                         attrs) == sim.ACL_ERROR_INVALID_PARAM
    assert "input argmax has shape" in sim.recent_error()
    x2, g2 = dev(np.zeros((2, 4, 4), np.float32)), dev(np.zeros((2, 2, 2), np.float32))
    dx2 = sim.DeviceArray.empty((2, 4, 4), F32)
    assert sim.run_aclop("AdaptiveMaxPool2dGrad", [op_in(g2), op_in(x2), op_in(sim.DeviceArray.empty((2, 2, 2), 6))],
                         [op_in(dx2)]) != sim.ACL_SUCCESS
    assert "argmax" in sim.recent_error()
