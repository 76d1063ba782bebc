"""``torch_npu.testing.testcase``: the ``TestCase`` of upstream's operator tests and ``run_tests``.

An operator test computes the same op on the CPU and on the npu and compares the two with
``assertRtolEqual`` (relative and absolute tolerance, a few outliers allowed) or ``assertEqual``
(largest absolute difference at most ``prec``, default ``self.precision``). Importing this module
touches no device; ``setUpClass`` makes the test device current (``SET_NPU_DEVICE``, default 0).
"""

from __future__ import annotations

import os
import random
import sys
import unittest
from collections.abc import Mapping, Sequence
from numbers import Number
from typing import Any

import numpy as np
import torch

from torch_npu.testing.common_utils import is_iterable, set_npu_device

try:  # torch's own tests build on expecttest (assertExpectedInline); plain unittest without it
    from expecttest import TestCase as _BaseTestCase
except ImportError:  # pragma: no cover
    _BaseTestCase = unittest.TestCase


def run_tests() -> None:
    """Runs the tests of the calling module (``if __name__ == "__main__": run_tests()``) with
    unittest's command line: ``python test_add.py TestAdd.test_add_float32 -v``."""
    unittest.main(argv=sys.argv)


# Added to the denominator of a relative error, so that two zeros compare equal.
_TINY = {np.dtype(np.float16): 6e-8}
_TINY_DEFAULT = 1e-9
_COMPARED_DTYPES = (np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.int64, np.float16, np.float32,
                    np.float64)


def _is_sequence(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


class TestCase(_BaseTestCase):
    """Base class of an operator test: seeds every generator per test (``SEED``, default 666), makes
    the test device current, and compares results with a precision."""

    _precision = 1e-5
    maxDiff = None
    exact_dtype = False

    @property
    def precision(self) -> float:
        """The default ``prec`` of ``assertEqual``; a test may set it (``self.precision = 1e-3``)."""
        return self._precision

    @precision.setter
    def precision(self, prec: float) -> None:
        self._precision = prec

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.npu_device = set_npu_device()

    def setUp(self) -> None:
        super().setUp()
        seed = int(os.environ.get("SEED", "666"))
        torch.manual_seed(seed)
        random.seed(seed)
        np.random.seed(seed)

    # ---- assertRtolEqual ----

    def assertRtolEqual(self, x: Any, y: Any, prec: float = 1.e-4, prec16: float = 1.e-3,
                        auto_trans_dtype: bool = False, message: str | None = None) -> None:
        """``x`` and ``y`` (tensors of any device, numpy arrays, numbers, or sequences of them) agree:
        same shape and dtype, bools equal, NaNs at the same places, and no more than a fraction
        ``prec`` of the elements off by more than ``prec`` both absolutely and relatively (``prec16``
        for float16 and bfloat16). ``auto_trans_dtype`` converts ``x`` to ``y``'s dtype first."""
        if _is_sequence(x) and _is_sequence(y):
            self.assertEqual(len(x), len(y), message or "assertRtolEqual: sequences of different lengths")
            for x_item, y_item in zip(x, y):
                self.assertRtolEqual(x_item, y_item, prec, prec16, auto_trans_dtype, message)
            return
        if isinstance(x, torch.Tensor) and _is_sequence(y):
            y = torch.as_tensor(y, dtype=x.dtype)
        elif _is_sequence(x) and isinstance(y, torch.Tensor):
            x = torch.as_tensor(x, dtype=y.dtype)
        if isinstance(x, torch.Tensor) or isinstance(y, torch.Tensor):
            x, y = (v.detach().cpu() if isinstance(v, torch.Tensor) else v for v in (x, y))
            if auto_trans_dtype and isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor):
                x = x.to(y.dtype)
            if any(isinstance(v, torch.Tensor) and v.dtype == torch.bfloat16 for v in (x, y)):
                self._assert_bfloat16_close(x, y, prec16, message)
                return
            x, y = (v.numpy() if isinstance(v, torch.Tensor) else v for v in (x, y))
        x, y = np.asarray(x), np.asarray(y)
        if x.shape != y.shape:
            self.fail(message or f"assertRtolEqual: shapes differ, {x.shape} and {y.shape}")
        if x.dtype != y.dtype:
            self.fail(message or f"assertRtolEqual: dtypes differ, {x.dtype} and {y.dtype}")
        if x.dtype.type not in _COMPARED_DTYPES:
            self.fail(message or f"assertRtolEqual: dtype {x.dtype} is not one it compares")
        if x.dtype == np.bool_:
            if not np.array_equal(x, y):
                self.fail(message or f"assertRtolEqual: {int((x != y).sum())} of {x.size} bools differ")
            return
        tolerance = prec16 if x.dtype == np.float16 else prec
        self._assert_within(x, y, tolerance, _TINY.get(x.dtype, _TINY_DEFAULT), message)

    def _assert_bfloat16_close(self, x: Any, y: Any, prec16: float, message: str | None) -> None:
        if not (isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor) and x.dtype == y.dtype):
            self.fail(message or f"assertRtolEqual: dtypes differ, {getattr(x, 'dtype', type(x))} and "
                      f"{getattr(y, 'dtype', type(y))}")
        if x.shape != y.shape:
            self.fail(message or f"assertRtolEqual: shapes differ, {tuple(x.shape)} and {tuple(y.shape)}")
        if not torch.allclose(x.float(), y.float(), rtol=prec16, atol=prec16, equal_nan=True):
            self.fail(message or f"assertRtolEqual: bfloat16 values differ by more than {prec16}")

    def _assert_within(self, x: np.ndarray, y: np.ndarray, prec: float, tiny: float, message: str | None) -> None:
        x64, y64 = x.astype(np.float64), y.astype(np.float64)
        nan = np.isnan(x64)
        if not np.array_equal(nan, np.isnan(y64)):
            self.fail(message or "assertRtolEqual: NaNs at different places")
        same = (x64 == y64) | nan  # equal infinities too
        with np.errstate(invalid="ignore", over="ignore"):
            absolute = np.where(same, 0.0, np.abs(x64 - y64))
            relative = absolute / (np.maximum(np.abs(x64), np.abs(y64)) + tiny)
        allowed = x.size * prec  # outliers a comparison at this precision tolerates
        off_absolute = int((~(absolute <= prec)).sum())
        off_relative = int((~(relative <= prec)).sum())
        if off_absolute > allowed and off_relative > allowed:
            self.fail(message or (
                f"assertRtolEqual: {min(off_absolute, off_relative)} of {x.size} elements differ by more than "
                f"{prec} (largest absolute difference {np.nanmax(absolute):.6g}, relative "
                f"{np.nanmax(relative):.6g})"))

    # ---- assertEqual with a precision ----

    def assertEqual(self, x: Any, y: Any, prec: float | str | None = None, message: str = "",
                    allow_inf: bool = False, exact_dtype: bool | None = None) -> None:
        """``x`` equals ``y`` within ``prec`` (default ``self.precision``): numbers and tensors differ
        by at most ``prec`` (tensors: same size, NaNs at the same places, the largest difference; with
        ``allow_inf`` infinities must match); sequences and dicts item by item; anything else as
        unittest compares it. A string as third argument is the message."""
        if isinstance(prec, str) and not message:
            message, prec = prec, None
        if prec is None:
            prec = self.precision
        if exact_dtype is None:
            exact_dtype = self.exact_dtype
        self._assert_equal(x, y, prec, message, allow_inf, exact_dtype)

    def _assert_equal(self, x: Any, y: Any, prec: float, message: str, allow_inf: bool, exact_dtype: bool) -> None:
        if isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor):
            self._assert_tensors_equal(x, y, prec, message, allow_inf, exact_dtype)
        elif isinstance(x, np.bool_) or isinstance(y, np.bool_):
            super().assertEqual(bool(x), bool(y), message)
        elif isinstance(x, Number) or isinstance(y, Number):
            self._assert_numbers_equal(x, y, prec, message, allow_inf)
        elif isinstance(x, (str, bytes)) or isinstance(y, (str, bytes)) or (isinstance(x, set) and isinstance(y, set)):
            super().assertEqual(x, y, message)
        elif isinstance(x, Mapping) and isinstance(y, Mapping):
            super().assertEqual(set(x), set(y), message)
            for key in x:
                self._assert_equal(x[key], y[key], prec, message, allow_inf, exact_dtype)
        elif is_iterable(x) and is_iterable(y) and not isinstance(x, torch.Tensor) and not isinstance(y, torch.Tensor):
            x, y = list(x), list(y)
            super().assertEqual(len(x), len(y), message)
            for x_item, y_item in zip(x, y):
                self._assert_equal(x_item, y_item, prec, message, allow_inf, exact_dtype)
        else:
            super().assertEqual(x, y, message)

    def _assert_numbers_equal(self, x: Any, y: Any, prec: float, message: str, allow_inf: bool) -> None:
        x = x.item() if isinstance(x, (torch.Tensor, np.ndarray, np.generic)) else x
        y = y.item() if isinstance(y, (torch.Tensor, np.ndarray, np.generic)) else y
        if x == y:
            return
        if any(isinstance(v, float) and abs(v) == float("inf") for v in (x, y)):
            if not allow_inf:
                self.fail(message or f"expected finite values, got {x} and {y}")
            super().assertEqual(x, y, message)
            return
        self.assertLessEqual(abs(x - y), prec, message)

    def _assert_tensors_equal(self, x: torch.Tensor, y: torch.Tensor, prec: float, message: str, allow_inf: bool,
                              exact_dtype: bool) -> None:
        super().assertEqual(x.size(), y.size(), message)
        if exact_dtype:
            super().assertEqual(x.dtype, y.dtype, message)
        if x.numel() == 0:
            return
        # Compared on the CPU in a dtype that holds both, so the comparison itself runs no npu op.
        x, y = (t.detach().cpu() for t in (x, y))
        x, y = (t.to_dense() if t.is_sparse else t for t in (x, y))
        if (x.dtype == torch.bool) != (y.dtype == torch.bool):
            raise TypeError(f"assertEqual: compares a bool tensor only with a bool tensor, got {x.dtype} and {y.dtype}")
        common = torch.complex128 if x.is_complex() or y.is_complex() else torch.float64
        x, y = x.to(common), y.to(common)
        nan = torch.isnan(x)
        self.assertTrue(torch.equal(nan, torch.isnan(y)), message or "assertEqual: NaNs at different places")
        difference = (x - y).abs()
        difference[nan] = 0
        if allow_inf:
            inf = torch.isinf(x)
            self.assertTrue(torch.equal(inf, torch.isinf(y)) and torch.equal(x[inf], y[inf]),
                            message or "assertEqual: infinities at different places")
            difference[inf] = 0
        self.assertLessEqual(difference.real.max().item(), prec, message)

    def assertNotEqual(self, x: Any, y: Any, prec: float | str | None = None, message: str = "") -> None:
        """``x`` and ``y`` differ by at least ``prec`` somewhere (tensors of different sizes differ)."""
        if isinstance(prec, str) and not message:
            message, prec = prec, None
        if prec is None:
            prec = self.precision
        if isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor):
            if x.size() != y.size():
                return
            self.assertGreater(x.numel(), 0, message)
            x, y = (t.detach().cpu().to(torch.float64) for t in (x, y))
            if not torch.equal(torch.isnan(x), torch.isnan(y)):
                return
            difference = (x - y).abs().nan_to_num(0.0)
            self.assertGreaterEqual(difference.max().item(), prec, message)
        elif isinstance(x, Number) and isinstance(y, Number) and not isinstance(x, bool):
            self.assertGreaterEqual(abs(x - y), prec, message)
        else:
            super().assertNotEqual(x, y, message)

    def assertAlmostEqual(self, x: Any, y: Any, places: int | None = None, msg: str | None = None,
                          delta: float | None = None, allow_inf: bool = False) -> None:
        prec = 10 ** (-places) if places else delta
        self.assertEqual(x, y, prec, msg or "", allow_inf)


__all__ = ["TestCase", "run_tests"]
