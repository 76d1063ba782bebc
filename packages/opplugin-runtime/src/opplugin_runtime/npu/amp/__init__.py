"""``torch.npu.amp`` (``torch_npu.npu.amp``): autocast and gradient scaling for the npu, with torch_npu's
names: ``autocast`` (``torch.autocast("npu", ...)``), ``GradScaler`` (the loss scale and its checks stay on
the device), ``custom_fwd``/``custom_bwd`` (deprecated aliases of ``torch.amp``'s, as upstream)."""

from .autocast_mode import autocast, custom_bwd, custom_fwd
from .grad_scaler import GradScaler

__all__ = ["GradScaler", "autocast", "custom_bwd", "custom_fwd"]
