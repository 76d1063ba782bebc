"""The legacy tensor types of ``torch.npu`` (``torch.npu.FloatTensor``, ``HalfTensor`` ...),
as ``torch.cuda`` has them: calling one makes an npu tensor of its dtype on the current
device (``torch.npu.FloatTensor(2, 3)``, ``torch.npu.FloatTensor([1.0, 2.0])``),
``isinstance(t, torch.npu.FloatTensor)`` holds for npu tensors of that dtype, and
``t.type(torch.npu.FloatTensor)`` converts as ``t.type("torch.npu.FloatTensor")`` does.
"""

from __future__ import annotations

from typing import Any

import torch

from .lazy_init import _lazy_init


class _LegacyTensorType(type):
    dtype: torch.dtype

    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, torch.Tensor) and instance.device.type == "npu" and instance.dtype == cls.dtype

    def __call__(cls, *args: Any, **kwargs: Any) -> torch.Tensor:
        _lazy_init()
        device = torch.device("npu", torch.npu.current_device())
        if kwargs:
            raise TypeError(f"torch.npu.{cls.__qualname__}() takes no keyword arguments, got {sorted(kwargs)}")
        if len(args) == 1 and isinstance(args[0], (list, tuple)) and not isinstance(args[0], torch.Size):
            return torch.tensor(args[0], dtype=cls.dtype, device=device)
        if len(args) == 1 and isinstance(args[0], torch.Tensor):
            return args[0].to(device=device, dtype=cls.dtype)
        return torch.empty(*args, dtype=cls.dtype, device=device)

    def __repr__(cls) -> str:
        return f"<class 'torch.npu.{cls.__qualname__}'>"


def _legacy_type(name: str, dtype: torch.dtype) -> type:
    # Tensor.type(cls) reads the type's C-level name, which for a Python class is its __name__: the
    # full "torch.npu.FloatTensor" is the string torch's own legacy-type parser knows.
    return _LegacyTensorType(f"torch.npu.{name}", (), {
        "dtype": dtype, "is_npu": True, "__module__": "torch.npu", "__qualname__": name,
        "__doc__": f"npu tensors of dtype {dtype} (legacy constructor)"})


DoubleTensor = _legacy_type("DoubleTensor", torch.float64)
FloatTensor = _legacy_type("FloatTensor", torch.float32)
HalfTensor = _legacy_type("HalfTensor", torch.float16)
BFloat16Tensor = _legacy_type("BFloat16Tensor", torch.bfloat16)
LongTensor = _legacy_type("LongTensor", torch.int64)
IntTensor = _legacy_type("IntTensor", torch.int32)
ShortTensor = _legacy_type("ShortTensor", torch.int16)
CharTensor = _legacy_type("CharTensor", torch.int8)
ByteTensor = _legacy_type("ByteTensor", torch.uint8)
BoolTensor = _legacy_type("BoolTensor", torch.bool)

__all__ = ["BFloat16Tensor", "BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor", "HalfTensor",
           "IntTensor", "LongTensor", "ShortTensor"]
