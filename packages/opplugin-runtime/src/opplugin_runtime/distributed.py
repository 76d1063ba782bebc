"""torch.distributed's ``hccl`` backend for npu tensors.

``ProcessGroupHCCL`` (csrc/npu/distributed) runs the collectives through HCCL (the simulator's
libhccl.so) on a communication stream per device. Registering it makes
``dist.init_process_group("hccl")`` work, and ``backend=None`` pick it for npu tensors::

    dist.init_process_group("hccl")          # torchrun sets RANK, WORLD_SIZE, MASTER_ADDR, ...
    t = torch.ones(4, device=f"npu:{local_rank}")
    dist.all_reduce(t)
"""

from __future__ import annotations

import os
from datetime import timedelta
from typing import Any

import torch.distributed as dist

BACKEND = "hccl"


def _create_process_group_hccl(store: Any, rank: int, size: int, timeout: timedelta) -> Any:
    from . import _C

    return _C._distributed_c10d.ProcessGroupHCCL(store, rank, size, timeout, _rank_table_file())


def _rank_table_file() -> str:
    """RANK_TABLE_FILE when the group being made is the default one and the file is readable: its
    communicator then comes from the rank table (HcclCommInitClusterInfo), as in torch_npu. Groups
    made later (``new_group``) form theirs from a root info in the store."""
    path = os.environ.get("RANK_TABLE_FILE", "")
    if not path or dist.is_initialized() or not os.access(path, os.R_OK):
        return ""
    return path


def is_hccl_available() -> bool:
    """Whether the hccl backend is registered (torch_npu's ``torch.distributed.is_hccl_available``)."""
    return dist.is_available() and hasattr(dist.Backend, BACKEND.upper())


def register() -> None:
    """Registers ``hccl`` with torch.distributed for the npu device (once; a no-op where torch was
    built without distributed support)."""
    if not dist.is_available() or hasattr(dist.Backend, BACKEND.upper()):
        return
    from . import _C

    _C._distributed_c10d._init()
    dist.Backend.register_backend(BACKEND, _create_process_group_hccl, devices=["npu"])
    dist.is_hccl_available = is_hccl_available
