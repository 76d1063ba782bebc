"""Errors raised inside a queued kernel surface at the next synchronising call, naming
the kernel and the op that launched it; ASCEND_LAUNCH_BLOCKING=1 raises them at the op.

The simulator's ASCEND_SIM_FAULT_KERNEL=<kernel> makes every launch of that kernel
fail when it runs on the device, like a kernel that faults on hardware.
"""

from __future__ import annotations

FAULTY_ADD = {"ASCEND_SIM_FAULT_KERNEL": "add_custom"}


def test_kernel_error_surfaces_at_the_next_synchronisation(run_python):
    result = run_python(
        """
        import torch, opplugin_runtime
        x = torch.ones(1024, device="npu")
        z = x + x                       # queued; the fault happens later, on the stream
        print("enqueued")
        try:
            torch.npu.synchronize()
        except RuntimeError as error:
            print("synchronize raised:", error)
        else:
            raise AssertionError("synchronize did not report the kernel error")
        torch.npu.synchronize()         # the error was consumed
        w = x * 3                       # other kernels still work
        assert w.cpu().eq(3).all()
        z = x + x
        try:
            z.cpu()                     # a device-to-host copy synchronises too
        except RuntimeError as error:
            print("cpu() raised:", error)
        """,
        env=FAULTY_ADD,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "enqueued"
    sync_line = next(line for line in lines if line.startswith("synchronize raised:"))
    assert "kernel 'add_custom' (launched by aclnnAdd) failed" in sync_line
    assert "ASCEND_SIM_FAULT_KERNEL" in sync_line
    assert any(line.startswith("cpu() raised:") and "aclnnAdd" in line for line in lines)


def test_launch_blocking_raises_at_the_op(run_python):
    result = run_python(
        """
        import torch, opplugin_runtime
        x = torch.ones(1024, device="npu")
        try:
            x + x
        except RuntimeError as error:
            print("op raised:", error)
        else:
            raise AssertionError("the op did not raise under ASCEND_LAUNCH_BLOCKING=1")
        torch.npu.synchronize()          # nothing left pending
        print("synchronized")
        """,
        env={**FAULTY_ADD, "ASCEND_LAUNCH_BLOCKING": "1"},
    )
    assert result.returncode == 0, result.stderr
    assert "op raised:" in result.stdout and "aclnnAdd" in result.stdout and "add_custom" in result.stdout
    assert result.stdout.rstrip().endswith("synchronized")


def test_event_synchronize_reports_the_error_of_earlier_work(run_python):
    result = run_python(
        """
        import torch, opplugin_runtime
        x = torch.ones(64, device="npu")
        y = x + x
        done = torch.npu.Event()
        done.record()
        try:
            done.synchronize()
        except RuntimeError as error:
            print("event raised:", error)
        """,
        env=FAULTY_ADD,
    )
    assert result.returncode == 0, result.stderr
    assert "event raised:" in result.stdout and "aclnnAdd" in result.stdout
