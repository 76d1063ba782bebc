"""The fused LSTM and GRU cell aclnn apis (rnn_cell_custom, rnn_cell_backward_custom,
rnn_bias_grad_custom) against numpy, in double."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest

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


def _run(api, *args):
    sim.check(sim.run_aclnn(api, *args))


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def test_fused_lstm_cell_and_backward_match_numpy(acl):
    rng = np.random.default_rng(9)
    n, h = 3, 5
    ig, hg, cx = rng.standard_normal((n, 4 * h)), rng.standard_normal((n, 4 * h)), rng.standard_normal((n, h))
    bias = rng.standard_normal(4 * h)
    gates = ig + hg + bias
    i, f, g, o = (gates[:, k * h:(k + 1) * h] for k in range(4))
    i, f, g, o = _sigmoid(i), _sigmoid(f), np.tanh(g), _sigmoid(o)
    cy = f * cx + i * g
    hy = o * np.tanh(cy)
    outs = [sim.DeviceArray.empty(s, sim.ACL_DOUBLE) for s in ((n, h), (n, h), (n, 4 * h))]
    _run("aclnnThnnFusedLstmCell", _upload(ig).tensor(), _upload(hg).tensor(), _upload(cx).tensor(),
         _upload(bias).tensor(), None, *[a.tensor() for a in outs])
    np.testing.assert_allclose(outs[0].to_numpy(), hy, rtol=1e-12)
    np.testing.assert_allclose(outs[1].to_numpy(), cy, rtol=1e-12)
    np.testing.assert_allclose(outs[2].to_numpy(), np.concatenate([i, f, g, o], axis=1), rtol=1e-12)
    ghy, gcy = rng.standard_normal((n, h)), rng.standard_normal((n, h))
    gc = ghy * o * (1 - np.tanh(cy) ** 2) + gcy
    want = np.concatenate([gc * g * i * (1 - i), gc * cx * f * (1 - f), gc * i * (1 - g * g),
                           ghy * np.tanh(cy) * o * (1 - o)], axis=1)
    grads = [sim.DeviceArray.empty(s, sim.ACL_DOUBLE) for s in ((n, 4 * h), (n, h), (4 * h,))]
    _run("aclnnThnnFusedLstmCellBackward", _upload(ghy).tensor(), _upload(gcy).tensor(), _upload(cx).tensor(),
         outs[1].tensor(), outs[2].tensor(), True, *[a.tensor() for a in grads])
    np.testing.assert_allclose(grads[0].to_numpy(), want, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(grads[1].to_numpy(), gc * f, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(grads[2].to_numpy(), want.sum(axis=0), rtol=1e-10, atol=1e-12)


def test_fused_gru_cell_and_backward_match_numpy(acl):
    rng = np.random.default_rng(10)
    n, h = 4, 3
    ig, hg, hx = rng.standard_normal((n, 3 * h)), rng.standard_normal((n, 3 * h)), rng.standard_normal((n, h))
    bi, bh = rng.standard_normal(3 * h), rng.standard_normal(3 * h)
    a, b = ig + bi, hg + bh
    r = _sigmoid(a[:, :h] + b[:, :h])
    z = _sigmoid(a[:, h:2 * h] + b[:, h:2 * h])
    nn = np.tanh(a[:, 2 * h:] + r * b[:, 2 * h:])
    hy = nn + z * (hx - nn)
    outs = [sim.DeviceArray.empty(s, sim.ACL_DOUBLE) for s in ((n, h), (n, 5 * h))]
    _run("aclnnThnnFusedGruCell", _upload(ig).tensor(), _upload(hg).tensor(), _upload(hx).tensor(),
         _upload(bi).tensor(), _upload(bh).tensor(), *[x.tensor() for x in outs])
    np.testing.assert_allclose(outs[0].to_numpy(), hy, rtol=1e-12)
    go = rng.standard_normal((n, h))
    gz = go * (hx - nn) * (1 - z) * z
    gn = go * (1 - z) * (1 - nn * nn)
    gr = gn * b[:, 2 * h:] * (1 - r) * r
    grads = [sim.DeviceArray.empty(s, sim.ACL_DOUBLE) for s in ((n, 3 * h), (n, 3 * h), (n, h), (3 * h,), (3 * h,))]
    _run("aclnnThnnFusedGruCellBackward", _upload(go).tensor(), outs[1].tensor(), True, *[x.tensor() for x in grads])
    want_i = np.concatenate([gr, gz, gn], axis=1)
    want_h = np.concatenate([gr, gz, gn * r], axis=1)
    np.testing.assert_allclose(grads[0].to_numpy(), want_i, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(grads[1].to_numpy(), want_h, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(grads[2].to_numpy(), go * z, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(grads[3].to_numpy(), want_i.sum(axis=0), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(grads[4].to_numpy(), want_h.sum(axis=0), rtol=1e-10, atol=1e-12)
