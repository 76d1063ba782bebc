"""``torch_npu.testing.decorator``: one test method, instantiated per dtype and per npu format.

    @instantiate_tests
    class TestAbs(TestCase):
        @Dtypes(torch.float, torch.half)
        @Formats(0, 3)
        def test_abs(self, device, dtype, npu_format): ...

gives ``test_abs_float32_0``, ``test_abs_float32_3``, ``test_abs_float16_0`` and ``test_abs_float16_3``
in place of ``test_abs``. Each dtype goes to the parameter whose name contains "dtype", each format to
the one whose name contains "format", and a parameter named ``device`` gets "npu".
"""

from __future__ import annotations

import functools
import inspect
import itertools
from typing import Any, Callable

import torch


class Dtypes:
    """The dtypes a test method runs with (``@Dtypes(torch.float, torch.half)``)."""

    def __init__(self, *dtypes: torch.dtype) -> None:
        if not dtypes:
            raise RuntimeError("Dtypes: no dtypes given")
        if not all(isinstance(dtype, torch.dtype) for dtype in dtypes):
            raise RuntimeError(f"Dtypes: expected torch dtypes, got {dtypes}")
        self.args = dtypes

    def __call__(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        fn.dtypes = self.args
        return fn


class Formats:
    """The npu formats a test method runs with (``@Formats(0, 3, 29)``; CANN's ``aclFormat`` numbers)."""

    def __init__(self, *formats: int) -> None:
        if not formats:
            raise RuntimeError("Formats: no formats given")
        self.args = formats

    def __call__(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        fn.formats = self.args
        return fn


def _suffix(kind: str, value: Any) -> str:
    return str(value).split(".")[-1] if kind == "dtype" else str(value)


def _parameter_for(kind: str, parameters: list[str], test_name: str) -> str:
    matches = [name for name in parameters if kind in name]
    if len(matches) != 1:
        found = f"several: {matches}" if matches else "none"
        raise RuntimeError(f"instantiate_tests: {test_name} needs one parameter whose name contains '{kind}', {found}")
    return matches[0]


def _bind(fn: Callable[..., Any], name: str, **kwargs: Any) -> Callable[..., Any]:
    @functools.wraps(fn)
    def instance(self: Any) -> Any:
        return fn(self, **kwargs)

    instance.__name__ = instance.__qualname__ = name
    for attribute in ("dtypes", "formats"):  # an instance is a test, not a template for more
        instance.__dict__.pop(attribute, None)
    return instance


def _instantiate(cls: type) -> type:
    for name, fn in list(vars(cls).items()):
        if not callable(fn):
            continue
        axes = {kind: getattr(fn, attribute) for kind, attribute in (("dtype", "dtypes"), ("format", "formats"))
                if hasattr(fn, attribute)}
        if not axes:
            continue
        parameters = list(inspect.signature(fn).parameters)  # through decorators such as SupportedDevices
        fixed = {"device": "npu"} if "device" in parameters else {}
        targets = {kind: _parameter_for(kind, parameters, name) for kind in axes}
        for values in itertools.product(*axes.values()):
            test_name = name + "".join(f"_{_suffix(kind, value)}" for kind, value in zip(axes, values))
            kwargs = {**fixed, **{targets[kind]: value for kind, value in zip(axes, values)}}
            setattr(cls, test_name, _bind(fn, test_name, **kwargs))
        delattr(cls, name)
    return cls


def instantiate_tests(cls: type | None = None, **_unused: Any) -> Any:
    """Class decorator: replaces each method marked with ``Dtypes``/``Formats`` by one test per
    combination. Usable bare (``@instantiate_tests``) or called (``@instantiate_tests()``)."""
    return _instantiate if cls is None else _instantiate(cls)


__all__ = ["Dtypes", "Formats", "instantiate_tests"]
