"""Storage formats of npu tensors (CANN's ``aclFormat`` numbers).

A tensor's bytes on the device may be in an internal layout: ``FRACTAL_NZ``
(``[..., M, N]`` as ``[..., ceil(N/16), ceil(M/16), 16, 16]`` tiles) or ``NC1HWC0``
(``[N, C, H, W]`` as ``[N, ceil(C/16), H, W, 16]``), zero padded; C0 is 32 for
1-byte dtypes. ``npu_format_cast`` re-lays the data on the device, ``.cpu()``
returns the logical values, view ops re-lay the storage in its base format first.
"""

from __future__ import annotations

import enum

import torch


class Format(enum.IntEnum):
    """``aclFormat`` values of the formats the npu device stores."""

    NCHW = 0
    ND = 2
    NC1HWC0 = 3
    FRACTAL_NZ = 29


def get_npu_format(tensor: torch.Tensor) -> Format:
    """The storage format of ``tensor`` (``torch.ops.npu.get_npu_format`` as a ``Format``)."""
    return Format(torch.ops.npu.get_npu_format(tensor))


def npu_format_cast(tensor: torch.Tensor, acl_format: int) -> torch.Tensor:
    """``tensor``'s values in a tensor whose storage is in ``acl_format`` (``tensor`` if it already is)."""
    return torch.ops.npu.npu_format_cast(tensor, int(acl_format))


def npu_format_cast_(tensor: torch.Tensor, acl_format: int) -> torch.Tensor:
    """In place: ``tensor`` takes a storage in ``acl_format`` holding its values."""
    return torch.ops.npu.npu_format_cast_(tensor, int(acl_format))
