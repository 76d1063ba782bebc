// Storage shapes of the internal formats, as CANN infers them from the origin
// (logical) shape: FRACTAL_NZ [..., M, N] -> [..., ceil(N / C0), ceil(M / 16), 16, C0]
// (a 1-D [N] is the matrix [1, N]); NC1HWC0 of an NCHW shape (fewer dimensions
// are padded to [N, C, H, W] with 1s: [C] -> [1, C, 1, 1], [N, C] -> [N, C, 1, 1],
// [N, C, H] -> [N, C, H, 1]) -> [N, ceil(C / C0), H, W, C0]. C0 as TransDataC0.
// The convolution layouts (CANN's): FRACTAL_Z of an NCHW shape (fewer dimensions padded as for
// NC1HWC0) -> [C1 * H * W, ceil(N / 16), 16, C0]; NDC1HWC0 of an NCDHW shape -> [N, D, C1, H, W, C0];
// FRACTAL_Z_3D of an NCDHW shape -> [D * C1 * H * W, ceil(N / 16), 16, C0], C1 = ceil(C / C0).
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

// FRACTAL_Z, NDC1HWC0 and FRACTAL_Z_3D as a padded origin and a permutation: the origin (read as NCHW
// or NCDHW) zero-padded to `padded` (N to a multiple of 16 for the fractal ones, C to one of C0), its
// dimensions split into `split` (N -> [N / 16, 16], C -> [C1, C0]) with strides `splitStrides` in the
// dense padded buffer; the storage holds split dimension perm[0], then perm[1], ... densely.
struct SplitLayout {
  std::vector<int64_t> padded;
  std::vector<int64_t> split;
  std::vector<int64_t> splitStrides;
  std::vector<size_t> perm;
};
// CANN's aclFormat numbers of the 3-D convolution layouts (acl_base.h's ACL_FORMAT_NDC1HWC0 and
// ACL_FRACTAL_Z_3D), accepted by aclCreateTensorDesc.
constexpr aclFormat kFormatNdc1hwc0 = static_cast<aclFormat>(32);
constexpr aclFormat kFormatFractalZ3d = static_cast<aclFormat>(33);
bool IsSplitLayoutFormat(aclFormat format);
// The name of a format in messages (FormatName, and the 3-D layouts).
const char* LayoutFormatName(aclFormat format);
bool SplitLayoutOf(aclFormat format, const std::vector<int64_t>& origin, int64_t c0, SplitLayout* out,
                   std::string* why);

}  // namespace aclop
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_ACLOP_FORMAT_SHAPE_H
