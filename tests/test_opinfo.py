"""PyTorch's OpInfo samples on `npu` against the same op on CPU.

PyTorch's device-type machinery (instantiate_device_type_tests with PrivateUse1TestBase) makes
the npu test class; `@ops` runs the OpInfos whose aten operators the label declares and the
dispatcher has npu kernels for (npu_opinfo.live_ops: registration truth). Every sample runs on
both devices; results must agree in device, dtype, shape and values (per-dtype tolerances in
npu_opinfo.TOLERANCES), and a CPU error must be the same error type on npu. Skips are data in
tests/opinfo_skips.yaml; the summary at the end of the pytest report says how many samples ran
and passed (tests/conftest.py).

Checks: forward (the function variant), inplace, out (op(..., out=...) into outputs shaped like
the CPU result) and backward (gradients of float samples for OpInfos that support autograd).
The *_layouts tests run forward and backward again with every tensor (the incoming gradients
too) in other memory layouts (npu_opinfo.LAYOUTS: OpInfo's noncontiguous samples, dimensions
stored in reverse order, a storage offset), so every aclnn entry point the declared ops reach
sees strided operands.
The special-values test runs the forward samples again with NaN, ±inf and ±0 (elementwise ops:
±3e38 too) among the floating operands' elements, and with each Python float argument NaN, inf,
-inf and -0.0 in turn: results must agree with CPU's, NaN for NaN, and zeros in CPU's sign (for
max/min-like ops IEEE 754 leaves the sign of two equal zeros open). Entries with test `special`
in opinfo_skips.yaml name the cases where CPU's answer comes from its implementation (its
vector and scalar paths differ), each with the reason.
The default run takes up to MAX_SAMPLES samples per OpInfo and dtype in float32, int64 and bool;
the `slow` variants take every sample in every dtype the OpInfo allows
(`nox -s test -- v2.13 --slow -k opinfo`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any, NamedTuple

# The backend is imported (tests/conftest.py and here) before torch.testing._internal, or
# common_device_type computes its test bases without PrivateUse1TestBase and makes no npu tests.
import npu_opinfo  # loaded by tests/conftest.py
import opplugin_runtime  # noqa: F401
import pytest
import torch
from torch.testing._internal.common_device_type import OpDTypes, instantiate_device_type_tests, ops
from torch.testing._internal.common_methods_invocations import op_db
from torch.testing._internal.common_utils import TestCase
from torch.testing._internal.opinfo.core import BinaryUfuncInfo, UnaryUfuncInfo
from torch.utils._pytree import tree_map

LIVE = npu_opinfo.live_ops()
SELECTED, UNCOVERED = npu_opinfo.select(op_db, LIVE)
INPLACE = [o for o in SELECTED if o.inplace_variant is not None]
BACKWARD = [o for o in SELECTED if o.supports_autograd]
WITH_OUT = [o for o in SELECTED if o.supports_out]
SKIPS = npu_opinfo.load_skips()
QUICK_DTYPES = (torch.float32, torch.int64, torch.bool)
# complex64 runs in one quick forward check, for the OpInfos whose npu kernels take complex operands
# (the complex elementwise kernel, the FFT, complex/polar/conj_physical); other OpInfos keep real dtypes.
COMPLEX_DTYPES = (torch.complex64,)
COMPLEX_READY = frozenset({
    "add", "sub", "mul", "div", "neg", "abs", "exp", "log", "sqrt", "reciprocal", "eq", "ne",
    "complex", "polar", "conj_physical", "view_as_real", "real", "imag", "conj", "resolve_conj", "resolve_neg",
    "sgn", "angle", "isnan",
} | {f"fft.{kind}{suffix}" for kind in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft") for suffix in ("", "2", "n")})
COMPLEX = [o for o in SELECTED if o.name in COMPLEX_READY]
# Every real dtype (complex64 only in the complex check above).
ALL_DTYPES = (torch.float32, torch.float16, torch.bfloat16, torch.float64, torch.int8, torch.uint8, torch.int16,
              torch.int32, torch.int64, torch.bool)
MAX_SAMPLES = 8
MAX_BACKWARD_SAMPLES = 4
MAX_LAYOUT_SAMPLES = 4
npu_opinfo.NOTES.append(
    f"{len(SELECTED)} OpInfos cover the {len(LIVE)} declared npu operators of {npu_opinfo.label()}; "
    f"declared operators without an OpInfo: {', '.join(sorted(UNCOVERED)) or 'none'}"
)


class _Pair(NamedTuple):
    """The same call made with device-specific arguments (the out= tensors) on each device."""

    cpu: Callable[..., Any]
    npu: Callable[..., Any]


class TestNpuOpInfo(TestCase):
    """One test per (OpInfo, dtype, check); the comparison runs sample by sample."""

    # -- checks ----------------------------------------------------------------------------

    @ops(SELECTED, dtypes=OpDTypes.supported, allowed_dtypes=QUICK_DTYPES)
    def test_forward(self, device: str, dtype: torch.dtype, op) -> None:
        self._check(device, dtype, op, "forward", MAX_SAMPLES)

    @ops(COMPLEX, dtypes=OpDTypes.supported, allowed_dtypes=COMPLEX_DTYPES)
    def test_forward_complex(self, device: str, dtype: torch.dtype, op) -> None:
        self._check(device, dtype, op, "forward", MAX_SAMPLES)

    @ops(INPLACE, dtypes=OpDTypes.supported, allowed_dtypes=QUICK_DTYPES)
    def test_inplace(self, device: str, dtype: torch.dtype, op) -> None:
        self._check(device, dtype, op, "inplace", MAX_SAMPLES)

    @ops(WITH_OUT, dtypes=OpDTypes.supported, allowed_dtypes=QUICK_DTYPES)
    def test_out(self, device: str, dtype: torch.dtype, op) -> None:
        self._check(device, dtype, op, "out", MAX_SAMPLES)

    @ops(BACKWARD, dtypes=OpDTypes.supported_backward, allowed_dtypes=(torch.float32,))
    def test_backward(self, device: str, dtype: torch.dtype, op) -> None:
        self._check(device, dtype, op, "backward", MAX_BACKWARD_SAMPLES)

    @ops(SELECTED, dtypes=OpDTypes.supported, allowed_dtypes=(torch.float32, torch.int64))
    def test_forward_layouts(self, device: str, dtype: torch.dtype, op) -> None:
        for layout in npu_opinfo.LAYOUTS:
            self._check(device, dtype, op, "forward", MAX_LAYOUT_SAMPLES, layout=layout)

    @ops(BACKWARD, dtypes=OpDTypes.supported_backward, allowed_dtypes=(torch.float32,))
    def test_backward_layouts(self, device: str, dtype: torch.dtype, op) -> None:
        for layout in npu_opinfo.LAYOUTS:
            self._check(device, dtype, op, "backward", MAX_LAYOUT_SAMPLES, layout=layout)

    @ops(SELECTED, dtypes=OpDTypes.supported, allowed_dtypes=(torch.float32,))
    def test_forward_special_values(self, device: str, dtype: torch.dtype, op) -> None:
        self._check(device, dtype, op, "special", MAX_SAMPLES)

    @pytest.mark.slow
    @ops(SELECTED, dtypes=OpDTypes.supported, allowed_dtypes=ALL_DTYPES)
    def test_forward_exhaustive(self, device: str, dtype: torch.dtype, op) -> None:
        self._check(device, dtype, op, "forward", None)

    @pytest.mark.slow
    @ops(BACKWARD, dtypes=OpDTypes.supported_backward, allowed_dtypes=ALL_DTYPES)
    def test_backward_exhaustive(self, device: str, dtype: torch.dtype, op) -> None:
        self._check(device, dtype, op, "backward", None)

    # -- machinery -------------------------------------------------------------------------

    def _check(self, device: str, dtype: torch.dtype, op, test: str, limit: int | None,
               layout: str | None = None) -> None:
        # No setUp/tearDown: on torch 2.1 the instantiated class does not derive from this one, so
        # zero-argument super() fails there. The ledger counts fallbacks; the summary reports them.
        with npu_opinfo.modes(fallback="silent"):
            self._check_samples(device, dtype, op, test, limit, layout)

    def _check_samples(self, device: str, dtype: torch.dtype, op, test: str, limit: int | None,
                       layout: str | None = None) -> None:
        entry = npu_opinfo.find_skip(SKIPS, op, dtype, test)
        if test == "special":  # entries naming the special-values run first, then the forward entries
            entry = npu_opinfo.find_named_skip(SKIPS, op, dtype, "special")
            if entry is None:
                entry = npu_opinfo.find_skip(SKIPS, op, dtype, "forward")
                if entry is not None and entry.kind == "xfail":
                    self.skipTest(f"opinfo_skips.yaml (an expected failure of the forward test): {entry.reason}")
        if entry is not None and entry.kind == "skip":
            self.skipTest(f"opinfo_skips.yaml: {entry.reason}")
        if entry is not None and entry.kind == "xfail" and layout is not None:
            self.skipTest(f"opinfo_skips.yaml (an expected failure in the dense layout): {entry.reason}")
        if layout is not None:  # entries for the strided runs only (test: layouts)
            strided = npu_opinfo.find_named_skip(SKIPS, op, dtype, "layouts")
            if strided is not None:
                self.skipTest(f"opinfo_skips.yaml (strided operands): {strided.reason}")
        values = entry is None or entry.kind != "meta_only"
        grad = test == "backward"
        samples = itertools.islice(op.sample_inputs("cpu", dtype, requires_grad=grad), limit)
        kind = test if limit is not None else f"{test} (exhaustive)"
        if test == "special":
            samples = _special_samples(samples, huge=isinstance(op, (UnaryUfuncInfo, BinaryUfuncInfo)))
            kind = "forward (NaN, ±inf and ±0 among operands and scalars)"
        if layout is not None:
            samples = (npu_opinfo.relayout_sample(s, layout) for s in samples)
            kind = f"{test} ({layout} operands)"
        self._grad_layout = layout
        counts = npu_opinfo.count(kind)
        run = {"forward": self._forward, "special": self._special, "inplace": self._inplace, "out": self._out,
               "backward": self._backward}[test]
        ran_before = counts.ran
        failures = npu_opinfo.run_samples(samples, lambda s, i: run(device, op, s, i, values, counts), counts)
        if not values:
            counts.without_values += counts.ran - ran_before
        if entry is not None and entry.kind == "xfail":
            if not failures:
                self.fail(f"stale entry in opinfo_skips.yaml: {npu_opinfo.opinfo_id(op)} {test} "
                          f"{npu_opinfo.dtype_name(dtype)} passes now; remove it ({entry.reason})")
            counts.expected_failures += len(failures)
            pytest.xfail(f"opinfo_skips.yaml: {entry.reason}: {failures[0]}")
        if failures:
            self.fail(f"{npu_opinfo.opinfo_id(op)} {test} {dtype}: {len(failures)} sample(s) differ from CPU:\n"
                      + "\n".join(failures[:10]))

    def _run_both(self, fn, sample, device: str, counts) -> tuple:
        """fn on the CPU sample and on its npu copy: (npu parts, npu result, cpu parts, cpu result)."""
        npu_parts = npu_opinfo.sample_to(sample, device)  # copied before an in-place op mutates the CPU input
        cpu_parts = npu_opinfo.sample_parts(sample)
        cpu_fn, npu_fn = (fn.cpu, fn.npu) if isinstance(fn, _Pair) else (fn, fn)
        try:
            expected = cpu_fn(cpu_parts[0], *cpu_parts[1], **cpu_parts[2])
        except Exception as cpu_error:  # noqa: BLE001  CPU rejects the sample: npu must reject it the same way
            with self.assertRaises(type(cpu_error), msg=f"CPU raised {cpu_error!r}; npu must raise too"):
                npu_fn(npu_parts[0], *npu_parts[1], **npu_parts[2])
            return npu_parts, None, cpu_parts, None
        torch.npu.reset_path_ledger()
        actual = npu_fn(npu_parts[0], *npu_parts[1], **npu_parts[2])
        fallbacks = npu_opinfo.fallback_ops(torch.npu.path_ledger())
        if fallbacks:
            counts.used_fallback += 1
            counts.fallback_ops.update(fallbacks)
        return npu_parts, actual, cpu_parts, expected

    def _forward(self, device: str, op, sample, index: int, values: bool, counts) -> None:
        _, actual, cpu_parts, expected = self._run_both(op, sample, device, counts)
        expected = npu_opinfo.reference_result(op, cpu_parts, expected)
        npu_opinfo.assert_same(actual, expected, values=values, where=npu_opinfo.opinfo_id(op))

    def _special(self, device: str, op, sample, index: int, values: bool, counts) -> None:
        _, actual, cpu_parts, expected = self._run_both(op, sample, device, counts)
        expected = npu_opinfo.reference_result(op, cpu_parts, expected)
        where = npu_opinfo.opinfo_id(op) + " (special values)"
        npu_opinfo.assert_same(actual, expected, values=values, where=where)
        if values and op.name.split(".")[0] not in npu_opinfo.ZERO_SIGN_UNSPECIFIED:
            npu_opinfo.assert_signed_zeros(actual, expected, where=where)

    def _inplace(self, device: str, op, sample, index: int, values: bool, counts) -> None:
        npu_parts, actual, cpu_parts, expected = self._run_both(op.inplace_variant, sample, device, counts)
        where = npu_opinfo.opinfo_id(op) + " (in-place)"
        npu_opinfo.assert_same(actual, expected, values=values, where=where)
        if expected is not None:
            self.assertIs(actual, npu_parts[0], f"{where}: does not return its input")
            npu_opinfo.assert_same(npu_parts[0], cpu_parts[0], values=values, where=where + " input")

    def _out(self, device: str, op, sample, index: int, values: bool, counts) -> None:
        """op(..., out=...) into outputs of the CPU result's dtypes and shapes: returns and fills them."""
        # A clone: ops that update state in place (running stats) must not change the sample itself.
        cpu_parts = tree_map(lambda x: x.clone() if isinstance(x, torch.Tensor) else x, npu_opinfo.sample_parts(sample))
        try:
            reference = op(cpu_parts[0], *cpu_parts[1], **cpu_parts[2])
        except Exception:  # noqa: BLE001  the forward check compares errors; no out= call to make
            return
        if isinstance(reference, torch.Tensor):
            outs: tuple[torch.Tensor, ...] = (reference,)
        elif isinstance(reference, (tuple, list)) and reference and all(
                isinstance(t, torch.Tensor) for t in reference):
            outs = tuple(reference)
        else:
            return
        cpu_out = tuple(torch.empty_like(t) for t in outs)
        npu_out = tuple(torch.empty_like(t, device=device) for t in outs)

        def with_out(out: tuple[torch.Tensor, ...]):
            return lambda x, *args, **kwargs: op(x, *args, **kwargs, out=out[0] if len(out) == 1 else out)

        _, actual, _, expected = self._run_both(_Pair(with_out(cpu_out), with_out(npu_out)), sample, device, counts)
        where = npu_opinfo.opinfo_id(op) + " (out=)"
        npu_opinfo.assert_same(actual, expected, values=values, where=where)
        if expected is None:
            return  # both rejected this out= form (e.g. a tuple for an op whose outs have other names)
        cpu_returned = (expected,) if isinstance(expected, torch.Tensor) else tuple(expected)
        if not all(r is o for r, o in zip(cpu_returned, cpu_out)):
            return  # CPU does not fill `out` in this form either
        npu_opinfo.assert_same(npu_out, cpu_out, values=values, where=where + " out tensors")
        returned = (actual,) if isinstance(actual, torch.Tensor) else tuple(actual)
        self.assertTrue(all(r is o for r, o in zip(returned, npu_out)), f"{where}: does not return `out`")

    def _backward(self, device: str, op, sample, index: int, values: bool, counts) -> None:
        npu_parts, actual, cpu_parts, expected = self._run_both(op, sample, device, counts)
        if expected is None:
            return
        where = npu_opinfo.opinfo_id(op) + " (backward)"
        cpu_outs = npu_opinfo.differentiable_outputs(sample.output_process_fn_grad(expected))
        npu_outs = npu_opinfo.differentiable_outputs(sample.output_process_fn_grad(actual))
        self.assertEqual(len(npu_outs), len(cpu_outs), f"{where}: differentiable outputs")
        cpu_inputs = npu_opinfo.grad_inputs(cpu_parts)
        npu_inputs = npu_opinfo.grad_inputs(npu_parts)
        if not cpu_outs or not cpu_inputs:
            return
        gen = torch.Generator().manual_seed(index)
        grads = [torch.randn(o.shape, generator=gen, dtype=o.dtype) for o in cpu_outs]
        if getattr(self, "_grad_layout", None) is not None:  # the incoming gradients too
            grads = [npu_opinfo.relayout(g, self._grad_layout) for g in grads]
        cpu_grads = torch.autograd.grad(cpu_outs, cpu_inputs, grads, allow_unused=True)
        torch.npu.reset_path_ledger()
        npu_grads = torch.autograd.grad(npu_outs, npu_inputs, [npu_opinfo.to_npu_same_layout(g, device) for g in grads],
                                        allow_unused=True)
        fallbacks = npu_opinfo.fallback_ops(torch.npu.path_ledger())
        if fallbacks:
            counts.fallback_ops.update(fallbacks)
        for i, (n, c) in enumerate(zip(npu_grads, cpu_grads)):
            self.assertEqual(n is None, c is None, f"{where}: gradient {i} defined on one device only")
            if c is not None:
                npu_opinfo.assert_same(n, c, values=values, where=f"{where} grad {i}")


def _special_samples(samples, huge: bool):
    """Each sample with NaN, ±inf and ±0 (elementwise ops: ±3e38 too) among its floating tensors'
    elements, then (if it has Python float arguments) once with all of them NaN, inf, -inf and
    -0.0 in turn."""
    for i, sample in enumerate(samples):
        yield npu_opinfo.special_sample(sample, seed=i, huge=huge)
        for value in (float("nan"), float("inf"), float("-inf"), -0.0):
            changed = npu_opinfo.special_scalar_sample(sample, value)
            if changed is not None:
                yield changed


npu_opinfo.accept_privateuse1_device_type(op_db)
instantiate_device_type_tests(TestNpuOpInfo, globals(), only_for=("privateuse1",))


def test_npu_tests_were_generated() -> None:
    """The PrivateUse1 test class exists and has a test per selected OpInfo (none silently missing)."""
    classes = [v for k, v in globals().items() if k.startswith("TestNpuOpInfo") and isinstance(v, type)]
    assert classes, "instantiate_device_type_tests made no npu test class: was the backend imported first?"
    names = {name for cls in classes for name in dir(cls) if name.startswith("test_forward_")}
    for op in SELECTED:
        stem = "test_forward_" + op.formatted_name if hasattr(op, "formatted_name") else None
        if stem is not None and set(op.dtypes) & set(QUICK_DTYPES):  # complex-only variants make no quick test
            assert any(n.startswith(stem + "_") for n in names), f"no npu test for {npu_opinfo.opinfo_id(op)}"
    assert SELECTED, f"no OpInfo covers any declared op of {npu_opinfo.label()}: {sorted(LIVE)}"


def test_skip_entries_are_known_and_live() -> None:
    """Every entry of opinfo_skips.yaml names an OpInfo of op_db that runs for this label."""
    problems = npu_opinfo.check_skips(SKIPS, op_db, SELECTED)
    assert not problems, "tests/opinfo_skips.yaml:\n" + "\n".join(problems)


def test_skip_validation_rejects_unknown_and_stale_entries() -> None:
    """The validator itself: an OpInfo missing from op_db and one this label does not run are reported."""
    not_running = next(o for o in op_db if o not in SELECTED)
    entries = [
        npu_opinfo.SkipEntry("no_such_op", "", "*", "*", "xfail", "r"),
        npu_opinfo.SkipEntry(not_running.name, not_running.variant_test_name, "*", "*", "xfail", "r"),
        npu_opinfo.SkipEntry(SELECTED[0].name, SELECTED[0].variant_test_name, "float32", "sideways", "xfail", "r"),
        npu_opinfo.SkipEntry(SELECTED[0].name, SELECTED[0].variant_test_name, "float33", "*", "xfail", "r"),
    ]
    problems = npu_opinfo.check_skips(entries, op_db, SELECTED)
    assert len(problems) == 4, problems
    assert problems[0].startswith("unknown OpInfo no_such_op") and problems[1].startswith("stale entry")
    # an entry limited to other labels is not stale here
    other = npu_opinfo.SkipEntry(not_running.name, not_running.variant_test_name, "*", "*", "xfail", "r", ("v0.0",))
    assert npu_opinfo.check_skips([other], op_db, SELECTED) == []


@pytest.mark.parametrize("layout", ["transposed", "offset", "expanded"])
def test_samples_move_to_npu_with_their_layout(layout: str) -> None:
    base = torch.arange(24.0).reshape(4, 6)
    t = {"transposed": base.t(), "offset": base[1:, 2:], "expanded": base[0].expand(3, 6)}[layout]
    moved = npu_opinfo.to_npu_same_layout(t, "npu")
    assert moved.device.type == "npu"
    assert (moved.shape, moved.stride(), moved.storage_offset()) == (t.shape, t.stride(), t.storage_offset())
    assert torch.equal(moved.cpu(), t)
