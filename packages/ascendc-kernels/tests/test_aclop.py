"""The acl_op executor: registered op types, validation, broadcasting, compile options."""

from __future__ import annotations

import ctypes

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import DTYPES, from_device, random_values, round_to, to_device


def operand(array, acl_type=None, shape=None, fmt=sim.ACL_FORMAT_ND):
    return (array, tuple(array.shape if shape is None else shape), array.acl_type if acl_type is None else acl_type,
            fmt)


def run(op, inputs, outputs, attrs=None):
    rc = sim.run_aclop(op, inputs, outputs, attrs)
    sim.check(rc, op)


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_add_mul_abs(acl, dtype):
    acl_type = DTYPES[dtype]
    rng = np.random.default_rng(1)
    a, b = random_values((3001,), acl_type, rng), random_values((3001,), acl_type, rng)
    x, y = to_device(a, acl_type), to_device(b, acl_type)
    out = sim.DeviceArray.empty((3001,), acl_type)
    run("Add", [operand(x), operand(y)], [operand(out)])
    np.testing.assert_array_equal(from_device(out), round_to(np.add(a, b), acl_type))
    run("Mul", [operand(x), operand(y)], [operand(out)])
    np.testing.assert_array_equal(from_device(out), round_to(np.multiply(a, b), acl_type))
    run("Abs", [operand(x)], [operand(out)])
    np.testing.assert_array_equal(from_device(out), np.abs(a))


def test_add_broadcasts_like_numpy(acl):
    a = np.arange(12, dtype=np.float32).reshape(3, 1, 4)
    b = np.arange(5, dtype=np.float32).reshape(5, 1) * 10
    x, y = sim.DeviceArray.from_numpy(a), sim.DeviceArray.from_numpy(b)
    out = sim.DeviceArray.empty((3, 5, 4), sim.ACL_FLOAT)
    run("Add", [operand(x), operand(y)], [operand(out)])
    np.testing.assert_array_equal(out.to_numpy(), a + b)


def test_axpy_with_alpha(acl):
    a = np.linspace(-5, 5, 1000, dtype=np.float32)
    b = np.linspace(3, 9, 1000, dtype=np.float32)
    x, y = sim.DeviceArray.from_numpy(a), sim.DeviceArray.from_numpy(b)
    out = sim.DeviceArray.empty((1000,), sim.ACL_FLOAT)
    run("Axpy", [operand(x), operand(y)], [operand(out)], {"alpha": 0.25})
    np.testing.assert_allclose(out.to_numpy(), a + np.float32(0.25) * b, rtol=1e-6)
    i = sim.DeviceArray.from_numpy(np.arange(10, dtype=np.int32))
    io = sim.DeviceArray.empty((10,), sim.ACL_INT32)
    run("Axpy", [operand(i), operand(i)], [operand(io)], {"alpha": -2.0})
    np.testing.assert_array_equal(io.to_numpy(), -np.arange(10))
    assert sim.run_aclop("Axpy", [operand(i), operand(i)], [operand(io)], {"alpha": 0.5}) == \
        sim.ACL_ERROR_INVALID_PARAM
    assert "alpha 0.5 must be integral for data type ACL_INT32" in sim.recent_error()
    assert sim.run_aclop("Axpy", [operand(x), operand(y)], [operand(out)]) == sim.ACL_ERROR_INVALID_PARAM
    assert "op 'Axpy': required float attribute 'alpha' is missing" in sim.recent_error()


@pytest.mark.parametrize("src_type,dst_type", [
    (sim.ACL_FLOAT, sim.ACL_FLOAT16), (sim.ACL_FLOAT, sim.ACL_INT32), (sim.ACL_INT64, sim.ACL_FLOAT),
    (sim.ACL_BF16, sim.ACL_FLOAT), (sim.ACL_INT32, sim.ACL_BOOL), (sim.ACL_FLOAT16, sim.ACL_DOUBLE),
])
def test_cast(acl, src_type, dst_type):
    values = random_values((777,), src_type, np.random.default_rng(2), -50, 50)
    x = to_device(values, src_type)
    out = sim.DeviceArray.empty((777,), dst_type)
    run("Cast", [operand(x)], [operand(out)], {"dst_type": dst_type})
    if dst_type in (sim.ACL_FLOAT16, sim.ACL_FLOAT):
        expected = round_to(np.asarray(values, dtype=np.float32), dst_type)
    else:
        expected = np.asarray(values).astype(sim.numpy_dtype(dst_type))
    np.testing.assert_array_equal(from_device(out), expected)


def test_cast_checks_dst_type_against_the_output(acl):
    x = sim.DeviceArray.empty((4,), sim.ACL_FLOAT)
    out = sim.DeviceArray.empty((4,), sim.ACL_INT32)
    assert sim.run_aclop("Cast", [operand(x)], [operand(out)], {"dst_type": sim.ACL_FLOAT16}) == \
        sim.ACL_ERROR_INVALID_PARAM
    assert "dst_type is 1 (ACL_FLOAT16) but output y has data type ACL_INT32" in sim.recent_error()


def test_muls_fills_identity(acl):
    a = np.arange(100, dtype=np.float32)
    x = sim.DeviceArray.from_numpy(a)
    out = sim.DeviceArray.empty((100,), sim.ACL_FLOAT)
    run("Muls", [operand(x)], [operand(out)], {"value": 1.5})
    np.testing.assert_array_equal(out.to_numpy(), a * 1.5)
    run("Fills", [operand(x)], [operand(out)], {"value": -4.0})
    assert (out.to_numpy() == -4).all()
    run("Identity", [operand(x)], [operand(out)])
    np.testing.assert_array_equal(out.to_numpy(), a)


def test_constant_input_is_read_at_enqueue(acl):
    a = np.arange(6, dtype=np.float32)
    x = sim.DeviceArray.from_numpy(a)
    out = sim.DeviceArray.empty((6,), sim.ACL_FLOAT)
    const = np.array([10.0], dtype=np.float32)
    run("Add", [operand(x), (None, (1,), sim.ACL_FLOAT, sim.ACL_FORMAT_ND, const)], [operand(out)])
    const[0] = 99  # changing the host value afterwards does not matter
    np.testing.assert_array_equal(out.to_numpy(), a + 10)


def test_unknown_op_type(acl):
    x = sim.DeviceArray.empty((4,), sim.ACL_FLOAT)
    assert sim.run_aclop("FancyGelu", [operand(x)], [operand(x)]) == sim.ACL_ERROR_OP_NOT_FOUND
    message = sim.recent_error()
    assert "op type 'FancyGelu' is not registered" in message
    assert "Add" in message and "Cast" in message


def test_validation_errors(acl):
    f = sim.DeviceArray.empty((4,), sim.ACL_FLOAT)
    h = sim.DeviceArray.empty((4,), sim.ACL_FLOAT16)
    g = sim.DeviceArray.empty((3,), sim.ACL_FLOAT)
    assert sim.run_aclop("Add", [operand(f)], [operand(f)]) == sim.ACL_ERROR_INVALID_PARAM
    assert "op 'Add': takes 2 input(s) and 1 output(s), got 1 and 1" in sim.recent_error()
    assert sim.run_aclop("Add", [operand(f), operand(h)], [operand(f)]) == sim.ACL_ERROR_INVALID_PARAM
    assert "input x1 has data type ACL_FLOAT but input x2 has ACL_FLOAT16" in sim.recent_error()
    assert sim.run_aclop("Add", [operand(f), operand(g)], [operand(f)]) == sim.ACL_ERROR_INVALID_PARAM
    assert "input shapes [4] and [3] cannot broadcast" in sim.recent_error()
    b = sim.DeviceArray.empty((4,), sim.ACL_BOOL)
    assert sim.run_aclop("Abs", [operand(b)], [operand(b)]) == sim.ACL_ERROR_UNSUPPORTED_DATA_TYPE
    assert "op 'Abs': input x has data type ACL_BOOL" in sim.recent_error()
    assert sim.run_aclop("Add", [operand(f), operand(f)], [operand(f, shape=(8,))]) == sim.ACL_ERROR_INVALID_PARAM
    assert "output 0: data buffer has 16 bytes" in sim.recent_error()


def test_internal_formats(acl):
    a = np.arange(16, dtype=np.float16)
    x = sim.DeviceArray.from_numpy(a)
    out = sim.DeviceArray.empty((16,), sim.ACL_FLOAT16)
    nz = sim.ACL_FORMAT_FRACTAL_NZ
    # elementwise over identical storage: any layout works
    run("Add", [operand(x, fmt=nz), operand(x, fmt=nz)], [operand(out, fmt=nz)])
    np.testing.assert_array_equal(out.to_numpy(), a + a)
    assert sim.run_aclop("Add", [operand(x, fmt=nz), operand(x)], [operand(out)]) == \
        sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "all operands must share format and storage shape" in sim.recent_error()
    assert sim.run_aclop("Fills", [operand(x, fmt=nz)], [operand(out, fmt=nz)], {"value": 1.0}) == \
        sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "op 'Fills': input 0 has internal storage format ACL_FORMAT_FRACTAL_NZ" in sim.recent_error()


def test_jit_compile_option(acl):
    value = ctypes.create_string_buffer(32)
    sim.check(acl.aclGetCompileopt(sim.ACL_OP_JIT_COMPILE, value, 32))
    assert value.value == b"disable"
    sim.check(acl.aclSetCompileopt(sim.ACL_OP_JIT_COMPILE, b"enable"))
    sim.check(acl.aclGetCompileopt(sim.ACL_OP_JIT_COMPILE, value, 32))
    assert value.value == b"enable"
    assert acl.aclSetCompileopt(sim.ACL_OP_JIT_COMPILE, b"maybe") == sim.ACL_ERROR_INVALID_PARAM
    sim.check(acl.aclSetCompileopt(sim.ACL_OP_JIT_COMPILE, b"disable"))


def test_compile_options_without_behaviour_are_unsupported(acl):
    assert acl.aclSetCompileopt(sim.ACL_OP_DEBUG_OPTION, b"oom") == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert 'ACL_OP_DEBUG_OPTION "oom" is not supported by the simulator' in sim.recent_error()
    assert acl.aclSetCompileopt(5, b"1") == sim.ACL_ERROR_FEATURE_UNSUPPORTED  # ACL_OP_DEBUG_LEVEL 1
    sim.check(acl.aclSetCompileopt(5, b"0"))
    assert acl.aclSetCompileopt(9, b"x") == sim.ACL_ERROR_FEATURE_UNSUPPORTED  # ACL_OP_PERFORMANCE_MODE
    assert "compile option 9 is not supported by the simulator" in sim.recent_error()
    assert acl.aclSetCompileopt(17, b"x") == sim.ACL_ERROR_INVALID_PARAM


@pytest.mark.parametrize("t1", [False, True])
@pytest.mark.parametrize("t2", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_matmul_v2_with_transposes(acl, dtype, t1, t2):
    acl_type = DTYPES[dtype]
    rng = np.random.default_rng(int(t1) * 2 + int(t2))
    m, k, n = 37, 150, 131
    a = round_to(rng.standard_normal((k, m) if t1 else (m, k)).astype(np.float32), acl_type)
    b = round_to(rng.standard_normal((n, k) if t2 else (k, n)).astype(np.float32), acl_type)
    x1, x2 = to_device(a, acl_type), to_device(b, acl_type)
    out = sim.DeviceArray.empty((m, n), acl_type)
    run("MatMulV2", [operand(x1), operand(x2)], [operand(out)], {"transpose_x1": t1, "transpose_x2": t2})
    want = round_to(((a.T if t1 else a).astype(np.float64) @ (b.T if t2 else b)).astype(np.float32), acl_type)
    tol = {sim.ACL_FLOAT: 1e-4, sim.ACL_FLOAT16: 2e-2, sim.ACL_BF16: 1.5e-1}[acl_type]
    np.testing.assert_allclose(from_device(out), want, rtol=tol, atol=tol)


def test_matmul_v2_rejects_mismatched_shapes_and_types(acl):
    x1 = sim.DeviceArray.empty((4, 6), sim.ACL_FLOAT)
    x2 = sim.DeviceArray.empty((5, 3), sim.ACL_FLOAT)
    out = sim.DeviceArray.empty((4, 3), sim.ACL_FLOAT)
    assert sim.run_aclop("MatMulV2", [operand(x1), operand(x2)], [operand(out)]) == sim.ACL_ERROR_INVALID_PARAM
    assert "op 'MatMulV2': x1 [4, 6] (transpose_x1=0) and x2 [5, 3] (transpose_x2=0) have different reduction sizes" \
        in sim.recent_error()
    i = sim.DeviceArray.empty((6, 3), sim.ACL_INT32)
    assert sim.run_aclop("MatMulV2", [operand(x1), operand(i)], [operand(out)]) != sim.ACL_SUCCESS
    assert sim.run_aclop("MatMulV2", [operand(x1), operand(x2)], [operand(out)], {"transpose_x2": 1}) == \
        sim.ACL_ERROR_INVALID_PARAM
    assert "attribute 'transpose_x2' must be a bool" in sim.recent_error()
