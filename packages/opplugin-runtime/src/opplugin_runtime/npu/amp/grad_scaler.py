"""``torch.npu.amp.GradScaler``: dynamic loss scaling on the npu, with torch_npu's signature
(``init_scale, growth_factor, backoff_factor, growth_interval, dynamic, enabled``).

The scale, the growth tracker and the per-step ``found_inf`` flags are npu tensors; the gradient check and
unscale (``torch._amp_foreach_non_finite_check_and_unscale_``) and the scale update
(``torch._amp_update_scale_``) run as npu kernels, so, as on CUDA, the host waits for the device only where
``step`` reads whether to skip. ``dynamic=False`` keeps the scale fixed: gradients are unscaled and every step
is taken (torch_npu's static loss scale).

On torch releases with ``torch.amp.GradScaler`` (2.3 and later) this is that class for device "npu"; on torch
2.1 it is ``torch.cuda.amp.GradScaler`` with its CUDA-only parts (the availability check, the device asserts of
``scale`` and of the unscale step, the tensor check of ``update(new_scale)``) replaced by the npu's.
"""

from __future__ import annotations

import warnings
from collections import abc, defaultdict
from typing import Any

import torch

_DEVICE_GENERIC = hasattr(torch.amp, "GradScaler")
if _DEVICE_GENERIC:
    from torch.amp.grad_scaler import GradScaler as _BaseGradScaler
    from torch.amp.grad_scaler import _refresh_per_optimizer_state
else:  # torch 2.1
    from torch.cuda.amp.grad_scaler import GradScaler as _BaseGradScaler
    from torch.cuda.amp.grad_scaler import _refresh_per_optimizer_state

__all__ = ["GradScaler"]


class _PerDeviceCopies:
    """One tensor served on each device asked for, copied once per device (non-blocking)."""

    def __init__(self, master: torch.Tensor) -> None:
        self.master = master
        self._per_device_tensors: dict[torch.device, torch.Tensor] = {}

    def get(self, device: torch.device) -> torch.Tensor:
        tensor = self._per_device_tensors.get(device)
        if tensor is None:
            tensor = self.master.to(device=device, non_blocking=True, copy=True)
            self._per_device_tensors[device] = tensor
        return tensor


def _check_npu(tensor: torch.Tensor, what: str) -> None:
    if tensor.device.type != "npu":
        raise ValueError(f"GradScaler (npu): {what} must be on an npu device, got one on {tensor.device}")


class GradScaler(_BaseGradScaler):
    """Scales the loss, unscales and checks the gradients, skips a step whose gradients are not finite and
    adapts the scale (see ``torch.amp.GradScaler``); every tensor it handles is on an npu device."""

    def __init__(
        self,
        init_scale: float = 2.0**16,
        growth_factor: float = 2.0,
        backoff_factor: float = 0.5,
        growth_interval: int = 2000,
        dynamic: bool = True,
        enabled: bool = True,
    ) -> None:
        if enabled and not torch.npu.is_available():
            warnings.warn("torch.npu.amp.GradScaler is enabled, but no npu device is available. Disabling.",
                          stacklevel=2)
            enabled = False
        if enabled and growth_factor <= 1.0:
            raise ValueError(f"The growth factor must be > 1.0, got {growth_factor}.")
        if enabled and backoff_factor >= 1.0:
            raise ValueError(f"The backoff factor must be < 1.0, got {backoff_factor}.")
        if _DEVICE_GENERIC:
            super().__init__("npu", init_scale=init_scale, growth_factor=growth_factor,
                             backoff_factor=backoff_factor, growth_interval=growth_interval, enabled=enabled)
        else:
            # torch.cuda.amp.GradScaler.__init__ disables itself where CUDA is missing: its state, set here.
            self._enabled = enabled
            if enabled:
                self._init_scale = init_scale
                self._scale = None
                self._growth_factor = growth_factor
                self._backoff_factor = backoff_factor
                self._growth_interval = growth_interval
                self._init_growth_tracker = 0
                self._growth_tracker = None
                self._per_optimizer_states = defaultdict(_refresh_per_optimizer_state)
        self._device = "npu"
        self._dynamic = dynamic

    def scale(self, outputs: Any) -> Any:
        """``outputs`` (a tensor or an iterable of them, on npu devices) multiplied by the current scale."""
        if not self._enabled:
            return outputs
        if isinstance(outputs, torch.Tensor):
            _check_npu(outputs, "outputs")
            if self._scale is None:
                self._lazy_init_scale_growth_tracker(outputs.device)
            return outputs * self._scale.to(device=outputs.device, non_blocking=True)

        stash: list[_PerDeviceCopies] = []

        def apply_scale(value: Any) -> Any:
            if isinstance(value, torch.Tensor):
                _check_npu(value, "outputs")
                if not stash:
                    if self._scale is None:
                        self._lazy_init_scale_growth_tracker(value.device)
                    stash.append(_PerDeviceCopies(self._scale))
                return value * stash[0].get(value.device)
            if isinstance(value, abc.Iterable):
                scaled = map(apply_scale, value)
                return type(value)(scaled) if isinstance(value, (list, tuple)) else scaled
            raise ValueError("outputs must be a Tensor or an iterable of Tensors")

        return apply_scale(outputs)

    def _unscale_grads_(self, optimizer: torch.optim.Optimizer, inv_scale: torch.Tensor, found_inf: torch.Tensor,
                        allow_fp16: bool) -> dict[torch.device, torch.Tensor]:
        per_device_inv_scale = _PerDeviceCopies(inv_scale)
        per_device_found_inf = _PerDeviceCopies(found_inf)
        # Gradients grouped by device and dtype: one check-and-unscale call per group.
        grouped: dict[torch.device, dict[torch.dtype, list[torch.Tensor]]] = defaultdict(lambda: defaultdict(list))
        with torch.no_grad():
            for group in optimizer.param_groups:
                for param in group["params"]:
                    if param.grad is None:
                        continue
                    if not allow_fp16 and param.grad.dtype == torch.float16:
                        raise ValueError("Attempting to unscale FP16 gradients.")
                    if param.grad.is_sparse:
                        # Coalescing sums duplicate indices, which may overflow in float16: check the sums.
                        if param.grad.dtype == torch.float16:
                            param.grad = param.grad.coalesce()
                        to_unscale = param.grad._values()
                    else:
                        to_unscale = param.grad
                    _check_npu(to_unscale, "gradients")
                    grouped[to_unscale.device][to_unscale.dtype].append(to_unscale)
            for device, per_dtype in grouped.items():
                for grads in per_dtype.values():
                    torch._amp_foreach_non_finite_check_and_unscale_(
                        grads, per_device_found_inf.get(device), per_device_inv_scale.get(device))
        return per_device_found_inf._per_device_tensors

    def _maybe_opt_step(self, optimizer: torch.optim.Optimizer, optimizer_state: dict, *args: Any,
                        **kwargs: Any) -> Any:
        if not self._dynamic:
            return optimizer.step(*args, **kwargs)  # a static scale never skips a step
        return super()._maybe_opt_step(optimizer, optimizer_state, *args, **kwargs)

    def update(self, new_scale: float | torch.Tensor | None = None) -> None:
        """Moves the scale for the next iteration (backs off after a skipped step, grows after
        ``growth_interval`` good ones), or sets it to ``new_scale``; with ``dynamic=False`` only
        ``new_scale`` changes it."""
        if not self._enabled:
            return
        if isinstance(new_scale, torch.Tensor):
            reason = "new_scale should be a float or a 1-element npu float tensor with requires_grad=False."
            if new_scale.device.type != "npu" or new_scale.dtype != torch.float32:
                raise TypeError(f"{reason} Got a {new_scale.dtype} tensor on {new_scale.device}.")
            if new_scale.numel() != 1 or new_scale.requires_grad:
                raise ValueError(reason)
            scale, _ = self._check_scale_growth_tracker("update")
            scale.copy_(new_scale)
            self._per_optimizer_states = defaultdict(_refresh_per_optimizer_state)
            return
        if new_scale is None and not self._dynamic:
            self._check_scale_growth_tracker("update")
            self._per_optimizer_states = defaultdict(_refresh_per_optimizer_state)
            return
        super().update(new_scale)

    def state_dict(self) -> dict[str, Any]:
        state = super().state_dict()
        if self._enabled:
            state["dynamic"] = self._dynamic
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        super().load_state_dict(state_dict)
        if self._enabled:
            self._dynamic = state_dict.get("dynamic", True)
