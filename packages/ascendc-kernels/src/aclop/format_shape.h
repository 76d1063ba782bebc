// Storage shapes of the internal formats, as CANN infers them from the origin
// (logical) shape: FRACTAL_NZ [..., M, N] -> [..., ceil(N / C0), ceil(M / 16), 16, C0]
// (a 1-D [N] is the matrix [1, N]); NC1HWC0 of an NCHW shape (fewer dimensions
// are padded to [N, C, H, W] with 1s: [C] -> [1, C, 1, 1], [N, C] -> [N, C, 1, 1],
// [N, C, H] -> [N, C, H, 1]) -> [N, ceil(C / C0), H, W, C0]. C0 as TransDataC0.
#ifndef ASCENDC_SIM_ACLOP_FORMAT_SHAPE_H
#define ASCENDC_SIM_ACLOP_FORMAT_SHAPE_H

#include <stdint.h>

#include <string>
#include <vector>

#include "acl/acl_base.h"

namespace ascendc_sim {
namespace aclop {

// The storage shape of `origin` in `format` (a base format: `origin` itself).
// False with a reason in `*why` when the format cannot hold that shape or dtype.
bool InferStorageShape(aclFormat format, const std::vector<int64_t>& origin, aclDataType dtype,
                       std::vector<int64_t>* out, std::string* why);

}  // namespace aclop
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_ACLOP_FORMAT_SHAPE_H
