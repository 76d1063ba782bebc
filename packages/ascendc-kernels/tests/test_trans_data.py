"""The acl op TransData: ND <-> FRACTAL_NZ and NCHW <-> NC1HWC0 re-layouts in device memory."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest

ND, NCHW, NZ, HD = sim.ACL_FORMAT_ND, sim.ACL_FORMAT_NCHW, sim.ACL_FORMAT_FRACTAL_NZ, sim.ACL_FORMAT_NC1HWC0
GARBAGE = 0x5A  # output buffers start filled with this byte: padding must be written, not left


def c0_of(dtype: np.dtype) -> int:
    return 32 if np.dtype(dtype).itemsize == 1 else 16


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def nz_reference(a: np.ndarray) -> np.ndarray:
    """CANN's FRACTAL_NZ of [..., M, N]: [..., N1, M1, 16, C0], zero padded (1-D: the matrix [1, N])."""
    c0 = c0_of(a.dtype)
    m = a.reshape((1,) + a.shape) if a.ndim == 1 else a
    lead, (rows, cols) = m.shape[:-2], m.shape[-2:]
    m1, n1 = ceil_div(rows, 16), ceil_div(cols, c0)
    padded = np.zeros(lead + (m1 * 16, n1 * c0), a.dtype)
    padded[..., :rows, :cols] = m
    tiles = padded.reshape(lead + (m1, 16, n1, c0))
    k = len(lead)
    return np.ascontiguousarray(tiles.transpose(*range(k), k + 2, k, k + 1, k + 3))


def nchw4(shape: tuple) -> tuple:
    """Shapes of fewer than 4 dimensions read as NCHW: [C] -> [1, C, 1, 1], [N, C, H] -> [N, C, H, 1]."""
    s = (1, shape[0]) if len(shape) == 1 else tuple(shape)
    return s + (1,) * (4 - len(s))


def hd_reference(a: np.ndarray) -> np.ndarray:
    """NC1HWC0 of NCHW: [N, C1, H, W, C0], zero-padded channels."""
    c0 = c0_of(a.dtype)
    n, c, h, w = nchw4(a.shape)
    c1 = ceil_div(c, c0)
    padded = np.zeros((n, c1 * c0, h, w), a.dtype)
    padded[:, :c] = a.reshape(n, c, h, w)
    return np.ascontiguousarray(padded.reshape(n, c1, c0, h, w).transpose(0, 1, 3, 4, 2))


def values(shape: tuple, dtype: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        return rng.uniform(-100, 100, shape).astype(dtype)
    return rng.integers(-120, 120, shape).astype(dtype)


def garbage(shape: tuple, dtype: str) -> sim.DeviceArray:
    filled = np.full(int(np.prod(shape)) * np.dtype(dtype).itemsize, GARBAGE, np.uint8).view(dtype).reshape(shape)
    return sim.DeviceArray.from_numpy(filled)


def trans(src: sim.DeviceArray, src_shape, src_fmt, dst: sim.DeviceArray, dst_shape, dst_fmt, origin, attrs=None):
    return sim.run_aclop(
        "TransData",
        [(src, tuple(src_shape), src.acl_type, src_fmt, None, tuple(origin))],
        [(dst, tuple(dst_shape), dst.acl_type, dst_fmt, None, tuple(origin))],
        attrs,
    )


NZ_SHAPES = [(16, 16), (5, 7), (33, 47), (1, 1), (100,), (3, 17, 20), (2, 3, 40, 33), (4, 300, 260)]


@pytest.mark.parametrize("dtype", ["float16", "float32", "int8"])
@pytest.mark.parametrize("shape", NZ_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_nd_to_nz_is_the_tile_layout_and_round_trips(acl, dtype, shape):
    a = values(shape, dtype, seed=len(shape))
    expected = nz_reference(a)
    x = sim.DeviceArray.from_numpy(a)
    nz = garbage(expected.shape, dtype)
    sim.check(
        trans(x, shape, ND, nz, expected.shape, NZ, shape, {"src_format": "ND", "dst_format": "FRACTAL_NZ"}),
        "TransData",
    )
    got = nz.to_numpy()
    np.testing.assert_array_equal(got, expected)  # tile order and zeros in the padding
    back = garbage(shape, dtype)
    sim.check(trans(nz, expected.shape, NZ, back, shape, ND, shape), "TransData")
    np.testing.assert_array_equal(back.to_numpy(), a)


def test_identity_between_two_formats_converts_the_layout(acl):
    """Identity from ND to FRACTAL_NZ re-lays the data as TransData does (the graph engine's
    conversion between two formats); within one format it copies."""
    a = values((5, 7), "float32", seed=3)
    expected = nz_reference(a)
    x, nz = sim.DeviceArray.from_numpy(a), garbage(expected.shape, "float32")
    layout = [(x, (5, 7), x.acl_type, ND, None, (5, 7))]
    sim.check(sim.run_aclop("Identity", layout, [(nz, expected.shape, nz.acl_type, NZ, None, (5, 7))]), "Identity")
    np.testing.assert_array_equal(nz.to_numpy(), expected)
    same = garbage((5, 7), "float32")
    sim.check(sim.run_aclop("Identity", layout, [(same, (5, 7), same.acl_type, ND, None, (5, 7))]), "Identity")
    np.testing.assert_array_equal(same.to_numpy(), a)


HD_SHAPES = [(2, 3, 4, 5), (1, 17, 3, 3), (2, 40, 7, 9), (16,), (3, 20), (2, 5, 6), (2, 35, 50, 50)]


@pytest.mark.parametrize("dtype", ["float16", "float32", "int8"])
@pytest.mark.parametrize("shape", HD_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_nchw_to_5hd_is_the_c0_layout_and_round_trips(acl, dtype, shape):
    a = values(shape, dtype, seed=7)
    expected = hd_reference(a)
    x = sim.DeviceArray.from_numpy(a)
    hd = garbage(expected.shape, dtype)
    sim.check(trans(x, shape, NCHW, hd, expected.shape, HD, shape), "TransData")
    np.testing.assert_array_equal(hd.to_numpy(), expected)
    back = garbage(shape, dtype)
    sim.check(trans(hd, expected.shape, HD, back, shape, NCHW, shape), "TransData")
    np.testing.assert_array_equal(back.to_numpy(), a)


def test_elementwise_ops_run_on_nz_storage(acl):
    a, b = values((20, 30), "float32", 1), values((20, 30), "float32", 2)
    storage = nz_reference(a).shape
    xs = []
    for arr in (a, b):
        nd = sim.DeviceArray.from_numpy(arr)
        nz = garbage(storage, "float32")
        sim.check(trans(nd, arr.shape, ND, nz, storage, NZ, arr.shape), "TransData")
        xs.append(nz)
    out = garbage(storage, "float32")
    sim.check(
        sim.run_aclop(
            "Mul",
            [(xs[0], storage, sim.ACL_FLOAT, NZ), (xs[1], storage, sim.ACL_FLOAT, NZ)],
            [(out, storage, sim.ACL_FLOAT, NZ)],
        ),
        "Mul",
    )
    np.testing.assert_array_equal(out.to_numpy(), nz_reference(a * b))  # padding stays zero
    nd = garbage((20, 30), "float32")
    sim.check(trans(out, storage, NZ, nd, (20, 30), ND, (20, 30)), "TransData")
    np.testing.assert_array_equal(nd.to_numpy(), a * b)


def test_errors_name_the_problem(acl):
    a = np.zeros((5, 7), np.float32)
    x = sim.DeviceArray.from_numpy(a)
    nz = sim.DeviceArray.empty((1, 1, 16, 16), sim.ACL_FLOAT)
    # a storage shape that does not match the origin shape
    assert trans(x, (5, 7), ND, nz, (1, 1, 16, 8), NZ, (5, 7)) == sim.ACL_ERROR_INVALID_PARAM
    assert (
        "output y has storage shape [1, 1, 16, 8] but origin shape [5, 7] in ACL_FORMAT_FRACTAL_NZ needs "
        "[1, 1, 16, 16]" in sim.recent_error()
    )
    # internal -> internal is not one step
    hd = sim.DeviceArray.empty((5, 1, 1, 1, 16), sim.ACL_FLOAT)
    assert trans(nz, (1, 1, 16, 16), NZ, hd, (5, 1, 1, 1, 16), HD, (5, 7)) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "conversion from ACL_FORMAT_FRACTAL_NZ to ACL_FORMAT_NC1HWC0 is not supported" in sim.recent_error()
    # a dtype without an internal layout
    d = sim.DeviceArray.from_numpy(np.zeros((5, 7), np.float64))
    dn = sim.DeviceArray.empty((1, 1, 16, 16), sim.ACL_DOUBLE)
    assert trans(d, (5, 7), ND, dn, (1, 1, 16, 16), NZ, (5, 7)) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "data type ACL_DOUBLE has no ACL_FORMAT_FRACTAL_NZ layout" in sim.recent_error()
    # attributes must agree with the descriptors
    assert (
        trans(x, (5, 7), ND, nz, (1, 1, 16, 16), NZ, (5, 7), {"dst_format": "NC1HWC0"}) == sim.ACL_ERROR_INVALID_PARAM
    )
    assert 'attribute dst_format is "NC1HWC0" but the descriptor\'s format is FRACTAL_NZ' in sim.recent_error()
    # 5HD takes at most 4 dimensions
    big = sim.DeviceArray.from_numpy(np.zeros((1, 2, 3, 4, 5), np.float32))
    big_hd = sim.DeviceArray.empty((1, 1, 3, 4, 5, 16), sim.ACL_FLOAT)
    assert (
        trans(big, (1, 2, 3, 4, 5), NCHW, big_hd, (1, 1, 3, 4, 5, 16), HD, (1, 2, 3, 4, 5))
        == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    )
    assert "shape [1, 2, 3, 4, 5] has no ACL_FORMAT_NC1HWC0 layout" in sim.recent_error()
    # ops that are not elementwise reject internal formats
    assert (
        sim.run_aclop(
            "Fills",
            [(nz, (1, 1, 16, 16), sim.ACL_FLOAT, NZ)],
            [(nz, (1, 1, 16, 16), sim.ACL_FLOAT, NZ)],
            {"value": 1.0},
        )
        == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    )
    assert "op 'Fills': input 0 has internal storage format ACL_FORMAT_FRACTAL_NZ" in sim.recent_error()
