"""Internal storage formats: npu_format_cast / get_npu_format, the TransData re-layout
in device memory, copies and views of FRACTAL_NZ / NC1HWC0 / FRACTAL_Z / NDC1HWC0 /
FRACTAL_Z_3D tensors, and the dual path sending internal-format inputs to acl_op."""

from __future__ import annotations

import numpy as np
import pytest
import torch

Format = torch.npu.Format
ND, NCHW, HD, NZ = int(Format.ND), int(Format.NCHW), int(Format.NC1HWC0), int(Format.FRACTAL_NZ)


def c0_of(dtype: torch.dtype) -> int:
    return 32 if torch.empty(0, dtype=dtype).element_size() == 1 else 16


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def nz_layout(a: np.ndarray, c0: int) -> np.ndarray:
    """CANN's FRACTAL_NZ of [..., M, N]: [..., N1, M1, 16, C0], zero padded (1-D: [1, N])."""
    m = a.reshape((1, *a.shape)) if a.ndim == 1 else a
    lead, (rows, cols) = m.shape[:-2], m.shape[-2:]
    m1, n1 = ceil_div(rows, 16), ceil_div(cols, c0)
    padded = np.zeros((*lead, m1 * 16, n1 * c0), a.dtype)
    padded[..., :rows, :cols] = m
    k = len(lead)
    return padded.reshape((*lead, m1, 16, n1, c0)).transpose(*range(k), k + 2, k, k + 1, k + 3)


def hd_layout(a: np.ndarray, c0: int) -> np.ndarray:
    """NC1HWC0 of NCHW (fewer dims read as [1, C, 1, 1], [N, C, 1, 1], [N, C, H, 1])."""
    s = (1, a.shape[0]) if a.ndim == 1 else a.shape
    n, c, h, w = tuple(s) + (1,) * (4 - len(s))
    c1 = ceil_div(c, c0)
    padded = np.zeros((n, c1 * c0, h, w), a.dtype)
    padded[:, :c] = a.reshape(n, c, h, w)
    return padded.reshape(n, c1, c0, h, w).transpose(0, 1, 3, 4, 2)


def raw_storage_bytes(t: torch.Tensor) -> np.ndarray:
    """The device bytes of t's storage as they are (a uint8 tensor set_ onto the storage, copied to the host)."""
    raw = torch.empty(0, dtype=torch.uint8, device=t.device).set_(t.untyped_storage())
    return raw.cpu().numpy()


def as_bits(a: np.ndarray) -> np.ndarray:
    return a.view(np.uint8).reshape(-1)


def sample(shape: tuple, dtype: torch.dtype, seed: int = 0) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    if dtype.is_floating_point:
        return (torch.rand(shape, generator=g) * 200 - 100).to(dtype)
    return torch.randint(-100, 100, shape, generator=g).to(dtype)


NZ_SHAPES = [(16, 16), (5, 7), (33, 47), (100,), (3, 17, 20), (2, 3, 40, 33)]
HD_SHAPES = [(2, 3, 4, 5), (1, 17, 3, 3), (2, 40, 7, 9), (3, 20), (2, 5, 6)]
DTYPES = [torch.float16, torch.float32]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", NZ_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_nd_to_nz_round_trip_and_tile_order(dtype, shape):
    cpu = sample(shape, dtype)
    nz = torch.npu.npu_format_cast(cpu.npu(), NZ)
    assert torch.npu.get_npu_format(nz) == Format.FRACTAL_NZ
    assert torch.ops.npu.get_npu_format(nz) == 29
    assert nz.shape == cpu.shape and nz.dtype == dtype
    expected = nz_layout(cpu.numpy(), c0_of(dtype))
    # the padding is real: the storage holds the padded tiles ...
    assert nz.untyped_storage().nbytes() == expected.size * cpu.element_size()
    # ... in tile order, with zeros in the padding
    np.testing.assert_array_equal(raw_storage_bytes(nz), as_bits(np.ascontiguousarray(expected)))
    # .cpu() returns the logical values; casting back gives an ND tensor with the same values
    torch.testing.assert_close(nz.cpu(), cpu, rtol=0, atol=0)
    nd = torch.npu.npu_format_cast(nz, ND)
    assert torch.npu.get_npu_format(nd) == Format.ND
    assert nd.untyped_storage().nbytes() == cpu.numel() * cpu.element_size()
    torch.testing.assert_close(nd.cpu(), cpu, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", HD_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_nchw_to_5hd_round_trip_and_c0_order(dtype, shape):
    cpu = sample(shape, dtype, seed=3)
    hd = torch.npu.npu_format_cast(torch.npu.npu_format_cast(cpu.npu(), NCHW), HD)
    assert torch.npu.get_npu_format(hd) == Format.NC1HWC0
    expected = hd_layout(cpu.numpy(), c0_of(dtype))
    assert hd.untyped_storage().nbytes() == expected.size * cpu.element_size()
    np.testing.assert_array_equal(raw_storage_bytes(hd), as_bits(np.ascontiguousarray(expected)))
    back = torch.npu.npu_format_cast(hd, NCHW)
    assert torch.npu.get_npu_format(back) == Format.NCHW
    torch.testing.assert_close(back.cpu(), cpu, rtol=0, atol=0)
    torch.testing.assert_close(hd.cpu(), cpu, rtol=0, atol=0)


def test_int8_uses_c0_32():
    cpu = sample((20, 40), torch.int8)
    nz = torch.npu.npu_format_cast(cpu.npu(), NZ)
    assert nz.untyped_storage().nbytes() == 2 * 2 * 16 * 32  # N1 = ceil(40/32), M1 = ceil(20/16)
    np.testing.assert_array_equal(raw_storage_bytes(nz), as_bits(np.ascontiguousarray(nz_layout(cpu.numpy(), 32))))
    torch.testing.assert_close(nz.cpu(), cpu)


def test_nz_to_5hd_goes_through_the_origin_format():
    cpu = sample((2, 20, 3, 3), torch.float32)
    hd = torch.npu.npu_format_cast(torch.npu.npu_format_cast(cpu.npu(), NZ), HD)
    assert torch.npu.get_npu_format(hd) == Format.NC1HWC0
    torch.testing.assert_close(hd.cpu(), cpu, rtol=0, atol=0)


def test_same_format_returns_self_and_inplace_cast():
    x = sample((5, 7), torch.float32).npu()
    assert torch.npu.npu_format_cast(x, ND) is x
    y = x.clone()
    assert torch.npu.npu_format_cast_(y, NZ) is y
    assert torch.npu.get_npu_format(y) == Format.FRACTAL_NZ
    assert y.untyped_storage().nbytes() == 1 * 1 * 16 * 16 * 4
    torch.testing.assert_close(y.cpu(), x.cpu(), rtol=0, atol=0)


@pytest.mark.parametrize("op", ["add", "mul", "abs", "add_alpha", "add_", "abs_"])
@pytest.mark.parametrize("fmt", [NZ, HD])
def test_ops_on_internal_format_inputs_take_acl_op(ledger, assert_same, op, fmt):
    a, b = sample((2, 20, 5, 3), torch.float32, 1), sample((2, 20, 5, 3), torch.float32, 2)
    x, y = torch.npu.npu_format_cast(a.npu(), fmt), torch.npu.npu_format_cast(b.npu(), fmt)
    name = {
        "add": "add.Tensor",
        "add_alpha": "add.Tensor",
        "add_": "add_.Tensor",
        "mul": "mul.Tensor",
        "abs": "abs",
        "abs_": "abs_",
    }[op]
    if op == "add":
        got, want = torch.add(x, y), torch.add(a, b)
    elif op == "add_alpha":
        got, want = torch.add(x, y, alpha=2.5), torch.add(a, b, alpha=2.5)
    elif op == "add_":
        got, want = x.add_(y), a.clone().add_(b)
    elif op == "mul":
        got, want = torch.mul(x, y), torch.mul(a, b)
    elif op == "abs":
        got, want = torch.abs(x), torch.abs(a)
    else:
        got, want = x.abs_(), a.clone().abs_()
    counts = ledger()[name]
    assert counts["acl_op"] == 1 and counts["op_api"] == 0, counts  # op_api needs base formats
    assert torch.npu.get_npu_format(got) == fmt  # computed on the padded storage, format kept
    assert_same(got, want)
    # the padding stays zero, so the result's storage is the layout of the CPU result
    layout = nz_layout if fmt == NZ else hd_layout
    np.testing.assert_allclose(
        np.ascontiguousarray(layout(want.numpy(), 16)).reshape(-1),
        raw_storage_bytes(got).view(np.float32),
        rtol=1e-5,
        atol=1e-4,
    )


def test_base_inputs_keep_op_api(ledger):
    a = sample((4, 4), torch.float32).npu()
    torch.add(a, a)
    torch.abs(a)
    assert ledger()["add.Tensor"]["op_api"] == 1 and ledger()["abs"]["op_api"] == 1


def test_mixed_formats_run_in_base_format(ledger, assert_same):
    a, b = sample((6, 18), torch.float16, 1), sample((6, 18), torch.float16, 2)
    x = torch.npu.npu_format_cast(a.npu(), NZ)
    got = x + b.npu()
    assert ledger()["add.Tensor"]["acl_op"] == 1
    assert torch.npu.get_npu_format(got) == Format.ND
    assert_same(got, a + b)
    assert_same(x * 3, a * 3)  # a CPU scalar operand: base format too
    assert_same(torch.add(x, torch.ones(18, dtype=torch.float16).npu()), a + 1)  # broadcasting


def test_copy_into_internal_format_tensor():
    a = sample((9, 21), torch.float32)
    nz = torch.npu.npu_format_cast(torch.zeros(9, 21).npu(), NZ)
    nz.copy_(a)  # from the CPU: converted into the tile layout
    assert torch.npu.get_npu_format(nz) == Format.FRACTAL_NZ
    np.testing.assert_array_equal(raw_storage_bytes(nz), as_bits(np.ascontiguousarray(nz_layout(a.numpy(), 16))))
    nz.copy_(a.npu() * 2)  # from an npu tensor
    torch.testing.assert_close(nz.cpu(), a * 2)
    out = torch.empty(9, 21, dtype=torch.float64)
    out.copy_(nz)  # to the CPU with a dtype change
    torch.testing.assert_close(out, (a * 2).double())


def test_views_convert_to_base_format_first():
    a = sample((4, 6, 20), torch.float32)
    x = torch.npu.npu_format_cast(a.npu(), NZ)
    alias = x.detach()  # shares the storage
    v = x[1]  # select -> as_strided: the storage is re-laid as ND first
    assert torch.npu.get_npu_format(x) == Format.ND
    assert torch.npu.get_npu_format(alias) == Format.ND
    assert x.untyped_storage().nbytes() == a.numel() * 4
    torch.testing.assert_close(v.cpu(), a[1])
    torch.testing.assert_close(alias.cpu(), a)
    v.fill_(7)  # still a view of x
    torch.testing.assert_close(x.cpu()[1], torch.full((6, 20), 7.0))
    y = torch.npu.npu_format_cast(a.npu(), NZ)
    torch.testing.assert_close(y.view(24, 20).cpu(), a.view(24, 20))
    z = torch.npu.npu_format_cast(a.npu(), NZ)
    torch.testing.assert_close(z.transpose(0, 2).cpu(), a.transpose(0, 2))


def test_fill_and_resize_convert_first():
    x = torch.npu.npu_format_cast(torch.ones(5, 7).npu(), NZ)
    x.fill_(3)
    assert torch.npu.get_npu_format(x) == Format.ND
    torch.testing.assert_close(x.cpu(), torch.full((5, 7), 3.0))
    z = torch.npu.npu_format_cast(torch.ones(5, 7).npu(), NZ)
    z.zero_()
    torch.testing.assert_close(z.cpu(), torch.zeros(5, 7))


def test_printing_shows_logical_values():
    a = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    x = torch.npu.npu_format_cast(a.npu(), NZ)
    assert repr(x) == repr(a)[:-1] + ", device='npu:0')"
    # the formatter indexes the tensor, and views re-lay the storage in ND first (values unchanged)
    assert torch.npu.get_npu_format(x) == Format.ND
    assert x.sum().item() == 66.0 and x[2, 3].item() == 11.0


def test_bad_format_ids_name_the_op_and_argument():
    x = torch.ones(4, 4).npu()
    with pytest.raises(RuntimeError, match=r"npu_format_cast: acl_format=7 is not a supported npu format"):
        torch.npu.npu_format_cast(x, 7)
    with pytest.raises(RuntimeError, match=r"npu_format_cast_: acl_format=-1 is not a supported npu format"):
        torch.npu.npu_format_cast_(x, -1)
    # CANN formats the device cannot hold are named.
    for fmt in (Format.NHWC, Format.NC1HWC0_C04, Format.HWCN, Format.NDHWC):
        with pytest.raises(RuntimeError, match=rf"npu_format_cast: acl_format={int(fmt)} is {fmt.name}, a CANN "
                           "format the npu device cannot hold"):
            torch.npu.npu_format_cast(x, fmt)
    with pytest.raises(RuntimeError, match=r"npu_format_cast: a tensor of shape \[2, 2, 2, 2, 2\] has no NC1HWC0"):
        torch.npu.npu_format_cast(torch.ones(2, 2, 2, 2, 2).npu(), HD)
    with pytest.raises(RuntimeError, match=r"npu_format_cast: a tensor of shape \[2, 2\] has no NDC1HWC0 layout \(5 "):
        torch.npu.npu_format_cast(torch.ones(2, 2).npu(), int(Format.NDC1HWC0))
    with pytest.raises(RuntimeError, match=r"npu_format_cast: dtype Double has no FRACTAL_NZ layout"):
        torch.npu.npu_format_cast(torch.ones(4, 4, dtype=torch.float64).npu(), NZ)
    with pytest.raises(RuntimeError, match=r"npu_format_cast: a 0-dimensional tensor has no FRACTAL_NZ layout"):
        torch.npu.npu_format_cast(torch.tensor(1.0).npu(), NZ)
    with pytest.raises(NotImplementedError, match=r"Could not run 'npu::npu_format_cast' with arguments from the"):
        torch.npu.npu_format_cast(torch.ones(2), NZ)


def test_aclnn_only_device_rejects_internal_format_inputs(run_python):
    result = run_python(
        """
        import torch, opplugin_runtime
        x = torch.npu.npu_format_cast(torch.ones(5, 7).npu(), 29)   # TransData is the runtime's own conversion
        print(torch.npu.get_npu_format(x).name, x.cpu().sum().item())
        try:
            torch.add(x, x)
        except RuntimeError as error:
            print("ERROR:", str(error).splitlines()[0])
        y = torch.npu.npu_format_cast(x, 2)                        # converting to ND first works
        print((y + y).cpu().sum().item())
        """,
        env={"NPU_ACLNN_ONLY": "1"},
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0] == "FRACTAL_NZ 35.0"
    assert lines[1].startswith("ERROR: add.Tensor: acl_op kernels cannot run on this aclnn-only device")
    assert "base-format inputs" in lines[1]
    assert lines[2] == "70.0"


FZ, NCDHW, NDC1HWC0, FZ3D = int(Format.FRACTAL_Z), int(Format.NCDHW), int(Format.NDC1HWC0), int(Format.FRACTAL_Z_3D)


def fz_layout(a: np.ndarray, c0: int) -> np.ndarray:
    """CANN's FRACTAL_Z of NCHW: [C1 * H * W, N1, 16, C0], N padded to 16s and C to C0s."""
    s = (1, a.shape[0]) if a.ndim == 1 else a.shape
    n, c, h, w = tuple(s) + (1,) * (4 - len(s))
    c1, n1 = ceil_div(c, c0), ceil_div(n, 16)
    padded = np.zeros((n1 * 16, c1 * c0, h, w), a.dtype)
    padded[:n, :c] = a.reshape(n, c, h, w)
    split = padded.reshape(n1, 16, c1, c0, h, w)
    return split.transpose(2, 4, 5, 0, 1, 3).reshape(c1 * h * w, n1, 16, c0)


def ndc1hwc0_layout(a: np.ndarray, c0: int) -> np.ndarray:
    """NDC1HWC0 of NCDHW: [N, D, C1, H, W, C0]."""
    n, c, d, h, w = a.shape
    c1 = ceil_div(c, c0)
    padded = np.zeros((n, c1 * c0, d, h, w), a.dtype)
    padded[:, :c] = a
    return padded.reshape(n, c1, c0, d, h, w).transpose(0, 3, 1, 4, 5, 2)


def fz3d_layout(a: np.ndarray, c0: int) -> np.ndarray:
    """FRACTAL_Z_3D of NCDHW: [D * C1 * H * W, N1, 16, C0]."""
    n, c, d, h, w = a.shape
    c1, n1 = ceil_div(c, c0), ceil_div(n, 16)
    padded = np.zeros((n1 * 16, c1 * c0, d, h, w), a.dtype)
    padded[:n, :c] = a
    split = padded.reshape(n1, 16, c1, c0, d, h, w)
    return split.transpose(4, 2, 5, 6, 0, 1, 3).reshape(d * c1 * h * w, n1, 16, c0)


CONV_FORMATS = [
    (FZ, NCHW, fz_layout, [(16, 16, 3, 3), (5, 7, 2, 3), (33, 20, 1, 1), (40, 3), (7,)]),
    (NDC1HWC0, NCDHW, ndc1hwc0_layout, [(2, 16, 3, 4, 5), (1, 5, 2, 3, 3), (3, 20, 1, 2, 2)]),
    (FZ3D, NCDHW, fz3d_layout, [(16, 16, 2, 3, 3), (5, 7, 2, 2, 3), (20, 33, 1, 1, 1)]),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt,base,layout,shape", [(f, b, lay, s) for f, b, lay, shapes in CONV_FORMATS
                                                   for s in shapes],
                         ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else str(v))
def test_convolution_formats_round_trip_with_cann_storage(dtype, fmt, base, layout, shape):
    cpu = sample(shape, dtype, seed=5)
    t = torch.npu.npu_format_cast(cpu.npu(), fmt)
    assert torch.npu.get_npu_format(t) == Format(fmt)
    assert t.shape == cpu.shape and t.dtype == dtype
    expected = np.ascontiguousarray(layout(cpu.numpy(), c0_of(dtype)))
    # the storage size is CANN's (padding included) and the bytes are CANN's layout
    assert torch.ops.npu.get_storage_size(t) == expected.size
    assert t.untyped_storage().nbytes() == expected.size * cpu.element_size()
    np.testing.assert_array_equal(raw_storage_bytes(t), as_bits(expected))
    torch.testing.assert_close(t.cpu(), cpu, rtol=0, atol=0)
    # the cast back gives the origin format (NCHW / NCDHW), as CANN
    back = torch.npu.npu_format_cast(t, base)
    assert torch.npu.get_npu_format(back) == Format(base)
    torch.testing.assert_close(back.cpu(), cpu, rtol=0, atol=0)


def test_cast_between_internal_formats_goes_through_the_origin_format():
    cpu = sample((4, 20, 3, 3), torch.float32, seed=6)
    fz = torch.npu.npu_format_cast(torch.npu.npu_format_cast(cpu.npu(), HD), FZ)
    assert torch.npu.get_npu_format(fz) == Format.FRACTAL_Z
    torch.testing.assert_close(fz.cpu(), cpu, rtol=0, atol=0)
    back = torch.npu.npu_format_cast(fz, HD)
    assert torch.npu.get_npu_format(back) == Format.NC1HWC0
    assert torch.npu.get_npu_format(torch.npu.npu_format_cast(back, NCHW)) == Format.NCHW
    torch.testing.assert_close(back.cpu(), cpu, rtol=0, atol=0)


@pytest.mark.parametrize("fmt,shape", [(FZ, (4, 20, 3, 3)), (NDC1HWC0, (2, 20, 2, 3, 3)), (FZ3D, (4, 20, 2, 3, 3)),
                                       (HD, (2, 20, 5, 3))])
def test_ops_on_convolution_format_inputs_match_cpu(ledger, assert_same, fmt, shape):
    a, b = sample(shape, torch.float32, 1) / 100, sample(shape, torch.float32, 2) / 100
    close = {"rtol": 1e-5, "atol": 1e-5}  # sums and products: another summation order than CPU's
    x, y = torch.npu.npu_format_cast(a.npu(), fmt), torch.npu.npu_format_cast(b.npu(), fmt)
    # elementwise with equal formats: on the stored layout, the format kept
    got = torch.add(x, y)
    assert torch.npu.get_npu_format(got) == Format(fmt)
    assert_same(got, a + b)
    got = torch.relu(x)
    assert ledger()["relu"]["acl_op"] == 1
    assert torch.npu.get_npu_format(got) == Format(fmt)
    assert_same(got, torch.relu(a))
    assert_same(x * y, a * b)
    # ops that depend on the layout read the base format (TransData first)
    assert_same(torch.exp(x), torch.exp(a))
    assert_same(x - y, a - b)
    assert_same(torch.sum(x, dim=1), torch.sum(a, dim=1), **close)
    assert_same(torch.amax(x, dim=(0, -1), keepdim=True), torch.amax(a, dim=(0, -1), keepdim=True))
    assert_same(torch.mean(x), torch.mean(a), **close)
    assert_same(torch.softmax(x, dim=1), torch.softmax(a, dim=1), **close)
    assert_same(torch.gt(x, y), torch.gt(a, b))
    flat_x, flat_a = x.reshape(shape[0], -1), a.reshape(shape[0], -1)
    assert_same(flat_x @ flat_a.t().npu(), flat_a @ flat_a.t(), **close)


@pytest.mark.parametrize("fmt", [FZ, HD])
def test_matmul_reads_convolution_format_operands(assert_same, fmt):
    a, b = sample((24, 40), torch.float32, 3) / 100, sample((40, 8), torch.float32, 4) / 100
    x = torch.npu.npu_format_cast(a.npu(), fmt)
    assert torch.npu.get_npu_format(x) == Format(fmt)
    close = {"rtol": 1e-5, "atol": 1e-5}
    assert_same(torch.mm(x, b.npu()), a @ b, **close)
    assert_same(torch.addmm(torch.ones(8).npu(), x, b.npu()), torch.addmm(torch.ones(8), a, b), **close)
