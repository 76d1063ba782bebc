"""Test support: compare generated Meta functions with PyTorch's and with real kernels.

The test-only ``test_only/MetaCheckFunctions_<k>.cpp`` registers, for every aten op with a
complete ``gen_opapi`` block, ``npu_meta_check::<op>`` (the op's size/dtype facts on meta
tensors), and ``op_plugin/MetaFunctions_<k>.cpp`` for every custom op a ``Meta`` kernel of
``npu::<op>``. This module samples inputs from an op's
schema (several shapes with broadcasting, dtypes with promotion, Python scalars) and checks
that the facts agree with

* PyTorch's own Meta kernel of ``aten::<op>`` (for the out= variant: the out shape, and
  the dtype of the functional overload with the same arguments), and
* the op's real kernel on a device (``npu``): shape and dtype of what it returns.

A sample that the reference rejects (PyTorch raises, e.g. an unsupported dtype) is skipped,
but every op needs at least one compared sample, so a check cannot pass vacuously.

Unlike the generator, this module imports torch, so it lives with the tests and not in
the wheel: opplugin-codegen's tests import it from this directory (their conftest puts it on
sys.path), and the cross-package tests of the repository's tests/ through their conftest,
which loads this file by path (one copy for both, next to the generator whose output it checks).
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import torch

from opplugin_codegen.gen_meta import META_CHECK_NAMESPACE

#: Shapes per number of tensor arguments: equal, broadcasting, 0-dim, empty.
_SHAPES: dict[int, list[tuple[tuple[int, ...], ...]]] = {
    1: [((2, 3),), ((),), ((0, 4),), ((5, 1, 3),)],
    2: [((2, 3), (2, 3)), ((2, 3), (3,)), ((4, 1, 3), (2, 1)), ((), (2, 3)), ((2, 3), ())],
    3: [((2, 3), (2, 3), (2, 3)), ((2, 3), (3,), (1, 3)), ((4, 1, 3), (2, 1), (3,))],
}
#: Dtype combinations per number of tensor arguments (promotion across categories).
_DTYPES: dict[int, list[tuple[torch.dtype, ...]]] = {
    1: [(torch.float32,), (torch.float16,), (torch.int32,), (torch.int64,), (torch.bool,)],
    2: [
        (torch.float32, torch.float32),
        (torch.float32, torch.int64),
        (torch.int64, torch.float32),
        (torch.int32, torch.int64),
        (torch.float16, torch.float32),
        (torch.bool, torch.int32),
        (torch.int64, torch.int64),
    ],
    3: [(torch.float32,) * 3, (torch.bool, torch.float32, torch.int64)],
}


class NoSample(Exception):
    """An argument type this sampler has no values for (extend ``_value``)."""


@dataclass
class Sample:
    args: list[Any]
    kwargs: dict[str, Any]

    def describe(self) -> str:
        def one(v: Any) -> str:
            if isinstance(v, torch.Tensor):
                return f"{str(v.dtype).replace('torch.', '')}{list(v.shape)}"
            if isinstance(v, (list, tuple)):
                return "[" + ", ".join(one(x) for x in v) + "]"
            return repr(v)

        parts = [one(a) for a in self.args] + [f"{k}={one(v)}" for k, v in self.kwargs.items()]
        return "(" + ", ".join(parts) + ")"

    def to(self, device: str) -> Sample:
        def move(v: Any) -> Any:
            if isinstance(v, torch.Tensor):
                return v.to(device)
            if isinstance(v, list):
                return [move(x) for x in v]
            return v

        return Sample([move(a) for a in self.args], {k: move(v) for k, v in self.kwargs.items()})


@dataclass
class OpReport:
    name: str
    compared: int = 0  # samples compared with PyTorch's Meta kernel
    compared_on_device: int = 0
    skipped: list[str] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)


def _is_out(arg: Any) -> bool:
    if getattr(arg, "is_out", False):
        return True
    info = arg.alias_info
    return bool(arg.kwarg_only and info is not None and info.is_write)


def _kind(t: Any) -> str:
    return str(t.kind())


def _tensor(shape: tuple[int, ...], dtype: torch.dtype, seed: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=g).to(torch.bool)
    if dtype.is_floating_point:
        return (torch.rand(shape, generator=g) * 4 - 2).to(dtype)
    return torch.randint(1, 5, shape, generator=g).to(dtype)


def _value(arg: Any, scalar_choice: int) -> Any:
    """A value for a non-tensor argument without a default."""
    t = arg.type
    kind = _kind(t)
    name = arg.name
    if kind == "NumberType":  # Scalar: an int, then a float (promotion with a scalar)
        return (2, 2.5)[scalar_choice % 2]
    if kind in ("IntType", "SymIntType"):
        return -1 if "dim" in name else 1
    if kind == "FloatType":
        return 0.5
    if kind == "BoolType":
        return False
    if kind == "OptionalType":
        return None
    if kind == "ListType" and _kind(t.getElementType()) in ("IntType", "SymIntType"):
        return [0] if "dim" in name else [2, 3]
    if kind == "ListType" and _kind(t.getElementType()) == "BoolType":  # bool[3] output_mask
        return [True, True, True]
    raise NoSample(f"argument '{arg.name}' of type {t}")


def samples(schema: Any) -> Iterator[Sample]:
    """Inputs for ``schema`` (a ``torch._C.FunctionSchema``) on the CPU."""
    inputs = [a for a in schema.arguments if not _is_out(a)]
    tensors = [a for a in inputs if _kind(a.type) == "TensorType"]
    lists = [a for a in inputs if _kind(a.type) == "ListType" and str(a.type) == "Tensor[]"]
    n = len(tensors) + len(lists)
    if n == 0:
        raise NoSample("no tensor argument")
    n_key = min(n, 3)
    shapes = _SHAPES[n_key]
    dtypes = _DTYPES[n_key]
    for i, (shape_set, dtype_set) in enumerate(itertools.product(shapes, dtypes)):
        shape_set = tuple(itertools.islice(itertools.cycle(shape_set), n))
        dtype_set = tuple(itertools.islice(itertools.cycle(dtype_set), n))
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        k = 0
        for a in inputs:
            if _kind(a.type) == "TensorType" or a in lists:
                value: Any = _tensor(shape_set[k], dtype_set[k], seed=i * 7 + k)
                if a in lists:
                    value = [value]
                k += 1
            elif a.has_default_value():
                continue
            else:
                value = _value(a, i)
            if a.kwarg_only:
                kwargs[a.name] = value
            else:
                args.append(value)
        yield Sample(args, kwargs)


def _results(value: Any) -> list[torch.Tensor]:
    return list(value) if isinstance(value, (tuple, list)) else [value]


def _describe(ts: list[torch.Tensor]) -> str:
    return ", ".join(f"{str(t.dtype).replace('torch.', '')}{list(t.shape)}" for t in ts)


def _functional_sibling(packet: Any, schema: Any) -> Any | None:
    """The overload of ``packet`` whose non-out arguments equal ``schema``'s, without outs."""
    wanted = [(a.name, str(a.type)) for a in schema.arguments if not _is_out(a)]
    for name in packet.overloads():
        overload = getattr(packet, name)
        s = overload._schema
        if any(_is_out(a) for a in s.arguments):
            continue
        if [(a.name, str(a.type)) for a in s.arguments] == wanted:
            return overload
    return None


def _call_aten(
    aten: Any, sample: Sample, ours: list[torch.Tensor], device: str
) -> list[torch.Tensor]:
    """Call ``aten`` (functional or out=) on ``sample`` moved to ``device``."""
    moved = sample.to(device)
    outs = [a for a in aten._schema.arguments if _is_out(a)]
    if not outs:
        return _results(aten(*moved.args, **moved.kwargs))
    kwargs = dict(moved.kwargs)
    for a, r in zip(outs, ours):
        kwargs[a.name] = torch.empty(0, dtype=r.dtype, device=device)
    aten(*moved.args, **kwargs)
    return [kwargs[a.name] for a in outs]


def check_aten_op(
    name: str, overload: str, device: str | None = "npu", namespace: str = META_CHECK_NAMESPACE
) -> OpReport:
    """Compare ``<namespace>::<name>.<overload>`` with ``aten::`` Meta and ``device``."""
    full = f"{name}.{overload}" if overload != "default" else name
    report = OpReport(full)
    ours_op = getattr(getattr(getattr(torch.ops, namespace), name), overload)
    packet = getattr(torch.ops.aten, name)
    aten = getattr(packet, overload)
    is_out = any(_is_out(a) for a in aten._schema.arguments)
    sibling = _functional_sibling(packet, aten._schema) if is_out else None
    try:
        sample_list = list(samples(ours_op._schema))
    except NoSample as e:
        report.mismatches.append(f"{full}: no sample inputs: {e}")
        return report
    for sample in sample_list:
        where = f"{full}{sample.describe()}"
        meta = sample.to("meta")
        try:
            ours = _results(ours_op(*meta.args, **meta.kwargs))
        except RuntimeError as e:
            ours_error: str | None = str(e).splitlines()[0]
            ours = []
        else:
            ours_error = None
        try:
            ref = (
                _call_aten(aten, sample, ours, "meta")
                if not ours_error
                else _results((sibling or aten)(*meta.args, **meta.kwargs))
            )
        # (PyTorch's Python decompositions reject with AssertionError)
        except (RuntimeError, NotImplementedError, TypeError, AssertionError) as e:
            report.skipped.append(
                f"{where}: PyTorch's Meta kernel rejects it ({str(e).splitlines()[0]})"
            )
            continue
        if ours_error is not None:
            report.mismatches.append(
                f"{where}: the generated meta function raises ({ours_error}), "
                f"PyTorch gives {_describe(ref)}"
            )
            continue
        report.compared += 1
        ref_dtypes = [r.dtype for r in ref]
        if sibling is not None:  # out=: the dtype the functional overload computes
            with contextlib.suppress(RuntimeError, NotImplementedError):
                ref_dtypes = [r.dtype for r in _results(sibling(*meta.args, **meta.kwargs))]
        _compare(report, where, "PyTorch's Meta kernel", ours, [r.shape for r in ref], ref_dtypes)
        if device is None:
            continue
        try:
            real = _call_aten(aten, sample, ours, device)
        except (RuntimeError, NotImplementedError) as e:
            report.skipped.append(
                f"{where}: the {device} kernel rejects it ({str(e).splitlines()[0]})"
            )
            continue
        report.compared_on_device += 1
        real_dtypes = [r.dtype for r in real] if not is_out else [r.dtype for r in ours]
        _compare(report, where, f"the {device} kernel", ours, [r.shape for r in real], real_dtypes)
    return report


def check_custom_op(
    name: str, overload: str, run_real: Callable[[Sample], Any], namespace: str = "npu"
) -> OpReport:
    """Compare the Meta kernel of ``<namespace>::<name>.<overload>`` with ``run_real``
    (the op's real kernel on some device, called with the CPU sample)."""
    full = f"{name}.{overload}" if overload != "default" else name
    report = OpReport(full)
    op = getattr(getattr(getattr(torch.ops, namespace), name), overload)
    for sample in samples(op._schema):
        where = f"{full}{sample.describe()}"
        try:
            real = _results(run_real(sample))
        except (RuntimeError, NotImplementedError) as e:
            report.skipped.append(f"{where}: the real kernel rejects it ({str(e).splitlines()[0]})")
            continue
        meta = sample.to("meta")
        ours = _results(op(*meta.args, **meta.kwargs))
        report.compared += 1
        _compare(
            report, where, "the real kernel", ours, [r.shape for r in real], [r.dtype for r in real]
        )
    return report


def _compare(
    report: OpReport,
    where: str,
    what: str,
    ours: list[torch.Tensor],
    shapes: list[torch.Size],
    dtypes: list[torch.dtype],
) -> None:
    got = [(tuple(t.shape), t.dtype) for t in ours]
    want = [(tuple(s), d) for s, d in zip(shapes, dtypes)]

    def fmt(pairs: list[tuple[tuple[int, ...], torch.dtype]]) -> str:
        return ", ".join(f"{str(d).replace('torch.', '')}{list(s)}" for s, d in pairs)

    if got != want:
        report.mismatches.append(
            f"{where}: the YAML's size/dtype give {fmt(got)}, {what} gives {fmt(want)}"
        )


def check_ops(namespace: str = META_CHECK_NAMESPACE) -> list[tuple[str, str]]:
    """(name, overload) of every operator registered in ``namespace``."""
    prefix = f"{namespace}::"
    out = []
    for schema in torch._C._jit_get_all_schemas():
        if schema.name.startswith(prefix):
            out.append((schema.name[len(prefix) :], schema.overload_name or "default"))
    return sorted(set(out))
