// The op registry and the OpContext helpers.
#include "aclop/op_registry.h"

#include <stdarg.h>

#include <algorithm>
#include <variant>

#include "aclop/declared_ops.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"
#include "runtime/memory.h"

namespace ascendc_sim {
namespace aclop {
const OpDef* FindOp(const std::string& type) {
  for (const OpDef& def : kDeclaredOps) {
    if (type == def.type) return &def;
  }
  return nullptr;
}

std::vector<std::string> RegisteredOpTypes() {
  std::vector<std::string> out;
  for (const OpDef& def : kDeclaredOps) out.push_back(def.type);
  return out;  // the generator writes the table sorted by type
}

bool BroadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b, std::vector<int64_t>* out) {
  const size_t n = std::max(a.size(), b.size());
  out->assign(n, 1);
  for (size_t i = 0; i < n; ++i) {
    const int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    (*out)[i] = da == 1 ? db : da;
  }
  return true;
}

OpContext::~OpContext() {
  for (void* p : temps_) FreeDeviceMemoryAsync(p, stream_);
}

void OpContext::ReportOutputShape(size_t index, const int64_t* count, std::vector<int64_t> trailing) {
  reported_.push_back(ReportedShape{index, count, std::move(trailing)});
}

aclError OpContext::Fail(aclError code, const char* fmt, ...) {
  char buffer[768];
  va_list args;
  va_start(args, fmt);
  vsnprintf(buffer, sizeof(buffer), fmt, args);
  va_end(args);
  return RaiseError(code, "aclopCompileAndExecute: op '%s': %s", type_.c_str(), buffer);
}

bool OpContext::HasAttr(const char* name) const {
  return attr_ != nullptr && attr_->values.count(name) != 0;
}

aclError OpContext::GetFloatAttr(const char* name, float* out) const {
  if (!HasAttr(name)) {
    return const_cast<OpContext*>(this)->Fail(ACL_ERROR_INVALID_PARAM, "required float attribute '%s' is missing", name);
  }
  const AttrValue& v = attr_->values.at(name);
  if (const float* f = std::get_if<float>(&v)) {
    *out = *f;
  } else if (const int64_t* i = std::get_if<int64_t>(&v)) {
    *out = static_cast<float>(*i);
  } else {
    return const_cast<OpContext*>(this)->Fail(ACL_ERROR_INVALID_PARAM, "attribute '%s' must be a float", name);
  }
  return ACL_SUCCESS;
}

aclError OpContext::GetIntAttr(const char* name, int64_t* out) const {
  if (!HasAttr(name)) {
    return const_cast<OpContext*>(this)->Fail(ACL_ERROR_INVALID_PARAM, "required int attribute '%s' is missing", name);
  }
  const AttrValue& v = attr_->values.at(name);
  const int64_t* i = std::get_if<int64_t>(&v);
  if (i == nullptr) {
    return const_cast<OpContext*>(this)->Fail(ACL_ERROR_INVALID_PARAM, "attribute '%s' must be an int", name);
  }
  *out = *i;
  return ACL_SUCCESS;
}

aclError OpContext::GetDataTypeAttr(const char* name, aclDataType* out) const {
  if (!HasAttr(name)) {
    return const_cast<OpContext*>(this)->Fail(ACL_ERROR_INVALID_PARAM, "required data type attribute '%s' is missing",
                                              name);
  }
  const aclDataType* dt = std::get_if<aclDataType>(&attr_->values.at(name));
  if (dt == nullptr) {
    return const_cast<OpContext*>(this)->Fail(ACL_ERROR_INVALID_PARAM, "attribute '%s' must be a data type", name);
  }
  *out = *dt;
  return ACL_SUCCESS;
}

aclError OpContext::GetBoolAttr(const char* name, bool* out) const {
  if (!HasAttr(name)) {
    return const_cast<OpContext*>(this)->Fail(ACL_ERROR_INVALID_PARAM, "required bool attribute '%s' is missing", name);
  }
  const bool* b = std::get_if<bool>(&attr_->values.at(name));
  if (b == nullptr) {
    return const_cast<OpContext*>(this)->Fail(ACL_ERROR_INVALID_PARAM, "attribute '%s' must be a bool", name);
  }
  *out = *b;
  return ACL_SUCCESS;
}

aclError OpContext::GetIntListAttr(const char* name, std::vector<int64_t>* out) const {
  if (!HasAttr(name)) {
    return const_cast<OpContext*>(this)->Fail(ACL_ERROR_INVALID_PARAM, "required int list attribute '%s' is missing",
                                              name);
  }
  const auto* list = std::get_if<std::vector<int64_t>>(&attr_->values.at(name));
  if (list == nullptr) {
    return const_cast<OpContext*>(this)->Fail(ACL_ERROR_INVALID_PARAM, "attribute '%s' must be a list of ints",
                                              name);
  }
  *out = *list;
  return ACL_SUCCESS;
}

aclError OpContext::GetFloatListAttr(const char* name, std::vector<float>* out) const {
  if (!HasAttr(name)) {
    return const_cast<OpContext*>(this)->Fail(ACL_ERROR_INVALID_PARAM, "required float list attribute '%s' is missing",
                                              name);
  }
  const auto* list = std::get_if<std::vector<float>>(&attr_->values.at(name));
  if (list == nullptr) {
    return const_cast<OpContext*>(this)->Fail(ACL_ERROR_INVALID_PARAM, "attribute '%s' must be a list of floats",
                                              name);
  }
  *out = *list;
  return ACL_SUCCESS;
}

aclError OpContext::GetStringAttr(const char* name, std::string* out) const {
  if (!HasAttr(name)) {
    return const_cast<OpContext*>(this)->Fail(ACL_ERROR_INVALID_PARAM, "required string attribute '%s' is missing",
                                              name);
  }
  const std::string* s = std::get_if<std::string>(&attr_->values.at(name));
  if (s == nullptr) {
    return const_cast<OpContext*>(this)->Fail(ACL_ERROR_INVALID_PARAM, "attribute '%s' must be a string", name);
  }
  *out = *s;
  return ACL_SUCCESS;
}

aclError OpContext::AllocTemp(size_t bytes, void** out) {
  const aclError rc = AllocateDeviceMemory(device_, bytes == 0 ? 1 : bytes, "aclopCompileAndExecute", out);
  if (rc == ACL_SUCCESS) temps_.push_back(*out);
  return rc;
}

aclError OpContext::BroadcastInput(size_t index, const std::vector<int64_t>& shape, void** out) {
  const OpOperand& in = inputs[index];
  if (in.shape() == shape) {
    *out = in.data;
    return ACL_SUCCESS;
  }
  const size_t rank = shape.size();
  const std::vector<int64_t>& from = in.shape();
  if (from.size() > rank || rank > static_cast<size_t>(kernels::kMaxViewDims)) {
    return Fail(ACL_ERROR_INVALID_PARAM, "input %zu of shape %s cannot broadcast to %s", index,
                ShapeToString(from).c_str(), ShapeToString(shape).c_str());
  }
  kernels::ViewCopyArgs args;
  args.ndim = static_cast<int32_t>(rank);
  int64_t srcStride = 1;
  int64_t dstStride = 1;
  int64_t numel = 1;
  for (size_t k = rank; k-- > 0;) {
    args.shape[k] = shape[k];
    numel *= shape[k];
    const size_t lead = rank - from.size();
    const int64_t dim = k < lead ? 1 : from[k - lead];
    if (dim != shape[k] && dim != 1) {
      return Fail(ACL_ERROR_INVALID_PARAM, "input %zu of shape %s cannot broadcast to %s", index,
                  ShapeToString(from).c_str(), ShapeToString(shape).c_str());
    }
    args.src.strides[k] = dim == 1 ? 0 : srcStride;
    srcStride *= dim;
    args.dst.strides[k] = dstStride;
    dstStride *= shape[k];
  }
  void* temp = nullptr;
  aclError rc = AllocTemp(static_cast<size_t>(numel) * DataTypeSize(in.dtype()), &temp);
  if (rc != ACL_SUCCESS) return rc;
  args.src.data = in.data;
  args.src.dtype = in.dtype();
  args.dst.data = temp;
  args.dst.dtype = in.dtype();
  rc = kernels::LaunchViewCopy(args, stream_);
  if (rc != ACL_SUCCESS) return rc;
  *out = temp;
  return ACL_SUCCESS;
}

aclError OpContext::RequireSameDtype(const OpOperand& a, const char* aName, const OpOperand& b, const char* bName) {
  if (a.dtype() == b.dtype()) return ACL_SUCCESS;
  return Fail(ACL_ERROR_INVALID_PARAM, "%s has data type %s but %s has %s; they must match", aName,
              DataTypeName(a.dtype()), bName, DataTypeName(b.dtype()));
}

aclError OpContext::RequireInputsShareDtype(const char* name, size_t first) {
  for (size_t i = first + 1; i < inputs.size(); ++i) {
    if (inputs[i].dtype() != inputs[first].dtype()) {
      return Fail(ACL_ERROR_INVALID_PARAM, "%s0 has data type %s but %s%zu has %s; they must match", name,
                  DataTypeName(inputs[first].dtype()), name, i - first, DataTypeName(inputs[i].dtype()));
    }
  }
  return ACL_SUCCESS;
}

aclError OpContext::RequireDtypeIn(const OpOperand& t, const char* name, std::initializer_list<aclDataType> allowed) {
  if (std::find(allowed.begin(), allowed.end(), t.dtype()) != allowed.end()) return ACL_SUCCESS;
  std::string list;
  for (aclDataType dt : allowed) {
    if (!list.empty()) list += ", ";
    list += DataTypeName(dt);
  }
  return Fail(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "%s has data type %s; supported: %s", name, DataTypeName(t.dtype()),
              list.c_str());
}

aclError OpContext::RequireSameShape(const OpOperand& a, const char* aName, const OpOperand& b, const char* bName) {
  if (a.shape() == b.shape()) return ACL_SUCCESS;
  return Fail(ACL_ERROR_INVALID_PARAM, "%s has shape %s but %s has %s; they must match", aName,
              ShapeToString(a.shape()).c_str(), bName, ShapeToString(b.shape()).c_str());
}

}  // namespace aclop
}  // namespace ascendc_sim
