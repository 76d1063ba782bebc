// Shared aclnn argument checks.
#include "aclnn/aclnn_common.h"

#include <algorithm>
#include <string>

#include "aclnn/type_promotion.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclnn {

const std::initializer_list<aclDataType> kAllDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                                       ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BOOL};
const std::initializer_list<aclDataType> kCopyDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE,    ACL_INT8,
                                                        ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64,     ACL_BOOL,
                                                        ACL_COMPLEX64, ACL_COMPLEX128};
const std::initializer_list<aclDataType> kNumericDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                                           ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64};

aclnnStatus CheckNotNull(const char* api, const void* p, const char* name) {
  if (p != nullptr) return ACLNN_SUCCESS;
  return RaiseError(ACLNN_ERR_PARAM_NULLPTR, "%s: %s must not be null", api, name);
}

aclnnStatus CheckTensor(const char* api, const aclTensor* t, const char* name,
                        std::initializer_list<aclDataType> supported) {
  if (std::find(supported.begin(), supported.end(), t->dtype) == supported.end()) {
    std::string list;
    for (aclDataType dt : supported) {
      if (!list.empty()) list += ", ";
      list += DataTypeName(dt);
    }
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s, which is not supported (supported: %s)", api,
                      name, DataTypeName(t->dtype), list.c_str());
  }
  if (!IsBaseFormat(t->format)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID,
                      "%s: %s has storage format %s; only base formats (ND, NCHW, NHWC, NCDHW, NCL) are supported",
                      api, name, FormatName(t->format));
  }
  if (t->viewDims.size() > static_cast<size_t>(kernels::kMaxViewDims)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has %zu dimensions; at most %d are supported", api, name,
                      t->viewDims.size(), kernels::kMaxViewDims);
  }
  const int64_t numel = t->Numel();
  if (numel == 0) return ACLNN_SUCCESS;
  if (t->data == nullptr) return RaiseError(ACLNN_ERR_PARAM_NULLPTR, "%s: %s has no data pointer", api, name);
  int64_t lo = t->offset;
  int64_t hi = t->offset;
  for (size_t k = 0; k < t->viewDims.size(); ++k) {
    const int64_t reach = (t->viewDims[k] - 1) * t->strides[k];
    if (reach < 0) {
      lo += reach;
    } else {
      hi += reach;
    }
  }
  const int64_t storage = t->StorageNumel();
  if (lo < 0 || hi >= storage) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID,
                      "%s: %s view (shape %s, strides %s, offset %lld) reaches element %lld, outside its storage of "
                      "%lld elements (storage shape %s)",
                      api, name, ShapeToString(t->viewDims).c_str(), ShapeToString(t->strides).c_str(),
                      static_cast<long long>(t->offset), static_cast<long long>(lo < 0 ? lo : hi),
                      static_cast<long long>(storage), ShapeToString(t->storageDims).c_str());
  }
  return ACLNN_SUCCESS;
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

bool BroadcastsTo(const std::vector<int64_t>& from, const std::vector<int64_t>& shape) {
  if (from.size() > shape.size()) return false;
  const size_t lead = shape.size() - from.size();
  for (size_t k = 0; k < from.size(); ++k) {
    if (from[k] != shape[lead + k] && from[k] != 1) return false;
  }
  return true;
}

aclnnStatus CheckBinaryShapes(const char* api, const aclTensor* self, const char* selfName, const aclTensor* other,
                              const char* otherName, const aclTensor* out, const char* outName) {
  std::vector<int64_t> shape;
  if (!BroadcastShapes(self->viewDims, other->viewDims, &shape)) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s shape %s and %s shape %s cannot broadcast", api, selfName,
                      ShapeToString(self->viewDims).c_str(), otherName, ShapeToString(other->viewDims).c_str());
  }
  if (shape != out->viewDims) {
    return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s shape %s differs from the broadcast shape %s of %s and %s", api,
                      outName, ShapeToString(out->viewDims).c_str(), ShapeToString(shape).c_str(), selfName,
                      otherName);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckResultCast(const char* api, aclDataType result, const aclTensor* out, const char* outName,
                            const char* inputs) {
  if (CanCast(result, out->dtype)) return ACLNN_SUCCESS;
  return RaiseError(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s, which cannot hold the result type %s of %s", api,
                    outName, DataTypeName(out->dtype), DataTypeName(result), inputs);
}

}  // namespace aclnn
}  // namespace ascendc_sim
