"""Complex64/complex128 on the simulated device against numpy: copies and casts (view_copy with
the complex rows of the cast table), fill, the complex elementwise kernel behind aclnnAdd/Mul/Abs/...
and the FFT entry points (aclnnFftC2C/R2C/C2R, kernel fft_lines)."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest

COMPLEX = {"complex64": (np.complex64, sim.ACL_COMPLEX64), "complex128": (np.complex128, sim.ACL_COMPLEX128)}


def _rand(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


@pytest.mark.parametrize("name", list(COMPLEX))
def test_strided_copy_keeps_both_parts(acl, name):
    np_type, acl_type = COMPLEX[name]
    x = _rand((5, 7), np_type)
    src, dst = sim.DeviceArray.from_numpy(x), sim.DeviceArray.empty((7, 5), acl_type)
    # the transpose of x, read through strides
    sim.check(sim.run_aclnn("aclnnInplaceCopy", dst.tensor(), src.tensor((7, 5), (1, 7))))
    np.testing.assert_array_equal(dst.to_numpy(), x.T)


@pytest.mark.parametrize("src_type,dst_type", [(np.float32, np.complex64), (np.float64, np.complex64),
                                               (np.int32, np.complex128), (np.bool_, np.complex64),
                                               (np.complex64, np.complex128), (np.complex128, np.complex64),
                                               (np.complex64, np.float32), (np.complex128, np.int64),
                                               (np.complex64, np.bool_), (np.complex128, np.float16)])
def test_casts_follow_torch(acl, src_type, dst_type):
    if np.issubdtype(src_type, np.complexfloating):
        x = _rand((3, 40), src_type, 1) * 4
        x[0, :3] = [0, 1j, 2]  # bool: true when either part is non-zero
    else:
        x = (np.random.default_rng(2).standard_normal((3, 40)) * 4).astype(src_type)
    src, dst = sim.DeviceArray.from_numpy(x), sim.DeviceArray.empty(x.shape, sim.acl_dtype(dst_type))
    sim.check(sim.run_aclnn("aclnnInplaceCopy", dst.tensor(), src.tensor()))
    if np.issubdtype(src_type, np.complexfloating) and dst_type == np.bool_:
        want = (x.real != 0) | (x.imag != 0)
    elif np.issubdtype(src_type, np.complexfloating) and not np.issubdtype(dst_type, np.complexfloating):
        want = x.real.astype(dst_type)
    else:
        want = x.astype(dst_type)
    np.testing.assert_array_equal(dst.to_numpy(), want)


@pytest.mark.parametrize("name", list(COMPLEX))
def test_fill_with_a_complex_value(acl, name):
    np_type, acl_type = COMPLEX[name]
    out = sim.DeviceArray.empty((3, 50), acl_type)
    sim.check(sim.run_aclnn("aclnnInplaceFillScalar", out.tensor(), sim.Scalar(1.5 - 2j)))
    np.testing.assert_array_equal(out.to_numpy(), np.full((3, 50), 1.5 - 2j, np_type))
    # a strided view: every other column
    sim.check(sim.run_aclnn("aclnnInplaceFillScalar", out.tensor((3, 25), (50, 2)), sim.Scalar(3j)))
    got = out.to_numpy()
    assert (got[:, ::2] == 3j).all() and (got[:, 1::2] == 1.5 - 2j).all()
    real = sim.DeviceArray.empty((4,), sim.ACL_FLOAT)
    rc, _, _ = sim.aclnn_workspace("aclnnInplaceFillScalar", real.tensor(), sim.Scalar(1 + 1j))
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "non-zero imaginary part" in sim.recent_error()


@pytest.mark.parametrize("name", list(COMPLEX))
def test_complex_arithmetic(acl, name):
    np_type, acl_type = COMPLEX[name]
    a, b = _rand((4, 33), np_type, 3), _rand((33,), np_type, 4)
    da, db = sim.DeviceArray.from_numpy(a), sim.DeviceArray.from_numpy(b)
    out = sim.DeviceArray.empty(a.shape, acl_type)
    tol = 1e-6 if np_type == np.complex64 else 1e-13
    for api, want, extra in [("aclnnAdd", a + 2 * b, [sim.Scalar(2)]), ("aclnnSub", a - (1 + 1j) * b,
                                                                      [sim.Scalar(1 + 1j)]),
                             ("aclnnMul", a * b, []), ("aclnnDiv", a / b, [])]:
        sim.check(sim.run_aclnn(api, da.tensor(), db.tensor(), *extra, out.tensor()))
        np.testing.assert_allclose(out.to_numpy(), want, rtol=tol, atol=tol, err_msg=api)
    for api, want in [("aclnnNeg", -a), ("aclnnExp", np.exp(a)), ("aclnnLog", np.log(a)), ("aclnnSqrt", np.sqrt(a)),
                      ("aclnnReciprocal", 1 / a)]:
        sim.check(sim.run_aclnn(api, da.tensor(), out.tensor()))
        np.testing.assert_allclose(out.to_numpy(), want, rtol=tol, atol=tol, err_msg=api)
    part = np.float32 if np_type == np.complex64 else np.float64
    absolute = sim.DeviceArray.empty(a.shape, sim.acl_dtype(part))
    sim.check(sim.run_aclnn("aclnnAbs", da.tensor(), absolute.tensor()))
    np.testing.assert_allclose(absolute.to_numpy(), np.abs(a), rtol=tol)
    eq = sim.DeviceArray.empty(a.shape, sim.ACL_BOOL)
    sim.check(sim.run_aclnn("aclnnEqTensor", da.tensor(), da.tensor(), eq.tensor()))
    assert eq.to_numpy().all()
    # a complex result does not fit a real out
    rc, _, _ = sim.aclnn_workspace("aclnnMul", da.tensor(), db.tensor(), absolute.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "cannot be cast" in sim.recent_error()


FFT_LENGTHS = [1, 2, 3, 5, 8, 12, 17, 64, 65, 100, 256, 1000]


@pytest.mark.parametrize("n", FFT_LENGTHS)
@pytest.mark.parametrize("forward", [True, False])
def test_fft_c2c_matches_numpy(acl, n, forward):
    x = _rand((3, n), np.complex128, n)
    dx, out = sim.DeviceArray.from_numpy(x), sim.DeviceArray.empty((3, n), sim.ACL_COMPLEX128)
    sim.check(sim.run_aclnn("aclnnFftC2C", dx.tensor(), sim.IntArray([1]), 0, forward, out.tensor()))
    want = np.fft.fft(x, axis=1) if forward else np.fft.ifft(x, axis=1) * n
    np.testing.assert_allclose(out.to_numpy(), want, rtol=1e-10, atol=1e-10 * np.sqrt(n))


@pytest.mark.parametrize("n", FFT_LENGTHS)
@pytest.mark.parametrize("onesided", [True, False])
def test_fft_r2c_and_c2r_match_numpy(acl, n, onesided):
    x = np.random.default_rng(n).standard_normal((n, 4)).astype(np.float32)
    dx = sim.DeviceArray.from_numpy(x)
    half = np.fft.rfft(x.astype(np.float64), axis=0)
    want = half if onesided else np.fft.fft(x.astype(np.float64), axis=0)
    out = sim.DeviceArray.empty(want.shape, sim.ACL_COMPLEX64)
    sim.check(sim.run_aclnn("aclnnFftR2C", dx.tensor(), sim.IntArray([0]), 2, onesided, out.tensor()))
    np.testing.assert_allclose(out.to_numpy(), want / n, rtol=1e-5, atol=1e-6)
    # back: the Hermitian half to n real values (normalized by n)
    dh, real = sim.DeviceArray.from_numpy(half.astype(np.complex64)), sim.DeviceArray.empty((n, 4), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnFftC2R", dh.tensor(), sim.IntArray([0]), 2, n, real.tensor()))
    np.testing.assert_allclose(real.to_numpy(), np.fft.irfft(half, n=n, axis=0), rtol=1e-4, atol=1e-5)


def test_fft_several_dims_strided_and_normalized(acl):
    x = _rand((6, 5, 4), np.complex64, 9)
    dx = sim.DeviceArray.from_numpy(x)
    out = sim.DeviceArray.empty((4, 6), sim.ACL_COMPLEX64)
    # x[:, 2, :] transposed: shape (4, 6), strides (1, 20)
    view = dx.tensor((4, 6), (1, 20), offset=8)
    sim.check(sim.run_aclnn("aclnnFftC2C", view, sim.IntArray([0, 1]), 1, True, out.tensor()))
    want = np.fft.fft2(x[:, 2, :].T.astype(np.complex128), norm="ortho")
    np.testing.assert_allclose(out.to_numpy(), want, rtol=1e-5, atol=1e-5)


def test_fft_checks_arguments(acl):
    x = sim.DeviceArray.empty((4, 6), sim.ACL_FLOAT)
    out = sim.DeviceArray.empty((4, 4), sim.ACL_COMPLEX64)
    rc, _, _ = sim.aclnn_workspace("aclnnFftR2C", x.tensor(), sim.IntArray([1]), 0, False, out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "aclnnFftR2C: out has shape [4, 4], the result has shape [4, 6]" \
        in sim.recent_error()
    rc, _, _ = sim.aclnn_workspace("aclnnFftC2C", x.tensor(), sim.IntArray([1]), 0, True, out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "aclnnFftC2C: self has dtype ACL_FLOAT" in sim.recent_error()
    c = sim.DeviceArray.empty((4, 4), sim.ACL_COMPLEX64)
    rc, _, _ = sim.aclnn_workspace("aclnnFftC2C", c.tensor(), sim.IntArray([1, -1]), 0, True, out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "appears more than once" in sim.recent_error()
    rc, _, _ = sim.aclnn_workspace("aclnnFftC2C", c.tensor(), sim.IntArray([0]), 3, True, out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "normalization 3" in sim.recent_error()


def test_complex_polar_angle_sgn(acl):
    rng = np.random.default_rng(5)
    re, im = rng.standard_normal((3, 20)).astype(np.float32), rng.standard_normal((20,)).astype(np.float32)
    dre, dim = sim.DeviceArray.from_numpy(re), sim.DeviceArray.from_numpy(im)
    out = sim.DeviceArray.empty((3, 20), sim.ACL_COMPLEX64)
    sim.check(sim.run_aclnn("aclnnComplex", dre.tensor(), dim.tensor(), out.tensor()))
    np.testing.assert_array_equal(out.to_numpy(), re + 1j * im)
    absolute = np.abs(re)
    dabs = sim.DeviceArray.from_numpy(absolute)
    sim.check(sim.run_aclnn("aclnnPolar", dabs.tensor(), dim.tensor(), out.tensor()))
    np.testing.assert_allclose(out.to_numpy(), absolute * np.exp(1j * im.astype(np.float64)), rtol=1e-6, atol=1e-6)
    z = (re + 1j * im).astype(np.complex64)
    z[0, :2] = [0, np.inf + 1j]
    dz, angle = sim.DeviceArray.from_numpy(z), sim.DeviceArray.empty((3, 20), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnAngleV2", dz.tensor(), angle.tensor()))
    np.testing.assert_allclose(angle.to_numpy(), np.angle(z), rtol=1e-6)
    sgn = sim.DeviceArray.empty((3, 20), sim.ACL_COMPLEX64)
    sim.check(sim.run_aclnn("aclnnSgn", dz.tensor(), sgn.tensor()))
    got = sgn.to_numpy()
    assert got[0, 0] == 0 and np.isnan(got[0, 1].real) and np.isnan(got[0, 1].imag)
    np.testing.assert_allclose(got[1:], z[1:] / np.abs(z[1:]), rtol=1e-6)
    sign = sim.DeviceArray.empty((3, 20), sim.ACL_COMPLEX64)  # aclnnSign of a complex self is sgn, as CANN's
    sim.check(sim.run_aclnn("aclnnSign", dz.tensor(), sign.tensor()))
    np.testing.assert_array_equal(sign.to_numpy()[1:], got[1:])
    # real operands: angle is pi below zero (not at -0.0), NaN for NaN; sgn is 0 for NaN
    x = np.array([-0.0, 0.0, np.nan, -2.0, 3.0, -np.inf], dtype=np.float32)
    dx, y = sim.DeviceArray.from_numpy(x), sim.DeviceArray.empty((6,), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnAngleV2", dx.tensor(), y.tensor()))
    np.testing.assert_array_equal(y.to_numpy(), np.array([0, 0, np.nan, np.pi, 0, np.pi], dtype=np.float32))
    sim.check(sim.run_aclnn("aclnnSgn", dx.tensor(), y.tensor()))
    np.testing.assert_array_equal(y.to_numpy(), np.array([0, 0, 0, -1, 1, -1], dtype=np.float32))
    double = sim.DeviceArray.empty((20,), sim.ACL_DOUBLE)
    rc, _, _ = sim.aclnn_workspace("aclnnComplex", dre.tensor(), double.tensor(), out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID and "both must have one dtype" in sim.recent_error()
