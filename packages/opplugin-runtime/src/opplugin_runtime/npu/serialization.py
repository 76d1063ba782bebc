"""Pickling and deep copies of npu tensors whose storage is in an internal format.

The bytes of a ``FRACTAL_NZ`` or ``NC1HWC0`` storage are padded tiles, not the
row-major bytes that the tensor's sizes and strides describe. ``torch.save`` and
``copy.deepcopy`` copy storages byte for byte, so for such a tensor they would keep
the tiles and lose the values. Like torch_npu, the npu device therefore reduces an
internal-format tensor to its values in base format (ND) plus the format, and the
rebuild re-lays them in that format when the tensor lands on an npu device again
(``torch.load`` with a CPU ``map_location`` gives the plain values).

Tensors in a base format take torch's own paths unchanged.
"""

from __future__ import annotations

import copy
from typing import Any, Callable

import torch

from .formats import Format, get_npu_format, npu_format_cast

_BASE_FORMATS = frozenset({Format.ND, Format.NCHW})
_installed: dict[str, Callable[..., Any]] = {}


def _internal_format(tensor: torch.Tensor) -> Format | None:
    """The internal storage format of an npu tensor, or None (base format, other devices)."""
    if tensor.device.type != "npu" or tensor.is_sparse or tensor.is_meta:
        return None
    fmt = get_npu_format(tensor)
    return None if fmt in _BASE_FORMATS else fmt


def _values_in_base_format(tensor: torch.Tensor) -> torch.Tensor:
    """A new ND leaf tensor holding ``tensor``'s values, with its ``requires_grad``."""
    with torch.no_grad():
        values = npu_format_cast(tensor.detach(), Format.ND)
    return values.requires_grad_(tensor.requires_grad)


def _rebuild_npu_tensor_in_format(values: torch.Tensor, acl_format: int) -> torch.Tensor:
    """Unpickling: ``values`` (already on its ``map_location``) back in ``acl_format`` on npu."""
    if values.device.type != "npu":
        return values
    with torch.no_grad():
        tensor = npu_format_cast(values.detach(), acl_format)
    return tensor.requires_grad_(values.requires_grad)


def _reduce_ex(self: torch.Tensor, protocol: int) -> Any:
    fmt = _internal_format(self) if type(self) is torch.Tensor else None
    if fmt is None:
        return _installed["__reduce_ex__"](self, protocol)
    return (_rebuild_npu_tensor_in_format, (_values_in_base_format(self), int(fmt)))


def _deepcopy(self: torch.Tensor, memo: dict[int, Any]) -> torch.Tensor:
    fmt = _internal_format(self) if type(self) is torch.Tensor and self.is_leaf else None
    if fmt is None:
        return _installed["__deepcopy__"](self, memo)
    if id(self) in memo:
        return memo[id(self)]
    with torch.no_grad():
        new = npu_format_cast(npu_format_cast(self.detach(), Format.ND), fmt)
    new.requires_grad_(self.requires_grad)
    if self.grad is not None:
        new.grad = copy.deepcopy(self.grad, memo)
    new.__dict__ = copy.deepcopy(self.__dict__, memo)
    memo[id(self)] = new
    return new


def install() -> None:
    """Routes torch.Tensor's pickling and deep copy of internal-format npu tensors here (once)."""
    for name, method in (("__reduce_ex__", _reduce_ex), ("__deepcopy__", _deepcopy)):
        if name not in _installed:
            _installed[name] = getattr(torch.Tensor, name)
            setattr(torch.Tensor, name, method)
    # torch.load(weights_only=True), the default since torch 2.6, only calls allow-listed
    # functions; the rebuild does nothing but re-lay a tensor's values on the device.
    add_safe_globals = getattr(torch.serialization, "add_safe_globals", None)
    if add_safe_globals is not None:
        add_safe_globals([_rebuild_npu_tensor_in_format])
