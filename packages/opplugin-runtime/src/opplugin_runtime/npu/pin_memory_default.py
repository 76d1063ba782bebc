"""The device that ``Tensor.pin_memory()``, ``Tensor.is_pinned()`` and ``DataLoader(pin_memory=True)``
pin for when a script names none, on torch releases that default it to CUDA.

torch 2.1 routes ``pin_memory``/``is_pinned`` through BackendSelect by their ``device`` argument and
takes CUDA when it is omitted (with no CUDA driver: "CUDA driver version is insufficient"), and its
DataLoader pins only when CUDA is available unless ``pin_memory_device`` is given (otherwise it
silently does not pin). Later releases ask the accelerator hooks, which are the npu's. Where torch
has that routing and no CUDA device is available, an omitted device means the npu here, as it does
for torch_npu's users: scripts written for torch_npu pin without naming the device.

``torch.empty(..., pin_memory=True)`` is not covered: torch 2.1 takes that allocator from its CUDA
hooks directly, below the dispatcher.
"""

from __future__ import annotations

import functools
from typing import Any

import torch

from .._backend import BACKEND_NAME


def routed_by_device_argument() -> bool:
    """Whether torch picks the pinning backend from the ``device`` argument (BackendSelect)."""
    return torch._C._dispatch_has_kernel_for_dispatch_key("aten::_pin_memory", "BackendSelect")


def default_pin_device() -> str | None:
    """The device an omitted ``device`` stands for: the npu unless CUDA is there to take it."""
    return None if torch.cuda.is_available() else BACKEND_NAME


def loader_pins_only_for_cuda() -> bool:
    """Whether DataLoader(pin_memory=True) without a pin_memory_device leaves pinning off when CUDA
    is not available (torch 2.1 to 2.5 at least; later releases ask the accelerator): probed on a
    one-element loader, which starts no worker."""
    from torch.utils.data import DataLoader

    return not iter(DataLoader([0], pin_memory=True))._pin_memory


def install() -> None:
    if getattr(torch.Tensor.pin_memory, "_npu_default_device", False):
        return
    if routed_by_device_argument():
        _install_tensor_defaults()
    if default_pin_device() is not None and loader_pins_only_for_cuda():
        _install_loader_default()


def _install_tensor_defaults() -> None:
    tensor_pin_memory = torch.Tensor.pin_memory
    tensor_is_pinned = torch.Tensor.is_pinned

    @functools.wraps(tensor_pin_memory)
    def pin_memory(self: torch.Tensor, device: Any = None) -> torch.Tensor:
        return tensor_pin_memory(self, device if device is not None else default_pin_device())

    @functools.wraps(tensor_is_pinned)
    def is_pinned(self: torch.Tensor, device: Any = None) -> bool:
        return tensor_is_pinned(self, device if device is not None else default_pin_device())

    pin_memory._npu_default_device = True  # type: ignore[attr-defined]
    torch.Tensor.pin_memory = pin_memory  # type: ignore[method-assign]
    torch.Tensor.is_pinned = is_pinned  # type: ignore[method-assign]


def _install_loader_default() -> None:
    from torch.utils.data import dataloader

    iterator_init = dataloader._BaseDataLoaderIter.__init__

    @functools.wraps(iterator_init)
    def init(self: Any, loader: Any) -> None:
        iterator_init(self, loader)
        # torch left pinning off for want of CUDA: pin for the npu (the multi-process iterator
        # starts its pinning thread after this, from these two attributes).
        if loader.pin_memory and not loader.pin_memory_device and not self._pin_memory:
            device = default_pin_device()
            if device is not None:
                self._pin_memory = True
                self._pin_memory_device = device

    dataloader._BaseDataLoaderIter.__init__ = init  # type: ignore[method-assign]
