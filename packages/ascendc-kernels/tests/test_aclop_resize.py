"""The resizing acl_op types (abi/aclop/resize.decl) against numpy: nearest neighbours with floor and
half-pixel positions, bilinear interpolation with half-pixel and corner-aligned positions, all derived from
the sizes, and the position rules the simulator lacks."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import op_in

F32 = sim.ACL_FLOAT
X = np.random.default_rng(0).normal(size=(2, 3, 4, 5)).astype(np.float32)


def const(values):
    v = np.asarray(values, dtype=np.int32)
    return (None, tuple(v.shape), sim.ACL_INT32, sim.ACL_FORMAT_ND, v)


def resize(op, x, size, attrs, acl_type=F32):
    out = sim.DeviceArray.empty((x.shape[0], x.shape[1], *size), acl_type)
    xd = sim.DeviceArray.from_numpy(np.ascontiguousarray(x))
    sim.check(sim.run_aclop(op, [op_in(xd), const(size)], [op_in(out)], attrs), op)
    return out.to_numpy()


def nearest_matrix(n_in, n_out, half_pixel):
    scale = np.float32(n_in) / np.float32(n_out)
    m = np.zeros((n_out, n_in))
    for o in range(n_out):
        src = np.floor((np.float32(o) + np.float32(0.5 if half_pixel else 0.0)) * scale)
        m[o, min(int(src), n_in - 1)] = 1.0
    return m


def linear_matrix(n_in, n_out, align_corners):
    m = np.zeros((n_out, n_in))
    for o in range(n_out):
        if align_corners:
            src = o * (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
        else:
            src = max((o + 0.5) * n_in / n_out - 0.5, 0.0)
        lo = min(int(np.floor(src)), n_in - 1)
        hi = min(lo + 1, n_in - 1)
        m[o, lo] += 1.0 - (src - lo)
        m[o, hi] += src - lo
    return m


def separable(x, mh, mw):
    return np.einsum("oh,nchw,pw->ncop", mh, x.astype(np.float64), mw)


@pytest.mark.parametrize("size", [(7, 3), (8, 10), (1, 2)])
@pytest.mark.parametrize("half_pixel", [False, True])
def test_nearest_neighbours(acl, size, half_pixel):
    y = resize("ResizeNearestNeighborV2", X, size, {"half_pixel_centers": half_pixel})
    expected = separable(X, nearest_matrix(4, size[0], half_pixel), nearest_matrix(5, size[1], half_pixel))
    np.testing.assert_array_equal(y, expected.astype(np.float32))


def test_nearest_neighbours_copy_uint8(acl):
    x = np.arange(2 * 3 * 4 * 5, dtype=np.uint8).reshape(X.shape)
    y = resize("ResizeNearestNeighborV2", x, (6, 9), {}, sim.ACL_UINT8)
    expected = separable(x, nearest_matrix(4, 6, False), nearest_matrix(5, 9, False))
    np.testing.assert_array_equal(y, expected.astype(np.uint8))


@pytest.mark.parametrize("size", [(7, 3), (8, 10), (1, 1)])
@pytest.mark.parametrize("align_corners", [False, True])
def test_bilinear_interpolation(acl, size, align_corners):
    y = resize("ResizeBilinearV2", X, size, {"align_corners": align_corners, "half_pixel_centers": not align_corners})
    expected = separable(X, linear_matrix(4, size[0], align_corners), linear_matrix(5, size[1], align_corners))
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-6)


def test_unsimulated_positions_are_refused(acl):
    x = sim.DeviceArray.from_numpy(X)
    out = sim.DeviceArray.empty((2, 3, 6, 6), F32)
    assert sim.run_aclop("ResizeNearestNeighborV2", [op_in(x), const([6, 6])], [op_in(out)],
                         {"align_corners": True}) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "align_corners" in sim.recent_error()
    assert sim.run_aclop("ResizeBilinearV2", [op_in(x), const([6, 6])], [op_in(out)], {}
                         ) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "neither align_corners nor half_pixel_centers" in sim.recent_error()
    assert sim.run_aclop("ResizeBilinearV2", [op_in(x), const([6])], [op_in(out)], {"half_pixel_centers": True}
                         ) == sim.ACL_ERROR_INVALID_PARAM
    assert "must be (N, C) and the 1 sizes of [6]" in sim.recent_error()


def test_gradients_are_the_adjoints(acl):
    g = np.random.default_rng(1).normal(size=(2, 3, 7, 3)).astype(np.float32)
    gd = sim.DeviceArray.from_numpy(g)
    out = sim.DeviceArray.empty(X.shape, F32)
    sim.check(sim.run_aclop("ResizeNearestNeighborV2Grad", [op_in(gd), const([4, 5])], [op_in(out)], {}), "grad")
    expected = separable(g, nearest_matrix(4, 7, False).T, nearest_matrix(5, 3, False).T)
    np.testing.assert_allclose(out.to_numpy(), expected, rtol=1e-5, atol=1e-6)
    for align_corners in (False, True):
        image = sim.DeviceArray.empty(X.shape, F32)  # only its shape is read
        sim.check(sim.run_aclop("ResizeBilinearV2Grad", [op_in(gd), op_in(image)], [op_in(out)],
                                {"align_corners": align_corners, "half_pixel_centers": not align_corners}), "grad")
        expected = separable(g, linear_matrix(4, 7, align_corners).T, linear_matrix(5, 3, align_corners).T)
        np.testing.assert_allclose(out.to_numpy(), expected, rtol=1e-5, atol=1e-6)


def volume(x, md, mh, mw):
    return np.einsum("ad,ncdhw,bh,ew->ncabe", md, x.astype(np.float64), mh, mw)


@pytest.mark.parametrize("align_corners", [False, True])
def test_three_dimensional_resizing_and_gradients(acl, align_corners):
    x = np.random.default_rng(2).normal(size=(2, 3, 3, 4, 5)).astype(np.float32)
    size = [5, 8, 3]
    xd = sim.DeviceArray.from_numpy(x)
    y = sim.DeviceArray.empty((2, 3, *size), F32)
    near = [nearest_matrix(n, o, False) for n, o in zip(x.shape[2:], size)]
    lin = [linear_matrix(n, o, align_corners) for n, o in zip(x.shape[2:], size)]
    sim.check(sim.run_aclop("UpsampleNearest3d", [op_in(xd)], [op_in(y)], {"output_size": size}), "nearest")
    np.testing.assert_array_equal(y.to_numpy(), volume(x, *near).astype(np.float32))
    sim.check(sim.run_aclop("UpsampleTrilinear3d", [op_in(xd)], [op_in(y)],
                            {"output_size": size, "align_corners": align_corners}), "trilinear")
    np.testing.assert_allclose(y.to_numpy(), volume(x, *lin), rtol=1e-5, atol=1e-6)
    g = np.random.default_rng(3).normal(size=(2, 3, *size)).astype(np.float32)
    gd = sim.DeviceArray.from_numpy(g)
    dx = sim.DeviceArray.empty(x.shape, F32)
    attrs = {"input_size": list(x.shape), "output_size": size}
    sim.check(sim.run_aclop("UpsampleNearest3dGrad", [op_in(gd)], [op_in(dx)], attrs), "nearest grad")
    np.testing.assert_allclose(dx.to_numpy(), volume(g, *(m.T for m in near)), rtol=1e-5, atol=1e-6)
    sim.check(sim.run_aclop("UpsampleTrilinear3dGrad", [op_in(gd)], [op_in(dx)],
                            {**attrs, "align_corners": align_corners}), "trilinear grad")
    np.testing.assert_allclose(dx.to_numpy(), volume(g, *(m.T for m in lin)), rtol=1e-5, atol=1e-6)
    assert sim.run_aclop("UpsampleNearest3d", [op_in(xd)], [op_in(y)], {"output_size": [5, 8]}
                         ) == sim.ACL_ERROR_INVALID_PARAM
    assert "must hold (D, H, W)" in sim.recent_error()


def cubic_matrix(n_in, n_out, align_corners, scale=0.0):
    a = -0.75

    def weight(t):
        t = abs(t)
        if t <= 1:
            return ((a + 2) * t - (a + 3)) * t * t + 1
        return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a if t < 2 else 0.0

    m = np.zeros((n_out, n_in))
    step = (n_in - 1) / (n_out - 1) if align_corners else (1 / scale if scale > 0 else n_in / n_out)
    for o in range(n_out):
        src = o * step if align_corners else (o + 0.5) * step - 0.5
        base = int(np.floor(src))
        for k in range(-1, 3):
            m[o, min(max(base + k, 0), n_in - 1)] += weight(src - (base + k))
    return m


@pytest.mark.parametrize("align_corners", [False, True])
def test_resize_d_linear_and_cubic(acl, align_corners):
    mode = "align_corners" if align_corners else "half_pixel"
    x = np.random.default_rng(4).normal(size=(2, 3, 1, 5)).astype(np.float32)
    xd = sim.DeviceArray.from_numpy(x)
    y = sim.DeviceArray.empty((2, 3, 1, 8), F32)
    sim.check(sim.run_aclop("ResizeD", [op_in(xd)], [op_in(y)], {"sizes": [8], "scales": [0.0], "mode": "linear",
                                                                 "coordinate_transformation_mode": mode}), "linear")
    np.testing.assert_allclose(y.to_numpy(), separable(x, np.ones((1, 1)), linear_matrix(5, 8, align_corners)),
                               rtol=1e-5, atol=1e-6)
    xd = sim.DeviceArray.from_numpy(X)
    y = sim.DeviceArray.empty((2, 3, 6, 8), F32)
    sim.check(sim.run_aclop("ResizeD", [op_in(xd)], [op_in(y)], {"sizes": [6, 8], "scales": [1.7, 0.0], "mode": "cubic",
                                                                 "coordinate_transformation_mode": mode}), "cubic")
    expected = separable(X, cubic_matrix(4, 6, align_corners, np.float32(1.7)), cubic_matrix(5, 8, align_corners))
    np.testing.assert_allclose(y.to_numpy(), expected, rtol=1e-5, atol=1e-5)


def test_resize_d_refuses_what_it_does_not_simulate(acl):
    xd = sim.DeviceArray.from_numpy(X)
    y = sim.DeviceArray.empty((2, 3, 6, 8), F32)
    assert sim.run_aclop("ResizeD", [op_in(xd)], [op_in(y)], {"sizes": [6, 8], "mode": "nearest"}
                         ) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "mode 'nearest'" in sim.recent_error()
    cubic = {"sizes": [6, 8], "mode": "cubic", "cubic_coeff_a": -0.5}
    assert sim.run_aclop("ResizeD", [op_in(xd)], [op_in(y)], cubic) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "cubic_coeff_a -0.5" in sim.recent_error()


@pytest.mark.parametrize("align_corners", [False, True])
def test_resize_grad_d_is_the_adjoint(acl, align_corners):
    mode = "align_corners" if align_corners else "half_pixel"
    g = np.random.default_rng(5).normal(size=(2, 3, 6, 8)).astype(np.float32)
    gd = sim.DeviceArray.from_numpy(g)
    dx = sim.DeviceArray.empty(X.shape, F32)
    sim.check(sim.run_aclop("ResizeGradD", [op_in(gd)], [op_in(dx)],
                            {"original_size": list(X.shape), "scales": [1.7, 0.0], "mode": "cubic",
                             "coordinate_transformation_mode": mode}), "cubic grad")
    mh, mw = cubic_matrix(4, 6, align_corners, np.float32(1.7)), cubic_matrix(5, 8, align_corners)
    np.testing.assert_allclose(dx.to_numpy(), separable(g, mh.T, mw.T), rtol=1e-5, atol=1e-5)
    g1 = sim.DeviceArray.from_numpy(g[:, :, :1, :])  # 1-D: original_size (N, C, W) and a 3-D y
    dx1 = sim.DeviceArray.empty((2, 3, 5), F32)
    sim.check(sim.run_aclop("ResizeGradD", [op_in(g1)], [op_in(dx1)],
                            {"original_size": [2, 3, 5], "scales": [0.0], "mode": "linear",
                             "coordinate_transformation_mode": mode}), "linear grad")
    expected = np.einsum("ncw,pw->ncp", g[:, :, 0, :].astype(np.float64), linear_matrix(5, 8, align_corners).T)
    np.testing.assert_allclose(dx1.to_numpy(), expected, rtol=1e-5, atol=1e-5)
    attrs = {"original_size": list(X.shape), "scales": [0.0, 0.0], "mode": "cubic", "data_format": "HWNC"}
    assert sim.run_aclop("ResizeGradD", [op_in(gd)], [op_in(dx)], attrs) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "data_format 'HWNC'" in sim.recent_error()
