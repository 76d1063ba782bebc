// Pooling, interpolation and padding entry points (pooling.decl, upsample.decl, padding.decl) on
// the resampling kernels (kernels/resample_api.h): each entry point checks its arguments, turns
// them into per-axis rules (D, H, W; missing leading axes have size 1) over planes = the product
// of the leading dimensions, and plans view-copies in, the kernels, and the copy out (the float32
// gradients of the backward entry points are cast into gradInput's dtype).
#include <string>
#include <vector>

#include "aclnn/aclnn_common.h"
#include "aclnn/l0_ops.h"
#include "aclnnop/aclnn_padding.h"
#include "aclnnop/aclnn_pooling.h"
#include "aclnnop/aclnn_upsample.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/resample_api.h"
#include "meta/executor.h"

using namespace ascendc_sim::aclnn;
using ascendc_sim::RaiseError;
using ascendc_sim::ShapeToString;
namespace k = ascendc_sim::kernels;

namespace {

const std::initializer_list<aclDataType> kFloatDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
const std::initializer_list<aclDataType> kNearestDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_UINT8};
const std::initializer_list<aclDataType> kIndexDtypes = {ACL_INT64, ACL_INT32};

#define RETURN_IF_ERROR(expr)          \
  do {                                 \
    const aclnnStatus rc_ = (expr);    \
    if (rc_ != ACLNN_SUCCESS) return rc_; \
  } while (0)

aclnnStatus Invalid(const char* api, const std::string& what) {
  return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s", api, what.c_str());
}

// `n` values of `a` (1 value repeated when allowOne; empty keeps the defaults when allowEmpty),
// each at least `low`.
aclnnStatus ReadValues(const char* api, const aclIntArray* a, const char* name, size_t n, bool allowOne,
                       bool allowEmpty, int64_t low, int64_t* values) {
  RETURN_IF_ERROR(CheckNotNull(api, a, name));
  const size_t got = a->values.size();
  if (got == 0 && allowEmpty) return ACLNN_SUCCESS;
  if (got != n && !(allowOne && got == 1)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s must have %zu values%s, got %zu", api, name, n,
                      allowOne ? " (or 1)" : "", got);
  }
  for (size_t i = 0; i < n; ++i) {
    values[i] = a->values[got == 1 ? 0 : i];
    if (values[i] < low) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s values must be at least %lld, got %s", api, name,
                        static_cast<long long>(low), ShapeToString(a->values).c_str());
    }
  }
  return ACLNN_SUCCESS;
}

// self is [lead..., spatial...] with 1 or 2 leading dimensions (minLead..2).
aclnnStatus CheckInput(const char* api, const aclTensor* t, const char* name, int spatial, size_t minLead,
                       std::initializer_list<aclDataType> dtypes) {
  RETURN_IF_ERROR(CheckNotNull(api, t, name));
  RETURN_IF_ERROR(CheckTensor(api, t, name, dtypes));
  const size_t rank = t->viewDims.size();
  if (rank < spatial + minLead || rank > static_cast<size_t>(spatial) + 2) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s must have %zu to %d dimensions, got shape %s", api, name,
                      spatial + minLead, spatial + 2, ShapeToString(t->viewDims).c_str());
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckShaped(const char* api, const aclTensor* t, const char* name, const std::vector<int64_t>& shape,
                        std::initializer_list<aclDataType> dtypes) {
  RETURN_IF_ERROR(CheckNotNull(api, t, name));
  RETURN_IF_ERROR(CheckTensor(api, t, name, dtypes));
  if (t->viewDims != shape) {
    return Invalid(api, std::string(name) + " has shape " + ShapeToString(t->viewDims) + ", expected " +
                            ShapeToString(shape));
  }
  return ACLNN_SUCCESS;
}

// The problem of a tensor of `shape` with `spatial` trailing spatial axes: planes and the axes'
// input sizes (leading axes of size 1).
void Describe(const std::vector<int64_t>& shape, int spatial, k::ResampleArgs* args) {
  const size_t lead = shape.size() - static_cast<size_t>(spatial);
  args->planes = 1;
  for (size_t i = 0; i < lead; ++i) args->planes *= shape[i];
  for (int a = 0; a < k::kResampleAxes; ++a) {
    const int s = a - (k::kResampleAxes - spatial);
    args->axis[a] = k::ResampleAxis();
    args->axis[a].in = args->axis[a].out = s >= 0 ? shape[lead + static_cast<size_t>(s)] : 1;
  }
}

// `shape` with its trailing spatial sizes replaced by the axes' output sizes.
std::vector<int64_t> OutputShape(const std::vector<int64_t>& shape, int spatial, const k::ResampleArgs& args) {
  std::vector<int64_t> out = shape;
  for (int s = 0; s < spatial; ++s) {
    out[shape.size() - static_cast<size_t>(spatial) + static_cast<size_t>(s)] =
        args.axis[k::kResampleAxes - spatial + s].out;
  }
  return out;
}

// y = resample(x): x is self (any layout), y out (self's dtype and `outShape`).
aclnnStatus PlanForward(const char* api, const aclTensor* self, aclTensor* out, k::ResampleArgs args,
                        const std::vector<int64_t>& outShape, uint64_t* workspaceSize, aclOpExecutor** executor) {
  RETURN_IF_ERROR(CheckShaped(api, out, "out", outShape, {self->dtype}));
  for (const k::ResampleAxis& ax : args.axis) {
    if (k::ResampleAxisTaps(ax, self->dtype) > 64) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: the window of %lld input elements per output is not supported",
                        api, static_cast<long long>(k::ResampleAxisTaps(ax, self->dtype)));
    }
  }
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    const aclDataType dtype = self->dtype;
    args.dtype = dtype;
    args.op = api;
    const DenseBuffer x = plan.Input(self, "self", self->viewDims, dtype);
    const DenseBuffer y = plan.Output(out, "out", dtype);
    const DenseBuffer taps = plan.Scratch(static_cast<int64_t>(k::ResampleTapsBytes(args)), ACL_UINT8);
    plan.AddStep([args, x, y, taps](uint8_t* ws, aclrtStream stream) mutable {
      args.x = x.Resolve(ws);
      args.y = y.Resolve(ws);
      args.taps = taps.Resolve(ws);
      return k::LaunchResample(args, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

// gradInput (inShape) = the adjoint of the resampling applied to gradOutput (outShape).
aclnnStatus PlanBackward(const char* api, const aclTensor* gradOutput, aclTensor* gradInput, k::ResampleArgs args,
                         const std::vector<int64_t>& inShape, const std::vector<int64_t>& outShape,
                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  RETURN_IF_ERROR(CheckShaped(api, gradOutput, "gradOutput", outShape, kFloatDtypes));
  RETURN_IF_ERROR(CheckShaped(api, gradInput, "gradInput", inShape, {gradOutput->dtype}));
  for (const k::ResampleAxis& ax : args.axis) {
    if (k::ResampleAxisTaps(ax, gradOutput->dtype) > 64) {
      return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: the window of %lld input elements per output is not supported",
                        api, static_cast<long long>(k::ResampleAxisTaps(ax, gradOutput->dtype)));
    }
  }
  ExecutorBuilder plan(api);
  if (gradInput->Numel() > 0) {
    const aclDataType dtype = gradOutput->dtype;
    args.dtype = dtype;
    args.op = api;
    const DenseBuffer go = plan.Input(gradOutput, "gradOutput", outShape, dtype);
    const DenseBuffer gi = plan.Output(gradInput, "gradInput", k::ResampleAccumulateType(dtype));
    const DenseBuffer taps = plan.Scratch(static_cast<int64_t>(k::ResampleTapsBytes(args)), ACL_UINT8);
    plan.AddStep([args, go, gi, taps](uint8_t* ws, aclrtStream stream) mutable {
      args.x = go.Resolve(ws);
      args.y = gi.Resolve(ws);
      args.taps = taps.Resolve(ws);
      return k::LaunchResampleBackward(args, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

// ---- pooling ----

int64_t PooledSize(int64_t in, int64_t kernel, int64_t pad, int64_t stride, int64_t dilation, bool ceilMode) {
  const int64_t numerator = in + 2 * pad - dilation * (kernel - 1) - 1 + (ceilMode ? stride - 1 : 0);
  int64_t out = (numerator >= 0 ? numerator / stride : -((-numerator + stride - 1) / stride)) + 1;
  if (ceilMode && (out - 1) * stride >= in + pad) --out;
  return out;
}

// Window pooling geometry over the last `spatial` dims of self; dilation may be null (1).
aclnnStatus PoolAxes(const char* api, const aclTensor* self, int spatial, const aclIntArray* kernelSize,
                     const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation,
                     bool ceilMode, k::AxisRule rule, bool countIncludePad, k::ResampleArgs* args,
                     std::vector<int64_t>* outShape) {
  RETURN_IF_ERROR(CheckInput(api, self, "self", spatial, 1, kFloatDtypes));
  const size_t n = static_cast<size_t>(spatial);
  int64_t kv[3] = {1, 1, 1}, sv[3] = {0, 0, 0}, pv[3] = {0, 0, 0}, dv[3] = {1, 1, 1};
  RETURN_IF_ERROR(ReadValues(api, kernelSize, "kernelSize", n, true, false, 1, kv));
  for (size_t i = 0; i < n; ++i) sv[i] = kv[i];
  RETURN_IF_ERROR(ReadValues(api, stride, "stride", n, true, true, 1, sv));
  RETURN_IF_ERROR(ReadValues(api, padding, "padding", n, true, false, 0, pv));
  if (dilation != nullptr) RETURN_IF_ERROR(ReadValues(api, dilation, "dilation", n, true, false, 1, dv));
  Describe(self->viewDims, spatial, args);
  for (size_t i = 0; i < n; ++i) {
    if (pv[i] > kv[i] / 2) return Invalid(api, "padding should be at most half of kernelSize");
    k::ResampleAxis& ax = args->axis[k::kResampleAxes - spatial + static_cast<int>(i)];
    ax.rule = rule;
    ax.kernel = kv[i];
    ax.stride = sv[i];
    ax.pad = pv[i];
    ax.dilation = dv[i];
    ax.countIncludePad = countIncludePad;
    ax.out = PooledSize(ax.in, kv[i], pv[i], sv[i], dv[i], ceilMode);
    if (ax.out < 1) {
      return Invalid(api, "the output size is too small for input " + ShapeToString(self->viewDims));
    }
  }
  *outShape = OutputShape(self->viewDims, spatial, *args);
  return ACLNN_SUCCESS;
}

aclnnStatus AvgPool(const char* api, int spatial, const aclTensor* gradOutput, const aclTensor* self,
                    const aclIntArray* kernelSize, const aclIntArray* stride, const aclIntArray* padding,
                    bool ceilMode, bool countIncludePad, int64_t divisorOverride, aclTensor* result,
                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  RETURN_IF_ERROR(CheckNotNull(api, workspaceSize, "workspaceSize"));
  RETURN_IF_ERROR(CheckNotNull(api, executor, "executor"));
  k::ResampleArgs args;
  std::vector<int64_t> outShape;
  RETURN_IF_ERROR(PoolAxes(api, self, spatial, kernelSize, stride, padding, nullptr, ceilMode,
                           k::AxisRule::kAvgWindow, countIncludePad, &args, &outShape));
  args.divisorOverride = divisorOverride;
  if (gradOutput == nullptr) return PlanForward(api, self, result, args, outShape, workspaceSize, executor);
  return PlanBackward(api, gradOutput, result, args, self->viewDims, outShape, workspaceSize, executor);
}

aclnnStatus AdaptiveAxes(const char* api, const aclTensor* self, int spatial, const std::vector<int64_t>& sizes,
                         k::AxisRule rule, k::ResampleArgs* args, std::vector<int64_t>* outShape) {
  RETURN_IF_ERROR(CheckInput(api, self, "self", spatial, 1, kFloatDtypes));
  if (sizes.size() != static_cast<size_t>(spatial)) {
    return Invalid(api, "outputSize must have " + std::to_string(spatial) + " values, got " + ShapeToString(sizes));
  }
  Describe(self->viewDims, spatial, args);
  for (int i = 0; i < spatial; ++i) {
    k::ResampleAxis& ax = args->axis[k::kResampleAxes - spatial + i];
    if (sizes[static_cast<size_t>(i)] < 0) return Invalid(api, "outputSize must not be negative");
    if (ax.in == 0 && sizes[static_cast<size_t>(i)] > 0) return Invalid(api, "self has an empty spatial dimension");
    ax.rule = rule;
    ax.out = sizes[static_cast<size_t>(i)];
  }
  *outShape = OutputShape(self->viewDims, spatial, *args);
  return ACLNN_SUCCESS;
}

aclnnStatus AdaptiveAvg(const char* api, int spatial, const aclTensor* gradOutput, const aclTensor* self,
                        const aclIntArray* outputSize, aclTensor* result, uint64_t* workspaceSize,
                        aclOpExecutor** executor) {
  RETURN_IF_ERROR(CheckNotNull(api, workspaceSize, "workspaceSize"));
  RETURN_IF_ERROR(CheckNotNull(api, executor, "executor"));
  std::vector<int64_t> sizes;
  if (gradOutput == nullptr) {
    RETURN_IF_ERROR(CheckNotNull(api, outputSize, "outputSize"));
    sizes = outputSize->values;
  } else {
    RETURN_IF_ERROR(CheckNotNull(api, self, "self"));
    if (gradOutput->viewDims.size() != self->viewDims.size()) {
      return Invalid(api, "gradOutput and self must have the same number of dimensions");
    }
    sizes.assign(gradOutput->viewDims.end() - spatial, gradOutput->viewDims.end());
  }
  k::ResampleArgs args;
  std::vector<int64_t> outShape;
  RETURN_IF_ERROR(AdaptiveAxes(api, self, spatial, sizes, k::AxisRule::kAdaptive, &args, &outShape));
  if (gradOutput == nullptr) return PlanForward(api, self, result, args, outShape, workspaceSize, executor);
  return PlanBackward(api, gradOutput, result, args, self->viewDims, outShape, workspaceSize, executor);
}

aclnnStatus PlanWindowMax(const char* api, const aclTensor* self, k::ResampleArgs args,
                          const std::vector<int64_t>& outShape, aclTensor* out, aclTensor* indices,
                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  RETURN_IF_ERROR(CheckShaped(api, out, "out", outShape, {self->dtype}));
  RETURN_IF_ERROR(CheckShaped(api, indices, "indices", outShape, kIndexDtypes));
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    args.dtype = self->dtype;
    args.op = api;
    const DenseBuffer x = plan.Input(self, "self", self->viewDims, self->dtype);
    const DenseBuffer y = plan.Output(out, "out", self->dtype);
    const DenseBuffer idx = plan.Output(indices, "indices", ACL_INT64);
    plan.AddStep([args, x, y, idx](uint8_t* ws, aclrtStream stream) mutable {
      args.x = x.Resolve(ws);
      args.y = y.Resolve(ws);
      return k::LaunchWindowMax(args, idx.Resolve(ws), stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

// gradInput (self's shape) = gradOutput added at indices within each plane.
aclnnStatus PlanIndexedBackward(const char* api, const aclTensor* gradOutput, const aclTensor* self,
                                const aclTensor* indices, aclTensor* gradInput, int spatial,
                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  RETURN_IF_ERROR(CheckNotNull(api, workspaceSize, "workspaceSize"));
  RETURN_IF_ERROR(CheckNotNull(api, executor, "executor"));
  RETURN_IF_ERROR(CheckInput(api, self, "self", spatial, 1, kFloatDtypes));
  RETURN_IF_ERROR(CheckNotNull(api, gradOutput, "gradOutput"));
  const std::vector<int64_t>& outShape = gradOutput->viewDims;
  if (outShape.size() != self->viewDims.size()) {
    return Invalid(api, "gradOutput and self must have the same number of dimensions");
  }
  RETURN_IF_ERROR(CheckShaped(api, gradOutput, "gradOutput", outShape, {self->dtype}));
  RETURN_IF_ERROR(CheckShaped(api, indices, "indices", outShape, kIndexDtypes));
  RETURN_IF_ERROR(CheckShaped(api, gradInput, "gradInput", self->viewDims, {self->dtype}));
  k::ResampleArgs shape;
  Describe(self->viewDims, spatial, &shape);
  k::PlaneScatterArgs args;
  args.mode = k::PlaneScatterMode::kAdd;
  args.dtype = self->dtype;
  args.planes = shape.planes;
  args.inner = shape.axis[0].in * shape.axis[1].in * shape.axis[2].in;
  args.count = args.planes == 0 ? 0 : gradOutput->Numel() / args.planes;
  args.op = api;
  ExecutorBuilder plan(api);
  if (gradInput->Numel() > 0) {
    const DenseBuffer go = plan.Input(gradOutput, "gradOutput", outShape, self->dtype);
    const DenseBuffer idx = plan.Input(indices, "indices", outShape, ACL_INT64);
    const DenseBuffer gi = plan.Output(gradInput, "gradInput", k::ResampleAccumulateType(self->dtype));
    plan.AddStep([args, go, idx, gi](uint8_t* ws, aclrtStream stream) mutable {
      args.x = go.Resolve(ws);
      args.indices = idx.Resolve(ws);
      args.y = gi.Resolve(ws);
      return k::LaunchPlaneScatter(args, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

aclnnStatus AdaptiveMax(const char* api, int spatial, const aclTensor* self, const aclIntArray* outputSize,
                        aclTensor* out, aclTensor* indices, uint64_t* workspaceSize, aclOpExecutor** executor) {
  RETURN_IF_ERROR(CheckNotNull(api, workspaceSize, "workspaceSize"));
  RETURN_IF_ERROR(CheckNotNull(api, executor, "executor"));
  RETURN_IF_ERROR(CheckNotNull(api, outputSize, "outputSize"));
  k::ResampleArgs args;
  std::vector<int64_t> outShape;
  RETURN_IF_ERROR(AdaptiveAxes(api, self, spatial, outputSize->values, k::AxisRule::kAdaptive, &args, &outShape));
  return PlanWindowMax(api, self, args, outShape, out, indices, workspaceSize, executor);
}

aclnnStatus MaxUnpool(const char* api, int spatial, const aclTensor* self, const aclTensor* indices,
                      const aclIntArray* outputSize, aclTensor* out, uint64_t* workspaceSize,
                      aclOpExecutor** executor) {
  RETURN_IF_ERROR(CheckNotNull(api, workspaceSize, "workspaceSize"));
  RETURN_IF_ERROR(CheckNotNull(api, executor, "executor"));
  RETURN_IF_ERROR(CheckInput(api, self, "self", spatial, 1, kAllDtypes));
  RETURN_IF_ERROR(CheckShaped(api, indices, "indices", self->viewDims, kIndexDtypes));
  RETURN_IF_ERROR(CheckNotNull(api, outputSize, "outputSize"));
  if (outputSize->values.size() != static_cast<size_t>(spatial)) {
    return Invalid(api, "outputSize must have " + std::to_string(spatial) + " values, got " +
                            ShapeToString(outputSize->values));
  }
  std::vector<int64_t> outShape = self->viewDims;
  int64_t inner = 1;
  for (int i = 0; i < spatial; ++i) {
    const int64_t v = outputSize->values[static_cast<size_t>(i)];
    if (v < 0) return Invalid(api, "outputSize must not be negative");
    outShape[outShape.size() - static_cast<size_t>(spatial) + static_cast<size_t>(i)] = v;
    inner *= v;
  }
  RETURN_IF_ERROR(CheckShaped(api, out, "out", outShape, {self->dtype}));
  k::ResampleArgs shape;
  Describe(self->viewDims, spatial, &shape);
  k::PlaneScatterArgs args;
  args.mode = k::PlaneScatterMode::kStore;
  args.dtype = self->dtype;
  args.planes = shape.planes;
  args.inner = inner;
  args.count = shape.axis[0].in * shape.axis[1].in * shape.axis[2].in;
  args.op = api;
  ExecutorBuilder plan(api);
  if (out->Numel() > 0) {
    const DenseBuffer x = plan.Input(self, "self", self->viewDims, self->dtype);
    const DenseBuffer idx = plan.Input(indices, "indices", self->viewDims, ACL_INT64);
    const DenseBuffer y = plan.Output(out, "out", self->dtype);
    plan.AddStep([args, x, idx, y](uint8_t* ws, aclrtStream stream) mutable {
      args.x = x.Resolve(ws);
      args.indices = idx.Resolve(ws);
      args.y = y.Resolve(ws);
      return k::LaunchPlaneScatter(args, stream);
    });
  }
  return plan.Finish(workspaceSize, executor);
}

// ---- interpolation ----

// The axes of an interpolation from self's (or inputSize's) shape to outputSize.
aclnnStatus InterpAxes(const char* api, const std::vector<int64_t>& inShape, int spatial,
                       const aclIntArray* outputSize, k::AxisRule rule, bool alignCorners, const double* scales,
                       k::ResampleArgs* args, std::vector<int64_t>* outShape) {
  RETURN_IF_ERROR(CheckNotNull(api, outputSize, "outputSize"));
  if (outputSize->values.size() != static_cast<size_t>(spatial)) {
    return Invalid(api, "outputSize must have " + std::to_string(spatial) + " values, got " +
                            ShapeToString(outputSize->values));
  }
  if (inShape.size() != static_cast<size_t>(spatial) + 2) {
    return Invalid(api, "the input must have " + std::to_string(spatial + 2) + " dimensions, got shape " +
                            ShapeToString(inShape));
  }
  Describe(inShape, spatial, args);
  for (int i = 0; i < spatial; ++i) {
    k::ResampleAxis& ax = args->axis[k::kResampleAxes - spatial + i];
    const int64_t o = outputSize->values[static_cast<size_t>(i)];
    if (ax.in <= 0 || o <= 0) {
      return Invalid(api, "input and output sizes should be greater than 0, got input " + ShapeToString(inShape) +
                              " and output " + ShapeToString(outputSize->values));
    }
    ax.rule = rule;
    ax.out = o;
    ax.alignCorners = alignCorners;
    ax.scale = scales[i];
  }
  *outShape = OutputShape(inShape, spatial, *args);
  return ACLNN_SUCCESS;
}

aclnnStatus Interp(const char* api, int spatial, k::AxisRule rule, const aclTensor* self,
                   const aclIntArray* outputSize, bool alignCorners, const double* scales, aclTensor* out,
                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  RETURN_IF_ERROR(CheckNotNull(api, workspaceSize, "workspaceSize"));
  RETURN_IF_ERROR(CheckNotNull(api, executor, "executor"));
  const bool nearest = rule == k::AxisRule::kNearest || rule == k::AxisRule::kNearestExact;
  RETURN_IF_ERROR(CheckInput(api, self, "self", spatial, 2, nearest ? kNearestDtypes : kFloatDtypes));
  k::ResampleArgs args;
  std::vector<int64_t> outShape;
  RETURN_IF_ERROR(InterpAxes(api, self->viewDims, spatial, outputSize, rule, alignCorners, scales, &args, &outShape));
  return PlanForward(api, self, out, args, outShape, workspaceSize, executor);
}

aclnnStatus InterpBackward(const char* api, int spatial, k::AxisRule rule, const aclTensor* gradOutput,
                           const aclIntArray* outputSize, const aclIntArray* inputSize, bool alignCorners,
                           const double* scales, aclTensor* gradInput, uint64_t* workspaceSize,
                           aclOpExecutor** executor) {
  RETURN_IF_ERROR(CheckNotNull(api, workspaceSize, "workspaceSize"));
  RETURN_IF_ERROR(CheckNotNull(api, executor, "executor"));
  RETURN_IF_ERROR(CheckNotNull(api, gradOutput, "gradOutput"));
  RETURN_IF_ERROR(CheckNotNull(api, inputSize, "inputSize"));
  k::ResampleArgs args;
  std::vector<int64_t> outShape;
  RETURN_IF_ERROR(
      InterpAxes(api, inputSize->values, spatial, outputSize, rule, alignCorners, scales, &args, &outShape));
  return PlanBackward(api, gradOutput, gradInput, args, inputSize->values, outShape, workspaceSize, executor);
}

// ---- padding ----

aclnnStatus PadAxes(const char* api, const aclTensor* self, int spatial, const aclIntArray* padding,
                    k::AxisRule rule, k::ResampleArgs* args, std::vector<int64_t>* outShape) {
  RETURN_IF_ERROR(CheckInput(api, self, "self", spatial, 1, kAllDtypes));
  RETURN_IF_ERROR(CheckNotNull(api, padding, "padding"));
  if (padding->values.size() != static_cast<size_t>(2 * spatial)) {
    return Invalid(api, "padding must have " + std::to_string(2 * spatial) + " values, got " +
                            ShapeToString(padding->values));
  }
  Describe(self->viewDims, spatial, args);
  for (int i = 0; i < spatial; ++i) {
    // padding lists the last dimension first: (left, right, top, bottom, front, back).
    k::ResampleAxis& ax = args->axis[k::kResampleAxes - 1 - i];
    const int64_t before = padding->values[static_cast<size_t>(2 * i)];
    const int64_t after = padding->values[static_cast<size_t>(2 * i + 1)];
    if (rule == k::AxisRule::kReflect && (before >= ax.in || after >= ax.in)) {
      return Invalid(api, "padding " + ShapeToString(padding->values) +
                              " should be smaller than the padded dimensions of self " +
                              ShapeToString(self->viewDims));
    }
    ax.rule = rule;
    ax.pad = before;
    ax.out = ax.in + before + after;
    if (ax.out < 1 || ax.in < 1) {
      return Invalid(api, "the padded output of self " + ShapeToString(self->viewDims) + " with padding " +
                              ShapeToString(padding->values) + " would be empty");
    }
  }
  *outShape = OutputShape(self->viewDims, spatial, *args);
  return ACLNN_SUCCESS;
}

aclnnStatus Pad(const char* api, int spatial, k::AxisRule rule, const aclTensor* self, const aclIntArray* padding,
                aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  RETURN_IF_ERROR(CheckNotNull(api, workspaceSize, "workspaceSize"));
  RETURN_IF_ERROR(CheckNotNull(api, executor, "executor"));
  k::ResampleArgs args;
  std::vector<int64_t> outShape;
  RETURN_IF_ERROR(PadAxes(api, self, spatial, padding, rule, &args, &outShape));
  return PlanForward(api, self, out, args, outShape, workspaceSize, executor);
}

aclnnStatus PadBackward(const char* api, int spatial, k::AxisRule rule, const aclTensor* gradOutput,
                        const aclTensor* self, const aclIntArray* padding, aclTensor* gradInput,
                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  RETURN_IF_ERROR(CheckNotNull(api, workspaceSize, "workspaceSize"));
  RETURN_IF_ERROR(CheckNotNull(api, executor, "executor"));
  k::ResampleArgs args;
  std::vector<int64_t> outShape;
  RETURN_IF_ERROR(PadAxes(api, self, spatial, padding, rule, &args, &outShape));
  return PlanBackward(api, gradOutput, gradInput, args, self->viewDims, outShape, workspaceSize, executor);
}

}  // namespace

#define ACLNN_LAUNCH(name)                                                                               \
  aclnnStatus name(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) { \
    return ascendc_sim::LaunchExecutor(#name, workspace, workspaceSize, executor, stream);               \
  }

extern "C" {

// ---- pooling ----

aclnnStatus aclnnAvgPool2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                           const aclIntArray* strides, const aclIntArray* paddings, bool ceilMode,
                                           bool countIncludePad, int64_t divisorOverride, int8_t cubeMathType,
                                           aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)cubeMathType;  // no cube unit involved: the sums run on the vector unit in float32
  return AvgPool("aclnnAvgPool2d", 2, nullptr, self, kernelSize, strides, paddings, ceilMode, countIncludePad,
                 divisorOverride, out, workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnAvgPool2d)

aclnnStatus aclnnAvgPool2dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                   const aclIntArray* kernelSize, const aclIntArray* stride,
                                                   const aclIntArray* padding, bool ceilMode, bool countIncludePad,
                                                   int64_t divisorOverride, int8_t cubeMathType,
                                                   aclTensor* gradInput, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  (void)cubeMathType;
  RETURN_IF_ERROR(CheckNotNull("aclnnAvgPool2dBackward", gradOutput, "gradOutput"));
  return AvgPool("aclnnAvgPool2dBackward", 2, gradOutput, self, kernelSize, stride, padding, ceilMode,
                 countIncludePad, divisorOverride, gradInput, workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnAvgPool2dBackward)

aclnnStatus aclnnAvgPool3dGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                           const aclIntArray* stride, const aclIntArray* padding, bool ceilMode,
                                           bool countIncludePad, int64_t divisorOverride, aclTensor* out,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  return AvgPool("aclnnAvgPool3d", 3, nullptr, self, kernelSize, stride, padding, ceilMode, countIncludePad,
                 divisorOverride, out, workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnAvgPool3d)

aclnnStatus aclnnAvgPool3dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                   const aclIntArray* kernelSize, const aclIntArray* stride,
                                                   const aclIntArray* padding, bool ceilMode, bool countIncludePad,
                                                   int64_t divisorOverride, aclTensor* gradInput,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  RETURN_IF_ERROR(CheckNotNull("aclnnAvgPool3dBackward", gradOutput, "gradOutput"));
  return AvgPool("aclnnAvgPool3dBackward", 3, gradOutput, self, kernelSize, stride, padding, ceilMode,
                 countIncludePad, divisorOverride, gradInput, workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnAvgPool3dBackward)

aclnnStatus aclnnAdaptiveAvgPool2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                   aclTensor* out, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return AdaptiveAvg("aclnnAdaptiveAvgPool2d", 2, nullptr, self, outputSize, out, workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnAdaptiveAvgPool2d)

aclnnStatus aclnnAdaptiveAvgPool2dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                           aclTensor* gradInput, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  RETURN_IF_ERROR(CheckNotNull("aclnnAdaptiveAvgPool2dBackward", gradOutput, "gradOutput"));
  return AdaptiveAvg("aclnnAdaptiveAvgPool2dBackward", 2, gradOutput, self, nullptr, gradInput, workspaceSize,
                     executor);
}
ACLNN_LAUNCH(aclnnAdaptiveAvgPool2dBackward)

aclnnStatus aclnnAdaptiveAvgPool3dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                   aclTensor* out, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
  return AdaptiveAvg("aclnnAdaptiveAvgPool3d", 3, nullptr, self, outputSize, out, workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnAdaptiveAvgPool3d)

aclnnStatus aclnnAdaptiveAvgPool3dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                           aclTensor* gradInput, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  RETURN_IF_ERROR(CheckNotNull("aclnnAdaptiveAvgPool3dBackward", gradOutput, "gradOutput"));
  return AdaptiveAvg("aclnnAdaptiveAvgPool3dBackward", 3, gradOutput, self, nullptr, gradInput, workspaceSize,
                     executor);
}
ACLNN_LAUNCH(aclnnAdaptiveAvgPool3dBackward)

aclnnStatus aclnnAdaptiveMaxPool2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                   aclTensor* outputOut, aclTensor* indicesOut,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return AdaptiveMax("aclnnAdaptiveMaxPool2d", 2, self, outputSize, outputOut, indicesOut, workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnAdaptiveMaxPool2d)

aclnnStatus aclnnAdaptiveMaxPool2dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                           const aclTensor* indices, aclTensor* gradInput,
                                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PlanIndexedBackward("aclnnAdaptiveMaxPool2dBackward", gradOutput, self, indices, gradInput, 2,
                             workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnAdaptiveMaxPool2dBackward)

aclnnStatus aclnnAdaptiveMaxPool3dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                   aclTensor* outputOut, aclTensor* indicesOut,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  return AdaptiveMax("aclnnAdaptiveMaxPool3d", 3, self, outputSize, outputOut, indicesOut, workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnAdaptiveMaxPool3d)

aclnnStatus aclnnAdaptiveMaxPool3dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                           const aclTensor* indices, aclTensor* gradInput,
                                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PlanIndexedBackward("aclnnAdaptiveMaxPool3dBackward", gradOutput, self, indices, gradInput, 3,
                             workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnAdaptiveMaxPool3dBackward)

aclnnStatus aclnnMaxPool3dWithArgmaxGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                                     const aclIntArray* stride, const aclIntArray* padding,
                                                     const aclIntArray* dilation, bool ceilMode, aclTensor* out,
                                                     aclTensor* indices, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  const char* api = "aclnnMaxPool3dWithArgmax";
  RETURN_IF_ERROR(CheckNotNull(api, workspaceSize, "workspaceSize"));
  RETURN_IF_ERROR(CheckNotNull(api, executor, "executor"));
  RETURN_IF_ERROR(CheckNotNull(api, dilation, "dilation"));
  k::ResampleArgs args;
  std::vector<int64_t> outShape;
  RETURN_IF_ERROR(PoolAxes(api, self, 3, kernelSize, stride, padding, dilation, ceilMode, k::AxisRule::kMaxWindow,
                           true, &args, &outShape));
  return PlanWindowMax(api, self, args, outShape, out, indices, workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnMaxPool3dWithArgmax)

aclnnStatus aclnnMaxPool3dWithArgmaxBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* indices, const aclIntArray* kernelSize,
    const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, bool ceilMode,
    aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnMaxPool3dWithArgmaxBackward";
  RETURN_IF_ERROR(CheckNotNull(api, dilation, "dilation"));
  k::ResampleArgs args;
  std::vector<int64_t> outShape;
  RETURN_IF_ERROR(PoolAxes(api, self, 3, kernelSize, stride, padding, dilation, ceilMode, k::AxisRule::kMaxWindow,
                           true, &args, &outShape));
  RETURN_IF_ERROR(CheckShaped(api, gradOutput, "gradOutput", outShape, {self->dtype}));
  return PlanIndexedBackward(api, gradOutput, self, indices, gradInput, 3, workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnMaxPool3dWithArgmaxBackward)

aclnnStatus aclnnMaxUnpool2dGetWorkspaceSize(const aclTensor* self, const aclTensor* indices,
                                             const aclIntArray* outputSize, aclTensor* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return MaxUnpool("aclnnMaxUnpool2d", 2, self, indices, outputSize, out, workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnMaxUnpool2d)

aclnnStatus aclnnMaxUnpool3dGetWorkspaceSize(const aclTensor* self, const aclTensor* indices,
                                             const aclIntArray* outputSize, const aclIntArray* stride,
                                             const aclIntArray* padding, aclTensor* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  // stride and padding only describe the pooling that made the indices; the indices say where.
  RETURN_IF_ERROR(CheckNotNull("aclnnMaxUnpool3d", stride, "stride"));
  RETURN_IF_ERROR(CheckNotNull("aclnnMaxUnpool3d", padding, "padding"));
  return MaxUnpool("aclnnMaxUnpool3d", 3, self, indices, outputSize, out, workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnMaxUnpool3d)

// ---- interpolation ----

aclnnStatus aclnnUpsampleNearest1dV2GetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                     float scaleL, aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  const double s[1] = {scaleL};
  return Interp("aclnnUpsampleNearest1dV2", 1, k::AxisRule::kNearest, self, outputSize, false, s, out,
                workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnUpsampleNearest1dV2)

aclnnStatus aclnnUpsampleNearest1dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclIntArray* outputSize,
                                                           const aclIntArray* inputSize, double scales,
                                                           aclTensor* gradInput, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
  const double s[1] = {scales};
  return InterpBackward("aclnnUpsampleNearest1dBackward", 1, k::AxisRule::kNearest, gradOutput, outputSize,
                        inputSize, false, s, gradInput, workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnUpsampleNearest1dBackward)

aclnnStatus aclnnUpsampleNearest2dV2GetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                     float scalesH, float scalesW, aclTensor* out,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  const double s[2] = {scalesH, scalesW};
  return Interp("aclnnUpsampleNearest2dV2", 2, k::AxisRule::kNearest, self, outputSize, false, s, out,
                workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnUpsampleNearest2dV2)

aclnnStatus aclnnUpsampleNearest2dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclIntArray* outputSize,
                                                           const aclIntArray* inputSize, double scalesH,
                                                           double scalesW, aclTensor* gradInput,
                                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  const double s[2] = {scalesH, scalesW};
  return InterpBackward("aclnnUpsampleNearest2dBackward", 2, k::AxisRule::kNearest, gradOutput, outputSize,
                        inputSize, false, s, gradInput, workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnUpsampleNearest2dBackward)

aclnnStatus aclnnUpsampleNearest3dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                   double scalesD, double scalesH, double scalesW, aclTensor* out,
                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
  const double s[3] = {scalesD, scalesH, scalesW};
  return Interp("aclnnUpsampleNearest3d", 3, k::AxisRule::kNearest, self, outputSize, false, s, out,
                workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnUpsampleNearest3d)

aclnnStatus aclnnUpsampleNearest3dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclIntArray* outputSize,
                                                           const aclIntArray* inputSize, double scalesD,
                                                           double scalesH, double scalesW, aclTensor* gradInput,
                                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  const double s[3] = {scalesD, scalesH, scalesW};
  return InterpBackward("aclnnUpsampleNearest3dBackward", 3, k::AxisRule::kNearest, gradOutput, outputSize,
                        inputSize, false, s, gradInput, workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnUpsampleNearest3dBackward)

aclnnStatus aclnnUpsampleNearestExact1dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                        double scales, aclTensor* out, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  const double s[1] = {scales};
  return Interp("aclnnUpsampleNearestExact1d", 1, k::AxisRule::kNearestExact, self, outputSize, false, s, out,
                workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnUpsampleNearestExact1d)

aclnnStatus aclnnUpsampleNearestExact1dBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                                const aclIntArray* outputSize,
                                                                const aclIntArray* inputSize, double scales,
                                                                aclTensor* gradInput, uint64_t* workspaceSize,
                                                                aclOpExecutor** executor) {
  const double s[1] = {scales};
  return InterpBackward("aclnnUpsampleNearestExact1dBackward", 1, k::AxisRule::kNearestExact, gradOutput,
                        outputSize, inputSize, false, s, gradInput, workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnUpsampleNearestExact1dBackward)

aclnnStatus aclnnUpsampleNearestExact2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                        double scalesH, double scalesW, aclTensor* out,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  const double s[2] = {scalesH, scalesW};
  return Interp("aclnnUpsampleNearestExact2d", 2, k::AxisRule::kNearestExact, self, outputSize, false, s, out,
                workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnUpsampleNearestExact2d)

aclnnStatus aclnnUpsampleNearestExact2dBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                                const aclIntArray* outputSize,
                                                                const aclIntArray* inputSize, double scalesH,
                                                                double scalesW, aclTensor* gradInput,
                                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  const double s[2] = {scalesH, scalesW};
  return InterpBackward("aclnnUpsampleNearestExact2dBackward", 2, k::AxisRule::kNearestExact, gradOutput,
                        outputSize, inputSize, false, s, gradInput, workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnUpsampleNearestExact2dBackward)

aclnnStatus aclnnUpsampleNearestExact3dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                        double scalesD, double scalesH, double scalesW,
                                                        aclTensor* out, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
  const double s[3] = {scalesD, scalesH, scalesW};
  return Interp("aclnnUpsampleNearestExact3d", 3, k::AxisRule::kNearestExact, self, outputSize, false, s, out,
                workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnUpsampleNearestExact3d)

aclnnStatus aclnnUpsampleNearestExact3dBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                                const aclIntArray* outputSize,
                                                                const aclIntArray* inputSize, double scalesD,
                                                                double scalesH, double scalesW,
                                                                aclTensor* gradInput, uint64_t* workspaceSize,
                                                                aclOpExecutor** executor) {
  const double s[3] = {scalesD, scalesH, scalesW};
  return InterpBackward("aclnnUpsampleNearestExact3dBackward", 3, k::AxisRule::kNearestExact, gradOutput,
                        outputSize, inputSize, false, s, gradInput, workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnUpsampleNearestExact3dBackward)

aclnnStatus aclnnUpsampleLinear1dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                  bool alignCorners, double scales, aclTensor* out,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  const double s[1] = {scales};
  return Interp("aclnnUpsampleLinear1d", 1, k::AxisRule::kLinear, self, outputSize, alignCorners, s, out,
                workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnUpsampleLinear1d)

aclnnStatus aclnnUpsampleLinear1dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclIntArray* outputSize,
                                                          const aclIntArray* inputSize, bool alignCorners,
                                                          double scales, aclTensor* gradInput,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  const double s[1] = {scales};
  return InterpBackward("aclnnUpsampleLinear1dBackward", 1, k::AxisRule::kLinear, gradOutput, outputSize,
                        inputSize, alignCorners, s, gradInput, workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnUpsampleLinear1dBackward)

#define ACLNN_INTERP_2D(name, rule)                                                                           \
  aclnnStatus name##GetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize, bool alignCorners, \
                                     double scalesH, double scalesW, aclTensor* out, uint64_t* workspaceSize, \
                                     aclOpExecutor** executor) {                                              \
    const double s[2] = {scalesH, scalesW};                                                                   \
    return Interp(#name, 2, rule, self, outputSize, alignCorners, s, out, workspaceSize, executor);           \
  }                                                                                                           \
  ACLNN_LAUNCH(name)

#define ACLNN_INTERP_2D_BACKWARD(name, rule)                                                                  \
  aclnnStatus name##GetWorkspaceSize(const aclTensor* gradOutput, const aclIntArray* outputSize,              \
                                     const aclIntArray* inputSize, bool alignCorners, double scalesH,         \
                                     double scalesW, aclTensor* gradInput, uint64_t* workspaceSize,           \
                                     aclOpExecutor** executor) {                                              \
    const double s[2] = {scalesH, scalesW};                                                                   \
    return InterpBackward(#name, 2, rule, gradOutput, outputSize, inputSize, alignCorners, s, gradInput,      \
                          workspaceSize, executor);                                                           \
  }                                                                                                           \
  ACLNN_LAUNCH(name)

ACLNN_INTERP_2D(aclnnUpsampleBilinear2d, k::AxisRule::kLinear)
ACLNN_INTERP_2D_BACKWARD(aclnnUpsampleBilinear2dBackward, k::AxisRule::kLinear)
ACLNN_INTERP_2D(aclnnUpsampleBicubic2d, k::AxisRule::kCubic)
ACLNN_INTERP_2D_BACKWARD(aclnnUpsampleBicubic2dBackward, k::AxisRule::kCubic)
ACLNN_INTERP_2D(aclnnUpsampleBilinear2dAA, k::AxisRule::kAntialiasLinear)
ACLNN_INTERP_2D_BACKWARD(aclnnUpsampleBilinear2dAABackward, k::AxisRule::kAntialiasLinear)
ACLNN_INTERP_2D(aclnnUpsampleBicubic2dAA, k::AxisRule::kAntialiasCubic)
ACLNN_INTERP_2D_BACKWARD(aclnnUpsampleBicubic2dAAGrad, k::AxisRule::kAntialiasCubic)

aclnnStatus aclnnUpsampleTrilinear3dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                     bool alignCorners, double scalesD, double scalesH,
                                                     double scalesW, aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  const double s[3] = {scalesD, scalesH, scalesW};
  return Interp("aclnnUpsampleTrilinear3d", 3, k::AxisRule::kLinear, self, outputSize, alignCorners, s, out,
                workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnUpsampleTrilinear3d)

aclnnStatus aclnnUpsampleTrilinear3dBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                             const aclIntArray* outputSize,
                                                             const aclIntArray* inputSize, bool alignCorners,
                                                             double scalesD, double scalesH, double scalesW,
                                                             aclTensor* gradInput, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
  const double s[3] = {scalesD, scalesH, scalesW};
  return InterpBackward("aclnnUpsampleTrilinear3dBackward", 3, k::AxisRule::kLinear, gradOutput, outputSize,
                        inputSize, alignCorners, s, gradInput, workspaceSize, executor);
}
ACLNN_LAUNCH(aclnnUpsampleTrilinear3dBackward)

// ---- padding ----

#define ACLNN_PAD(name, spatial, rule)                                                                        \
  aclnnStatus name##GetWorkspaceSize(const aclTensor* self, const aclIntArray* padding, aclTensor* out,       \
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {                     \
    return Pad(#name, spatial, rule, self, padding, out, workspaceSize, executor);                           \
  }                                                                                                           \
  ACLNN_LAUNCH(name)                                                                                          \
  aclnnStatus name##BackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,              \
                                             const aclIntArray* padding, aclTensor* gradInput,                \
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {             \
    return PadBackward(#name "Backward", spatial, rule, gradOutput, self, padding, gradInput, workspaceSize,  \
                       executor);                                                                             \
  }                                                                                                           \
  ACLNN_LAUNCH(name##Backward)

ACLNN_PAD(aclnnReflectionPad1d, 1, k::AxisRule::kReflect)
ACLNN_PAD(aclnnReflectionPad2d, 2, k::AxisRule::kReflect)
ACLNN_PAD(aclnnReflectionPad3d, 3, k::AxisRule::kReflect)
ACLNN_PAD(aclnnReplicationPad1d, 1, k::AxisRule::kReplicate)
ACLNN_PAD(aclnnReplicationPad2d, 2, k::AxisRule::kReplicate)
ACLNN_PAD(aclnnReplicationPad3d, 3, k::AxisRule::kReplicate)

}  // extern "C"
