// acl_op types Conv2D / Conv3D, their Backprop{Input,Filter} gradients and Conv2DTranspose / Conv3DTranspose
// (declared in abi/aclop/conv.decl) on the convolution kernel sequences of kernels/conv_api.h, the 2-D types
// as 3-D ones of depth 1. A *BackpropInput and a *Transpose are one computation, the data gradient of the plain
// convolution whose result is out_backprop / x. Features may come in NC1HWC0 / NDC1HWC0 and filters in
// FRACTAL_Z / FRACTAL_Z_3D (the formats CANN's graph gives them): such an operand is converted into a dense
// temporary by the TransData conversion, and an internal-format output is written through one.
#include <string>
#include <vector>

#include "aclop/declared_ops.h"
#include "aclop/format_shape.h"
#include "aclop/ops/elementwise_run.h"
#include "aclop/ops/layout_convert.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/conv_api.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

// What differs between the 2-D types (rank 4) and the 3-D ones (rank 5).
struct Rank {
  size_t dims;
  const char* dataFormat;
  std::vector<aclFormat> features;
  std::vector<aclFormat> filters;
};
const Rank kRank2d = {4, "NCHW", {ACL_FORMAT_NC1HWC0}, {ACL_FORMAT_FRACTAL_Z}};
const Rank kRank3d = {5, "NCDHW", {kFormatNdc1hwc0}, {kFormatFractalZ3d}};

// The (D, H, W) triples of the attributes every type has (D = 1 for the 2-D types).
struct Window {
  int64_t stride[3] = {1, 1, 1};
  int64_t padding[3] = {0, 0, 0};
  int64_t dilation[3] = {1, 1, 1};
};

template <typename Attrs>
aclError ReadWindow(OpContext& ctx, const Attrs& attrs, const Rank& rank, Window* w) {
  if (attrs.data_format != rank.dataFormat) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "data_format \"%s\" is not supported (\"%s\" only)",
                    attrs.data_format.c_str(), rank.dataFormat);
  }
  const size_t spatial = rank.dims - 2;
  const std::vector<int64_t>& strides = attrs.strides;
  const std::vector<int64_t>& dilations = attrs.dilations;
  const std::vector<int64_t>& pads = attrs.pads;
  if (strides.size() != rank.dims || dilations.size() != rank.dims || pads.size() != 2 * spatial) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "strides %s and dilations %s must have %zu values and pads %s %zu",
                    ShapeToString(strides).c_str(), ShapeToString(dilations).c_str(), rank.dims,
                    ShapeToString(pads).c_str(), 2 * spatial);
  }
  if (strides[0] != 1 || strides[1] != 1 || dilations[0] != 1 || dilations[1] != 1) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "strides %s and dilations %s must be 1 along N and C",
                    ShapeToString(strides).c_str(), ShapeToString(dilations).c_str());
  }
  for (size_t i = 0; i < spatial; ++i) {
    if (pads[2 * i] != pads[2 * i + 1]) {
      return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "pads %s: only equal padding before and after is supported",
                      ShapeToString(pads).c_str());
    }
    const size_t k = 3 - spatial + i;
    w->stride[k] = strides[2 + i];
    w->dilation[k] = dilations[2 + i];
    w->padding[k] = pads[2 * i];
  }
  return ACL_SUCCESS;
}

// [N, C, H, W] as [N, C, 1, H, W].
std::vector<int64_t> As5d(const std::vector<int64_t>& shape) {
  std::vector<int64_t> out = shape;
  if (out.size() == 4) out.insert(out.begin() + 2, 1);
  return out;
}

// The plain convolution from an image of `image` sizes with a filter of `filter` sizes, whose result must
// have the sizes of `result` (named `resultName`); with `given` the result's spatial sizes are result's own
// (a transposed convolution's input) rather than the ones the image gives.
aclError Describe(OpContext& ctx, const Rank& rank, const std::vector<int64_t>& image,
                  const std::vector<int64_t>& filter, const Window& w, int64_t groups, aclDataType dtype,
                  const std::vector<int64_t>& result, const char* resultName, bool given, kernels::ConvShape* shape) {
  if (image.size() != rank.dims || filter.size() != rank.dims || result.size() != rank.dims) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "the image %s, filter %s and %s %s must be %zu-D",
                    ShapeToString(image).c_str(), ShapeToString(filter).c_str(), resultName,
                    ShapeToString(result).c_str(), rank.dims);
  }
  const std::vector<int64_t> result5 = As5d(result);
  std::string why;
  if (!kernels::DescribeConv(As5d(image), As5d(filter), w.stride, w.padding, w.dilation, groups, dtype, shape, &why,
                             given ? result5.data() + 2 : nullptr)) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s", why.c_str());
  }
  const std::vector<int64_t> expected = {shape->g.batch, shape->cout, shape->g.outD, shape->g.outH, shape->g.outW};
  if (result5 != expected) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s has shape %s, which is not the convolution's result %s", resultName,
                    ShapeToString(result).c_str(), ShapeToString(expected).c_str());
  }
  return ACL_SUCCESS;
}

// The sizes a constant input (input_size, filter_size) lists, which must be output y's.
aclError SizesInput(OpContext& ctx, size_t index, const char* name, std::vector<int64_t>* sizes) {
  aclError rc = ConstantInts(ctx, index, name, sizes);
  if (rc != ACL_SUCCESS) return rc;
  if (*sizes != LogicalShape(ctx.outputs[0])) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input %s lists %s but output y has shape %s", name,
                    ShapeToString(*sizes).c_str(), ShapeToString(LogicalShape(ctx.outputs[0])).c_str());
  }
  return ACL_SUCCESS;
}

aclError Workspace(OpContext& ctx, size_t bytes, void** data) {
  *data = nullptr;
  return bytes == 0 ? ACL_SUCCESS : ctx.AllocTemp(bytes, data);
}

aclError CheckOffsetX(OpContext& ctx, int64_t offsetX) {
  if (offsetX == 0) return ACL_SUCCESS;
  return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "offset_x %lld is not supported (quantized inputs)",
                  static_cast<long long>(offsetX));
}

aclError CheckBias(OpContext& ctx, const OpOperand* bias, int64_t channels) {
  if (bias == nullptr || (IsBaseFormat(bias->format()) && bias->shape() == std::vector<int64_t>{channels})) {
    return ACL_SUCCESS;
  }
  return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input bias is %s %s, expected a base-format [%lld]",
                  FormatName(bias->format()), ShapeToString(bias->shape()).c_str(), static_cast<long long>(channels));
}

// y (the image, of y's dtype and format) = the data gradient for `result` with `filter` (dense), plus `bias`.
aclError DataGradientInto(OpContext& ctx, const Rank& rank, const kernels::ConvShape& s, const void* result,
                          const void* filter, const OpOperand* bias, const OpOperand& y) {
  const int64_t numel = s.g.batch * s.g.channels * s.ImagePlane();
  if (numel == 0) return ACL_SUCCESS;
  void* yData = nullptr;
  aclError rc = BaseFormatOutput(ctx, y, "output y", rank.features, &yData);
  if (rc != ACL_SUCCESS) return rc;
  // col2im sums in float32 from a float32 bias: other dtypes go through casts
  void* sums = yData;
  if (y.dtype() != ACL_FLOAT) rc = ctx.AllocTemp(static_cast<size_t>(numel) * sizeof(float), &sums);
  void* biasF = bias != nullptr ? bias->data : nullptr;
  if (rc == ACL_SUCCESS && bias != nullptr && bias->dtype() != ACL_FLOAT) {
    rc = ctx.AllocTemp(static_cast<size_t>(s.g.channels) * sizeof(float), &biasF);
    if (rc == ACL_SUCCESS) {
      rc = kernels::LaunchCast(bias->dtype(), bias->data, ACL_FLOAT, biasF, static_cast<uint64_t>(s.g.channels),
                               ctx.stream());
    }
  }
  void* workspace = nullptr;
  if (rc == ACL_SUCCESS) rc = Workspace(ctx, kernels::ConvDataGradientWorkspace(s), &workspace);
  if (rc == ACL_SUCCESS) {
    rc = kernels::LaunchConvDataGradient(s, result, filter, static_cast<const float*>(biasF), sums, workspace,
                                         ctx.stream());
  }
  if (rc == ACL_SUCCESS && sums != yData) {
    rc = kernels::LaunchCast(ACL_FLOAT, sums, y.dtype(), yData, static_cast<uint64_t>(numel), ctx.stream());
  }
  if (rc != ACL_SUCCESS) return rc;
  return StoreOutput(ctx, y, yData);
}

// Conv2D / Conv3D: inputs x, filter, bias?.
template <typename Attrs>
aclError RunConvolutionType(OpContext& ctx, const Attrs& attrs, const Rank& rank) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& filter = ctx.inputs[1];
  const OpOperand* bias = ctx.inputs.size() > 2 ? &ctx.inputs[2] : nullptr;
  const OpOperand& y = ctx.outputs[0];
  Window w;
  kernels::ConvShape s;
  aclError rc = CheckOffsetX(ctx, attrs.offset_x);
  if (rc == ACL_SUCCESS) rc = ReadWindow(ctx, attrs, rank, &w);
  if (rc == ACL_SUCCESS) {
    rc = Describe(ctx, rank, LogicalShape(x), LogicalShape(filter), w, attrs.groups, x.dtype(), LogicalShape(y),
                  "output y", false, &s);
  }
  if (rc == ACL_SUCCESS) rc = CheckBias(ctx, bias, s.cout);
  if (rc != ACL_SUCCESS) return rc;
  void* xData = nullptr;
  void* filterData = nullptr;
  void* yData = nullptr;
  void* workspace = nullptr;
  if ((rc = BaseFormatInput(ctx, x, "input x", rank.features, &xData)) != ACL_SUCCESS) return rc;
  if ((rc = BaseFormatInput(ctx, filter, "input filter", rank.filters, &filterData)) != ACL_SUCCESS) return rc;
  if ((rc = BaseFormatOutput(ctx, y, "output y", rank.features, &yData)) != ACL_SUCCESS) return rc;
  if ((rc = Workspace(ctx, kernels::ConvolutionWorkspace(s, bias != nullptr), &workspace)) != ACL_SUCCESS) return rc;
  rc = kernels::LaunchConvolution(s, xData, filterData, bias != nullptr ? bias->data : nullptr, yData, workspace,
                                  ctx.stream());
  if (rc != ACL_SUCCESS) return rc;
  return StoreOutput(ctx, y, yData);
}

// Conv2DBackpropInput / Conv3DBackpropInput: inputs input_size, filter, out_backprop.
template <typename Attrs>
aclError RunBackpropInputType(OpContext& ctx, const Attrs& attrs, const Rank& rank) {
  const OpOperand& filter = ctx.inputs[1];
  const OpOperand& grad = ctx.inputs[2];
  std::vector<int64_t> inputSize;
  Window w;
  kernels::ConvShape s;
  aclError rc = SizesInput(ctx, 0, "input_size", &inputSize);
  if (rc == ACL_SUCCESS) rc = ReadWindow(ctx, attrs, rank, &w);
  if (rc == ACL_SUCCESS) {
    rc = Describe(ctx, rank, inputSize, LogicalShape(filter), w, attrs.groups, filter.dtype(), LogicalShape(grad),
                  "input out_backprop", false, &s);
  }
  if (rc != ACL_SUCCESS) return rc;
  void* filterData = nullptr;
  void* gradData = nullptr;
  if ((rc = BaseFormatInput(ctx, filter, "input filter", rank.filters, &filterData)) != ACL_SUCCESS) return rc;
  if ((rc = BaseFormatInput(ctx, grad, "input out_backprop", rank.features, &gradData)) != ACL_SUCCESS) return rc;
  return DataGradientInto(ctx, rank, s, gradData, filterData, nullptr, ctx.outputs[0]);
}

// Conv2DBackpropFilter / Conv3DBackpropFilter: inputs x, filter_size, out_backprop.
template <typename Attrs>
aclError RunBackpropFilterType(OpContext& ctx, const Attrs& attrs, const Rank& rank) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& grad = ctx.inputs[2];
  const OpOperand& y = ctx.outputs[0];
  if (y.dtype() != ACL_FLOAT && y.dtype() != x.dtype()) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has data type %s; expected float32 or x's %s",
                    DataTypeName(y.dtype()), DataTypeName(x.dtype()));
  }
  std::vector<int64_t> filterSize;
  Window w;
  kernels::ConvShape s;
  aclError rc = SizesInput(ctx, 1, "filter_size", &filterSize);
  if (rc == ACL_SUCCESS) rc = ReadWindow(ctx, attrs, rank, &w);
  if (rc == ACL_SUCCESS) {
    rc = Describe(ctx, rank, LogicalShape(x), filterSize, w, attrs.groups, x.dtype(), LogicalShape(grad),
                  "input out_backprop", false, &s);
  }
  if (rc != ACL_SUCCESS) return rc;
  void* xData = nullptr;
  void* gradData = nullptr;
  void* yData = nullptr;
  void* workspace = nullptr;
  if ((rc = BaseFormatInput(ctx, x, "input x", rank.features, &xData)) != ACL_SUCCESS) return rc;
  if ((rc = BaseFormatInput(ctx, grad, "input out_backprop", rank.features, &gradData)) != ACL_SUCCESS) return rc;
  if ((rc = BaseFormatOutput(ctx, y, "output y", rank.filters, &yData)) != ACL_SUCCESS) return rc;
  if ((rc = Workspace(ctx, kernels::ConvWeightGradientWorkspace(s), &workspace)) != ACL_SUCCESS) return rc;
  rc = kernels::LaunchConvWeightGradient(s, gradData, xData, y.dtype(), yData, workspace, ctx.stream());
  if (rc != ACL_SUCCESS) return rc;
  return StoreOutput(ctx, y, yData);
}

// Conv2DTranspose / Conv3DTranspose: inputs input_size, x, filter, bias?.
template <typename Attrs>
aclError RunTransposeType(OpContext& ctx, const Attrs& attrs, const Rank& rank) {
  const OpOperand& x = ctx.inputs[1];
  const OpOperand& filter = ctx.inputs[2];
  const OpOperand* bias = ctx.inputs.size() > 3 ? &ctx.inputs[3] : nullptr;
  std::vector<int64_t> inputSize;
  Window w;
  kernels::ConvShape s;
  aclError rc = CheckOffsetX(ctx, attrs.offset_x);
  if (rc == ACL_SUCCESS) rc = SizesInput(ctx, 0, "input_size", &inputSize);
  if (rc == ACL_SUCCESS) rc = ReadWindow(ctx, attrs, rank, &w);
  const std::vector<int64_t>& outputPadding = attrs.output_padding;
  if (rc == ACL_SUCCESS && (outputPadding.size() != rank.dims || outputPadding[0] != 0 || outputPadding[1] != 0)) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output_padding %s must have %zu values, 0 along N and C",
                    ShapeToString(outputPadding).c_str(), rank.dims);
  }
  for (size_t i = 2; rc == ACL_SUCCESS && i < rank.dims; ++i) {
    const size_t k = 3 - (rank.dims - 2) + (i - 2);
    if (outputPadding[i] < 0 || (outputPadding[i] >= w.stride[k] && outputPadding[i] >= w.dilation[k])) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output_padding %s must be below the stride or the dilation",
                      ShapeToString(outputPadding).c_str());
    }
  }
  if (rc == ACL_SUCCESS) {
    rc = Describe(ctx, rank, inputSize, LogicalShape(filter), w, attrs.groups, x.dtype(), LogicalShape(x), "input x",
                  true, &s);
  }
  // what y's size adds beyond the last window is the output padding, below the stride or the dilation
  for (int k = 0; rc == ACL_SUCCESS && k < 3; ++k) {
    const int64_t sizes[3] = {s.g.d, s.g.h, s.g.w};
    const int64_t kernel[3] = {s.g.kd, s.g.kh, s.g.kw};
    const int64_t results[3] = {s.g.outD, s.g.outH, s.g.outW};
    const int64_t reach = (results[k] - 1) * w.stride[k] - 2 * w.padding[k] + w.dilation[k] * (kernel[k] - 1) + 1;
    if (sizes[k] - reach >= w.stride[k] && sizes[k] - reach >= w.dilation[k]) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input_size %s is larger than x %s can give with output_padding "
                      "below the stride or the dilation", ShapeToString(inputSize).c_str(),
                      ShapeToString(LogicalShape(x)).c_str());
    }
  }
  if (rc == ACL_SUCCESS) rc = CheckBias(ctx, bias, s.g.channels);
  if (rc != ACL_SUCCESS) return rc;
  void* xData = nullptr;
  void* filterData = nullptr;
  if ((rc = BaseFormatInput(ctx, x, "input x", rank.features, &xData)) != ACL_SUCCESS) return rc;
  if ((rc = BaseFormatInput(ctx, filter, "input filter", rank.filters, &filterData)) != ACL_SUCCESS) return rc;
  return DataGradientInto(ctx, rank, s, xData, filterData, bias, ctx.outputs[0]);
}

}  // namespace

aclError RunConv2D(OpContext& ctx, const Conv2DAttrs& attrs) { return RunConvolutionType(ctx, attrs, kRank2d); }
aclError RunConv3D(OpContext& ctx, const Conv3DAttrs& attrs) { return RunConvolutionType(ctx, attrs, kRank3d); }

aclError RunConv2DBackpropInput(OpContext& ctx, const Conv2DBackpropInputAttrs& attrs) {
  return RunBackpropInputType(ctx, attrs, kRank2d);
}
aclError RunConv3DBackpropInput(OpContext& ctx, const Conv3DBackpropInputAttrs& attrs) {
  return RunBackpropInputType(ctx, attrs, kRank3d);
}

aclError RunConv2DBackpropFilter(OpContext& ctx, const Conv2DBackpropFilterAttrs& attrs) {
  return RunBackpropFilterType(ctx, attrs, kRank2d);
}
aclError RunConv3DBackpropFilter(OpContext& ctx, const Conv3DBackpropFilterAttrs& attrs) {
  return RunBackpropFilterType(ctx, attrs, kRank3d);
}

aclError RunConv2DTranspose(OpContext& ctx, const Conv2DTransposeAttrs& attrs) {
  return RunTransposeType(ctx, attrs, kRank2d);
}
aclError RunConv3DTranspose(OpContext& ctx, const Conv3DTransposeAttrs& attrs) {
  return RunTransposeType(ctx, attrs, kRank3d);
}

}  // namespace aclop
}  // namespace ascendc_sim
