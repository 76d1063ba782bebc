// The elementwise acl_op types' shared steps (elementwise_run.h).
#include "aclop/ops/elementwise_run.h"

#include <string.h>

#include "aclop/aclop_types.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {
namespace {

// IEEE binary16 / bfloat16 bits as float.
float HalfBitsToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  uint32_t bits;
  if (exponent == 0x1fu) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {  // subnormal: normalize
    exponent = 113;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      --exponent;
    }
    bits = sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13);
  }
  float f;
  memcpy(&f, &bits, sizeof(f));
  return f;
}

float Bf16BitsToFloat(uint16_t b) {
  const uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  memcpy(&f, &bits, sizeof(f));
  return f;
}

template <typename T>
T Load(const uint8_t* p) {
  T v;
  memcpy(&v, p, sizeof(T));
  return v;
}

// The values of a constant or host-placed input (the executor copied a host input when it bound
// it, before any queued work) in *p; false for a device input.
bool HostValues(const OpOperand& t, const uint8_t** p) {
  if (t.desc->isConst) {
    *p = t.desc->constData.data();
    return true;
  }
  *p = static_cast<const uint8_t*>(t.data);
  return t.desc->placement != ACL_MEMTYPE_DEVICE;
}

}  // namespace

kernels::ScalarValue ScalarFor(aclDataType dtype, double v) {
  return IsFloatingType(dtype) ? kernels::ScalarValue::Floating(v)
                               : kernels::ScalarValue::Integral(static_cast<int64_t>(v));
}

aclError RunElementwiseBroadcast(OpContext& ctx, kernels::EwOp op, int arity, kernels::ScalarValue s) {
  std::vector<size_t> order;
  for (int i = 0; i < arity; ++i) order.push_back(static_cast<size_t>(i));
  return RunElementwiseBroadcast(ctx, op, order, s);
}

aclError RunElementwiseBroadcast(OpContext& ctx, kernels::EwOp op, const std::vector<size_t>& order,
                                 kernels::ScalarValue s, kernels::ScalarValue s2, kernels::ScalarValue s3) {
  const OpOperand& y = ctx.outputs[0];
  std::vector<int64_t> shape = ctx.inputs[order[0]].shape();
  for (size_t i : order) {
    std::vector<int64_t> next;
    if (!BroadcastShapes(shape, ctx.inputs[i].shape(), &next)) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input %zu of shape %s does not broadcast with %s", i,
                      ShapeToString(ctx.inputs[i].shape()).c_str(), ShapeToString(shape).c_str());
    }
    shape = next;
  }
  if (shape != y.shape()) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "output y has shape %s but the inputs broadcast to %s",
                    ShapeToString(y.shape()).c_str(), ShapeToString(shape).c_str());
  }
  kernels::EwArgs args;
  args.op = op;
  args.dtype = ctx.inputs[order[0]].dtype();
  args.y = y.data;
  args.n = static_cast<uint64_t>(y.Numel());
  args.s = s;
  args.s2 = s2;
  args.s3 = s3;
  int k = 0;
  for (size_t i : order) {
    void* data = nullptr;
    const aclError rc = ctx.BroadcastInput(i, shape, &data);
    if (rc != ACL_SUCCESS) return rc;
    args.x[k++] = data;
  }
  return kernels::LaunchElementwise(args, ctx.stream());
}

aclError ConstantScalarInput(OpContext& ctx, size_t index, const char* name, kernels::ScalarValue* out) {
  const OpOperand& t = ctx.inputs[index];
  const uint8_t* p = nullptr;
  const bool host = HostValues(t, &p);
  if (!host || t.Numel() != 1) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                    "input %s must be a constant or host input of one element (shape %s%s); a device tensor is not "
                    "supported", name, ShapeToString(t.shape()).c_str(), host ? "" : ", on the device");
  }
  switch (t.dtype()) {
    case ACL_FLOAT: *out = kernels::ScalarValue::Floating(Load<float>(p)); break;
    case ACL_DOUBLE: *out = kernels::ScalarValue::Floating(Load<double>(p)); break;
    case ACL_FLOAT16: *out = kernels::ScalarValue::Floating(HalfBitsToFloat(Load<uint16_t>(p))); break;
    case ACL_BF16: *out = kernels::ScalarValue::Floating(Bf16BitsToFloat(Load<uint16_t>(p))); break;
    case ACL_INT8: *out = kernels::ScalarValue::Integral(Load<int8_t>(p)); break;
    case ACL_UINT8: *out = kernels::ScalarValue::Integral(Load<uint8_t>(p)); break;
    case ACL_INT16: *out = kernels::ScalarValue::Integral(Load<int16_t>(p)); break;
    case ACL_INT32: *out = kernels::ScalarValue::Integral(Load<int32_t>(p)); break;
    case ACL_INT64: *out = kernels::ScalarValue::Integral(Load<int64_t>(p)); break;
    case ACL_BOOL: *out = kernels::ScalarValue::Integral(Load<uint8_t>(p) != 0 ? 1 : 0); break;
    default:
      return ctx.Fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "input %s has data type %s", name, DataTypeName(t.dtype()));
  }
  return ACL_SUCCESS;
}

aclError ConstantInts(OpContext& ctx, size_t index, const char* name, std::vector<int64_t>* out) {
  const OpOperand& t = ctx.inputs[index];
  const uint8_t* p = nullptr;
  if (!HostValues(t, &p)) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "input %s must be a constant or host input", name);
  }
  out->clear();
  for (int64_t i = 0; i < t.Numel(); ++i) {
    if (t.dtype() == ACL_INT32) {
      int32_t v;
      memcpy(&v, p + i * 4, 4);
      out->push_back(v);
    } else {
      int64_t v;
      memcpy(&v, p + i * 8, 8);
      out->push_back(v);
    }
  }
  return ACL_SUCCESS;
}

aclError ReducedAxes(OpContext& ctx, std::vector<bool>* reduced) {
  const OpOperand& axes = ctx.inputs[1];
  const size_t rank = ctx.inputs[0].shape().size();
  if (axes.shape().size() > 1) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input axes of shape %s must be 0-D or 1-D",
                    ShapeToString(axes.shape()).c_str());
  }
  std::vector<int64_t> values;
  const aclError rc = ConstantInts(ctx, 1, "axes", &values);
  if (rc != ACL_SUCCESS) return rc;
  reduced->assign(rank, values.empty());
  std::vector<bool> named(rank, false);
  for (int64_t d : values) {
    const int64_t span = rank == 0 ? 1 : static_cast<int64_t>(rank);
    if (d < -span || d >= span) {
      return ctx.Fail(ACL_ERROR_INVALID_PARAM, "axis %lld is out of range for a %zu-D x", static_cast<long long>(d),
                      rank);
    }
    if (rank == 0) continue;
    const size_t k = static_cast<size_t>(d < 0 ? d + span : d);
    if (named[k]) return ctx.Fail(ACL_ERROR_INVALID_PARAM, "axis %zu appears more than once", k);
    named[k] = (*reduced)[k] = true;
  }
  return ACL_SUCCESS;
}

std::vector<int64_t> DenseStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
  return strides;
}

aclError CopyUnlessSame(OpContext& ctx, const OpOperand& x, const OpOperand& y) {
  if (x.data == y.data || y.Numel() == 0) return ACL_SUCCESS;
  kernels::ViewCopyArgs args;
  args.ndim = 1;
  args.shape[0] = y.Numel();
  args.src = {x.data, x.dtype(), 0, {1}};
  args.dst = {y.data, y.dtype(), 0, {1}};
  return kernels::LaunchViewCopy(args, ctx.stream());
}

}  // namespace aclop
}  // namespace ascendc_sim
