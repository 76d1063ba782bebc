"""The mixed-precision aclnn apis against numpy: aclnnForeachNonFiniteCheckAndUnscale
(non_finite_check_unscale_custom) and aclnnAmpUpdateScale (amp_update_scale_custom)."""

from __future__ import annotations

import ctypes

import ascendc_kernels_testing as sim
import numpy as np
import pytest

_vp = ctypes.c_void_p


@pytest.fixture(scope="module", autouse=True)
def _prototypes(acl):
    libs = sim.load()
    for name, restype, args in [("aclCreateTensorList", _vp, [ctypes.POINTER(_vp), ctypes.c_uint64]),
                                ("aclDestroyTensorList", ctypes.c_int, [_vp])]:
        fn = getattr(libs.acl, name)
        fn.restype, fn.argtypes = restype, args


def _contiguous_strides(shape) -> list[int]:
    strides, step = [], 1
    for d in reversed(shape):
        strides.insert(0, step)
        step *= max(int(d), 1)
    return strides


def _tensor_list(arrays, views=None) -> int:
    """An aclTensorList of the arrays (each as `views[k] = (shape, strides)` when given); the list owns them."""
    handles = []
    for k, a in enumerate(arrays):
        shape, strides = views[k] if views and views[k] else (a.shape, _contiguous_strides(a.shape))
        handles.append(sim.make_tensor(a.ptr, shape, strides, 0, a.acl_type, [a.numel]))
    return sim.load().aclCreateTensorList((_vp * len(handles))(*handles), len(handles))


def _scalar(value: float, acl_type: int = sim.ACL_FLOAT) -> sim.DeviceArray:
    return sim.DeviceArray.from_numpy(np.array([value], dtype=sim.numpy_dtype(acl_type)), acl_type)


def _unscale(arrays, found: float, inv: float, views=None) -> float:
    found_inf, inv_scale = _scalar(found), _scalar(inv)
    grads = _tensor_list(arrays, views)
    sim.check(sim.run_aclnn("aclnnForeachNonFiniteCheckAndUnscale", grads, found_inf.tensor(), inv_scale.tensor()))
    sim.load().aclDestroyTensorList(grads)
    return float(found_inf.to_numpy()[0])


@pytest.mark.parametrize("poison", [None, np.inf, -np.inf, np.nan], ids=["finite", "inf", "-inf", "nan"])
def test_non_finite_check_and_unscale_matches_numpy(acl, poison):
    rng = np.random.default_rng(7)
    hosts = [(rng.standard_normal(n) * 100).astype(dtype)
             for n, dtype in ((300_001, np.float32), (4097, np.float16), (33, np.float64), (0, np.float32))]
    if poison is not None:
        hosts[0][250_000] = poison  # in a later block of the split launch
    devices = [sim.DeviceArray.from_numpy(h) for h in hosts]
    found = _unscale(devices, 0.0, 0.125)
    assert found == (0.0 if poison is None else 1.0)
    for device, host in zip(devices, hosts):
        np.testing.assert_array_equal(device.to_numpy(), host * host.dtype.type(0.125))


def test_non_finite_check_reads_views_and_keeps_a_set_flag(acl):
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    device = sim.DeviceArray.from_numpy(host)
    # the transpose (4, 3) of the stored (3, 4) matrix, unscaled in place through a dense tile and written back
    found = _unscale([device], 1.0, 0.5, views=[((4, 3), [1, 4])])
    assert found == 1.0  # an earlier call of the step found an inf: the flag stays
    np.testing.assert_array_equal(device.to_numpy(), host * 0.5)


def test_non_finite_check_rejects_bad_operands(acl):
    grad = sim.DeviceArray.from_numpy(np.ones(4, dtype=np.float32))
    found, inv = _scalar(0.0), _scalar(1.0)
    two = sim.DeviceArray.from_numpy(np.ones(2, dtype=np.float32))
    half_flag = _scalar(0.0, sim.ACL_FLOAT16)
    for found_t, inv_t, message in [(half_flag.tensor(), inv.tensor(), "foundInf has dtype ACL_FLOAT16"),
                                    (found.tensor(), two.tensor(), "invScale must have one element, it has shape [2]")]:
        grads = _tensor_list([grad])
        rc, _, executor = sim.aclnn_workspace("aclnnForeachNonFiniteCheckAndUnscale", grads, found_t, inv_t)
        sim.load().aclDestroyTensorList(grads)
        assert rc == sim.ACLNN_ERR_PARAM_INVALID and executor is None
        assert sim.recent_error().startswith("aclnnForeachNonFiniteCheckAndUnscale: ")
        assert message in sim.recent_error(), sim.recent_error()


def _reference_update(scale: float, tracker: int, found: float, growth: float, backoff: float,
                      interval: int) -> tuple[float, int]:
    if found:
        return float(np.float32(scale * backoff)), 0
    if tracker + 1 == interval:
        grown = np.float32(scale * growth)
        return (float(grown) if np.isfinite(grown) else scale), 0
    return scale, tracker + 1


def test_update_scale_follows_its_definition(acl):
    scale, tracker = _scalar(65536.0), _scalar(0, sim.ACL_INT32)
    want = (65536.0, 0)
    for found in [0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0]:
        flag = _scalar(float(found))
        sim.check(sim.run_aclnn("aclnnAmpUpdateScale", scale.tensor(), tracker.tensor(), flag.tensor(), 2.0, 0.25,
                                3, scale.tensor(), tracker.tensor()))
        want = _reference_update(*want, found, 2.0, 0.25, 3)
        assert (float(scale.to_numpy()[0]), int(tracker.to_numpy()[0])) == want


def test_update_scale_writes_separate_outputs_and_keeps_an_overflowing_growth(acl):
    big = float(np.finfo(np.float32).max) / 1.5
    scale, tracker, flag = _scalar(big), _scalar(4, sim.ACL_INT32), _scalar(0.0)
    out_scale, out_tracker = _scalar(0.0), _scalar(-1, sim.ACL_INT32)
    sim.check(sim.run_aclnn("aclnnAmpUpdateScale", scale.tensor(), tracker.tensor(), flag.tensor(), 2.0, 0.5, 5,
                            out_scale.tensor(), out_tracker.tensor()))
    assert float(out_scale.to_numpy()[0]) == float(np.float32(big)) and int(out_tracker.to_numpy()[0]) == 0
    assert int(tracker.to_numpy()[0]) == 4  # the inputs are left alone


def test_update_scale_rejects_bad_operands(acl):
    scale, tracker, flag = _scalar(1.0), _scalar(0, sim.ACL_INT32), _scalar(0.0)
    float_tracker = _scalar(0.0)
    cases = [((scale, float_tracker, flag, 3), "growthTracker has dtype ACL_FLOAT"),
             ((scale, tracker, flag, 0), "growthInterval must be positive, got 0")]
    for (s, t, f, interval), message in cases:
        rc, _, executor = sim.aclnn_workspace("aclnnAmpUpdateScale", s.tensor(), t.tensor(), f.tensor(), 2.0, 0.5,
                                              interval, s.tensor(), t.tensor())
        assert rc == sim.ACLNN_ERR_PARAM_INVALID and executor is None
        assert message in sim.recent_error(), sim.recent_error()
