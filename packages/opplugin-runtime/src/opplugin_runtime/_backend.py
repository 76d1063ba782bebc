"""Registration of the ``npu`` backend with torch (once per process)."""

from __future__ import annotations

import sys
from types import ModuleType

import torch

BACKEND_NAME = "npu"


def register_backend(module: ModuleType) -> None:
    current = torch._C._get_privateuse1_backend_name()
    if current != BACKEND_NAME:
        # Raises if another backend already renamed PrivateUse1.
        torch.utils.rename_privateuse1_backend(BACKEND_NAME)
    existing = getattr(torch, BACKEND_NAME, None)
    if existing is None:
        torch._register_device_module(BACKEND_NAME, module)
    elif existing is not module:
        raise RuntimeError(f"torch.{BACKEND_NAME} is already registered by {existing!r}")
    sys.modules.setdefault(f"torch.{BACKEND_NAME}", module)
    # `import torch.npu.amp` / `from torch.npu.amp import GradScaler` find the loaded submodules, not second
    # copies of them imported under torch.npu's name.
    prefix = f"{module.__name__}."
    for name, submodule in list(sys.modules.items()):
        if name.startswith(prefix):
            sys.modules.setdefault(f"torch.{BACKEND_NAME}.{name[len(prefix):]}", submodule)
    if not hasattr(torch.Tensor, f"is_{BACKEND_NAME}"):
        torch.utils.generate_methods_for_privateuse1_backend(for_storage=True)
