"""``torch.npu.amp.autocast`` (``torch.autocast("npu", ...)`` with torch_npu's signature) and the deprecated
``custom_fwd``/``custom_bwd`` aliases of ``torch.amp``'s decorators for device "npu"."""

from __future__ import annotations

import collections.abc
import functools
import warnings
from typing import Any, Callable

import torch

from ..autocast_utils import get_autocast_dtype, is_autocast_enabled

__all__ = ["autocast", "custom_bwd", "custom_fwd"]


class autocast(torch.amp.autocast_mode.autocast):
    """``torch.npu.amp.autocast(enabled, dtype, cache_enabled)`` is ``torch.autocast("npu", dtype=dtype,
    enabled=enabled, cache_enabled=cache_enabled)``; float16 by default, as torch_npu's."""

    def __init__(self, enabled: bool = True, dtype: torch.dtype = torch.float16, cache_enabled: bool = True) -> None:
        if torch._jit_internal.is_scripting():
            self._enabled = enabled
            self.device = "npu"
            self.fast_dtype = dtype
            return
        super().__init__("npu", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)

    def __enter__(self) -> autocast:
        if torch._jit_internal.is_scripting():
            return self
        return super().__enter__()

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> None:  # type: ignore[override]
        if torch._jit_internal.is_scripting():
            return None
        return super().__exit__(exc_type, exc_val, exc_tb)

    def __call__(self, func: Callable) -> Callable:
        if torch._jit_internal.is_scripting():
            return func
        return super().__call__(func)


def _cast(value: Any, dtype: torch.dtype) -> Any:
    """Floating npu tensors (not float64) in ``value`` cast to ``dtype``; containers are walked."""
    if isinstance(value, torch.Tensor):
        eligible = value.is_floating_point() and value.device.type == "npu" and value.dtype is not torch.float64
        return value.to(dtype) if eligible else value
    if isinstance(value, (str, bytes)):
        return value
    if isinstance(value, collections.abc.Mapping):
        return {_cast(k, dtype): _cast(v, dtype) for k, v in value.items()}
    if isinstance(value, collections.abc.Iterable) and not type(value).__module__.startswith("numpy"):
        cast = (_cast(v, dtype) for v in value)
        return type(value)(cast) if isinstance(value, (list, tuple)) else cast
    return value


def _npu_custom_fwd(fwd: Callable, cast_inputs: torch.dtype | None) -> Callable:
    # torch 2.1 has no device-generic torch.amp.custom_fwd: the npu's, with its semantics.
    @functools.wraps(fwd)
    def decorate_fwd(*args: Any, **kwargs: Any) -> Any:
        args[0]._dtype = get_autocast_dtype()
        if cast_inputs is None:
            args[0]._fwd_used_autocast = is_autocast_enabled()
            return fwd(*args, **kwargs)
        in_autocast = is_autocast_enabled()
        args[0]._fwd_used_autocast = False
        if in_autocast:
            with autocast(enabled=False):
                return fwd(*_cast(args, cast_inputs), **_cast(kwargs, cast_inputs))
        return fwd(*args, **kwargs)

    return decorate_fwd


def _npu_custom_bwd(bwd: Callable) -> Callable:
    @functools.wraps(bwd)
    def decorate_bwd(*args: Any, **kwargs: Any) -> Any:
        with autocast(enabled=args[0]._fwd_used_autocast, dtype=args[0]._dtype):
            return bwd(*args, **kwargs)

    return decorate_bwd


def custom_fwd(fwd: Callable | None = None, *, cast_inputs: torch.dtype | None = None) -> Callable:
    """Deprecated: ``torch.amp.custom_fwd(fwd, device_type="npu", cast_inputs=...)``. Decorates an
    ``autograd.Function``'s forward: it runs under the caller's autocast state, or, with ``cast_inputs``, with
    autocast off and its floating npu inputs cast to that dtype."""
    warnings.warn("torch.npu.amp.custom_fwd(args...) is deprecated. Please use "
                  "torch.amp.custom_fwd(args..., device_type='npu') instead.", FutureWarning, stacklevel=2)
    if hasattr(torch.amp, "custom_fwd"):
        return torch.amp.custom_fwd(fwd, device_type="npu", cast_inputs=cast_inputs)
    if fwd is None:
        return functools.partial(_npu_custom_fwd, cast_inputs=cast_inputs)
    return _npu_custom_fwd(fwd, cast_inputs)


def custom_bwd(bwd: Callable) -> Callable:
    """Deprecated: ``torch.amp.custom_bwd(bwd, device_type="npu")``. Decorates an ``autograd.Function``'s
    backward: it runs under the autocast state its forward ran under."""
    warnings.warn("torch.npu.amp.custom_bwd(args...) is deprecated. Please use "
                  "torch.amp.custom_bwd(args..., device_type='npu') instead.", FutureWarning, stacklevel=2)
    if hasattr(torch.amp, "custom_bwd"):
        return torch.amp.custom_bwd(bwd, device_type="npu")
    return _npu_custom_bwd(bwd)
