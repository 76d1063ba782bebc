"""The padding acl_op types (abi/aclop/pad.decl) against numpy: reflect and edge modes, both layouts of
the paddings, int32 and int64 paddings, cropping, the gradient, and a mode the simulator lacks."""

from __future__ import annotations

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import dev, op_in


def const(values, acl_type):
    v = np.asarray(values, dtype=sim.numpy_dtype(acl_type))
    return (None, tuple(v.shape), acl_type, sim.ACL_FORMAT_ND, v)


def run(op, x, paddings, out_shape, attrs, paddings_type=sim.ACL_INT32):
    out = sim.DeviceArray.empty(tuple(out_shape), dev(x).acl_type)
    sim.check(sim.run_aclop(op, [op_in(dev(x)), const(paddings, paddings_type)], [op_in(out)], attrs), op)
    return out.to_numpy()


X = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
PAIRS = [(0, 0), (0, 0), (2, 1), (1, 3)]


@pytest.mark.parametrize("op,mode,np_mode", [("MirrorPad", "REFLECT", "reflect"), ("PadV3", "reflect", "reflect"),
                                             ("PadV3", "edge", "edge")])
def test_pad_types(acl, op, mode, np_mode):
    expected = np.pad(X, PAIRS, mode=np_mode)
    flat = [v for pair in PAIRS for v in pair]
    y = run(op, X, flat, expected.shape, {"mode": mode})
    np.testing.assert_array_equal(y, expected)
    if op == "PadV3":  # every dimension's before, then every dimension's after
        split = [p[0] for p in PAIRS] + [p[1] for p in PAIRS]
        y = run(op, X, split, expected.shape, {"mode": mode, "paddings_contiguous": False}, sim.ACL_INT64)
        np.testing.assert_array_equal(y, expected)


def test_edge_padding_of_integers_and_cropping(acl):
    x = np.arange(12, dtype=np.int64).reshape(3, 4)
    y = run("PadV3", x, [1, 0, -1, 2], (4, 5), {"mode": "edge"})
    np.testing.assert_array_equal(y, np.pad(x, [(1, 0), (0, 2)], mode="edge")[:, 1:])


@pytest.mark.parametrize("mode,np_mode", [("reflect", "reflect"), ("edge", "edge")])
def test_pad_gradient(acl, mode, np_mode):
    x = np.zeros((2, 3, 4, 5), np.float32)
    shape = np.pad(x, PAIRS).shape
    grad = np.random.default_rng(0).normal(size=shape).astype(np.float32)
    # the gradient is the adjoint: <pad(e_i), grad> for each input position i
    expected = np.zeros_like(x, dtype=np.float64)
    index = np.arange(x.size).reshape(x.shape)
    padded_index = np.pad(index, PAIRS, mode=np_mode)
    np.add.at(expected.reshape(-1), padded_index.reshape(-1), grad.reshape(-1))
    flat = [v for pair in PAIRS for v in pair]
    out = sim.DeviceArray.empty(x.shape, sim.ACL_FLOAT)
    sim.check(sim.run_aclop("PadV3Grad", [op_in(dev(grad)), const(flat, sim.ACL_INT32)], [op_in(out)],
                            {"mode": mode}), "PadV3Grad")
    np.testing.assert_allclose(out.to_numpy(), expected, rtol=1e-5, atol=1e-5)


def test_an_unsimulated_mode_or_a_device_paddings_is_refused(acl):
    x = dev(X)
    out = sim.DeviceArray.empty((2, 3, 7, 9), sim.ACL_FLOAT)
    flat = [v for pair in PAIRS for v in pair]
    assert sim.run_aclop("PadV3", [op_in(x), const(flat, sim.ACL_INT32)], [op_in(out)],
                         {"mode": "constant"}) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "mode 'constant' is not supported" in sim.recent_error()
    paddings = sim.DeviceArray.from_numpy(np.asarray(flat, np.int32))
    assert sim.run_aclop("MirrorPad", [op_in(x), op_in(paddings)], [op_in(out)]) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "input paddings must be a constant or host input" in sim.recent_error()


def test_pad_gradient_output_of_fewer_dimensions(acl):
    # upstream's reflection_pad2d_backward of a 3-D input passes a 4-D gradient and a 3-D output
    grad = np.arange(20, dtype=np.float32).reshape(1, 1, 4, 5)
    out = sim.DeviceArray.empty((1, 4, 4), sim.ACL_FLOAT)
    sim.check(sim.run_aclop("PadV3Grad", [op_in(dev(grad)), const([0, 0, 0, 0, 0, 0, 0, 1], sim.ACL_INT32)],
                            [op_in(out)], {"mode": "reflect"}), "PadV3Grad")
    expected = grad[0, :, :, :4].copy()
    expected[:, :, 2] += grad[0, :, :, 4]  # the padded last column reflects column 2
    np.testing.assert_array_equal(out.to_numpy(), expected)
