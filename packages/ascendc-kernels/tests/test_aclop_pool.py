"""The average pooling acl_op types (abi/aclop/pool.decl) against numpy: adaptive windows, strided
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
