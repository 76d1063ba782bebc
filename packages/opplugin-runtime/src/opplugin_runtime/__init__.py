"""opplugin_runtime: PyTorch's ``npu`` device (PrivateUse1 renamed "npu") on the
simulated CANN device of ``ascendc-kernels``.

Importing the package loads the C++ runtime (device guard, caching allocator,
hooks, op registrations), renames PrivateUse1 to ``npu`` and registers
``torch.npu``::

    import torch, opplugin_runtime
    x = torch.ones(3, device="npu")
"""

from __future__ import annotations

from ._build_check import check_build
from ._library import load_extension

check_build()
_C = load_extension()

from . import npu  # noqa: E402  (needs _C)
from ._backend import register_backend  # noqa: E402

register_backend(npu)

__version__ = "0.1.0"
__all__ = ["__version__", "npu"]
