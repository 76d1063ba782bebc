"""Copies between host and device and between devices."""

import pytest
import torch


def test_host_to_device_to_host_dtypes():
    for dtype in (
        torch.float32,
        torch.float16,
        torch.bfloat16,
        torch.float64,
        torch.int8,
        torch.uint8,
        torch.int16,
        torch.int32,
        torch.int64,
        torch.bool,
    ):
        a = (torch.randn(7, 3) * 10).to(dtype)
        assert torch.equal(a.npu().cpu(), a), dtype


def test_non_contiguous_both_ways(assert_same):
    a = torch.randn(6, 5)
    assert_same(a.t().npu(), a.t())  # non-contiguous host source
    dst = torch.zeros(5, 12, device="npu")[:, ::2]  # non-contiguous device destination
    dst.copy_(a.t())
    assert_same(dst, a.t())
    host = torch.zeros(5, 6).t()  # non-contiguous host destination
    host.copy_(a.npu())
    torch.testing.assert_close(host, a)


def test_device_to_device_strides_and_dtype(assert_same):
    a = torch.randn(4, 6)
    n = a.npu()
    assert_same(n.t().contiguous(), a.t().contiguous())
    assert_same(n.to(torch.float64), a.double())
    assert_same(n[:, ::3].to(torch.int32), a[:, ::3].to(torch.int32))
    out = torch.empty(6, 4, device="npu", dtype=torch.float16)
    out.copy_(n.t())
    assert_same(out, a.t().half())


def test_broadcasting_copy(assert_same):
    dst = torch.empty(3, 4, device="npu")
    dst.copy_(torch.arange(4.0).npu())
    assert_same(dst, torch.arange(4.0).expand(3, 4).contiguous())
    for dst_shape, src_shape in (((2,), (3,)), ((2,), (3, 2))):
        with pytest.raises(RuntimeError) as cpu_error:
            torch.empty(dst_shape).copy_(torch.ones(src_shape))
        with pytest.raises(RuntimeError) as npu_error:
            torch.empty(dst_shape, device="npu").copy_(torch.ones(src_shape, device="npu"))
        # CPU's text after the op's name (every npu op error begins with it)
        assert str(npu_error.value).splitlines()[0] == "copy_: " + str(cpu_error.value).splitlines()[0]


def test_cross_device_copies(assert_same):
    a = torch.randn(3, 5)
    one = a.to("npu:1")
    assert one.device == torch.device("npu:1")
    assert_same(one, a)
    back = one.t().to("npu:0")
    assert back.device == torch.device("npu:0")
    assert_same(back, a.t())
    dst = torch.zeros(5, 6, device="npu:0")[:, 1::2]
    dst.copy_(one.t().double())
    assert_same(dst, a.t())


def test_conj_and_neg_bits_are_honoured(assert_same):
    z = torch.randn(4, dtype=torch.complex64)
    nz = z.npu()
    assert_same(nz.conj().cpu().resolve_conj().npu(), z.conj().resolve_conj())
    torch.testing.assert_close(nz.conj().cpu(), z.conj())
    dst = torch.empty(4, dtype=torch.complex64, device="npu")
    dst.copy_(nz.conj())
    torch.testing.assert_close(dst.cpu(), z.conj().resolve_conj())
    neg = torch.randn(3, dtype=torch.complex64)._neg_view()
    torch.testing.assert_close(neg.npu().cpu(), neg)


def test_self_overlapping_copy_is_rejected_like_cpu():
    a = torch.arange(8.0)
    with pytest.raises(RuntimeError) as cpu_error:
        a[1:].copy_(a[:-1])
    n = torch.arange(8.0).npu()
    with pytest.raises(RuntimeError) as npu_error:
        n[1:].copy_(n[:-1])
    assert str(npu_error.value).splitlines()[0] == "copy_: " + str(cpu_error.value).splitlines()[0]
