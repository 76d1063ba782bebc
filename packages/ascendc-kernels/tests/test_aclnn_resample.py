"""Pooling, interpolation and padding aclnn apis (resample_taps_custom, resample_custom,
resample_backward_custom, window_max_custom, plane_scatter_custom) against numpy, and each
backward entry point against its forward (the adjoint: <f(x), g> == <x, f'(g)>)."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest


def _run(api, *args):
    sim.check(sim.run_aclnn(api, *args))


# Device arrays stay alive until the test ends (a tensor handle does not own its memory).
_ALIVE: list = []


@pytest.fixture(autouse=True)
def _release_device_arrays():
    yield
    sim.load().aclrtSynchronizeDevice()
    _ALIVE.clear()


def _upload(x):
    array = sim.DeviceArray.from_numpy(np.ascontiguousarray(x))
    _ALIVE.append(array)
    return array


# ---- average pooling ----
def _avg_pool2d(x, k, s, p, ceil_mode, count_include_pad, divisor):
    def size(i, kk, ss, pp):
        o = (i + 2 * pp - (kk - 1) - 1 + (ss - 1 if ceil_mode else 0)) // ss + 1
        if ceil_mode and (o - 1) * ss >= i + pp:
            o -= 1
        return o

    n, c, h, w = x.shape
    oh, ow = size(h, k[0], s[0], p[0]), size(w, k[1], s[1], p[1])
    out = np.zeros((n, c, oh, ow), np.float64)
    for a in range(oh):
        for b in range(ow):
            h0, w0 = a * s[0] - p[0], b * s[1] - p[1]
            h1, w1 = min(h0 + k[0], h + p[0]), min(w0 + k[1], w + p[1])
            pool = (h1 - h0) * (w1 - w0)
            h0, w0, h1, w1 = max(h0, 0), max(w0, 0), min(h1, h), min(w1, w)
            window = x[:, :, h0:h1, w0:w1].astype(np.float64)
            d = divisor or (pool if count_include_pad else (h1 - h0) * (w1 - w0))
            out[:, :, a, b] = window.sum(axis=(2, 3)) / d
    return out


@pytest.mark.parametrize("xs,k,s,p,ceil_mode,count_include_pad,divisor", [
    ((2, 3, 8, 8), (2, 2), (2, 2), (0, 0), False, True, 0),
    ((1, 2, 7, 9), (3, 3), (2, 2), (1, 1), True, False, 0),
    ((1, 2, 7, 9), (3, 2), (2, 1), (1, 1), True, True, 0),
    ((2, 1, 6, 5), (3, 3), (1, 2), (1, 0), False, True, 5),
    ((1, 1, 4, 4), (2, 2), (2, 2), (0, 0), False, True, -2),
])
def test_avg_pool2d_and_backward_match_numpy(acl, xs, k, s, p, ceil_mode, count_include_pad, divisor):
    rng = np.random.default_rng(sum(xs))
    x = rng.standard_normal(xs).astype(np.float32)
    want = _avg_pool2d(x, k, s, p, ceil_mode, count_include_pad, divisor)
    dx = _upload(x)
    out = sim.DeviceArray.empty(want.shape, sim.ACL_FLOAT)
    arrays = [sim.IntArray(k), sim.IntArray(s), sim.IntArray(p)]
    _run("aclnnAvgPool2d", dx.tensor(), *arrays, ceil_mode, count_include_pad, divisor, 0, out.tensor())
    np.testing.assert_allclose(out.to_numpy(), want, rtol=1e-5, atol=1e-6)
    # The backward is the adjoint of the forward.
    g = rng.standard_normal(want.shape).astype(np.float32)
    gi = sim.DeviceArray.empty(xs, sim.ACL_FLOAT)
    _run("aclnnAvgPool2dBackward", _upload(g).tensor(), dx.tensor(), *arrays, ceil_mode, count_include_pad, divisor,
         0, gi.tensor())
    np.testing.assert_allclose((want * g).sum(), (x * gi.to_numpy()).astype(np.float64).sum(), rtol=1e-4)


def test_adaptive_avg_pool2d_matches_numpy_in_float16(acl):
    x = np.random.default_rng(3).standard_normal((2, 3, 7, 10)).astype(np.float16)
    out = sim.DeviceArray.empty((2, 3, 3, 4), sim.ACL_FLOAT16)
    _run("aclnnAdaptiveAvgPool2d", _upload(x).tensor(), sim.IntArray([3, 4]), out.tensor())
    want = np.zeros((2, 3, 3, 4))
    for a in range(3):
        for b in range(4):
            h0, h1 = a * 7 // 3, -(-(a + 1) * 7 // 3)
            w0, w1 = b * 10 // 4, -(-(b + 1) * 10 // 4)
            want[:, :, a, b] = x[:, :, h0:h1, w0:w1].astype(np.float64).mean(axis=(2, 3))
    np.testing.assert_allclose(out.to_numpy().astype(np.float64), want, rtol=2e-3, atol=2e-3)


# ---- max pooling with indices, unpooling ----
def test_adaptive_max_pool3d_and_backward_match_numpy(acl):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 3, 5, 6, 7)).astype(np.float32)
    x[0, 1, 2, 3, 4] = np.nan
    outs = (2, 3, 4)
    out, idx = sim.DeviceArray.empty((2, 3) + outs, sim.ACL_FLOAT), sim.DeviceArray.empty((2, 3) + outs, sim.ACL_INT64)
    dx = _upload(x)
    _run("aclnnAdaptiveMaxPool3d", dx.tensor(), sim.IntArray(outs), out.tensor(), idx.tensor())
    flat = x.reshape(2, 3, -1)
    got_idx = idx.to_numpy()
    want = np.zeros((2, 3) + outs, np.float32)
    for a in range(2):
        for b in range(3):
            for c in range(4):
                d0, d1 = a * 5 // 2, -(-(a + 1) * 5 // 2)
                h0, h1 = b * 6 // 3, -(-(b + 1) * 6 // 3)
                w0, w1 = c * 7 // 4, -(-(c + 1) * 7 // 4)
                window = x[:, :, d0:d1, h0:h1, w0:w1]
                has_nan = np.isnan(window).any(axis=(2, 3, 4))
                want[:, :, a, b, c] = np.where(has_nan, np.nan, np.nanmax(window, axis=(2, 3, 4)))
    np.testing.assert_array_equal(out.to_numpy(), want)
    np.testing.assert_array_equal(np.take_along_axis(flat, got_idx.reshape(2, 3, -1), axis=2).reshape(want.shape), want)
    g = rng.standard_normal(want.shape).astype(np.float32)
    gi = sim.DeviceArray.empty(x.shape, sim.ACL_FLOAT)
    _run("aclnnAdaptiveMaxPool3dBackward", _upload(g).tensor(), dx.tensor(), idx.tensor(), gi.tensor())
    want_gi = np.zeros((2, 3, x[0, 0].size))
    for n in range(2):
        for c in range(3):
            np.add.at(want_gi[n, c], got_idx[n, c].reshape(-1), g[n, c].reshape(-1))
    np.testing.assert_allclose(gi.to_numpy(), want_gi.reshape(x.shape), rtol=1e-6, atol=1e-6)


def test_max_unpool2d_writes_at_the_indices_and_rejects_an_index_outside_the_plane(acl):
    x = np.arange(1, 9, dtype=np.int32).reshape(1, 2, 2, 2)
    idx = np.array([[[[0, 3], [5, 15]], [[1, 2], [8, 9]]]], np.int64)
    out = sim.DeviceArray.empty((1, 2, 4, 4), sim.ACL_INT32)
    _run("aclnnMaxUnpool2d", _upload(x).tensor(), _upload(idx).tensor(), sim.IntArray([4, 4]), out.tensor())
    want = np.zeros((1, 2, 16), np.int32)
    for c in range(2):
        want[0, c, idx[0, c].reshape(-1)] = x[0, c].reshape(-1)
    np.testing.assert_array_equal(out.to_numpy(), want.reshape(1, 2, 4, 4))
    idx[0, 0, 0, 0] = 16
    sim.check(sim.run_aclnn("aclnnMaxUnpool2d", _upload(x).tensor(), _upload(idx).tensor(), sim.IntArray([4, 4]),
                            out.tensor()))
    rc = sim.load().aclrtSynchronizeDevice()
    assert rc != 0 and "aclnnMaxUnpool2d: index 16 is outside the plane of 16 elements" in sim.recent_error()


# ---- interpolation ----
def _linear_taps(n_in, n_out, align_corners):
    scale = ((n_in - 1) / (n_out - 1) if n_out > 1 else 0.0) if align_corners else n_in / n_out
    taps = np.zeros((n_out, n_in))
    for o in range(n_out):
        if n_in == n_out:
            taps[o, o] = 1
            continue
        real = scale * o if align_corners else max(scale * (o + 0.5) - 0.5, 0.0)
        i0 = min(int(np.floor(real)), n_in - 1)
        lam = min(max(real - i0, 0.0), 1.0)
        i1 = i0 + (1 if i0 < n_in - 1 else 0)
        taps[o, i0] += 1 - lam
        taps[o, i1] += lam
    return taps


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("size", [(3, 4), (11, 6), (5, 5)])
def test_upsample_bilinear2d_and_backward_match_numpy(acl, align_corners, size):
    rng = np.random.default_rng(size[0])
    x = rng.standard_normal((2, 3, 5, 4)).astype(np.float32)
    th, tw = _linear_taps(5, size[0], align_corners), _linear_taps(4, size[1], align_corners)
    want = np.einsum("ah,bw,nchw->ncab", th, tw, x.astype(np.float64))
    out = sim.DeviceArray.empty((2, 3) + size, sim.ACL_FLOAT)
    _run("aclnnUpsampleBilinear2d", _upload(x).tensor(), sim.IntArray(size), align_corners, 0.0, 0.0, out.tensor())
    np.testing.assert_allclose(out.to_numpy(), want, rtol=1e-5, atol=1e-5)
    g = rng.standard_normal(want.shape).astype(np.float32)
    gi = sim.DeviceArray.empty(x.shape, sim.ACL_FLOAT)
    _run("aclnnUpsampleBilinear2dBackward", _upload(g).tensor(), sim.IntArray(size), sim.IntArray(x.shape),
         align_corners, 0.0, 0.0, gi.tensor())
    np.testing.assert_allclose(gi.to_numpy(), np.einsum("ah,bw,ncab->nchw", th, tw, g.astype(np.float64)),
                               rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("api,scales,sizes", [
    ("aclnnUpsampleBicubic2d", (0.0, 0.0), (7, 3)),
    ("aclnnUpsampleBilinear2dAA", (0.0, 0.0), (3, 9)),
    ("aclnnUpsampleBicubic2dAA", (0.0, 0.0), (2, 3)),
    ("aclnnUpsampleNearestExact2d", (1.7, 0.6), (8, 2)),
])
def test_interpolation_backward_is_the_adjoint_of_the_forward(acl, api, scales, sizes):
    rng = np.random.default_rng(11)
    x = rng.standard_normal((2, 2, 5, 6)).astype(np.float64)
    out = sim.DeviceArray.empty((2, 2) + sizes, sim.ACL_DOUBLE)
    nearest = "Nearest" in api
    extra = () if nearest else (False,)
    _run(api, _upload(x).tensor(), sim.IntArray(sizes), *extra, *scales, out.tensor())
    y = out.to_numpy()
    assert np.isfinite(y).all()
    g = rng.standard_normal(y.shape)
    gi = sim.DeviceArray.empty(x.shape, sim.ACL_DOUBLE)
    backward = api + ("Grad" if api.endswith("Bicubic2dAA") else "Backward")
    _run(backward, _upload(g).tensor(), sim.IntArray(sizes), sim.IntArray(x.shape), *extra, *scales, gi.tensor())
    np.testing.assert_allclose((y * g).sum(), (x * gi.to_numpy()).sum(), rtol=1e-10)


def test_upsample_nearest_rejects_an_empty_output_size(acl):
    x = _upload(np.zeros((1, 1, 2, 2), np.float32))
    out = sim.DeviceArray.empty((1, 1, 1, 1), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnUpsampleNearest2dV2", x.tensor(), sim.IntArray([0, 2]), 0.0, 0.0,
                                   out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "sizes should be greater than 0" in sim.recent_error()


# ---- padding ----
@pytest.mark.parametrize("api,mode", [("aclnnReflectionPad2d", "reflect"), ("aclnnReplicationPad2d", "edge")])
def test_padding_2d_matches_numpy_pad_for_integers_and_its_backward_is_the_adjoint(acl, api, mode):
    rng = np.random.default_rng(2)
    x = rng.integers(-100, 100, (2, 3, 4, 5)).astype(np.int32)
    pad = (2, 1, 3, 0)  # left, right, top, bottom
    want = np.pad(x, ((0, 0), (0, 0), (pad[2], pad[3]), (pad[0], pad[1])), mode=mode)
    out = sim.DeviceArray.empty(want.shape, sim.ACL_INT32)
    _run(api, _upload(x).tensor(), sim.IntArray(pad), out.tensor())
    np.testing.assert_array_equal(out.to_numpy(), want)
    xf = x.astype(np.float32)
    g = rng.standard_normal(want.shape).astype(np.float32)
    gi = sim.DeviceArray.empty(x.shape, sim.ACL_FLOAT)
    _run(api + "Backward", _upload(g).tensor(), _upload(xf).tensor(), sim.IntArray(pad), gi.tensor())
    np.testing.assert_allclose((want * g).sum(), (xf * gi.to_numpy()).sum(), rtol=1e-5)


def test_replication_pad1d_crops_with_negative_padding(acl):
    x = np.arange(12, dtype=np.float32).reshape(1, 2, 6)
    out = sim.DeviceArray.empty((1, 2, 6), sim.ACL_FLOAT)
    _run("aclnnReplicationPad1d", _upload(x).tensor(), sim.IntArray([-2, 2]), out.tensor())
    np.testing.assert_array_equal(out.to_numpy(), np.pad(x, ((0, 0), (0, 0), (0, 2)), mode="edge")[:, :, 2:])


def test_reflection_pad_rejects_padding_as_large_as_the_input(acl):
    x = _upload(np.zeros((1, 3), np.float32))
    out = sim.DeviceArray.empty((1, 9), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnReflectionPad1d", x.tensor(), sim.IntArray([3, 3]), out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "should be smaller than the padded dimensions" in sim.recent_error()

