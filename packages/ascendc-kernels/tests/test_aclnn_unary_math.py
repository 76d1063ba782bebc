"""The unary math and activation entry points over the elementwise kernel's math operators:
special values, the operators with logic of their own (digamma, erfinv, round to decimals,
nan_to_num, logit and its gradient, the activations' branches) and the integral-input rules."""

from __future__ import annotations

import math

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import from_device, to_device


def unary(api: str, a: np.ndarray, *args, out_type: int | None = None) -> np.ndarray:
    x = sim.DeviceArray.from_numpy(a)
    out = sim.DeviceArray.empty(a.shape, out_type if out_type is not None else sim.acl_dtype(a.dtype))
    sim.check(sim.run_aclnn(api, x.tensor(), *args, out.tensor()))
    return out.to_numpy()


SPECIAL = np.array([0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 3.25, -7.5, np.inf, -np.inf, np.nan], dtype=np.float32)


@pytest.mark.parametrize("api, reference", [
    ("aclnnSin", np.sin), ("aclnnCos", np.cos), ("aclnnTan", np.tan), ("aclnnAsin", np.arcsin),
    ("aclnnAcos", np.arccos), ("aclnnAtan", np.arctan), ("aclnnSinh", np.sinh), ("aclnnCosh", np.cosh),
    ("aclnnAsinh", np.arcsinh), ("aclnnAcosh", np.arccosh), ("aclnnAtanh", np.arctanh),
    ("aclnnExpm1", np.expm1), ("aclnnLog1p", np.log1p), ("aclnnLog2", np.log2), ("aclnnLog10", np.log10),
    ("aclnnExp2", np.exp2), ("aclnnCeil", np.ceil), ("aclnnFloor", np.floor), ("aclnnRound", np.round),
    ("aclnnTrunc", np.trunc), ("aclnnSign", lambda a: np.where(np.isnan(a), 0, np.sign(a))),  # torch: sign(NaN) 0
])
def test_math_matches_numpy_on_special_values(acl, api, reference):
    with np.errstate(all="ignore"):
        expected = reference(SPECIAL)
    np.testing.assert_allclose(unary(api, SPECIAL), expected, rtol=2e-6, atol=0)


def test_erf_erfc_lgamma_against_the_math_module(acl):
    a = np.array([-3.0, -0.7, -0.0, 0.1, 1.5, 4.0, np.inf, -np.inf], dtype=np.float32)
    np.testing.assert_allclose(unary("aclnnErf", a), [math.erf(v) for v in a], rtol=1e-6)
    np.testing.assert_allclose(unary("aclnnErfc", a), [math.erfc(v) for v in a], rtol=1e-6)
    g = np.array([0.5, 1.0, 2.5, 10.0, -1.5, 1e-3], dtype=np.float32)
    np.testing.assert_allclose(unary("aclnnLgamma", g), [math.lgamma(v) for v in g], rtol=1e-6)


def test_digamma_poles_reflection_and_series(acl):
    a = np.array([1.0, 0.5, 10.0, 123.25, -0.5, -2.25, 0.0, -0.0, -3.0, np.inf], dtype=np.float32)
    got = unary("aclnnDigamma", a)
    euler = 0.57721566490153286
    expected_finite = [-euler, -euler - 2 * math.log(2), 2.251752589066721, 4.810152531964819,
                       0.03648997397857652, 4.158583564657972]
    np.testing.assert_allclose(got[:6], expected_finite, rtol=1e-5)
    assert got[6] == -np.inf and got[7] == np.inf  # the pole at 0 takes the side of the zero
    assert np.isnan(got[8]) and got[9] == np.inf


def test_erfinv_inverts_erf(acl):
    y = np.array([-0.999, -0.5, -1e-6, 0.0, 0.3, 0.9, 0.999999], dtype=np.float32)
    x = unary("aclnnErfinv", y).astype(np.float64)
    np.testing.assert_allclose([math.erf(v) for v in x], y, rtol=2e-6, atol=1e-7)
    edges = unary("aclnnErfinv", np.array([1.0, -1.0, 1.5, np.nan, -0.0], dtype=np.float32))
    assert edges[0] == np.inf and edges[1] == -np.inf and np.isnan(edges[2]) and np.isnan(edges[3])
    assert edges[4] == 0 and np.signbit(edges[4])


def test_integral_self_computes_in_float32_or_is_kept(acl):
    a = np.array([-2, 0, 3], dtype=np.int64)
    np.testing.assert_allclose(unary("aclnnSin", a, out_type=sim.ACL_FLOAT), np.sin(a.astype(np.float32)), rtol=1e-6)
    np.testing.assert_array_equal(unary("aclnnFloor", a), a)
    np.testing.assert_array_equal(unary("aclnnSign", a), [-1, 0, 1])
    # rounding to decimals takes floating self only, as torch's round(decimals=)
    with pytest.raises(sim.AclError, match="aclnnRoundDecimals: self of dtype ACL_INT64 is not supported"):
        unary("aclnnRoundDecimals", a, 2)


def test_round_decimals_follows_atens_order(acl):
    a = np.array([1.2345, -2.5, 0.125, 1234.5, 1e30, np.nan], dtype=np.float32)
    got = unary("aclnnRoundDecimals", a, 2)
    ten = np.float32(100)
    np.testing.assert_array_equal(got[:5], np.rint(a[:5] * ten) / ten)
    assert np.isnan(got[5])
    np.testing.assert_array_equal(unary("aclnnRoundDecimals", a[:4], -1), np.rint(a[:4] / np.float32(10)) * 10)


def test_frac_sinc_angle_and_signbit(acl):
    a = np.array([2.75, -2.75, 0.0, -0.0, np.inf, np.nan], dtype=np.float32)
    frac = unary("aclnnFrac", a)
    np.testing.assert_array_equal(frac[:4], [0.75, -0.75, 0.0, 0.0])
    assert np.isnan(frac[4]) and np.isnan(frac[5])
    sinc = unary("aclnnSinc", np.array([0.0, 0.5, -1.5], dtype=np.float32))
    np.testing.assert_allclose(sinc, np.sinc([0.0, 0.5, -1.5]), rtol=1e-6, atol=1e-7)
    angle = unary("aclnnAngleV2", a)
    np.testing.assert_array_equal(angle[:5], np.float32([0, np.pi, 0, 0, 0]))
    assert np.isnan(angle[5])
    signbit = unary("aclnnSignbit", np.array([-0.0, 0.0, -np.inf, 3.0, -np.nan], dtype=np.float32),
                    out_type=sim.ACL_BOOL)
    np.testing.assert_array_equal(signbit, [True, False, True, False, True])
    np.testing.assert_array_equal(unary("aclnnSignbit", np.array([-3, 0, 2], dtype=np.int32), out_type=sim.ACL_BOOL),
                                  [True, False, False])


def test_bitwise_not_and_is_pos_inf(acl):
    np.testing.assert_array_equal(unary("aclnnBitwiseNot", np.array([0, 5, -1], dtype=np.int64)), [-1, -6, 0])
    np.testing.assert_array_equal(unary("aclnnBitwiseNot", np.array([True, False])), [False, True])
    rc, _, _ = sim.aclnn_workspace("aclnnBitwiseNot", sim.DeviceArray.empty((2,), sim.ACL_FLOAT).tensor(),
                                   sim.DeviceArray.empty((2,), sim.ACL_FLOAT).tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert sim.recent_error().startswith("aclnnBitwiseNot: self must be an integral or bool tensor")
    got = unary("aclnnIsPosInf", np.array([np.inf, -np.inf, np.nan, 1.0], dtype=np.float32), out_type=sim.ACL_BOOL)
    np.testing.assert_array_equal(got, [True, False, False, False])
    np.testing.assert_array_equal(unary("aclnnIsPosInf", np.array([7], dtype=np.int64), out_type=sim.ACL_BOOL),
                                  [False])


@pytest.mark.parametrize("acl_type", [sim.ACL_FLOAT, sim.ACL_FLOAT16, sim.ACL_BF16])
def test_nan_to_num_replaces_in_the_dtype(acl, acl_type):
    a = np.array([np.nan, np.inf, -np.inf, 1.5], dtype=np.float32)
    x = to_device(a, acl_type)
    out = sim.DeviceArray.empty((4,), acl_type)
    sim.check(sim.run_aclnn("aclnnNanToNum", x.tensor(), 0.25, 100.0, -200.0, out.tensor()))
    np.testing.assert_array_equal(from_device(out), [0.25, 100.0, -200.0, 1.5])
    sim.check(sim.run_aclnn("aclnnInplaceNanToNum", x.tensor(), -1.0, 512.0, -512.0))
    np.testing.assert_array_equal(from_device(x), [-1.0, 512.0, -512.0, 1.5])


def test_logit_and_its_gradient(acl):
    a = np.array([0.25, 0.0, 1.0, -0.5, 0.999], dtype=np.float32)
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(unary("aclnnLogit", a, -1.0), np.log(a / (1 - a)), rtol=1e-6)
        z = np.clip(a, np.float32(0.1), np.float32(0.9))
        np.testing.assert_allclose(unary("aclnnLogit", a, 0.1), np.log(z / (1 - z)), rtol=1e-6)
        # eps > 0.5, an empty range: as ATen's CPU kernel, below eps gives eps, anything else 1 - eps
        z = np.where(a < np.float32(0.6), np.float32(0.6), np.float32(0.4))
        np.testing.assert_allclose(unary("aclnnLogit", a, 0.6), np.log(z / (1 - z)), rtol=1e-6)
    grad = np.ones_like(a)
    for eps, outside in ((-1.0, np.nan), (0.1, 0.0)):
        x = sim.DeviceArray.from_numpy(a)
        g = sim.DeviceArray.from_numpy(grad)
        out = sim.DeviceArray.empty(a.shape, sim.ACL_FLOAT)
        sim.check(sim.run_aclnn("aclnnLogitGrad", x.tensor(), g.tensor(), eps, out.tensor()))
        got = out.to_numpy()
        np.testing.assert_allclose(got[0], 1 / (0.25 * 0.75), rtol=1e-6)
        np.testing.assert_array_equal(got[3], outside)


def test_activations_branches_and_nan(acl):
    a = np.array([-4.0, -1.0, -0.25, 0.0, 0.5, 2.0, 5.0, np.nan], dtype=np.float32)
    s = sim.Scalar

    def close(got, expected):
        np.testing.assert_allclose(got, np.float32(expected), rtol=1e-6, atol=1e-7)

    with np.errstate(all="ignore"):
        close(unary("aclnnElu", a, s(1.5), s(2.0), s(0.5)), np.where(a > 0, 2 * a, 3.0 * np.expm1(0.5 * a)))
        close(unary("aclnnHardtanh", a, s(-1.0), s(1.0)), np.clip(a, -1, 1))
        close(unary("aclnnLeakyRelu", a, s(0.1)), np.where(a > 0, a, 0.1 * a))
        close(unary("aclnnHardsigmoid", a), np.clip(a + 3, 0, 6) / 6)
        close(unary("aclnnHardswish", a), a * np.clip(a + 3, 0, 6) / 6)
        close(unary("aclnnHardshrink", a, s(0.5)), np.where(np.abs(a) <= 0.5, 0, a))
        close(unary("aclnnSoftshrink", a, s(0.5)),
              np.where(a > 0.5, a - 0.5, np.where(a < -0.5, a + 0.5, np.abs(a * 0))))
        close(unary("aclnnSoftplus", a, s(2.0), s(5.0)), np.where(2 * a > 5, a, np.log1p(np.exp(2 * a)) / 2))
        close(unary("aclnnMish", a), a * np.tanh(np.log1p(np.exp(a))))
        close(unary("aclnnThreshold", a, s(0.5), s(-9.0)), np.where(a <= 0.5, -9.0, a))
        x = sim.DeviceArray.from_numpy(a)
        out = sim.DeviceArray.empty(a.shape, sim.ACL_FLOAT)
        buffer = sim.DeviceArray.empty((0,), sim.ACL_FLOAT)
        sim.check(sim.run_aclnn("aclnnLogSigmoidForward", x.tensor(), out.tensor(), buffer.tensor()))
        close(out.to_numpy(), -np.log1p(np.exp(-a)))


def gradient(api: str, grad: np.ndarray, a: np.ndarray, *args) -> np.ndarray:
    g = sim.DeviceArray.from_numpy(grad)
    x = sim.DeviceArray.from_numpy(a)
    out = sim.DeviceArray.empty(a.shape, sim.ACL_FLOAT)
    sim.check(sim.run_aclnn(api, g.tensor(), x.tensor(), *args, out.tensor()))
    return out.to_numpy()


def test_activation_gradients(acl):
    a = np.array([-4.0, -3.0, -1.0, 0.0, 0.5, 1.0, 3.0, 5.0, np.nan], dtype=np.float32)
    grad = np.full(a.shape, 2.0, dtype=np.float32)
    s = sim.Scalar

    def close(got, expected):
        np.testing.assert_allclose(got, np.float32(expected), rtol=1e-6, atol=1e-7)

    with np.errstate(all="ignore"):
        close(gradient("aclnnHardtanhBackward", grad, a, s(-1.0), s(1.0)),
              np.where((a <= -1) | (a >= 1), 0, grad))
        close(gradient("aclnnHardsigmoidBackward", grad, a), np.where((a > -3) & (a < 3), grad / 6, 0))
        close(gradient("aclnnHardswishBackward", grad, a),
              np.where(a < -3, 0, np.where(a <= 3, grad * (a / 3 + 0.5), grad)))
        close(gradient("aclnnHardshrinkBackward", grad, a, s(1.0)), np.where(np.abs(a) <= 1, 0, grad))
        close(gradient("aclnnLeakyReluBackward", grad, a, s(0.2), False), np.where(a > 0, grad, 0.2 * grad))
        z = np.exp(a)
        close(gradient("aclnnSoftplusBackward", grad, a, s(1.0), s(20.0)), grad * z / (z + 1))
        sig = 1 / (1 + np.exp(-a))
        t = np.tanh(np.log1p(np.exp(a)))
        close(gradient("aclnnMishBackward", grad, a), grad * (t + a * sig * (1 - t * t)))
        buffer = sim.DeviceArray.empty((0,), sim.ACL_FLOAT)
        close(gradient("aclnnLogSigmoidBackward", grad, a, buffer.tensor()), grad * (1 - sig))
    g = sim.DeviceArray.from_numpy(grad)
    x = sim.DeviceArray.from_numpy(a)
    out = sim.DeviceArray.empty(a.shape, sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnEluBackward", g.tensor(), s(1.5), s(2.0), s(0.5), False, x.tensor(), out.tensor()))
    with np.errstate(all="ignore"):
        close(out.to_numpy(), np.where(a <= 0, grad * 0.5 * 3.0 * np.exp(0.5 * a), grad * 2.0))
        result = np.where(a > 0, 2 * a, 3.0 * np.expm1(0.5 * a)).astype(np.float32)
    r = sim.DeviceArray.from_numpy(result)
    sim.check(sim.run_aclnn("aclnnEluBackward", g.tensor(), s(1.5), s(2.0), s(0.5), True, r.tensor(), out.tensor()))
    with np.errstate(all="ignore"):
        close(out.to_numpy(), np.where(result <= 0, grad * 0.5 * (result + 3.0), grad * 2.0))


def test_activation_rejects_integral_self_and_names_the_api(acl):
    x = sim.DeviceArray.empty((3,), sim.ACL_INT32)
    rc, _, _ = sim.aclnn_workspace("aclnnHardswish", x.tensor(), x.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert sim.recent_error().startswith("aclnnHardswish: self must be a floating tensor")
    np.testing.assert_array_equal(unary("aclnnThreshold", np.array([1, 5, 9], dtype=np.int32), sim.Scalar(5),
                                        sim.Scalar(0)), [0, 0, 9])


# References at x = 0.25, 1.5, 4, 12, 30 (mpmath, 30 digits); Airy at x - 10, log_ndtr at -x.
SPECIAL_X = np.array([0.25, 1.5, 4.0, 12.0, 30.0], dtype=np.float32)
SPECIAL_REFERENCES = {
    "aclnnBesselJ0": [0.9844359292958527, 0.5118276717359181, -0.39714980986384735, 0.047689310796833535,
                      -0.08636798358104021],
    "aclnnBesselJ1": [0.12402597732272692, 0.5579365079100996, -0.06604332802354913, -0.2234471044906276,
                      -0.11875106261662294],
    "aclnnBesselY0": [-0.9315730249300587, 0.38244892379775886, -0.016940739325064992, -0.22523731263436145,
                      -0.11729573168666403],
    "aclnnBesselY1": [-2.7041052293152825, -0.4123086269739113, 0.3979257105571, -0.05709921826089652,
                      0.08442557066174723],
    "aclnnI0": [1.015686141223608, 1.646723189772891, 11.30192195213633, 18948.925349296307, 781672297823.9775],
    "aclnnI1": [0.12597910894546793, 0.9816664285779075, 9.75946515370445, 18141.348781638833, 768532038938.957],
    "aclnnI0e": [0.7910171621397194, 0.36743360905415834, 0.2070019212239867, 0.11642622121344044,
                 0.0731459464822373],
    "aclnnI1e": [0.09811262869736824, 0.21903938742092569, 0.17875083950243534, 0.11146429929018098,
                 0.07191633059864755],
    "aclnnModifiedBesselK0": [1.5415067512483027, 0.21380556264752573, 0.011159676085853025, 2.2008253973114916e-06,
                              2.1324774964630563e-14],
    "aclnnModifiedBesselK1": [3.7470259744407115, 0.2773878004568438, 0.012483498887268431, 2.290757464767188e-06,
                              2.1677320018915495e-14],
    "aclnnScaledModifiedBesselK0": [1.9793338485985688, 0.9582100532948965, 0.6092976692566953, 0.3581948784890782,
                                    0.22788666561625373],
    "aclnnScaledModifiedBesselK1": [4.811276588171025, 1.243165873552553, 0.681575945185671, 0.37283175336970986,
                                    0.2316541293777118],
    "aclnnAiryAi": [0.25262476259634337, -0.33029023763020887, -0.3291451736298231, 0.03492413042327438,
                    1.6916728686705404e-27],
    "aclnnErfcx": [0.7703465477309968, 0.3215854164543175, 0.13699945762506138, 0.04685422101489376,
                   0.01879588886141675],
    "aclnnLogNdtr": [-0.9130617648111351, -2.7059444008238898, -10.360101486527292, -75.4106730015688,
                     -454.3212439563432],
    "aclnnSphericalBesselJ0": [0.9896158370180917, 0.6649966577360363, -0.18920062382698205, -0.04471440983336958,
                               -0.03293438746976206],
}


@pytest.mark.parametrize("api", list(SPECIAL_REFERENCES))
def test_special_functions_match_references(acl, api):
    x = SPECIAL_X - np.float32(10) if api == "aclnnAiryAi" else -SPECIAL_X if api == "aclnnLogNdtr" else SPECIAL_X
    np.testing.assert_allclose(unary(api, x), np.float32(SPECIAL_REFERENCES[api]), rtol=2e-6, atol=0)


def test_special_functions_edges(acl):
    edges = np.array([0.0, -1.0, np.inf, np.nan], dtype=np.float32)
    k0 = unary("aclnnModifiedBesselK0", edges)
    assert k0[0] == np.inf and np.isnan(k0[1]) and k0[2] == 0 and np.isnan(k0[3])
    y0 = unary("aclnnBesselY0", edges)
    assert y0[0] == -np.inf and np.isnan(y0[1]) and y0[2] == 0
    ndtri = unary("aclnnNdtri", np.array([0.0, 1.0, 0.5, 1e-30, 0.975, 2.0], dtype=np.float32))
    assert ndtri[0] == -np.inf and ndtri[1] == np.inf and ndtri[2] == 0 and np.isnan(ndtri[5])
    np.testing.assert_allclose(ndtri[3:5], [-11.464024688443617, 1.959963984540054], rtol=1e-6)
    entr = unary("aclnnEntr", np.array([0.0, 0.5, -1.0, np.inf], dtype=np.float32))
    np.testing.assert_array_equal(entr, np.float32([0.0, 0.5 * np.log(2), -np.inf, -np.inf]))
    x = sim.DeviceArray.from_numpy(np.array([0.5, 2.0, -1.5], dtype=np.float32))
    out = sim.DeviceArray.empty((3,), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnPolygamma", 1, x.tensor(), out.tensor()))
    np.testing.assert_allclose(out.to_numpy(), [np.pi ** 2 / 2, np.pi ** 2 / 6 - 1, 9.3792466449891237], rtol=1e-6)
    sim.check(sim.run_aclnn("aclnnPolygamma", 3, x.tensor(), out.tensor()))
    np.testing.assert_allclose(out.to_numpy(), [np.pi ** 4, 6 * (np.pi ** 4 / 90 - 1), 194.59427621918763],
                               rtol=1e-6)


def test_glu_and_its_gradient_over_the_halves_of_a_dim(acl):
    a = np.linspace(-3, 3, 24, dtype=np.float32).reshape(2, 4, 3)
    x = sim.DeviceArray.from_numpy(a)
    out = sim.DeviceArray.empty((2, 2, 3), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnGlu", x.tensor(), 1, out.tensor()))
    first, second = a[:, :2], a[:, 2:]
    sig = 1 / (1 + np.exp(-second))
    np.testing.assert_allclose(out.to_numpy(), first * sig, rtol=1e-6)
    grad = np.full((2, 2, 3), 0.5, dtype=np.float32)
    g = sim.DeviceArray.from_numpy(grad)
    grad_input = sim.DeviceArray.empty((2, 4, 3), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnGluBackward", g.tensor(), x.tensor(), -2, grad_input.tensor()))
    expected = np.concatenate([grad * sig, grad * first * sig * (1 - sig)], axis=1)
    np.testing.assert_allclose(grad_input.to_numpy(), expected, rtol=1e-6, atol=1e-7)
    rc, _, _ = sim.aclnn_workspace("aclnnGlu", x.tensor(), 2, out.tensor())
    assert rc == sim.ACLNN_ERR_PARAM_INVALID
    assert sim.recent_error().startswith("aclnnGlu: halving dimension must be even")
