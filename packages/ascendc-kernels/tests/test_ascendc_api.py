"""The Ascend C API subset (kernel_operator.h): vector instructions and the
float16/bfloat16 value types, exercised by a user kernel."""

from __future__ import annotations

import numpy as np
from ascendc_kernels import testing as sim


def test_vector_instructions_match_numpy(acl, stream, test_kernels):
    rng = np.random.default_rng(0)
    a = rng.uniform(-4, 4, 64).astype(np.float32)
    b = rng.uniform(0.5, 4, 64).astype(np.float32) * rng.choice([-1, 1], 64).astype(np.float32)
    x, y = sim.DeviceArray.from_numpy(a), sim.DeviceArray.from_numpy(b)
    out = sim.DeviceArray.empty((16, 64), sim.ACL_FLOAT)
    sim.check(test_kernels.test_launch_vector_ops(x.ptr, y.ptr, out.ptr, stream))
    sim.check(acl.aclrtSynchronizeStream(stream))
    r = out.peek()
    expected = [
        a + b, a - b, a * b, a / b, np.maximum(a, b), np.minimum(a, b), np.abs(a), np.exp(a),
        np.log(np.abs(a) + 1), np.sqrt(np.abs(a)), np.maximum(a, 0), a + 2, a * 3,
        a.astype(np.float16).astype(np.float32), np.full(64, 7.0, np.float32), a + np.float32(0.5) * b,
    ]
    names = ["Add", "Sub", "Mul", "Div", "Max", "Min", "Abs", "Exp", "Ln", "Sqrt", "Relu", "Adds", "Muls",
             "Cast", "Duplicate", "Axpy"]
    for k, (name, want) in enumerate(zip(names, expected)):
        np.testing.assert_allclose(r[k], want.astype(np.float32), rtol=1e-6, atol=1e-6, err_msg=name)


def test_float16_and_bfloat16_conversions_round_to_nearest_even(acl):
    # Through the device: float32 -> float16/bfloat16 -> float32 with aclnnInplaceCopy.
    values = np.array([0.0, -0.0, 1.0, 65504.0, 65520.0, 1e-8, 5.96e-8, 3.14159, -2.5e-5, np.inf, -np.inf,
                       1.0009765625, 1.00048828125, 3.0e38], dtype=np.float32)
    src = sim.DeviceArray.from_numpy(values)
    h = sim.DeviceArray.empty(values.shape, sim.ACL_FLOAT16)
    bf = sim.DeviceArray.empty(values.shape, sim.ACL_BF16)
    sim.check(sim.run_aclnn("aclnnInplaceCopy", h.tensor(), src.tensor()))
    sim.check(sim.run_aclnn("aclnnInplaceCopy", bf.tensor(), src.tensor()))
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(h.to_numpy(), values.astype(np.float16))
    np.testing.assert_array_equal(bf.to_numpy(), sim.float_to_bf16_bits(values))
    nan = sim.DeviceArray.from_numpy(np.array([np.nan], dtype=np.float32))
    sim.check(sim.run_aclnn("aclnnInplaceCopy", h.tensor(shape=(1,)), nan.tensor()))
    assert np.isnan(h.to_numpy()[0])
