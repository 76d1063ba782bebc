"""How much of PyTorch's OpInfo database runs natively on `npu` (tests/test_opinfo_coverage.py).

Unlike the OpInfo suite (test_opinfo.py), which proves the operators the label declares, this
takes every OpInfo of `op_db` whose CPU kernels support the dtype and asks one question: do its
first samples give CPU's results on `npu` with no aten operator falling back to the CPU? The
path ledger (torch.npu.path_ledger) records every fallback, so a failing OpInfo also names the
operators it lacks; the report ranks them by the number of OpInfos each one blocks.

An OpInfo whose CPU results change with the seed (random ops) is compared in device, dtype and
shape only. A sample that CPU rejects must be rejected on npu with the same error type.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import npu_opinfo
import torch
from torch.utils._pytree import tree_flatten

# Statuses of one OpInfo at one dtype.
NATIVE = "native"          # every sample matched CPU, no fallback
FALLBACK = "fallback"      # some aten operator ran on the CPU fallback
MISMATCH = "mismatch"      # ran natively but differs from CPU (or raised where CPU did not)
NO_SAMPLES = "no samples"  # the OpInfo gives no sample for the dtype: not counted


@dataclass
class Outcome:
    """One OpInfo at one dtype."""

    opinfo: str
    status: str
    samples: int = 0
    fallback_ops: list[str] = field(default_factory=list)
    detail: str = ""


@dataclass
class Report:
    label: str
    torch: str
    dtype: str
    max_samples: int
    outcomes: list[Outcome]

    @property
    def counted(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status != NO_SAMPLES]

    @property
    def native(self) -> int:
        return sum(o.status == NATIVE for o in self.counted)

    @property
    def ratio(self) -> float:
        return self.native / len(self.counted) if self.counted else 0.0

    def blocking_ops(self) -> list[tuple[str, int]]:
        """aten operators that fell back, with how many OpInfos each one kept off npu, most first."""
        counts = Counter(op for o in self.outcomes if o.status == FALLBACK for op in o.fallback_ops)
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))

    def headline(self) -> str:
        by = Counter(o.status for o in self.counted)
        return (f"OpInfo coverage {self.label} {self.dtype}: {self.native} of {len(self.counted)} OpInfos "
                f"native on npu ({100 * self.ratio:.1f}%), fallback forbidden; "
                f"{by[FALLBACK]} need the CPU fallback, {by[MISMATCH]} differ from CPU or fail "
                f"(first {self.max_samples} samples each, forward)")

    def to_json(self) -> str:
        data = {"label": self.label, "torch": self.torch, "dtype": self.dtype, "max_samples": self.max_samples,
                "native": self.native, "counted": len(self.counted), "ratio": round(self.ratio, 4),
                "blocking_ops": self.blocking_ops(), "outcomes": [asdict(o) for o in self.outcomes]}
        return json.dumps(data, indent=1)


def supports(opinfo: Any, dtype: torch.dtype) -> bool:
    return dtype in opinfo.supported_dtypes("cpu")


def _tensors(x: Any) -> list[torch.Tensor]:
    return [t for t in tree_flatten(x)[0] if isinstance(t, torch.Tensor)]


# OpInfos whose results have no defined values (uninitialized memory): compared without values.
UNDEFINED_VALUES = {"empty", "empty_like", "empty_permuted", "empty_strided", "new_empty", "new_empty_strided"}


def _seeds_itself(opinfo: Any) -> bool:
    """OpInfos of random ops call their op through wrapper_set_seed, which seeds CPU's generator
    (not the npu one) before each call: CPU's results are reproducible, npu's draw other numbers."""
    code = getattr(opinfo.op, "__code__", None)
    return code is not None and "wrapper_set_seed" in code.co_names


def _seed_dependent(opinfo: Any, sample: Any) -> bool:
    """Whether the CPU result changes with the global seed (random ops: values not compared)."""
    if _seeds_itself(opinfo):
        return True
    results = []
    for seed in (1, 2):
        torch.manual_seed(seed)
        try:
            parts = npu_opinfo.sample_parts(sample)
            # cloned: an in-place op returns its (mutated) input both times
            results.append([t.detach().clone() for t in _tensors(opinfo(parts[0], *parts[1], **parts[2]))])
        except Exception:  # noqa: BLE001  a rejected sample is compared by error type
            return False
    for a, b in zip(*results):
        if a.shape != b.shape or a.dtype != b.dtype:
            return True
        try:
            torch.testing.assert_close(a.detach(), b.detach(), rtol=0, atol=0, equal_nan=True)
        except AssertionError:
            return True
        except Exception:  # noqa: BLE001  a dtype CPU cannot compare: taken as deterministic
            return False
    return False


def measure(opinfo: Any, dtype: torch.dtype, max_samples: int) -> Outcome:
    """Runs the OpInfo's first `max_samples` forward samples on CPU and npu (fallback silent,
    ledger on) and classifies it."""
    name = npu_opinfo.opinfo_id(opinfo)
    try:
        samples = list(itertools.islice(opinfo.sample_inputs("cpu", dtype), max_samples))
    except Exception as error:  # noqa: BLE001  OpInfo's own sample generator fails: nothing to compare
        return Outcome(name, NO_SAMPLES, detail=f"sample_inputs raised {type(error).__name__}: {error}")
    if not samples:
        return Outcome(name, NO_SAMPLES)
    fallbacks: set[str] = set()
    problem = ""
    with npu_opinfo.modes(fallback="silent"):
        for i, sample in enumerate(samples):
            values = opinfo.name not in UNDEFINED_VALUES and not _seed_dependent(opinfo, sample)
            cpu_parts = npu_opinfo.sample_parts(sample)
            try:
                npu_parts = npu_opinfo.sample_to(sample, "npu")
            except Exception as error:  # noqa: BLE001  the operands cannot even reach the device
                problem = problem or f"sample {i}: copy to npu: {type(error).__name__}: {error}"
                continue
            try:
                expected = opinfo(cpu_parts[0], *cpu_parts[1], **cpu_parts[2])
                cpu_error = None
            except Exception as error:  # noqa: BLE001
                expected, cpu_error = None, error
            torch.npu.reset_path_ledger()
            try:
                actual = opinfo(npu_parts[0], *npu_parts[1], **npu_parts[2])
                if cpu_error is None:
                    torch.npu.synchronize()
                    expected = npu_opinfo.reference_result(opinfo, cpu_parts, expected)
                    npu_opinfo.assert_same(actual, expected, values=values, where=name)
                elif not problem:
                    problem = f"sample {i}: CPU raised {type(cpu_error).__name__}, npu did not"
            except Exception as error:  # noqa: BLE001  every kind of difference is an outcome
                if cpu_error is None or not isinstance(error, type(cpu_error)):
                    problem = problem or f"sample {i}: {type(error).__name__}: {str(error)[:300]}"
            fallbacks.update(npu_opinfo.fallback_ops(torch.npu.path_ledger()))
    if fallbacks:
        return Outcome(name, FALLBACK, len(samples), sorted(fallbacks), problem)
    return Outcome(name, MISMATCH if problem else NATIVE, len(samples), [], problem)


def run(op_db: Sequence[Any], dtype: torch.dtype, max_samples: int, label: str) -> Report:
    outcomes = [measure(o, dtype, max_samples) for o in op_db if supports(o, dtype)]
    return Report(label, torch.__version__, npu_opinfo.dtype_name(dtype), max_samples, outcomes)


def summary(report: Report, top: int = 25) -> list[str]:
    lines = [report.headline()]
    blocking = report.blocking_ops()[:top]
    if blocking:
        lines.append("  operators that keep the most OpInfos on the CPU fallback: "
                     + ", ".join(f"{op} ({n})" for op, n in blocking))
    return lines


def write(report: Report, directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"opinfo-coverage-{report.dtype}.json"
    path.write_text(report.to_json())
    return path


def failing(outcomes: Iterable[Outcome], status: str) -> list[Outcome]:
    return [o for o in outcomes if o.status == status]
