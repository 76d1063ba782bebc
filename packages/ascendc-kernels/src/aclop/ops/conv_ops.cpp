// acl_op types Conv2D, Conv2DBackpropInput and Conv2DBackpropFilter (declared in abi/aclop/conv.decl) on the
// convolution kernel sequences of kernels/conv_api.h. Features may come in NC1HWC0 and filters in FRACTAL_Z
// (the formats CANN's graph gives them): such an operand is converted into a dense temporary by the
// TransData conversion, and an internal-format output is written through one.
#include <string>
#include <vector>

#include "aclop/declared_ops.h"
#include "aclop/ops/elementwise_run.h"
#include "aclop/ops/layout_convert.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/conv_api.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

const std::vector<aclFormat> kFeatureFormats = {ACL_FORMAT_NC1HWC0};
const std::vector<aclFormat> kFilterFormats = {ACL_FORMAT_FRACTAL_Z};

// The (H, W) pairs of the NCHW attributes every Conv2D type has.
struct Window2d {
  int64_t stride[2] = {1, 1};
  int64_t padding[2] = {0, 0};
  int64_t dilation[2] = {1, 1};
};

aclError ReadWindow(OpContext& ctx, const std::vector<int64_t>& strides, const std::vector<int64_t>& pads,
                    const std::vector<int64_t>& dilations, const std::string& dataFormat, Window2d* w) {
  if (dataFormat != "NCHW") {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "data_format \"%s\" is not supported (\"NCHW\" only)",
                    dataFormat.c_str());
  }
  if (strides.size() != 4 || dilations.size() != 4 || pads.size() != 4) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "strides %s, dilations %s and pads %s must have 4 values each",
                    ShapeToString(strides).c_str(), ShapeToString(dilations).c_str(), ShapeToString(pads).c_str());
  }
  if (strides[0] != 1 || strides[1] != 1 || dilations[0] != 1 || dilations[1] != 1) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "strides %s and dilations %s must be 1 along N and C",
                    ShapeToString(strides).c_str(), ShapeToString(dilations).c_str());
  }
  if (pads[0] != pads[1] || pads[2] != pads[3]) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "pads %s: only equal top/bottom and left/right padding is "
                    "supported", ShapeToString(pads).c_str());
  }
  for (int i = 0; i < 2; ++i) {
    w->stride[i] = strides[2 + i];
    w->dilation[i] = dilations[2 + i];
    w->padding[i] = pads[2 * i];
  }
  return ACL_SUCCESS;
}

// The convolution of an input of `input` sizes with a filter of `filter` sizes, whose result must have the
// sizes of `result` (the output, or the gradient of the output, named `resultName`).
aclError Describe(OpContext& ctx, const std::vector<int64_t>& input, const std::vector<int64_t>& filter,
                  const Window2d& w, int64_t groups, aclDataType dtype, const std::vector<int64_t>& result,
                  const char* resultName, kernels::ConvShape* shape) {
  std::string why;
  if (!kernels::DescribeConv(input, filter, w.stride, w.padding, w.dilation, groups, dtype, shape, &why)) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s", why.c_str());
  }
  const std::vector<int64_t> expected = {shape->g.batch, shape->cout, shape->g.outH, shape->g.outW};
  if (result != expected) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s has shape %s, expected %s", resultName,
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

}  // namespace

aclError RunConv2D(OpContext& ctx, const Conv2DAttrs& attrs) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& filter = ctx.inputs[1];
  const OpOperand* bias = ctx.inputs.size() > 2 ? &ctx.inputs[2] : nullptr;
  const OpOperand& y = ctx.outputs[0];
  if (attrs.offset_x != 0) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "offset_x %lld is not supported (quantized inputs)",
                    static_cast<long long>(attrs.offset_x));
  }
  Window2d w;
  kernels::ConvShape s;
  aclError rc = ReadWindow(ctx, attrs.strides, attrs.pads, attrs.dilations, attrs.data_format, &w);
  if (rc == ACL_SUCCESS) {
    rc = Describe(ctx, LogicalShape(x), LogicalShape(filter), w, attrs.groups, x.dtype(), LogicalShape(y),
                  "output y", &s);
  }
  if (rc != ACL_SUCCESS) return rc;
  if (bias != nullptr && (!IsBaseFormat(bias->format()) || bias->shape() != std::vector<int64_t>{s.cout})) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input bias is %s %s, expected a base-format [%lld]",
                    FormatName(bias->format()), ShapeToString(bias->shape()).c_str(), static_cast<long long>(s.cout));
  }
  void* xData = nullptr;
  void* filterData = nullptr;
  void* yData = nullptr;
  void* workspace = nullptr;
  if ((rc = BaseFormatInput(ctx, x, "input x", kFeatureFormats, &xData)) != ACL_SUCCESS) return rc;
  if ((rc = BaseFormatInput(ctx, filter, "input filter", kFilterFormats, &filterData)) != ACL_SUCCESS) return rc;
  if ((rc = BaseFormatOutput(ctx, y, "output y", kFeatureFormats, &yData)) != ACL_SUCCESS) return rc;
  if ((rc = Workspace(ctx, kernels::ConvForwardWorkspace(s, bias != nullptr), &workspace)) != ACL_SUCCESS) return rc;
  rc = kernels::LaunchConvForward(s, xData, filterData, bias != nullptr ? bias->data : nullptr, yData, workspace,
                                  ctx.stream());
  if (rc != ACL_SUCCESS) return rc;
  return StoreOutput(ctx, y, yData);
}

aclError RunConv2DBackpropInput(OpContext& ctx, const Conv2DBackpropInputAttrs& attrs) {
  const OpOperand& filter = ctx.inputs[1];
  const OpOperand& grad = ctx.inputs[2];
  const OpOperand& y = ctx.outputs[0];
  std::vector<int64_t> inputSize;
  Window2d w;
  kernels::ConvShape s;
  aclError rc = SizesInput(ctx, 0, "input_size", &inputSize);
  if (rc == ACL_SUCCESS) rc = ReadWindow(ctx, attrs.strides, attrs.pads, attrs.dilations, attrs.data_format, &w);
  if (rc == ACL_SUCCESS) {
    rc = Describe(ctx, inputSize, LogicalShape(filter), w, attrs.groups, filter.dtype(), LogicalShape(grad),
                  "input out_backprop", &s);
  }
  if (rc != ACL_SUCCESS) return rc;
  void* filterData = nullptr;
  void* gradData = nullptr;
  void* yData = nullptr;
  void* workspace = nullptr;
  if ((rc = BaseFormatInput(ctx, filter, "input filter", kFilterFormats, &filterData)) != ACL_SUCCESS) return rc;
  if ((rc = BaseFormatInput(ctx, grad, "input out_backprop", kFeatureFormats, &gradData)) != ACL_SUCCESS) return rc;
  if ((rc = BaseFormatOutput(ctx, y, "output y", kFeatureFormats, &yData)) != ACL_SUCCESS) return rc;
  int64_t numel = 1;
  for (int64_t d : inputSize) numel *= d;
  if (numel == 0) return ACL_SUCCESS;
  // col2im sums in float32: another y dtype gets the sums through a cast
  void* sums = yData;
  if (y.dtype() != ACL_FLOAT &&
      (rc = ctx.AllocTemp(static_cast<size_t>(numel) * sizeof(float), &sums)) != ACL_SUCCESS) {
    return rc;
  }
  if ((rc = Workspace(ctx, kernels::ConvGradInputWorkspace(s), &workspace)) != ACL_SUCCESS) return rc;
  rc = kernels::LaunchConvGradInput(s, gradData, filterData, sums, workspace, ctx.stream());
  if (rc == ACL_SUCCESS && sums != yData) {
    rc = kernels::LaunchCast(ACL_FLOAT, sums, y.dtype(), yData, static_cast<uint64_t>(numel), ctx.stream());
  }
  if (rc != ACL_SUCCESS) return rc;
  return StoreOutput(ctx, y, yData);
}

aclError RunConv2DBackpropFilter(OpContext& ctx, const Conv2DBackpropFilterAttrs& attrs) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& grad = ctx.inputs[2];
  const OpOperand& y = ctx.outputs[0];
  if (y.dtype() != ACL_FLOAT && y.dtype() != x.dtype()) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has data type %s; expected float32 or x's %s",
                    DataTypeName(y.dtype()), DataTypeName(x.dtype()));
  }
  std::vector<int64_t> filterSize;
  Window2d w;
  kernels::ConvShape s;
  aclError rc = SizesInput(ctx, 1, "filter_size", &filterSize);
  if (rc == ACL_SUCCESS) rc = ReadWindow(ctx, attrs.strides, attrs.pads, attrs.dilations, attrs.data_format, &w);
  if (rc == ACL_SUCCESS) {
    rc = Describe(ctx, LogicalShape(x), filterSize, w, attrs.groups, x.dtype(), LogicalShape(grad),
                  "input out_backprop", &s);
  }
  if (rc != ACL_SUCCESS) return rc;
  void* xData = nullptr;
  void* gradData = nullptr;
  void* yData = nullptr;
  void* workspace = nullptr;
  if ((rc = BaseFormatInput(ctx, x, "input x", kFeatureFormats, &xData)) != ACL_SUCCESS) return rc;
  if ((rc = BaseFormatInput(ctx, grad, "input out_backprop", kFeatureFormats, &gradData)) != ACL_SUCCESS) return rc;
  if ((rc = BaseFormatOutput(ctx, y, "output y", kFilterFormats, &yData)) != ACL_SUCCESS) return rc;
  if ((rc = Workspace(ctx, kernels::ConvGradWeightWorkspace(s), &workspace)) != ACL_SUCCESS) return rc;
  rc = kernels::LaunchConvGradWeight(s, gradData, xData, y.dtype(), yData, workspace, ctx.stream());
  if (rc != ACL_SUCCESS) return rc;
  return StoreOutput(ctx, y, yData);
}

}  // namespace aclop
}  // namespace ascendc_sim
