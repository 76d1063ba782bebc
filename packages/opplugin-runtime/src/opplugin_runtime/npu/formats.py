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
    """CANN's ``aclFormat`` values, named as torch_npu's ``Format``. The npu device holds ND,
    NCHW, NC1HWC0 and FRACTAL_NZ (``HELD_FORMATS``); casting to another one raises, naming it."""

    UNDEFINED = -1
    NCHW = 0
    NHWC = 1
    ND = 2
    NC1HWC0 = 3
    FRACTAL_Z = 4
    NC1HWC0_C04 = 12
    HWCN = 16
    NDHWC = 27
    FRACTAL_NZ = 29
    NCDHW = 30
    NDC1HWC0 = 32
    FRACTAL_Z_3D = 33
    NC = 35
    NCL = 47
    FRACTAL_NZ_C0_16 = 50
    FRACTAL_NZ_C0_32 = 51
    FRACTAL_NZ_C0_2 = 52
    FRACTAL_NZ_C0_4 = 53
    FRACTAL_NZ_C0_8 = 54

    def __str__(self) -> str:
        return self.name


HELD_FORMATS = frozenset({Format.ND, Format.NCHW, Format.NC1HWC0, Format.FRACTAL_NZ})


def get_npu_format(tensor: torch.Tensor) -> Format:
    """The storage format of ``tensor`` (``torch.ops.npu.get_npu_format`` as a ``Format``)."""
    return Format(torch.ops.npu.get_npu_format(tensor))


def npu_format_cast(tensor: torch.Tensor, acl_format: int) -> torch.Tensor:
    """``tensor``'s values in a tensor whose storage is in ``acl_format`` (``tensor`` if it already is)."""
    return torch.ops.npu.npu_format_cast(tensor, int(acl_format))


def npu_format_cast_(tensor: torch.Tensor, acl_format: int) -> torch.Tensor:
    """In place: ``tensor`` takes a storage in ``acl_format`` holding its values."""
    return torch.ops.npu.npu_format_cast_(tensor, int(acl_format))
