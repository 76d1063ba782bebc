"""How many of PyTorch's OpInfo operators run natively on `npu` (tests/npu_coverage.py).

Every OpInfo of `op_db` that CPU supports at the dtype runs its first samples on both devices;
an OpInfo counts as native when no aten operator falls back to the CPU and the results agree.
The figures, per dtype, and the operators that keep the most OpInfos on the fallback are printed
in the pytest summary and written to build/test-results/<label>/opinfo-coverage-<dtype>.json.

The coverage must not fall below the floor of its dtype: a change that loses native OpInfos
(an op that starts falling back, a kernel that starts differing from CPU) fails here.
"""

from __future__ import annotations

import os
from pathlib import Path

import npu_coverage  # loaded by tests/conftest.py
import npu_opinfo
import pytest
import torch
from torch.testing._internal.common_methods_invocations import op_db

npu_opinfo.accept_privateuse1_device_type(op_db)

MAX_SAMPLES = 4
DTYPES = (torch.float32, torch.float16, torch.bfloat16)
# Per label (its torch's op_db and the label's declared operators): the native OpInfos, as a share
# of those CPU supports at the dtype, below which this test fails. A label without floors prints
# its figures only (nox -s prove runs them all; CI proves v2.13 and v2.1).
FLOORS = {
    "v2.13": {torch.float32: 0.86, torch.float16: 0.92, torch.bfloat16: 0.92},
    "v2.1": {torch.float32: 0.85, torch.float16: 0.93, torch.bfloat16: 0.91},
}
RESULTS = Path(os.environ.get("NPU_TEST_RESULTS", npu_opinfo.REPO / "build" / "test-results" / npu_opinfo.label()))


@pytest.mark.parametrize("dtype", DTYPES, ids=npu_opinfo.dtype_name)
def test_opinfo_coverage(dtype: torch.dtype) -> None:
    report = npu_coverage.run(op_db, dtype, MAX_SAMPLES, npu_opinfo.label())
    npu_coverage.write(report, RESULTS)
    npu_opinfo.NOTES.extend(npu_coverage.summary(report))
    floor = FLOORS.get(npu_opinfo.label(), {}).get(dtype)
    if floor is None:
        return
    assert report.ratio >= floor, (
        f"{report.headline()}; the floor is {100 * floor:.0f}%. OpInfos that differ from CPU: "
        + ", ".join(f"{o.opinfo} ({o.detail[:120]})" for o in npu_coverage.failing(report.outcomes,
                                                                                  npu_coverage.MISMATCH)[:20]))


def test_a_fallback_is_not_counted_as_native() -> None:
    """The measurement itself: an OpInfo whose operator has no npu kernel is a fallback outcome that
    names the operator; one with a kernel that matches CPU is native."""
    by_name = {npu_opinfo.opinfo_id(o): o for o in op_db}
    registered = {npu_opinfo.base_name(op) for op in npu_opinfo.registered_npu_ops()}
    # an OpInfo whose aten operator has no npu kernel
    lacking = next(name for name in ("ormqr", "geqrf", "linalg.householder_product", "special.zeta", "igamma")
                   if name in by_name and by_name[name].aten_name not in registered)
    outcome = npu_coverage.measure(by_name[lacking], torch.float32, 2)
    assert outcome.status == npu_coverage.FALLBACK, outcome
    assert outcome.fallback_ops, outcome
    native = npu_coverage.measure(by_name["add"], torch.float32, 2)
    assert native.status == npu_coverage.NATIVE, native


def test_a_wrong_result_is_not_counted_as_native(monkeypatch: pytest.MonkeyPatch) -> None:
    """An OpInfo whose npu result differs from CPU's is a mismatch, even with no fallback."""
    by_name = {npu_opinfo.opinfo_id(o): o for o in op_db}
    add = by_name["add"]
    original = add.op

    def off_by_one(*args, **kwargs):
        result = original(*args, **kwargs)
        return result + 1 if result.device.type == "npu" else result

    monkeypatch.setattr(add, "op", off_by_one)
    outcome = npu_coverage.measure(add, torch.float32, 2)
    assert outcome.status == npu_coverage.MISMATCH, outcome
