"""fill_ and zero_ on npu tensors (aclnn kernels, any layout)."""

import torch


def test_fill_dtypes_and_values(assert_same):
    for dtype, value in ((torch.float32, 2.5), (torch.int64, -3), (torch.bool, True), (torch.float16, 0.125)):
        n = torch.empty(3, 2, dtype=dtype, device="npu").fill_(value)
        assert_same(n, torch.full((3, 2), value, dtype=dtype))


def test_fill_and_zero_non_contiguous_views(assert_same):
    n = torch.ones(4, 6, device="npu")
    n[:, ::2].fill_(7.0)
    n[1:3].t()[::2].zero_()
    c = torch.ones(4, 6)
    c[:, ::2].fill_(7.0)
    c[1:3].t()[::2].zero_()
    assert_same(n, c)


def test_factories_through_fill(assert_same):
    assert_same(torch.zeros(5, device="npu"), torch.zeros(5))
    assert_same(torch.full((2, 2), 4, device="npu"), torch.full((2, 2), 4))
    assert_same(torch.ones(3, dtype=torch.int32, device="npu"), torch.ones(3, dtype=torch.int32))
