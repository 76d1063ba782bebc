"""abs (functional, out=, inplace): generated op_api kernel (gen_opapi)."""

import torch


def test_abs_functional(ledger, assert_same):
    for dtype in (torch.float32, torch.float16, torch.int32, torch.int64, torch.float64):
        a = (torch.randn(5, 7) * 100).to(dtype)
        assert_same(torch.abs(a.npu()), torch.abs(a))
    assert ledger()["abs"]["op_api"] == 5


def test_abs_non_contiguous_and_empty(assert_same):
    a = torch.randn(6, 4)
    assert_same(a.npu().t().abs(), a.t().abs())
    assert_same(torch.empty(0, 3, device="npu").abs(), torch.empty(0, 3).abs())


def test_abs_out_and_inplace(ledger, assert_same):
    a = torch.randn(3, 4)
    out = torch.empty(3, 4, device="npu")
    result = torch.abs(a.npu(), out=out)
    assert result.data_ptr() == out.data_ptr()
    assert_same(out, a.abs())
    resized = torch.empty(0, device="npu")
    torch.abs(a.npu(), out=resized)
    assert_same(resized, a.abs())
    n = a.npu()
    n.abs_()
    assert_same(n, a.abs())
    counts = ledger()
    assert counts["abs.out"]["op_api"] == 2 and counts["abs_"]["op_api"] == 1
