"""torch.linspace and torch.logspace on both paths equal CPU's. CPU stores start and end in the dtype first;
linspace then computes in the dtype (16-bit types rounding after each operation, integral ones in double: bit
for bit; float32/float64 within an ulp, CPU's vector builds fuse the multiply-add), logspace takes the bounds'
difference in the dtype and the rest in double (bit for bit). The acl_op path runs "LinSpace", and "LogSpaceD"
for float16 and float32 with a base a float attribute holds, ATen's CPU kernel on the host otherwise (CANN has
no other logspace type)."""

from __future__ import annotations

import opplugin_runtime  # noqa: F401
import pytest
import torch
from forced_path import on_path  # tests/conftest.py loads it

DTYPES = [torch.float32, torch.float16, torch.bfloat16, torch.float64, torch.int64, torch.int32, torch.uint8]
# (start, end, steps, base): integral and fractional bounds, descending, one step, a base no float holds, a
# difference float32 rounds, many steps
CASES = [(-2.0, 3, 7, 10.0), (0, 1.2, 4, 1.1), (1, 4.3, 5, 2.0), (4.3, -3, 4, 3.0), (2.5, 2.5, 1, 5.0),
         (0.1, 1000.3, 9, 1.0001), (0.5, 9.5, 100, 1.1)]


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("start,end,steps,base", CASES)
def test_logspace_equals_cpu_bit_for_bit(path, dtype, start, end, steps, base):
    if dtype == torch.uint8 and min(start, end) < 0:
        pytest.skip("negative bounds do not convert to uint8")
    try:
        expected = torch.logspace(start, end, steps, base=base, dtype=dtype)
    except RuntimeError as cpu_error:  # a bound the dtype cannot hold: the same error
        if "not implemented for" in str(cpu_error):
            pytest.skip(f"this torch's CPU has no {dtype} logspace")
        torch.npu.set_compile_mode(jit_compile=path == "acl_op")
        try:
            with pytest.raises(RuntimeError, match=str(cpu_error)):
                torch.logspace(start, end, steps, base=base, dtype=dtype, device="npu")
        finally:
            torch.npu.set_compile_mode(jit_compile=False)
        return
    got = on_path(path, "logspace.out", lambda: torch.logspace(start, end, steps, base=base, dtype=dtype, device="npu"))
    assert torch.equal(got.cpu(), expected), (got.cpu(), expected)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("start,end,steps", [(-2.0, 3, 7), (4.3, -3, 50), (0.1, 1000.3, 3001), (2.5, 2.5, 1),
                                             (1, 7, 4)])
def test_linspace_equals_cpu_bit_for_bit(path, dtype, start, end, steps):
    if dtype == torch.uint8 and min(start, end) < 0:
        pytest.skip("negative bounds do not convert to uint8")
    if dtype == torch.uint8 and max(start, end) > 255:
        pytest.skip("bounds above 255 do not convert to uint8")
    expected = torch.linspace(start, end, steps, dtype=dtype)
    got = on_path(path, "linspace.out", lambda: torch.linspace(start, end, steps, dtype=dtype, device="npu"))
    if dtype in (torch.float32, torch.float64):
        # CPU's vectorised builds fuse start + step * i into one multiply-add (one rounding, not two)
        ulp = torch.finfo(dtype).eps * max(abs(start), abs(end))
        torch.testing.assert_close(got.cpu(), expected, rtol=0, atol=2 * ulp)
    else:
        assert torch.equal(got.cpu(), expected), (got.cpu(), expected)


@pytest.mark.parametrize("path", ["op_api", "acl_op"])
def test_logspace_into_a_strided_out(path):
    out = torch.zeros(12, device="npu")[::2]
    on_path(path, "logspace.out", lambda: torch.logspace(-1, 2, 6, base=2.0, out=out))
    assert torch.equal(out.cpu(), torch.logspace(-1, 2, 6, base=2.0))
