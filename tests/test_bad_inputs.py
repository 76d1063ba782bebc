"""A corpus of bad and awkward inputs over every declared op that has an OpInfo, run on npu
and on CPU.

Each case mutates one OpInfo sample: an operand on the other npu device, an out= tensor of the
wrong dtype or overlapping an input, a non-contiguous, empty or 0-dim input, an integer input,
an output too large for the device, an index out of range; the issue-named cases (device
mismatches of sub/div/maximum/addcmul/lerp/out=, _foreach_add_ with mismatched shapes) are
written out. For each case:

- the outcome class is CPU's: both succeed (with the same result) or both raise (the npu's
  device-only cases, another device or a device too small, must raise);
- an npu error names the operator (every registered wrapper puts "<op>: " in front of a message
  that does not begin with it) and, for the device and out= cases, the argument;
  an error raised by torch above the backend has CPU's text and is counted, not judged;
- the device is usable after the case (a small op computes the right value; a pending fault
  would surface at its synchronisation).

The summary at the end of the pytest report gives the number of cases per kind.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import npu_opinfo  # loaded by tests/conftest.py
import opplugin_runtime  # noqa: F401
import pytest
import torch
import torch.utils._python_dispatch
from torch.testing._internal.common_methods_invocations import op_db
from torch.testing._internal.opinfo.core import BinaryUfuncInfo, UnaryUfuncInfo
from torch.utils._pytree import tree_flatten, tree_map

LIVE = npu_opinfo.live_ops()
SELECTED, _ = npu_opinfo.select(op_db, LIVE)
SKIPS = npu_opinfo.load_skips()
KINDS = Counter()
# More than the simulated device holds (16 GiB by default), as an expanded view: no memory on CPU.
HUGE_ELEMENTS = 2**33
# Any argument of the op's schemas, named as a word (torch's device check says "for argument
# other" in 2.1, "got other is on" in 2.13; the npu wrappers and the CPU fallback use that check).
ANY_ARGUMENT = "<an argument of the schema>"
# How an error names the out= tensor: its schema name, or "result" (ATen's name for it in the
# checks of its composite functions, e.g. linalg.norm's "Expected result and input tensors to be
# on the same device").
OUT = r"\bout\b|\boutput\b|\bresult\b"
# OpInfos whose tensor operands are 0-dim numbers that torch's composite function reads with
# .item() (on any device, as with CUDA tensors), so an operand or out= tensor on another device is
# not a mismatch.
NUMBER_OPERANDS = frozenset({"linspace", "logspace"})


@dataclass(frozen=True)
class Case:
    id: str
    op: Any                      # the OpInfo (None for the written-out cases)
    kind: str
    run: Callable[[str], Any]    # run("cpu") / run("npu"): the call on that device
    npu_only: bool = False       # no CPU counterpart: the npu call must raise
    argument: str | None = None  # a pattern naming the argument, which an npu error must match
    names: tuple[str, ...] = ()  # the operator names an npu error may use


def _names(op: Any) -> tuple[str, ...]:
    return tuple(sorted(npu_opinfo.aten_candidates(op) | {op.name.rsplit(".", 1)[-1]}))


def _dtype(op: Any) -> torch.dtype | None:
    for dtype in (torch.float32, torch.int64, torch.bool):
        if dtype in op.dtypes:
            return dtype
    return None


def _first_sample(op: Any) -> Any | None:
    dtype = _dtype(op)
    if dtype is None:
        return None
    for sample in itertools.islice(op.sample_inputs("cpu", dtype), 6):
        strided = all(t.layout == torch.strided for t in _tensors((sample.input, sample.args, sample.kwargs)))
        if isinstance(sample.input, torch.Tensor) and sample.input.numel() > 0 and strided:
            return sample
    return None


def _tensors(parts: Any) -> list[torch.Tensor]:
    return [x for x in tree_flatten(parts)[0] if isinstance(x, torch.Tensor)]


def _on(device: str, sample: Any, moved: int | None = None, where: str = "npu:1") -> tuple[Any, tuple, dict]:
    """The sample's parts on `device`; with `moved`, that tensor (by flattened position) on `where`."""
    counter = itertools.count()

    def move(x: Any) -> Any:
        if not isinstance(x, torch.Tensor):
            return x
        index = next(counter)
        target = where if (moved is not None and index == moved and device != "cpu") else device
        return npu_opinfo.to_npu_same_layout(x, target)  # on CPU too: both devices see one layout
    parts = (sample.input, tuple(sample.args), dict(sample.kwargs))
    with torch.utils._python_dispatch._disable_current_modes():  # the harness's copies are not the op's calls
        moved_parts = tree_map(move, parts)
    if "device" in moved_parts[2]:
        moved_parts[2]["device"] = device
    return moved_parts


def _call(op: Any, parts: tuple[Any, tuple, dict], **extra: Any) -> Any:
    return op(parts[0], *parts[1], **parts[2], **extra)


def _fills_out(op: Any, sample: Any) -> bool:
    """Whether the OpInfo's call writes a tensor given as out= (some wrap the op and drop it)."""
    out = torch.empty(0)
    try:
        return _call(op, _on("cpu", sample), out=out) is out
    except Exception:  # noqa: BLE001  no single-tensor out= form
        return False


def _op_cases(op: Any) -> list[Case]:
    sample = _first_sample(op)
    if sample is None:
        return []
    names = _names(op)
    base = npu_opinfo.opinfo_id(op)
    cases: list[Case] = []
    tensors = _tensors((sample.input, sample.args, sample.kwargs))

    def add(kind: str, run: Callable[[str], Any], **kw: Any) -> None:
        cases.append(Case(f"{base}-{kind}", op, kind, run, names=names, **kw))

    # another npu device: every tensor operand in turn (the first two)
    numbers = op.name in NUMBER_OPERANDS
    if len(tensors) >= 2 and not numbers:
        for position in range(min(2, len(tensors))):
            add(f"other_device_{position}",
                lambda device, p=position: _call(op, _on(device, sample, moved=p)), npu_only=True,
                argument=ANY_ARGUMENT)
    if op.supports_out:
        def out_like(device: str, dtype: torch.dtype | None = None, overlap: bool = False) -> Any:
            parts = _on(device, sample)
            reference = _call(op, _on("cpu", sample))
            if not isinstance(reference, torch.Tensor):
                raise TypeError("the op returns no single tensor")  # both devices: same outcome
            if overlap:
                inp = parts[0]
                if inp.shape != reference.shape or inp.dtype != reference.dtype or inp.dim() == 0:
                    raise TypeError("no input shaped like the output")
                out = inp.flatten()[1:].view(-1)  # starts one element into the input: a partial overlap
                if out.numel() < reference.numel():
                    raise TypeError("too small for a partial overlap")
                out = out[: reference.numel()].view(reference.shape)
            else:
                out = torch.empty(reference.shape, dtype=dtype or reference.dtype, device=device)
            return _call(op, parts, out=out)
        wrong = torch.int64 if _dtype(op) != torch.int64 else torch.float32
        add("out_wrong_dtype", lambda device: out_like(device, dtype=wrong), argument=OUT)
        if _fills_out(op, sample) and not numbers:
            add("out_other_device", lambda device: _call(
                op, _on(device, sample), out=torch.empty(0, device="npu:1" if device != "cpu" else "cpu")),
                npu_only=True, argument=OUT)
        if isinstance(op, (UnaryUfuncInfo, BinaryUfuncInfo)):
            add("out_overlapping_input", lambda device: out_like(device, overlap=True))
    # layouts and sizes: as on CPU
    add("noncontiguous", lambda device: _call(op, _on(device, sample.noncontiguous())))
    inp = sample.input
    empty = sample.transform(lambda x: x[..., :0] if isinstance(x, torch.Tensor) and x is inp and x.dim() else x)
    add("empty_input", lambda device: _call(op, _on(device, empty)))
    zero_dim = sample.transform(lambda x: x.flatten()[0].clone() if isinstance(x, torch.Tensor) and x is inp else x)
    add("zero_dim_input", lambda device: _call(op, _on(device, zero_dim)))
    if inp.is_floating_point():
        as_int = sample.transform(lambda x: (x * 3).to(torch.int64) if isinstance(x, torch.Tensor) and x is inp else x)
        add("integer_input", lambda device: _call(op, _on(device, as_int)))
    if isinstance(op, UnaryUfuncInfo) and inp.is_floating_point() and not sample.args and _allocates(op, sample):
        def too_large(device: str) -> Any:
            with npu_opinfo.modes(fallback="error"):  # never the CPU fallback: it would allocate on the host
                return op(torch.ones(1, device=device).expand(HUGE_ELEMENTS), **sample.kwargs)
        add("output_larger_than_device", too_large, npu_only=True)
    # indices out of range: every integer tensor operand but the input
    if any(not t.is_floating_point() and t.dtype != torch.bool for t in tensors[1:]):
        def out_of_range(x: Any) -> Any:
            if isinstance(x, torch.Tensor) and x is not inp and x.dtype in (torch.int64, torch.int32) and x.numel():
                bad = x.clone()
                bad.view(-1)[0] = 1 << 20
                return bad
            return x
        bad = sample.transform(out_of_range)
        add("index_out_of_range", lambda device: _call(op, _on(device, bad)))
    return cases


def _allocates(op: Any, sample: Any) -> bool:
    """The op's result is new memory (conj_physical of a real tensor, for one, returns its input)."""
    small = torch.ones(1).expand(4)
    try:
        result = op(small, **sample.kwargs)
    except Exception:  # noqa: BLE001  an op that cannot take the probe allocates as far as the case knows
        return True
    return not (isinstance(result, torch.Tensor) and result.data_ptr() == small.data_ptr())


def _argument(name: str) -> str:
    return rf"for argument {name}\b|got {name} is on"


def _written_cases() -> list[Case]:
    """The device mismatches and the foreach message the issue names, spelled out."""
    a, b, c = (torch.randn(4, 3) for _ in range(3))

    def two(device: str, other: str) -> tuple[torch.Tensor, torch.Tensor]:
        return a.to(device), b.to(other)
    cases = [
        Case("sub-other_device", None, "other_device_written", lambda d: torch.sub(*two(d, "npu:1")),
             True, _argument("other"), ("sub",)),
        Case("div-other_device", None, "other_device_written", lambda d: torch.div(*two(d, "npu:1")),
             True, _argument("other"), ("div",)),
        Case("maximum-other_device", None, "other_device_written", lambda d: torch.maximum(*two(d, "npu:1")),
             True, _argument("other"), ("maximum",)),
        Case("addcmul-other_device", None, "other_device_written",
             lambda d: torch.addcmul(a.to(d), b.to(d), c.to("npu:1")), True, _argument("tensor2"), ("addcmul",)),
        Case("lerp-other_device", None, "other_device_written",
             lambda d: torch.lerp(a.to(d), b.to("npu:1"), 0.5), True, _argument("end"), ("lerp",)),
        Case("add-out_on_other_device", None, "other_device_written",
             lambda d: torch.add(a.to(d), b.to(d), out=torch.empty(4, 3, device="npu:1")), True, OUT, ("add",)),
        Case("mul-cpu_tensor_operand", None, "other_device_written", lambda d: torch.mul(a.to(d), b),
             True, _argument("other"), ("mul",)),
        Case("_foreach_add_-shapes", None, "foreach_written",
             lambda d: torch._foreach_add_([torch.zeros(3, device=d)], [torch.zeros(4, device=d)]),
             False, r"\bother\b", ("_foreach_add_",)),
        Case("_foreach_add-lengths", None, "foreach_written",
             lambda d: torch._foreach_add([torch.zeros(3, device=d)] * 2, [torch.zeros(3, device=d)]),
             False, None, ("_foreach_add",)),
    ]
    return cases


CASES = [case for op in SELECTED for case in _op_cases(op)] + _written_cases()


def _outcome(fn: Callable[[], Any], sync: bool) -> tuple[Any, BaseException | None]:
    try:
        result = fn()
        if sync:
            torch.npu.synchronize()  # a device fault is this case's outcome
        return result, None
    except Exception as error:  # noqa: BLE001  the error is the outcome being compared
        if sync:
            try:
                torch.npu.synchronize()
            except Exception:  # noqa: BLE001  a fault pending from the call: part of the same outcome
                pass
        return None, error


def _message(error: BaseException) -> str:
    return str(error).split("\nException raised from", 1)[0]


def _skip(case: Case) -> str | None:
    """Why a case is not judged: a random op's values, or a dtype opinfo_skips.yaml already expects npu to reject."""
    if case.op is None or case.npu_only:
        return None
    dtype = torch.int64 if case.kind == "integer_input" else _dtype(case.op)
    entry = npu_opinfo.find_skip(SKIPS, case.op, dtype, "forward")
    if entry is not None and entry.kind in ("skip", "meta_only", "xfail"):
        return entry.reason
    if case.kind == "empty_input":  # where CPU's kernel fails on an empty dimension that has an answer
        entry = npu_opinfo.find_named_skip(SKIPS, case.op, dtype, "empty_input")
        if entry is not None and entry.kind == "skip":
            return entry.reason
    if case.kind == "noncontiguous":  # a strided sample: where CPU's reference is wrong for other layouts
        entry = npu_opinfo.find_skip(SKIPS, case.op, dtype, "layouts")
        if entry is not None and entry.kind in ("skip", "xfail"):
            return entry.reason
    return None


class _Dispatched(torch.utils._python_dispatch.TorchDispatchMode):
    """The aten operators a call dispatches (names without `aten::`)."""

    def __init__(self) -> None:
        super().__init__()
        self.ops: set[str] = set()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.add(func._name.split("::", 1)[-1])
        return func(*args, **(kwargs or {}))


def _dispatched_on_cpu(case: Case) -> set[str]:
    if case.kind == "output_larger_than_device":
        return set()  # its CPU call would allocate the output
    mode = _Dispatched()
    try:
        with mode:
            case.run("cpu")
    except Exception:  # noqa: BLE001  the ops dispatched before the error are what is wanted
        pass
    return mode.ops


def _judge_message(case: Case, message: str, cpu_message: str | None) -> str:
    """How the npu error names the op (a KINDS key), or raises AssertionError."""
    def names(candidates) -> bool:
        return any(re.search(rf"(^|[^a-z_]){re.escape(n)}", message, re.IGNORECASE) for n in candidates)
    if names(case.names):
        how = "named the op"
    elif re.search(r"launched by aclnn\w+", message):
        how = "device fault naming its kernel and aclnn call"
    else:
        dispatched = _dispatched_on_cpu(case)
        if names(npu_opinfo.base_name(op) for op in dispatched):
            how = "named the aten op it reached"
        else:
            undeclared = sorted(op for op in dispatched if op not in LIVE)
            assert undeclared, f"{case.id}: the error does not name the op ({', '.join(case.names)}): {message}"
            # torch's composite code for an overload the label does not declare raised before any npu kernel
            return "raised by torch for an undeclared overload it reached (" + ", ".join(undeclared[:3]) + ")"
    if case.argument is not None and not (cpu_message and cpu_message in message):  # torch's own text: as on CPU
        pattern = case.argument
        if pattern == ANY_ARGUMENT:  # the arguments of the op and of the aten ops it reaches
            reached = tuple(npu_opinfo.base_name(op) for op in _dispatched_on_cpu(case))
            arguments = _schema_arguments(case.names + reached)
            pattern = r"\b(" + "|".join(map(re.escape, arguments)) + r")\b" if arguments else r"\bargument\b"
        assert re.search(pattern, message), f"{case.id}: the error does not name the argument ({pattern}): {message}"
    return how


def _schema_arguments(names: tuple[str, ...]) -> list[str]:
    arguments: set[str] = set()
    for name in names:
        for schema in torch._C._jit_get_schemas_for_operator(f"aten::{name}"):
            arguments |= {a.name for a in schema.arguments}
    return sorted(arguments, key=len, reverse=True)


def _device_usable() -> None:
    x = torch.arange(4.0, device="npu")
    assert torch.equal((x * 2 + 1).cpu(), torch.tensor([1.0, 3.0, 5.0, 7.0])), "the device computes wrong values"
    torch.npu.synchronize()


@pytest.fixture(autouse=True)
def _fallback_silent():
    with npu_opinfo.modes(fallback="silent"):
        yield


def test_the_corpus_covers_every_declared_op_with_an_opinfo() -> None:
    assert len(CASES) >= 300, len(CASES)
    ops_with_cases = {id(c.op) for c in CASES if c.op is not None}
    without = [npu_opinfo.opinfo_id(o) for o in SELECTED if id(o) not in ops_with_cases and _first_sample(o)]
    assert not without, f"OpInfos with samples but no case: {without}"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input(case: Case) -> None:
    reason = _skip(case)
    if reason:
        pytest.skip(f"opinfo_skips.yaml: {reason}")
    KINDS[case.kind] += 1
    npu_result, npu_error = _outcome(lambda: case.run("npu"), sync=True)
    try:
        if case.npu_only:
            assert npu_error is not None, f"{case.id}: the npu call succeeded (it must raise)"
            cpu_error = None
        else:
            cpu_result, cpu_error = _outcome(lambda: case.run("cpu"), sync=False)
            assert (npu_error is None) == (cpu_error is None), (
                f"{case.id}: CPU {'raised ' + repr(cpu_error) if cpu_error else 'succeeded'}, "
                f"npu {'raised ' + repr(npu_error) if npu_error else 'succeeded'}")
            if npu_error is None:
                npu_opinfo.assert_same(npu_result, cpu_result, where=case.id)
        if npu_error is not None:
            message = _message(npu_error)
            if cpu_error is not None and message == _message(cpu_error):
                KINDS["raised above the backend (CPU's text)"] += 1
            else:
                KINDS[_judge_message(case, message, _message(cpu_error) if cpu_error else None)] += 1
    finally:
        _device_usable()


def test_corpus_summary_is_reported() -> None:
    """Runs last in the module: the pytest summary gets the corpus and its outcomes."""
    kinds = ", ".join(f"{k}: {v}" for k, v in sorted(KINDS.items()))
    npu_opinfo.NOTES.append(f"bad-input corpus: {len(CASES)} cases over "
                            f"{len({id(c.op) for c in CASES if c.op is not None})} OpInfos ({kinds})")
