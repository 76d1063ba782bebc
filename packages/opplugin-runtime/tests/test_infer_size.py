"""The shape helpers of npu/op_infer/InferSize.h (what gen_opapi `size:` expressions call)
give the shapes PyTorch's Meta kernels give, and refuse what the operators refuse."""

import pytest
import torch
import torch.nn.functional as F

aten = torch.ops.aten


def meta(*shape, dtype=torch.float32):
    return torch.empty(shape, device="meta", dtype=dtype)


def cpu(*shape, dtype=torch.float32):
    return torch.zeros(shape, dtype=dtype)


def indices_like(t):
    return torch.empty(t.shape, device=t.device, dtype=torch.long)


@pytest.mark.parametrize("a,b", [((2, 1, 4), (3, 1)), ((), (5,)), ((0, 3), (1, 3))])
def test_broadcast(infer_helpers, a, b):
    assert infer_helpers.broadcast_ops_npu_output_size(meta(*a), meta(*b)) == list((meta(*a) + meta(*b)).shape)


def test_input_same(infer_helpers):
    assert infer_helpers.input_same_output_size(meta(3, 0, 2)) == [3, 0, 2]


# ---- elementwise and broadcasting ------------------------------------------------------------


@pytest.mark.parametrize(
    "self_shape,min_shape,max_shape",
    [
        ((2, 1), (3,), (4, 1, 1)),
        ((2, 3), None, (3,)),
        ((), (2, 0), None),
        ((5,), (), ()),
    ],
)
def test_clamp(infer_helpers, self_shape, min_shape, max_shape):
    low = None if min_shape is None else meta(*min_shape)
    high = None if max_shape is None else meta(*max_shape)
    expected = aten.clamp.Tensor(meta(*self_shape), low, high).shape
    assert infer_helpers.clamp_npu_output_size(meta(*self_shape), low, high) == list(expected)


@pytest.mark.parametrize(
    "args",
    [
        (meta(2, 1), None, None),
        (meta(2, 1), meta(3), meta(4)),
        (meta(2), meta(3), None),
        (meta(2, dtype=torch.complex64), meta(2, dtype=torch.complex64), None),
    ],
    ids=["no-bounds", "max-mismatch", "min-mismatch", "complex"],
)
def test_clamp_refuses(infer_helpers, args):
    with pytest.raises(RuntimeError, match="clamp"):
        infer_helpers.clamp_npu_output_size(*args)


@pytest.mark.parametrize("a,b", [((2, 1), (3,)), ((), ()), ((0, 1), (1, 4)), ((4,), ())])
@pytest.mark.parametrize("equal_nan", [False, True])
def test_isclose(infer_helpers, a, b, equal_nan):
    expected = torch.isclose(meta(*a), meta(*b), equal_nan=equal_nan).shape
    assert infer_helpers.isclose_output_size(meta(*a), meta(*b), 1e-5, 1e-8, equal_nan) == list(expected)


@pytest.mark.parametrize(
    "a,b,rtol,atol",
    [
        (meta(2), meta(3), 0.0, 0.0),
        (meta(2), meta(2, dtype=torch.float64), 0.0, 0.0),
        (meta(2), meta(2), -1.0, 0.0),
        (meta(2), meta(2), 0.0, -1.0),
    ],
    ids=["shapes", "dtypes", "rtol", "atol"],
)
def test_isclose_refuses(infer_helpers, a, b, rtol, atol):
    with pytest.raises(RuntimeError, match="isclose"):
        infer_helpers.isclose_output_size(a, b, rtol, atol, False)


@pytest.mark.parametrize(
    "self_shape,n,m", [((1,), 2, 3), ((), 2, 3), ((2, 1), 2, 3), ((2, 3), 2, 3), ((0, 1), 0, 3), ((1,), 2, 0)]
)
def test_addr(infer_helpers, self_shape, n, m):
    expected = torch.addr(meta(*self_shape), meta(n), meta(m)).shape
    assert infer_helpers.addr_npu_output_size(meta(*self_shape), meta(n), meta(m)) == list(expected)


@pytest.mark.parametrize(
    "self_shape,vec1,vec2",
    [((1, 2, 3), (2,), (3,)), ((2,), (2,), (3,)), ((3, 3), (2,), (3,)), ((2, 3), (2, 1), (3,)), ((2, 3), (2,), ())],
    ids=["self-rank", "self-last-dim", "self-first-dim", "vec1-2d", "vec2-0d"],
)
def test_addr_refuses(infer_helpers, self_shape, vec1, vec2):
    with pytest.raises(RuntimeError):
        torch.addr(cpu(*self_shape), cpu(*vec1), cpu(*vec2))  # ATen refuses it too
    with pytest.raises(RuntimeError, match="addr"):
        infer_helpers.addr_npu_output_size(meta(*self_shape), meta(*vec1), meta(*vec2))


# ---- reductions, shape ops -------------------------------------------------------------------


@pytest.mark.parametrize(
    "shape,dim",
    [((2, 3, 4), [1]), ((2, 3, 4), [-1, 0]), ((2, 3, 4), []), ((2, 0, 4), [1]), ((), [0]), ((), [-1]), ((), [])],
)
@pytest.mark.parametrize("keepdim", [False, True])
def test_reduce(infer_helpers, shape, dim, keepdim):
    expected = torch.sum(meta(*shape), dim, keepdim=keepdim).shape
    assert infer_helpers.reduce_ops_npu_output_size(meta(*shape), dim, keepdim) == list(expected)


@pytest.mark.parametrize("shape,dim", [((2, 3), [2]), ((2, 3), [-3]), ((2, 3), [0, -2]), ((), [1]), ((), [0, -1])])
def test_reduce_refuses(infer_helpers, shape, dim):
    with pytest.raises((RuntimeError, IndexError)):
        torch.sum(meta(*shape), dim)
    with pytest.raises(RuntimeError, match="reduction"):
        infer_helpers.reduce_ops_npu_output_size(meta(*shape), dim, False)


@pytest.mark.parametrize(
    "shape,repeats", [((2, 3), [2, 1]), ((2, 3), [4, 2, 0]), ((), [2, 3]), ((), []), ((0, 3), [2, 1, 2])]
)
def test_repeat(infer_helpers, shape, repeats):
    assert infer_helpers.repeat_npu_output_size(meta(*shape), repeats) == list(meta(*shape).repeat(repeats).shape)


@pytest.mark.parametrize(
    "shape,repeats,dtype",
    [((2, 3), [2], torch.float32), ((2, 3), [-1, 2], torch.float32), ((2**62,), [4], torch.uint8)],
    ids=["short", "negative", "overflow"],
)
def test_repeat_refuses(infer_helpers, shape, repeats, dtype):
    with pytest.raises(RuntimeError, match="repeat"):
        infer_helpers.repeat_npu_output_size(meta(*shape, dtype=dtype), repeats)


@pytest.mark.parametrize(
    "shape,count,dim", [((2, 3), 4, 0), ((2, 3), 4, 2), ((2, 3), 1, -1), ((2, 3), 3, -3), ((), 2, 0), ((), 2, -1)]
)
def test_stack(infer_helpers, shape, count, dim):
    tensors = [meta(*shape)] * count
    assert infer_helpers.stack_output_size(tensors, dim) == list(torch.stack(tensors, dim).shape)


@pytest.mark.parametrize("tensors,dim", [([], 0), ([meta(2, 3), meta(2, 4)], 0), ([meta(2, 3)], 3), ([meta(2, 3)], -4)])
def test_stack_refuses(infer_helpers, tensors, dim):
    with pytest.raises(RuntimeError, match="stack"):
        infer_helpers.stack_output_size(tensors, dim)


@pytest.mark.parametrize("shape,dim", [((4, 6), 0), ((4, 6), -1), ((3, 0), 1), ((0, 2), 0), ((2,), 0)])
def test_glu(infer_helpers, shape, dim):
    assert infer_helpers.glu_npu_output_size(meta(*shape), dim) == list(F.glu(meta(*shape), dim).shape)


@pytest.mark.parametrize("shape,dim", [((), 0), ((3, 4), 0), ((4, 4), 2), ((4, 4), -3)])
def test_glu_refuses(infer_helpers, shape, dim):
    with pytest.raises(RuntimeError, match="glu"):
        infer_helpers.glu_npu_output_size(meta(*shape), dim)


# ---- linear algebra --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "a,b",
    [((3, 4), (5, 4)), ((2, 1, 3, 4), (5, 6, 4)), ((0, 4), (5, 4)), ((3, 0), (5, 0)), ((0, 3, 4), (1, 5, 4))],
)
def test_cdist(infer_helpers, a, b):
    assert infer_helpers.cdist_npu_output_size(meta(*a), meta(*b)) == list(torch.cdist(meta(*a), meta(*b)).shape)


@pytest.mark.parametrize(
    "a,b",
    [
        (meta(4), meta(5, 4)),
        (meta(3, 4), meta(4)),
        (meta(3, 4), meta(5, 3)),
        (meta(2, 3, 4), meta(3, 5, 4)),
        (meta(3, 4, dtype=torch.long), meta(5, 4, dtype=torch.long)),
    ],
    ids=["x1-1d", "x2-1d", "columns", "batch", "integer"],
)
def test_cdist_refuses(infer_helpers, a, b):
    with pytest.raises(RuntimeError, match="cdist"):
        infer_helpers.cdist_npu_output_size(a, b)


@pytest.mark.parametrize(
    "b,a", [((3, 4), (3, 3)), ((2, 1, 3, 4), (5, 3, 3)), ((3, 4), (2, 3, 3)), ((2, 0, 4), (0, 0)), ((3, 0), (3, 3))]
)
def test_triangular_solve(infer_helpers, b, a):
    expected = [list(t.shape) for t in torch.triangular_solve(meta(*b), meta(*a))]
    assert [list(s) for s in infer_helpers.triangular_solve_output_size(meta(*b), meta(*a))] == expected


@pytest.mark.parametrize(
    "b,a",
    [
        (meta(3), meta(3, 3)),
        (meta(3, 3), meta(3)),
        (meta(3, 4), meta(3, 2)),
        (meta(4, 4), meta(3, 3)),
        (meta(2, 3, 3), meta(4, 3, 3)),
        (meta(3, 3), meta(3, 3, dtype=torch.float64)),
    ],
    ids=["self-1d", "A-1d", "A-not-square", "incompatible", "batch", "dtype"],
)
def test_triangular_solve_refuses(infer_helpers, b, a):
    with pytest.raises(RuntimeError, match="triangular_solve"):
        infer_helpers.triangular_solve_output_size(b, a)


# ---- pooling, padding, im2col ----------------------------------------------------------------


@pytest.mark.parametrize(
    "shape,output_size",
    [
        ((2, 3, 4, 4, 4), [2, 1, 3]),
        ((3, 4, 5, 6), [2, 2, 2]),
        ((0, 2, 4, 4, 4), [2, 2, 2]),
        ((1, 2, 4, 4, 4), [0, 2, 2]),
        ((0, 4, 4, 4), [1, 1, 1]),
    ],
)
def test_adaptive_avg_pool3d(infer_helpers, shape, output_size):
    expected = F.adaptive_avg_pool3d(meta(*shape), output_size).shape
    assert infer_helpers.adaptive_avg_pool3d_npu_output_size(meta(*shape), output_size) == list(expected)


@pytest.mark.parametrize(
    "shape,output_size",
    [
        ((3, 4, 4), [2, 2, 2]),
        ((2, 0, 4, 4, 4), [2, 2, 2]),
        ((2, 2, 0, 4), [2, 2, 2]),
        ((2, 2, 4, 4, 4), [2, 2]),
        ((2, 2, 4, 4, 4), [2, -1, 2]),
        ((1, 2, 2, 4, 4, 4), [2, 2, 2]),
    ],
    ids=["3d", "empty-channels", "empty-depth", "output-size-length", "negative-output", "6d"],
)
def test_adaptive_avg_pool3d_refuses(infer_helpers, shape, output_size):
    # The CPU kernel refuses these (the Python meta kernel lets empty dims through).
    with pytest.raises(RuntimeError):
        aten._adaptive_avg_pool3d(cpu(*shape), output_size)
    with pytest.raises(RuntimeError, match="adaptive_avg_pool3d"):
        infer_helpers.adaptive_avg_pool3d_npu_output_size(meta(*shape), output_size)


@pytest.mark.parametrize(
    "shape,output_size", [((2, 3, 4, 4), [2, 3]), ((3, 4, 4), [8, 8]), ((0, 3, 4, 4), [2, 2]), ((3, 4, 4), [2, 0])]
)
def test_max_pool2d_out_size(infer_helpers, shape, output_size):
    self = meta(*shape)
    pooled = aten.adaptive_max_pool2d(self, output_size)[0].shape
    unpooled = aten.max_unpool2d(self, indices_like(self), output_size).shape
    assert infer_helpers.max_pool2d_out_size(self, output_size) == list(pooled) == list(unpooled)


@pytest.mark.parametrize(
    "shape,output_size",
    [((4, 4), [2, 2]), ((2, 3, 4, 4, 4), [2, 2]), ((3, 0, 4), [2, 2]), ((3, 4, 4), [2]), ((3, 4, 4), [-1, 2])],
    ids=["2d", "5d", "empty-height", "output-size-length", "negative-output"],
)
def test_max_pool2d_out_size_refuses(infer_helpers, shape, output_size):
    with pytest.raises(RuntimeError, match="max_unpool2d"):
        infer_helpers.max_pool2d_out_size(meta(*shape), output_size)


@pytest.mark.parametrize(
    "shape,output_size", [((2, 3, 4, 4, 4), [8, 8, 8]), ((3, 4, 4, 4), [8, 8, 8]), ((0, 3, 4, 4, 4), [8, 0, 8])]
)
def test_max_pool3d_output_size(infer_helpers, shape, output_size):
    self = meta(*shape)
    expected = aten.max_unpool3d(self, indices_like(self), output_size, [2, 2, 2], [0, 0, 0]).shape
    assert infer_helpers.max_pool3d_output_size(self, output_size) == list(expected)


@pytest.mark.parametrize(
    "shape,output_size",
    [((4, 4, 4), [8, 8, 8]), ((2, 0, 4, 4, 4), [8, 8, 8]), ((3, 4, 4, 4), [8, 8]), ((3, 4, 4, 4), [8, -1, 8])],
    ids=["3d", "empty-channels", "output-size-length", "negative-output"],
)
def test_max_pool3d_output_size_refuses(infer_helpers, shape, output_size):
    with pytest.raises(RuntimeError, match="max_unpool3d"):
        infer_helpers.max_pool3d_output_size(meta(*shape), output_size)


# (spatial dims N of reflection_padNd / replication_padNd, self's shape, padding)
PAD_CASES = [
    (1, (2, 5), [1, 2]),
    (1, (2, 3, 5), [0, 0]),
    (1, (0, 3, 5), [2, 1]),
    (1, (2, 5), [-1, -2]),
    (1, (1, 3), [-2, 0]),
    (2, (2, 4, 5), [1, 2, 3, 0]),
    (2, (2, 2, 4, 5), [0, 0, 0, 0]),
    (2, (0, 1, 4, 5), [1, 1, 1, 1]),
    (2, (1, 4, 4), [-1, -1, 1, 0]),
    (2, (1, 3, 3), [0, 0, -2, -1]),  # an empty output dim: accepted while another is not empty (torch < 2.14)
    (3, (2, 3, 4, 5), [1, 0, 2, 1, 0, 2]),
    (3, (2, 1, 3, 4, 5), [1, 1, 1, 1, 1, 1]),
    (3, (0, 1, 3, 4, 5), [0, 1, 0, 1, 0, 1]),
    (3, (1, 3, 3, 3), [0, 0, 0, 0, -2, -1]),  # as above
]
PAD_REFUSED = [
    (1, (5,), [1, 1]),  # rank: the meta kernel of torch < 2.13 indexes out of range here
    (1, (2, 2, 3, 3), [1, 1]),  # rank: the meta kernel (and CPU before 2.13) give a wrong shape
    (1, (0, 5), [1, 1]),
    (1, (2, 0, 5), [1, 1]),
    (1, (2, 5), [1]),
    (1, (1, 3), [-2, -1]),
    (1, (1, 3), [-2, -2]),
    (2, (4, 5), [1, 1, 1, 1]),
    (2, (1, 2, 2, 4, 5), [1, 1, 1, 1]),
    (2, (0, 4, 5), [1, 1, 1, 1]),
    (2, (2, 4, 5), [1, 1]),
    (2, (1, 3, 3), [-2, -1, -2, -1]),
    (2, (1, 3, 3), [-2, -2, 0, 0]),
    (3, (3, 4, 5), [1] * 6),
    (3, (2, 0, 3, 4, 5), [1] * 6),
    (3, (2, 3, 4, 5), [1] * 4),
    (3, (1, 3, 3, 3), [-2, -1] * 3),
]


@pytest.mark.parametrize("mode", ["reflection", "replication"])
@pytest.mark.parametrize("n,shape,padding", PAD_CASES)
def test_pad(infer_helpers, mode, n, shape, padding):
    helper = getattr(infer_helpers, f"{mode}_pad{n}d_npu_out_size")
    try:
        expected = getattr(aten, f"{mode}_pad{n}d")(meta(*shape), padding).shape
    except RuntimeError:  # this torch refuses what older ones took (an empty output dim): so must the helper
        with pytest.raises(RuntimeError, match=f"{mode}_pad{n}d"):
            helper(meta(*shape), padding)
        return
    if all(p >= 0 for p in padding):  # F.pad takes the same route
        assert F.pad(meta(*shape), padding, mode="reflect" if mode == "reflection" else "replicate").shape == expected
    assert helper(meta(*shape), padding) == list(expected)


@pytest.mark.parametrize("mode", ["reflection", "replication"])
@pytest.mark.parametrize("n,shape,padding", PAD_REFUSED)
def test_pad_refuses(infer_helpers, mode, n, shape, padding):
    if len(shape) in (n + 1, n + 2):  # older CPU kernels take some other ranks, see above
        with pytest.raises(RuntimeError):
            getattr(aten, f"{mode}_pad{n}d")(cpu(*shape), padding)
    helper = getattr(infer_helpers, f"{mode}_pad{n}d_npu_out_size")
    with pytest.raises(RuntimeError, match=f"{mode}_pad{n}d"):
        helper(meta(*shape), padding)


def test_pad_reflection_needs_pads_smaller_than_the_dim(infer_helpers):
    assert infer_helpers.replication_pad1d_npu_out_size(meta(2, 3), [3, 1]) == [2, 7]
    with pytest.raises(RuntimeError, match=r"reflection_pad1d.*less than"):
        infer_helpers.reflection_pad1d_npu_out_size(meta(2, 3), [3, 1])
    with pytest.raises(RuntimeError, match=r"reflection_pad2d.*less than"):
        infer_helpers.reflection_pad2d_npu_out_size(meta(1, 3, 3), [0, 0, 1, 3])


def test_pad_overflow(infer_helpers):
    with pytest.raises(RuntimeError, match=r"replication_pad1d.*overflow"):
        infer_helpers.replication_pad1d_npu_out_size(meta(2, 3), [2**62, 2**62])


@pytest.mark.parametrize(
    "shape,input_size,kernel_size",
    [
        ((2, 12, 9), [4, 4], [2, 2]),
        ((12, 9), [4, 4], [2, 2]),
        ((0, 12, 9), [4, 4], [2, 2]),
        ((1, 6, 6), [4, 3], [3, 1]),
    ],
)
def test_im2col_backward(infer_helpers, shape, input_size, kernel_size):
    expected = aten.col2im(meta(*shape), input_size, kernel_size, [1, 1], [0, 0], [1, 1]).shape
    assert infer_helpers.im2col_backward_npu_output_size(meta(*shape), input_size, kernel_size) == list(expected)


@pytest.mark.parametrize(
    "shape,input_size,kernel_size",
    [
        ((1, 2, 12, 9), [4, 4], [2, 2]),
        ((12,), [4, 4], [2, 2]),
        ((2, 0, 9), [4, 4], [2, 2]),
        ((0, 9), [4, 4], [2, 2]),
        ((2, 10, 9), [4, 4], [2, 2]),
        ((2, 12, 9), [4, 4], [0, 2]),
        ((2, 12, 9), [4], [2, 2]),
        ((2, 12, 9), [4, 4], [2]),
        ((2, 12, 9), [0, 4], [2, 2]),
        ((2, 12, 9), [4, 4], [2**32, 2**32]),
    ],
    ids=[
        "4d",
        "1d",
        "empty-channels",
        "empty-2d",
        "not-divisible",
        "zero-kernel",
        "input-size-length",
        "kernel-size-length",
        "empty-output",
        "kernel-overflow",
    ],
)
def test_im2col_backward_refuses(infer_helpers, shape, input_size, kernel_size):
    with pytest.raises(RuntimeError, match="col2im"):
        infer_helpers.im2col_backward_npu_output_size(meta(*shape), input_size, kernel_size)
