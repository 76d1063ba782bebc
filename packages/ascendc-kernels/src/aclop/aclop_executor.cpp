// aclopCompileAndExecute: validates an op call against its registered type and
// enqueues its kernels on the stream.
#include <string.h>

#include "acl/acl_op.h"
#include "acl/acl_rt.h"
#include "aclop/op_registry.h"
#include "common/dtype.h"
#include "common/error.h"
#include "runtime/launch_origin.h"
#include "runtime/memory.h"

namespace ascendc_sim {
namespace aclop {
namespace {

// Storage formats: internal layouts only for elementwise ops whose operands
// all share format and storage shape (no broadcasting across a layout).
aclError CheckFormats(const OpDef& def, OpContext& ctx) {
  const OpOperand* internal = nullptr;
  const char* role = "input";
  size_t index = 0;
  auto scan = [&](const std::vector<OpOperand>& list, const char* name) {
    for (size_t i = 0; i < list.size() && internal == nullptr; ++i) {
      if (!IsBaseFormat(list[i].format())) {
        internal = &list[i];
        role = name;
        index = i;
      }
    }
  };
  scan(ctx.inputs, "input");
  scan(ctx.outputs, "output");
  if (internal == nullptr || def.formats == FormatPolicy::kOwnCheck) return ACL_SUCCESS;
  if (def.formats == FormatPolicy::kBaseOnly) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                    "%s %zu has internal storage format %s; this op takes only base formats (ND, NCHW, NHWC, "
                    "NCDHW, NCL) - convert it first",
                    role, index, FormatName(internal->format()));
  }
  auto same = [&](const std::vector<OpOperand>& list, const char* name) -> aclError {
    for (size_t i = 0; i < list.size(); ++i) {
      if (list[i].format() != internal->format() || list[i].shape() != internal->shape()) {
        return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                        "%s %zu is %s %s but %s %zu is %s %s: with an internal format all operands must share "
                        "format and storage shape",
                        name, i, FormatName(list[i].format()), ShapeToString(list[i].shape()).c_str(), role, index,
                        FormatName(internal->format()), ShapeToString(internal->shape()).c_str());
      }
    }
    return ACL_SUCCESS;
  };
  aclError rc = same(ctx.inputs, "input");
  return rc != ACL_SUCCESS ? rc : same(ctx.outputs, "output");
}

aclError BindOperand(OpContext& ctx, const char* role, size_t index, const aclTensorDesc* desc,
                     const aclDataBuffer* buffer, int32_t device, OpOperand* out) {
  if (desc == nullptr) return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s %zu has a null tensor descriptor", role, index);
  out->desc = desc;
  if (!IsKernelType(desc->dtype)) {
    return ctx.Fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "%s %zu has data type %s, which no op supports", role, index,
                    DataTypeName(desc->dtype));
  }
  const size_t bytes = static_cast<size_t>(desc->Numel()) * DataTypeSize(desc->dtype);
  if (desc->isConst) {
    if (desc->constData.size() < bytes) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "constant %s %zu has %zu bytes, its shape %s needs %zu", role, index,
                      desc->constData.size(), ShapeToString(desc->dims).c_str(), bytes);
    }
    void* temp = nullptr;
    const aclError rc = ctx.AllocTemp(bytes, &temp);
    if (rc != ACL_SUCCESS) return rc;
    if (bytes != 0) memcpy(temp, desc->constData.data(), bytes);  // a fresh buffer: no queued work uses it
    out->data = temp;
    return ACL_SUCCESS;
  }
  if (buffer == nullptr) return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s %zu has a null data buffer", role, index);
  if (buffer->size < bytes) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s %zu: data buffer has %zu bytes, shape %s of %s needs %zu", role,
                    index, buffer->size, ShapeToString(desc->dims).c_str(), DataTypeName(desc->dtype), bytes);
  }
  if (desc->placement != ACL_MEMTYPE_DEVICE) {
    // Host memory, read now (as CANN copies a host-placed input when the op is launched).
    if (strcmp(role, "input") != 0) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s %zu is placed in host memory; only inputs can be", role, index);
    }
    if (bytes != 0 && buffer->data == nullptr) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "host %s %zu has a null data pointer", role, index);
    }
    void* temp = nullptr;
    const aclError rc = ctx.AllocTemp(bytes, &temp);
    if (rc != ACL_SUCCESS) return rc;
    if (bytes != 0) memcpy(temp, buffer->data, bytes);
    out->data = temp;
    return ACL_SUCCESS;
  }
  out->data = buffer->data;
  if (bytes == 0) return ACL_SUCCESS;
  int32_t owner = -1;
  std::string what = StrFormat("%s %zu", role, index);
  if (CheckDeviceRange(buffer->data, bytes, "aclopCompileAndExecute", what.c_str(), &owner) != ACL_SUCCESS) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s", aclGetRecentErrMsg() + strlen("aclopCompileAndExecute: "));
  }
  if (owner != device) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s %zu is on device %d but the stream belongs to device %d", role, index,
                    owner, device);
  }
  return ACL_SUCCESS;
}

// After an op with data-dependent output shapes: waits for its kernels and writes the
// shapes it reported into the caller's output descriptors (as CANN's V2 call does).
aclError WriteReportedShapes(OpContext& ctx, aclTensorDesc* const outputDesc[]) {
  const aclError rc = aclrtSynchronizeStream(ctx.stream());
  if (rc != ACL_SUCCESS) return rc;
  for (const OpContext::ReportedShape& reported : ctx.reported_shapes()) {
    std::vector<int64_t> dims{*reported.count};
    dims.insert(dims.end(), reported.trailing.begin(), reported.trailing.end());
    aclTensorDesc* desc = outputDesc[reported.index];
    desc->dims = dims;
    if (!desc->originDims.empty()) desc->originDims = dims;
  }
  return ACL_SUCCESS;
}

std::string JoinRegistered() {
  std::string out;
  for (const std::string& t : RegisteredOpTypes()) {
    if (!out.empty()) out += ", ";
    out += t;
  }
  return out;
}

}  // namespace
}  // namespace aclop
}  // namespace ascendc_sim

using ascendc_sim::RaiseError;

namespace ascendc_sim {
namespace aclop {
namespace {

// Both entry points; `shapeDescs` (V2: the output descriptors, which it may update) is null for V1.
aclError Execute(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
                 const aclDataBuffer* const inputs[], int numOutputs, const aclTensorDesc* const outputDesc[],
                 aclDataBuffer* const outputs[], const aclopAttr* attr, aclrtStream stream,
                 aclTensorDesc* const shapeDescs[]) {
  if (opType == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclopCompileAndExecute: opType is null");
  const OpDef* def = FindOp(opType);
  if (def == nullptr) {
    return RaiseError(ACL_ERROR_OP_NOT_FOUND, "aclopCompileAndExecute: op type '%s' is not registered (known: %s)",
                      opType, JoinRegistered().c_str());
  }
  const int32_t device = aclrtStreamGetDevice(stream);
  if (device < 0) {
    return RaiseError(ACL_ERROR_INVALID_RESOURCE_HANDLE, "aclopCompileAndExecute: op '%s': %p is not a live stream",
                      opType, stream);
  }
  OpContext ctx(opType, attr, stream, device);
  if (def->dataDependentShape && shapeDescs == nullptr) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                    "its output shapes depend on the data: run it with aclopCompileAndExecuteV2, which reports them");
  }
  const int minInputs = def->minInputs < 0 ? def->numInputs : def->minInputs;
  if (def->dynamicInputs) {
    if (numInputs < def->numInputs || numOutputs != def->numOutputs) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "takes %d or more inputs and %d output(s), got %d and %d",
                      def->numInputs, def->numOutputs, numInputs, numOutputs);
    }
  } else if (numInputs < minInputs || numInputs > def->numInputs || numOutputs != def->numOutputs) {
    if (minInputs != def->numInputs) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "takes %d to %d input(s) and %d output(s), got %d and %d", minInputs,
                      def->numInputs, def->numOutputs, numInputs, numOutputs);
    }
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "takes %d input(s) and %d output(s), got %d and %d", def->numInputs,
                    def->numOutputs, numInputs, numOutputs);
  }
  if ((numInputs > 0 && inputDesc == nullptr) || (numOutputs > 0 && (outputDesc == nullptr || outputs == nullptr))) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "inputDesc, outputDesc and outputs must not be null");
  }
  ctx.inputs.resize(static_cast<size_t>(numInputs));
  ctx.outputs.resize(static_cast<size_t>(numOutputs));
  for (int i = 0; i < numInputs; ++i) {
    const aclDataBuffer* buffer = inputs != nullptr ? inputs[i] : nullptr;
    const aclError rc = BindOperand(ctx, "input", static_cast<size_t>(i), inputDesc[i], buffer, device,
                                    &ctx.inputs[static_cast<size_t>(i)]);
    if (rc != ACL_SUCCESS) return rc;
  }
  for (int i = 0; i < numOutputs; ++i) {
    if (outputDesc[i] != nullptr && outputDesc[i]->isConst) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output %d is marked constant", i);
    }
    const aclError rc = BindOperand(ctx, "output", static_cast<size_t>(i), outputDesc[i], outputs[i], device,
                                    &ctx.outputs[static_cast<size_t>(i)]);
    if (rc != ACL_SUCCESS) return rc;
  }
  aclError rc = CheckFormats(*def, ctx);
  if (rc != ACL_SUCCESS) return rc;
  const std::string origin = std::string("aclopCompileAndExecute(") + opType + ")";
  ascendc_sim::ScopedLaunchOrigin scope(origin.c_str());
  rc = def->run(ctx);
  if (rc != ACL_SUCCESS || !def->dataDependentShape) return rc;
  return WriteReportedShapes(ctx, shapeDescs);
}

}  // namespace
}  // namespace aclop
}  // namespace ascendc_sim

extern "C" {

aclError aclopCompileAndExecute(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
                                const aclDataBuffer* const inputs[], int numOutputs,
                                const aclTensorDesc* const outputDesc[], aclDataBuffer* const outputs[],
                                const aclopAttr* attr, aclopEngineType engineType, aclopCompileType compileFlag,
                                const char* opPath, aclrtStream stream) {
  (void)engineType;  // one engine on the simulator
  (void)compileFlag;
  (void)opPath;
  return ascendc_sim::aclop::Execute(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr,
                                     stream, nullptr);
}

// As aclopCompileAndExecute; an op whose output shapes depend on the data is waited for and
// its outputs' real shapes are written into outputDesc.
aclError aclopCompileAndExecuteV2(const char* opType, int numInputs, aclTensorDesc* inputDesc[],
                                  aclDataBuffer* inputs[], int numOutputs, aclTensorDesc* outputDesc[],
                                  aclDataBuffer* outputs[], aclopAttr* attr, aclopEngineType engineType,
                                  aclopCompileType compileFlag, const char* opPath, aclrtStream stream) {
  (void)engineType;
  (void)compileFlag;
  (void)opPath;
  return ascendc_sim::aclop::Execute(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr,
                                     stream, outputDesc);
}

}  // extern "C"
