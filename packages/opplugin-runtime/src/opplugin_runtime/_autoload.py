"""Target of the ``torch.backends`` entry point: torch >= 2.5 calls it at the end of
``import torch`` (unless ``TORCH_DEVICE_BACKEND_AUTOLOAD=0``), so ``import torch`` alone
makes the ``npu`` device and ``torch.npu`` available.

A module of its own so that torch can import it while ``opplugin_runtime`` itself is
still being imported (``import opplugin_runtime`` imports torch, which autoloads):
then the ``import`` below returns the partly initialised package, which completes the
registration when its own import finishes.
"""

from __future__ import annotations


def _autoload() -> None:
    import opplugin_runtime  # noqa: F401  (importing registers the backend)
