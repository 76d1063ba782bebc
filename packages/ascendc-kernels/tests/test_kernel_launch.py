"""Kernel launch on simulated AI cores: user kernels from another shared library,
block indices, unified-buffer limits and kernel errors surfacing at sync."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import ascendc_kernels_testing as sim
import numpy as np


def test_user_kernel_from_another_library_adds(acl, stream, test_kernels):
    n = 8 * 2048
    rng = np.random.default_rng(0)
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    x, y = sim.DeviceArray.from_numpy(a), sim.DeviceArray.from_numpy(b)
    z = sim.DeviceArray.empty((n,), sim.ACL_FLOAT)
    sim.check(test_kernels.test_launch_user_add(x.ptr, y.ptr, z.ptr, n, 8, stream))
    sim.check(acl.aclrtSynchronizeStream(stream))
    np.testing.assert_array_equal(z.peek(), a + b)


def test_every_block_sees_its_index_and_the_block_count(acl, stream, test_kernels):
    block_dim = 37  # more blocks than simulated cores
    out = sim.DeviceArray.from_numpy(np.full(2 * block_dim, -1, dtype=np.int32))
    sim.check(test_kernels.test_launch_block_ids(out.ptr, block_dim, stream))
    sim.check(acl.aclrtSynchronizeStream(stream))
    ids = out.peek().reshape(block_dim, 2)
    np.testing.assert_array_equal(ids[:, 0], np.arange(block_dim))
    assert (ids[:, 1] == block_dim).all()


def test_unified_buffer_overflow_fails_the_launch_at_the_next_sync(acl, stream, test_kernels):
    sim.check(test_kernels.test_launch_over_ub(stream))  # queued: no error yet
    rc = acl.aclrtSynchronizeStream(stream)
    assert rc == sim.ACL_ERROR_RT_AICORE_EXCEPTION
    message = sim.recent_error()
    ub = 192 * 1024
    assert "kernel 'over_ub_kernel' failed" in message
    assert f"requested {2 * (ub + 32)} bytes" in message
    assert f"only {ub} of {ub} bytes are available" in message
    sim.check(acl.aclrtSynchronizeStream(stream))  # reported once


def test_reported_kernel_error_names_the_kernel_and_skips_remaining_blocks(acl, stream, test_kernels):
    out = sim.DeviceArray.from_numpy(np.zeros(64, dtype=np.int32))
    sim.check(test_kernels.test_launch_report_error(out.ptr, 64, stream))
    rc = acl.aclrtSynchronizeStream(stream)
    assert rc == sim.ACL_ERROR_RT_AICORE_EXCEPTION
    assert "kernel 'report_error_kernel' failed: block 1 found a negative length" in sim.recent_error()
    assert (out.peek() == 0).sum() > 0  # blocks after the failure did not run


def test_kernel_error_surfaces_at_device_and_event_sync(acl, stream, test_kernels):
    sim.check(test_kernels.test_launch_misaligned_copy(sim.DeviceArray.empty((8,), sim.ACL_FLOAT).ptr, stream))
    assert acl.aclrtSynchronizeDevice() == sim.ACL_ERROR_RT_AICORE_EXCEPTION
    assert "kernel 'misaligned_copy_kernel' failed: DataCopy(GM->UB): 12 bytes" in sim.recent_error()

    event = sim.ctypes.c_void_p()
    sim.check(acl.aclrtCreateEvent(sim.ctypes.byref(event)))
    sim.check(test_kernels.test_launch_over_ub(stream))
    sim.check(acl.aclrtRecordEvent(event.value, stream))
    assert acl.aclrtSynchronizeEvent(event.value) == sim.ACL_ERROR_RT_AICORE_EXCEPTION
    assert "over_ub_kernel" in sim.recent_error()
    sim.check(acl.aclrtSynchronizeStream(stream))  # consumed by the event sync
    sim.check(acl.aclrtDestroyEvent(event.value))


TINY_UB_SCRIPT = textwrap.dedent("""
    import numpy as np
    import ascendc_kernels_testing as sim
    acl = sim.load()
    assert acl.aclsimGetUbSize() == 512
    x = sim.DeviceArray.from_numpy(np.ones(100, dtype=np.float32))
    sim.check(sim.run_aclnn("aclnnAdd", x.tensor(), x.tensor(), sim.Scalar(1.0), x.tensor()))
    rc = acl.aclrtSynchronizeStream(None)
    print(rc, sim.recent_error())
""")


def test_builtin_kernel_reports_a_too_small_unified_buffer():
    env = dict(os.environ, ASCEND_SIM_UB_SIZE="512")
    result = subprocess.run([sys.executable, "-c", TINY_UB_SCRIPT], env=env, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(str(sim.ACL_ERROR_RT_AICORE_EXCEPTION))
    assert "kernel 'add_custom' (launched by aclnnAdd) failed: TPipe::InitBuffer" in result.stdout


CORE_COUNT_SCRIPT = textwrap.dedent("""
    import numpy as np
    import ascendc_kernels_testing as sim
    acl = sim.load()
    assert acl.aclsimGetCoreNumAiv() == 5, acl.aclsimGetCoreNumAiv()
    n = 1_000_003
    x = sim.DeviceArray.from_numpy(np.arange(n, dtype=np.int64))
    out = sim.DeviceArray.empty((n,), sim.ACL_INT64)
    sim.check(sim.run_aclnn("aclnnAdd", x.tensor(), x.tensor(), sim.Scalar(2), out.tensor()))
    assert (out.to_numpy() == 3 * np.arange(n)).all()
    print("cores ok")
""")


def test_tiling_follows_the_configured_core_count():
    env = dict(os.environ, ASCEND_SIM_AICORE_NUM="5")
    result = subprocess.run([sys.executable, "-c", CORE_COUNT_SCRIPT], env=env, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert "cores ok" in result.stdout


FAULT_SCRIPT = textwrap.dedent("""
    import numpy as np
    import ascendc_kernels_testing as sim
    acl = sim.load()
    sim.check(acl.aclInit(None))
    x = sim.DeviceArray.from_numpy(np.ones(64, dtype=np.float32))
    out = sim.DeviceArray.empty((64,), sim.ACL_FLOAT)
    sim.check(sim.run_aclnn("aclnnMul", x.tensor(), x.tensor(), out.tensor()))  # another kernel: unaffected
    assert acl.aclrtSynchronizeStream(None) == 0
    print(sim.run_aclnn("aclnnAdd", x.tensor(), x.tensor(), sim.Scalar(1.0), out.tensor()))  # queued fine
    rc = acl.aclrtSynchronizeStream(None)
    print(rc, sim.recent_error())
""")


def test_fault_injection_fails_the_named_kernel_when_it_runs():
    env = dict(os.environ, ASCEND_SIM_FAULT_KERNEL="add_custom")
    result = subprocess.run([sys.executable, "-c", FAULT_SCRIPT], env=env, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    enqueue_rc, sync_line = result.stdout.splitlines()
    assert enqueue_rc == "0"
    assert sync_line.startswith(str(sim.ACL_ERROR_RT_AICORE_EXCEPTION))
    assert "kernel 'add_custom' (launched by aclnnAdd) failed: fault injected by ASCEND_SIM_FAULT_KERNEL" in sync_line
