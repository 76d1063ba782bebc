"""``torch_npu._C``: the runtime extension's bindings under upstream's module name.

Every name of ``opplugin_runtime._C`` (the compiled extension) is here, and upstream's
``_empty_strided_npu``.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from opplugin_runtime import _C as _extension

globals().update({name: getattr(_extension, name) for name in dir(_extension) if not name.startswith("__")})


def _empty_strided_npu(size: Sequence[int], stride: Sequence[int], dtype: torch.dtype) -> torch.Tensor:
    """An uninitialised npu tensor of ``size`` and ``stride`` on the current device (what
    ``torch.empty_strided(size, stride, dtype=dtype, device="npu")`` gives)."""
    return torch.empty_strided(size, stride, dtype=dtype, device=torch.device("npu", torch.npu.current_device()))
