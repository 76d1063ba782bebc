"""What happens at interpreter exit once the device was used.

Two things must be done before Python finalises:

* The autograd engine runs an npu backward on its device threads (``pt_autograd_<n>``).
  ``backward()`` returns as soon as the graph task completes, but the device thread drops its
  own reference to the task a moment later. Since torch 2.5 the task's thread-local state
  holds a Python object (the ``contextvars`` context that ``torch.autograd.graph`` stashes for
  the device threads), so that last drop takes the GIL; if the main thread is already in
  ``Py_FinalizeEx``, taking the GIL ends the thread with ``pthread_exit`` and the unwinding
  through the engine's ``noexcept`` frames calls ``std::terminate`` (SIGABRT, exit code 134).
  The exit handler runs one tiny backward per device, through the engine directly and with
  nothing Python in its thread-local state: each device thread takes tasks in order, so by the
  time it runs the barrier's task it has dropped every earlier graph task, while the main
  thread, waiting in the engine without the GIL, lets it take the GIL to do so.
* Work still queued on a stream may have failed. The handler synchronises every device; a
  pending fault is printed on stderr and the process exits with status 1 instead of 0.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading

import torch

from ._C import C

# The barrier graphs' tensors stay referenced until the end: a device thread that dropped
# the last reference to a Python-owned tensor would need the GIL during finalisation.
_barrier_tensors: list[torch.Tensor] = []
_registered = False
_lock = threading.Lock()

EXIT_STATUS_ON_FAULT = 1


def register() -> None:
    """Installs the exit handler (once; at import, so that it runs before torch's own)."""
    global _registered
    with _lock:
        if not _registered:
            atexit.register(_at_exit)
            _registered = True


def drain_autograd_device_threads() -> None:
    """Returns once every npu autograd device thread has released the graph tasks it ran.

    The barrier graph is a view of an empty tensor: its backward runs no kernel (so no device
    mode, fault or memory limit can make it fail) and it holds no device memory."""
    engine = torch.autograd.Variable._execution_engine
    if hasattr(torch._C, "_is_key_in_tls") and torch._C._is_key_in_tls("context"):
        torch._C._remove_obj_from_tls("context")
    for index in range(C.device_count()):
        leaf = torch.empty(0, device=f"npu:{index}", requires_grad=True)
        root = leaf.view(-1)  # a ViewBackward node: it runs on npu:<index>'s device thread
        seed = torch.empty(0, device=f"npu:{index}")
        _barrier_tensors.extend((leaf, root, seed))
        # Arguments: outputs, grad outputs, keep_graph, create_graph, inputs, allow_unreachable,
        # accumulate_grad. The gradient is accumulated into `leaf.grad` (on the device thread,
        # in C++), not returned: a returned gradient stays in the graph task's result as well, and
        # a device thread that drops the task last would then release a tensor that has a Python
        # object, which takes the GIL.
        engine.run_backward((root,), (seed,), True, False, (leaf,), True, True)


def _autograd_device_threads_started() -> bool:
    """True once the engine has started its device threads (named pt_autograd_<n> on Linux).
    The barrier must not start them itself: a thread starting at exit takes the GIL too."""
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return True  # no /proc: assume they run
    for task in tasks:
        try:
            with open(f"/proc/self/task/{task}/comm") as f:
                if f.read().startswith("pt_autograd"):
                    return True
        except OSError:
            continue
    return False


def _at_exit() -> None:
    from .lazy_init import _is_in_bad_fork

    if _is_in_bad_fork() or not C._acl_initialized():
        return  # the device was never used (or not in this forked child)
    try:
        if _autograd_device_threads_started():
            drain_autograd_device_threads()
    except Exception as error:  # the barrier runs no kernel; if it cannot run, say so and go on
        sys.stderr.write(f"npu: could not wait for the autograd device threads at exit: {error}\n")
    try:
        for index in range(C.device_count()):
            C.synchronize(index)
    except Exception as error:  # whatever failed is reported, and the exit status says so
        sys.stdout.flush()
        sys.stderr.write(f"npu: work queued on the device failed before the interpreter exited:\n{error}\n")
        sys.stderr.flush()
        os._exit(EXIT_STATUS_ON_FAULT)
