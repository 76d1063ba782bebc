"""The convolution acl_op types (abi/aclop/conv.decl) against numpy: Conv2D / Conv3D with groups, stride,
padding, dilation and bias, their input and filter gradients as adjoints, the transposed convolutions as the
data gradient plus bias (output padding from the stride or the dilation), CANN's NC1HWC0 / FRACTAL_Z and
NDC1HWC0 / FRACTAL_Z_3D operands, and the attributes the simulator lacks."""

from __future__ import annotations

import itertools

import ascendc_kernels_testing as sim
import numpy as np
import pytest
from ascendc_kernels_testing import op_in

F32, F16 = sim.ACL_FLOAT, sim.ACL_FLOAT16
ACL_FORMAT_FRACTAL_Z = 4
NDC1HWC0, FRACTAL_Z_3D = 32, 33


def attrs(stride=(1, 1), pad=(0, 0), dil=(1, 1), groups=1, **extra):
    """The NCHW (two spatial values each) or NCDHW (three) attributes."""
    data_format = {2: "NCHW", 3: "NCDHW"}[len(stride)]
    return {"strides": [1, 1, *stride], "pads": [v for p in pad for v in (p, p)], "dilations": [1, 1, *dil],
            "groups": groups, "data_format": data_format, **extra}


def windows(n_in, k, s, p, d, n_out=None):
    """The output size and, per kernel offset, the strided slice of the padded input it reads."""
    n_out = (n_in + 2 * p - d * (k - 1) - 1) // s + 1 if n_out is None else n_out
    return n_out, [slice(i * d, i * d + s * (n_out - 1) + 1, s) for i in range(k)]


def geometry(x_shape, w_shape, stride, pad, dil, result=None):
    """Per spatial dimension (output size, slices per kernel offset), and the kernel offsets."""
    dims = [windows(x_shape[2 + i], w_shape[2 + i], stride[i], pad[i], dil[i], result and result[2 + i])
            for i in range(len(x_shape) - 2)]
    return dims, list(itertools.product(*(range(k) for k in w_shape[2:])))


def padded(x, pad):
    return np.pad(x.astype(np.float64), ((0, 0), (0, 0), *((p, p) for p in pad)))


def conv_reference(x, w, b, stride, pad, dil, groups):
    dims, offsets = geometry(x.shape, w.shape, stride, pad, dil)
    xp = padded(x, pad)
    cout, cg = w.shape[:2]
    y = np.zeros((x.shape[0], cout, *(n for n, _ in dims)))
    og = cout // groups
    for g in range(groups):
        xs, o = xp[:, g * cg:(g + 1) * cg], slice(g * og, (g + 1) * og)
        for k in offsets:
            window = (slice(None), slice(None), *(dims[i][1][k[i]] for i in range(len(k))))
            y[:, o] += np.einsum("oc,nc...->no...", w[(o, slice(None), *k)].astype(np.float64), xs[window])
    return y if b is None else y + b.astype(np.float64).reshape(1, -1, *([1] * len(dims)))


def grads_reference(x, w, gy, stride, pad, dil, groups):
    """The input and filter gradients of conv_reference for the output gradient gy."""
    dims, offsets = geometry(x.shape, w.shape, stride, pad, dil, gy.shape)
    xp = padded(x, pad)
    gxp, gw = np.zeros_like(xp), np.zeros(w.shape)
    cout, cg = w.shape[:2]
    og, gy = cout // groups, gy.astype(np.float64)
    for g in range(groups):
        c, o = slice(g * cg, (g + 1) * cg), slice(g * og, (g + 1) * og)
        for k in offsets:
            window = (slice(None), c, *(dims[i][1][k[i]] for i in range(len(k))))
            gxp[window] += np.einsum("oc,no...->nc...", w[(o, slice(None), *k)].astype(np.float64), gy[:, o])
            n = x.shape[0]
            gw[(o, slice(None), *k)] = np.einsum("nol,ncl->oc", gy[:, o].reshape(n, og, -1),
                                                 xp[window].reshape(n, cg, -1))
    crop = (slice(None), slice(None), *(slice(p, p + n) for p, n in zip(pad, x.shape[2:])))
    return gxp[crop], gw


def sizes(values):
    v = np.asarray(values, dtype=np.int32)
    return (None, tuple(v.shape), sim.ACL_INT32, sim.ACL_FORMAT_ND, v)


def run(op, inputs, out_shape, op_attrs, acl_type=F32):
    out = sim.DeviceArray.empty(tuple(out_shape), acl_type)
    sim.check(sim.run_aclop(op, inputs, [op_in(out)], op_attrs), op)
    return out.to_numpy()


rng = np.random.default_rng(0)
CASES = [  # x shape, weight shape, stride, pad, dilation, groups
    ((2, 4, 7, 6), (6, 2, 3, 2), (2, 1), (1, 0), (1, 2), 2),
    ((1, 3, 5, 5), (4, 3, 3, 3), (1, 1), (1, 1), (1, 1), 1),
    ((3, 2, 1, 9), (5, 2, 1, 3), (1, 2), (0, 2), (1, 1), 1),  # a 1-D convolution as height 1
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: "x".join(map(str, c[0])))
def test_conv2d_with_bias_and_its_gradients(acl, case):
    xs, ws, stride, pad, dil, groups = case
    x = rng.normal(size=xs).astype(np.float32)
    w = rng.normal(size=ws).astype(np.float32)
    b = rng.normal(size=ws[0]).astype(np.float32)
    expected = conv_reference(x, w, b, stride, pad, dil, groups)
    a = attrs(stride, pad, dil, groups)
    y = run("Conv2D", [op_in(sim.dev(x)), op_in(sim.dev(w)), op_in(sim.dev(b))], expected.shape, a)
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)
    gy = rng.normal(size=expected.shape).astype(np.float32)
    gx_expected, gw_expected = grads_reference(x, w, gy, stride, pad, dil, groups)
    gx = run("Conv2DBackpropInput", [sizes(xs), op_in(sim.dev(w)), op_in(sim.dev(gy))], xs, a)
    np.testing.assert_allclose(gx, gx_expected, rtol=1e-5, atol=1e-5)
    gw = run("Conv2DBackpropFilter", [op_in(sim.dev(x)), sizes(ws), op_in(sim.dev(gy))], ws, a)
    np.testing.assert_allclose(gw, gw_expected, rtol=1e-5, atol=1e-4)


def test_float16_filter_gradient_comes_in_float32(acl):
    """CANN's Conv2DBackpropFilter gives a float16 convolution's filter gradient in float32."""
    x = rng.normal(size=(2, 3, 6, 5)).astype(np.float16)
    w = rng.normal(size=(4, 3, 2, 2)).astype(np.float16)
    gy = rng.normal(size=(2, 4, 5, 4)).astype(np.float16)
    a = attrs()
    _, gw_expected = grads_reference(x, w, gy, (1, 1), (0, 0), (1, 1), 1)
    gw = run("Conv2DBackpropFilter", [op_in(sim.dev(x)), sizes(w.shape), op_in(sim.dev(gy))], w.shape, a, F32)
    assert gw.dtype == np.float32
    np.testing.assert_allclose(gw, gw_expected, rtol=1e-3, atol=1e-3)
    y = run("Conv2D", [op_in(sim.dev(x)), op_in(sim.dev(w))], gy.shape, a, F16)
    np.testing.assert_allclose(y, conv_reference(x, w, None, (1, 1), (0, 0), (1, 1), 1), rtol=2e-3, atol=2e-2)


def test_conv3d_with_bias_and_its_gradients(acl):
    x = rng.normal(size=(2, 4, 3, 5, 4)).astype(np.float32)
    w = rng.normal(size=(6, 2, 2, 3, 2)).astype(np.float32)
    b = rng.normal(size=6).astype(np.float32)
    geometry3d = ((1, 2, 1), (1, 0, 1), (1, 1, 2), 2)
    a = attrs(*geometry3d)
    expected = conv_reference(x, w, b, *geometry3d)
    y = run("Conv3D", [op_in(sim.dev(x)), op_in(sim.dev(w)), op_in(sim.dev(b))], expected.shape, a)
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)
    gy = rng.normal(size=expected.shape).astype(np.float32)
    gx_expected, gw_expected = grads_reference(x, w, gy, *geometry3d)
    gx = run("Conv3DBackpropInput", [sizes(x.shape), op_in(sim.dev(w)), op_in(sim.dev(gy))], x.shape, a)
    np.testing.assert_allclose(gx, gx_expected, rtol=1e-5, atol=1e-5)
    gw = run("Conv3DBackpropFilter", [op_in(sim.dev(x)), sizes(w.shape), op_in(sim.dev(gy))], w.shape, a)
    np.testing.assert_allclose(gw, gw_expected, rtol=1e-5, atol=1e-4)


TRANSPOSED = [  # x shape, weight shape [Cin, Cout / groups, k...], stride, pad, dilation, groups, output padding
    ((2, 4, 3, 4), (4, 1, 3, 2), (2, 1), (0, 1), (1, 2), 2, (1, 0)),
    ((1, 3, 4, 4), (3, 2, 2, 2), (1, 1), (0, 0), (3, 3), 1, (2, 1)),  # output padding from the dilation
    ((1, 2, 3, 2, 3), (2, 3, 2, 2, 3), (2, 2, 2), (0, 1, 0), (1, 1, 1), 1, (1, 0, 1)),
]


@pytest.mark.parametrize("case", TRANSPOSED, ids=lambda c: "x".join(map(str, c[0])))
def test_transposed_convolution_is_the_data_gradient_plus_bias(acl, case):
    xs, ws, stride, pad, dil, groups, out_pad = case
    x = rng.normal(size=xs).astype(np.float32)
    w = rng.normal(size=ws).astype(np.float32)
    cout = ws[1] * groups
    b = rng.normal(size=cout).astype(np.float32)
    spatial = [(n - 1) * s - 2 * p + d * (k - 1) + 1 + o
               for n, s, p, d, k, o in zip(xs[2:], stride, pad, dil, ws[2:], out_pad)]
    y_shape = (xs[0], cout, *spatial)
    image, _ = grads_reference(np.zeros(y_shape, np.float32), w, x, stride, pad, dil, groups)
    expected = image + b.reshape(1, -1, *([1] * len(spatial)))
    op = {4: "Conv2DTranspose", 5: "Conv3DTranspose"}[len(xs)]
    a = attrs(stride, pad, dil, groups, output_padding=[0, 0, *out_pad])
    y = run(op, [sizes(y_shape), op_in(sim.dev(x)), op_in(sim.dev(w)), op_in(sim.dev(b))], y_shape, a)
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)


def packed(a: np.ndarray, fmt: int) -> tuple:
    """`a` (NCHW) converted by TransData into `fmt`, as a run_aclop operand with its origin shape."""
    dense = sim.dev(a)
    storage = {sim.ACL_FORMAT_NC1HWC0: hd_shape, ACL_FORMAT_FRACTAL_Z: fz_shape, NDC1HWC0: ndhd_shape,
               FRACTAL_Z_3D: fz3d_shape}[fmt](a.shape)
    out = sim.DeviceArray.empty(storage, dense.acl_type)
    sim.check(sim.run_aclop("TransData", [(dense, a.shape, dense.acl_type, sim.ACL_FORMAT_NCHW, None, a.shape)],
                            [(out, storage, out.acl_type, fmt, None, a.shape)]), "TransData")
    return (out, storage, out.acl_type, fmt, None, a.shape)


def hd_shape(shape):
    n, c, h, w = shape
    return (n, -(-c // 16), h, w, 16)


def fz_shape(shape):
    n, c, h, w = shape
    return (-(-c // 16) * h * w, -(-n // 16), 16, 16)


def ndhd_shape(shape):
    n, c, d, h, w = shape
    return (n, d, -(-c // 16), h, w, 16)


def fz3d_shape(shape):
    n, c, d, h, w = shape
    return (d * -(-c // 16) * h * w, -(-n // 16), 16, 16)


def unpacked(operand: tuple) -> np.ndarray:
    array, storage, acl_type, fmt, _, origin = operand
    dense = sim.DeviceArray.empty(origin, acl_type)
    sim.check(sim.run_aclop("TransData", [operand], [(dense, origin, acl_type, sim.ACL_FORMAT_NCHW, None, origin)]),
              "TransData")
    return dense.to_numpy()


def test_cann_formats_nc1hwc0_features_and_fractal_z_filters(acl):
    """The layouts CANN's graph gives Conv2D and its gradients: NC1HWC0 features, FRACTAL_Z filters."""
    x = rng.normal(size=(2, 18, 5, 4)).astype(np.float16)
    w = rng.normal(size=(20, 18, 3, 3)).astype(np.float16)
    a = attrs(pad=(1, 1))
    expected = conv_reference(x, w, None, (1, 1), (1, 1), (1, 1), 1)
    y = packed(np.zeros(expected.shape, np.float16), sim.ACL_FORMAT_NC1HWC0)
    sim.check(sim.run_aclop("Conv2D", [packed(x, sim.ACL_FORMAT_NC1HWC0), packed(w, ACL_FORMAT_FRACTAL_Z)], [y], a),
              "Conv2D")
    np.testing.assert_allclose(unpacked(y), expected, rtol=5e-3, atol=5e-2)
    gy = rng.normal(size=expected.shape).astype(np.float16)
    gx_expected, gw_expected = grads_reference(x, w, gy, (1, 1), (1, 1), (1, 1), 1)
    gx = packed(np.zeros(x.shape, np.float16), sim.ACL_FORMAT_NC1HWC0)
    sim.check(sim.run_aclop("Conv2DBackpropInput", [sizes(x.shape), packed(w, ACL_FORMAT_FRACTAL_Z),
                                                    packed(gy, sim.ACL_FORMAT_NC1HWC0)], [gx], a), "input gradient")
    np.testing.assert_allclose(unpacked(gx), gx_expected, rtol=5e-3, atol=5e-2)
    gw = packed(np.zeros(w.shape, np.float32), ACL_FORMAT_FRACTAL_Z)
    sim.check(sim.run_aclop("Conv2DBackpropFilter", [packed(x, sim.ACL_FORMAT_NC1HWC0), sizes(w.shape),
                                                     packed(gy, sim.ACL_FORMAT_NC1HWC0)], [gw], a), "filter gradient")
    np.testing.assert_allclose(unpacked(gw), gw_expected, rtol=1e-3, atol=1e-2)


def test_cann_formats_of_the_3d_types_ndc1hwc0_and_fractal_z_3d(acl):
    x = rng.normal(size=(1, 17, 3, 4, 3)).astype(np.float16)
    w = rng.normal(size=(3, 17, 2, 2, 2)).astype(np.float16)
    a = attrs((1, 1, 1), (0, 1, 0), (1, 1, 1))
    expected = conv_reference(x, w, None, (1, 1, 1), (0, 1, 0), (1, 1, 1), 1)
    y = packed(np.zeros(expected.shape, np.float16), NDC1HWC0)
    sim.check(sim.run_aclop("Conv3D", [packed(x, NDC1HWC0), packed(w, FRACTAL_Z_3D)], [y], a), "Conv3D")
    np.testing.assert_allclose(unpacked(y), expected, rtol=5e-3, atol=5e-2)
    # the transposed convolution of the result gives back an image of x's shape
    image, _ = grads_reference(np.zeros(x.shape, np.float16), w, expected, (1, 1, 1), (0, 1, 0), (1, 1, 1), 1)
    back = packed(np.zeros(x.shape, np.float16), NDC1HWC0)
    sim.check(sim.run_aclop("Conv3DTranspose", [sizes(x.shape), packed(expected.astype(np.float16), NDC1HWC0),
                                                packed(w, FRACTAL_Z_3D)], [back], a), "Conv3DTranspose")
    np.testing.assert_allclose(unpacked(back), image, rtol=5e-3, atol=0.5)


def test_unsimulated_attributes_and_bad_shapes_fail(acl):
    x = sim.dev(rng.normal(size=(1, 2, 4, 4)).astype(np.float32))
    w = sim.dev(rng.normal(size=(3, 2, 3, 3)).astype(np.float32))
    y = sim.DeviceArray.empty((1, 3, 2, 2), F32)

    def conv(op_attrs, out=y):
        return sim.run_aclop("Conv2D", [op_in(x), op_in(w)], [op_in(out)], op_attrs)

    # CANN's default layout NHWC, asymmetric padding and quantized inputs are not simulated
    assert conv({k: v for k, v in attrs().items() if k != "data_format"}) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert "data_format \"NHWC\"" in sim.recent_error()
    assert conv({**attrs(), "pads": [1, 0, 0, 0]}) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert conv(attrs(offset_x=3)) == sim.ACL_ERROR_FEATURE_UNSUPPORTED
    assert conv({**attrs(), "strides": [2, 1, 1, 1]}) == sim.ACL_ERROR_INVALID_PARAM
    assert conv(attrs(), sim.DeviceArray.empty((1, 3, 3, 2), F32)) == sim.ACL_ERROR_INVALID_PARAM
    assert "output y has shape [1, 3, 3, 2], which is not the convolution's result" in sim.recent_error()
    assert conv(attrs(groups=2)) == sim.ACL_ERROR_INVALID_PARAM  # 2 input channels, weight for 4
    gx = sim.DeviceArray.empty((1, 2, 4, 4), F32)
    wrong_size = sim.run_aclop("Conv2DBackpropInput", [sizes([1, 2, 5, 4]), op_in(w), op_in(y)], [op_in(gx)], attrs())
    assert wrong_size == sim.ACL_ERROR_INVALID_PARAM
    assert "input_size lists [1, 2, 5, 4]" in sim.recent_error()
    # output_padding must be below the stride or the dilation; the 3-D types take NCDHW
    transposed = sim.run_aclop("Conv2DTranspose", [sizes([1, 2, 4, 4]), op_in(y), op_in(w)], [op_in(gx)],
                               attrs(output_padding=[0, 0, 1, 1]))
    assert transposed == sim.ACL_ERROR_INVALID_PARAM and "output_padding" in sim.recent_error()
    x3 = sim.dev(np.zeros((1, 2, 3, 3, 3), np.float32))
    w3 = sim.dev(np.zeros((1, 2, 1, 1, 1), np.float32))
    y3 = sim.DeviceArray.empty((1, 1, 3, 3, 3), F32)
    conv3d = sim.run_aclop("Conv3D", [op_in(x3), op_in(w3)], [op_in(y3)], {**attrs((1, 1, 1)), "data_format": "NCHW"})
    assert conv3d == sim.ACL_ERROR_FEATURE_UNSUPPORTED
