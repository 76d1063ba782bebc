// Argument checks shared by the aclnn entry points. Each failing check sets a
// message naming the api and the argument ("aclnnAdd: self has dtype ACL_BOOL
// ...") and returns the aclnn status.
#ifndef ASCENDC_SIM_ACLNN_ACLNN_COMMON_H
#define ASCENDC_SIM_ACLNN_ACLNN_COMMON_H

#include <initializer_list>
#include <vector>

#include "aclnn/acl_meta.h"
#include "meta/acl_meta_types.h"

namespace ascendc_sim {
namespace aclnn {

// bool, int8/16/32/64, uint8, float16, bfloat16, float, double
extern const std::initializer_list<aclDataType> kAllDtypes;
// kAllDtypes and complex64/complex128: what the data-movement apis (copy, fill, cat) take
extern const std::initializer_list<aclDataType> kCopyDtypes;
// the above without bool
extern const std::initializer_list<aclDataType> kNumericDtypes;

aclnnStatus CheckNotNull(const char* api, const void* p, const char* name);

// dtype in `supported`, a base format, at most 8 dims, the view inside its
// storage and a data pointer unless the tensor is empty.
aclnnStatus CheckTensor(const char* api, const aclTensor* t, const char* name,
                        std::initializer_list<aclDataType> supported);

// Numpy broadcasting; false when incompatible.
bool BroadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b, std::vector<int64_t>* out);

// `name`'s shape broadcasts to `shape` (only leading/size-1 dims expand).
bool BroadcastsTo(const std::vector<int64_t>& from, const std::vector<int64_t>& shape);

// self/other broadcast to exactly out's shape.
aclnnStatus CheckBinaryShapes(const char* api, const aclTensor* self, const char* selfName, const aclTensor* other,
                              const char* otherName, const aclTensor* out, const char* outName);

// `result` (the promoted type) fits in out's dtype.
aclnnStatus CheckResultCast(const char* api, aclDataType result, const aclTensor* out, const char* outName,
                            const char* inputs);

}  // namespace aclnn
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_ACLNN_ACLNN_COMMON_H
