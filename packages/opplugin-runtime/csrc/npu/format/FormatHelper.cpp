#include "npu/format/FormatHelper.h"

#include <c10/util/Exception.h>

#include "npu/core/NPUStorageImpl.h"

namespace at_npu::native {
namespace {

// CANN's aclFormat numbers of the 3-D convolution layouts (acl_base.h's ACL_FORMAT_NDC1HWC0 and
// ACL_FRACTAL_Z_3D). The device holds, besides the base formats: NC1HWC0 and FRACTAL_Z (origin NCHW;
// FRACTAL_Z [N, C, H, W] -> [ceil(C/C0) * H * W, ceil(N/16), 16, C0]), NDC1HWC0 [N, C, D, H, W] ->
// [N, D, ceil(C/C0), H, W, C0] and FRACTAL_Z_3D -> [D * ceil(C/C0) * H * W, ceil(N/16), 16, C0] (origin
// NCDHW), FRACTAL_NZ (origin ND).
constexpr aclFormat kFormatNdc1hwc0 = static_cast<aclFormat>(32);
constexpr aclFormat kFormatFractalZ3d = static_cast<aclFormat>(33);

}  // namespace


aclFormat FormatHelper::GetFormat(const at::Tensor& tensor) {
  if (!tensor.defined() || !tensor.device().is_privateuseone() || !tensor.has_storage()) {
    return ACL_FORMAT_ND;
  }
  const c10_npu::NPUStorageDesc* desc = c10_npu::GetNPUStorageDesc(tensor.storage().unsafeGetStorageImpl());
  return desc != nullptr ? desc->npu_format_ : ACL_FORMAT_ND;
}

bool FormatHelper::IsBaseFormatType(aclFormat format) {
  switch (format) {
    case ACL_FORMAT_ND:
    case ACL_FORMAT_NCHW:
    case ACL_FORMAT_NHWC:
    case ACL_FORMAT_NCDHW:
    case ACL_FORMAT_NCL:
      return true;
    default:
      return false;
  }
}

bool FormatHelper::IsOpInputBaseFormat(const at::Tensor& tensor) {
  return IsBaseFormatType(GetFormat(tensor));
}

bool FormatHelper::IsOpInputBaseFormat(const c10::optional<at::Tensor>& tensor) {
  return !tensor.has_value() || IsOpInputBaseFormat(*tensor);
}

bool FormatHelper::IsOpInputBaseFormat(at::TensorList tensors) {
  for (const at::Tensor& tensor : tensors) {
    if (!IsOpInputBaseFormat(tensor)) {
      return false;
    }
  }
  return true;
}

bool FormatHelper::IsOpInputBaseFormat(const c10::optional<at::TensorList>& tensors) {
  return !tensors.has_value() || IsOpInputBaseFormat(*tensors);
}

bool FormatHelper::IsOpInputBaseFormat(const at::ITensorListRef& tensors) {
  for (const at::Tensor& tensor : tensors) {
    if (!IsOpInputBaseFormat(tensor)) {
      return false;
    }
  }
  return true;
}

bool FormatHelper::IsOpInputBaseFormat(const c10::List<c10::optional<at::Tensor>>& tensors) {
  for (const c10::optional<at::Tensor>& tensor : tensors) {
    if (!IsOpInputBaseFormat(tensor)) {
      return false;
    }
  }
  return true;
}

const char* FormatHelper::GetFormatName(aclFormat format) {
  switch (static_cast<int>(format)) {  // int: the 3-D layouts are not in the enum
    case ACL_FORMAT_UNDEFINED:
      return "UNDEFINED";
    case ACL_FORMAT_NCHW:
      return "NCHW";
    case ACL_FORMAT_NHWC:
      return "NHWC";
    case ACL_FORMAT_ND:
      return "ND";
    case ACL_FORMAT_NC1HWC0:
      return "NC1HWC0";
    case ACL_FORMAT_FRACTAL_Z:
      return "FRACTAL_Z";
    case ACL_FORMAT_NCDHW:
      return "NCDHW";
    case ACL_FORMAT_FRACTAL_NZ:
      return "FRACTAL_NZ";
    case kFormatNdc1hwc0:
      return "NDC1HWC0";
    case kFormatFractalZ3d:
      return "FRACTAL_Z_3D";
    case ACL_FORMAT_NCL:
      return "NCL";
  }
  return "UNKNOWN";
}

bool FormatHelper::IsSupportedFormat(int64_t acl_format) {
  return acl_format == ACL_FORMAT_ND || acl_format == ACL_FORMAT_NCHW || acl_format == ACL_FORMAT_NC1HWC0 ||
         acl_format == ACL_FORMAT_FRACTAL_NZ || acl_format == ACL_FORMAT_FRACTAL_Z || acl_format == ACL_FORMAT_NCDHW ||
         acl_format == kFormatNdc1hwc0 || acl_format == kFormatFractalZ3d;
}

namespace {

// The formats the device holds, as torch_npu.Format numbers them.
constexpr const char* kHeldFormats =
    "ND=2, NCHW=0, NCDHW=30, NC1HWC0=3, FRACTAL_Z=4, FRACTAL_NZ=29, NDC1HWC0=32, FRACTAL_Z_3D=33";

// CANN's storage formats that the simulated device does not hold (names as torch_npu.Format).
const char* UnheldFormatName(int64_t acl_format) {
  switch (acl_format) {
    case 1: return "NHWC";
    case 12: return "NC1HWC0_C04";
    case 16: return "HWCN";
    case 27: return "NDHWC";
    case 35: return "NC";
    case 47: return "NCL";
    case 50: return "FRACTAL_NZ_C0_16";
    case 51: return "FRACTAL_NZ_C0_32";
    case 52: return "FRACTAL_NZ_C0_2";
    case 53: return "FRACTAL_NZ_C0_4";
    case 54: return "FRACTAL_NZ_C0_8";
    default: return nullptr;
  }
}

}  // namespace

aclFormat FormatHelper::CheckSupportedFormat(int64_t acl_format, const char* op, const char* arg) {
  if (!IsSupportedFormat(acl_format)) {
    const char* name = UnheldFormatName(acl_format);
    TORCH_CHECK(name == nullptr, op, ": ", arg, "=", acl_format, " is ", name,
                ", a CANN format the npu device cannot hold (it holds ", kHeldFormats, ")");
    TORCH_CHECK(false, op, ": ", arg, "=", acl_format,
                " is not a supported npu format (supported: ", kHeldFormats, ")");
  }
  return static_cast<aclFormat>(acl_format);
}

namespace {

int64_t CubeC0(at::ScalarType dtype) {
  switch (c10::elementSize(dtype)) {
    case 1:
      return 32;
    case 2:
    case 4:
      return 16;
    default:
      return 0;
  }
}

int64_t CeilDiv(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

}  // namespace

c10::SmallVector<int64_t, 5> FormatHelper::GetStorageSizes(aclFormat format, c10::IntArrayRef sizes,
                                                           at::ScalarType dtype, const char* op) {
  if (IsBaseFormatType(format)) {
    return c10::SmallVector<int64_t, 5>(sizes.begin(), sizes.end());
  }
  TORCH_CHECK(format == ACL_FORMAT_FRACTAL_NZ || format == ACL_FORMAT_NC1HWC0 || format == ACL_FORMAT_FRACTAL_Z ||
                  format == kFormatNdc1hwc0 || format == kFormatFractalZ3d,
              op, ": format ", GetFormatName(format), " has no storage layout on the npu device");
  const int64_t c0 = CubeC0(dtype);
  TORCH_CHECK(c0 != 0, op, ": dtype ", dtype, " has no ", GetFormatName(format),
              " layout (1-, 2- and 4-byte dtypes only)");
  c10::SmallVector<int64_t, 5> out;
  if (format == kFormatNdc1hwc0 || format == kFormatFractalZ3d) {
    TORCH_CHECK(sizes.size() == 5, op, ": a tensor of shape ", sizes, " has no ", GetFormatName(format),
                " layout (5 dimensions, read as NCDHW)");
    const int64_t n = sizes[0], c1 = CeilDiv(sizes[1], c0), d = sizes[2], h = sizes[3], w = sizes[4];
    if (format == kFormatNdc1hwc0) {
      out = {n, d, c1, h, w, c0};
    } else {
      out = {d * c1 * h * w, CeilDiv(n, 16), 16, c0};
    }
    return out;
  }
  if (format == ACL_FORMAT_FRACTAL_NZ) {
    TORCH_CHECK(!sizes.empty(), op, ": a 0-dimensional tensor has no FRACTAL_NZ layout");
    const size_t rank = sizes.size();
    const int64_t m = rank == 1 ? 1 : sizes[rank - 2];
    const int64_t n = sizes[rank - 1];
    out.assign(sizes.begin(), sizes.end() - (rank == 1 ? 1 : 2));
    out.append({CeilDiv(n, c0), CeilDiv(m, 16), 16, c0});
    return out;
  }
  TORCH_CHECK(!sizes.empty() && sizes.size() <= 4, op, ": a tensor of shape ", sizes, " has no ",
              GetFormatName(format), " layout (1 to 4 dimensions, read as NCHW)");
  c10::SmallVector<int64_t, 5> nchw;
  if (sizes.size() == 1) {
    nchw = {1, sizes[0]};
  } else {
    nchw.assign(sizes.begin(), sizes.end());
  }
  nchw.resize(4, 1);
  if (format == ACL_FORMAT_FRACTAL_Z) {
    out = {CeilDiv(nchw[1], c0) * nchw[2] * nchw[3], CeilDiv(nchw[0], 16), 16, c0};
  } else {
    out = {nchw[0], CeilDiv(nchw[1], c0), nchw[2], nchw[3], c0};
  }
  return out;
}

aclFormat FormatHelper::GetOriginFormat(aclFormat internal_format) {
  switch (static_cast<int>(internal_format)) {
    case ACL_FORMAT_NC1HWC0:
    case ACL_FORMAT_FRACTAL_Z:
      return ACL_FORMAT_NCHW;
    case kFormatNdc1hwc0:
    case kFormatFractalZ3d:
      return ACL_FORMAT_NCDHW;
    default:
      return ACL_FORMAT_ND;
  }
}

bool FormatHelper::IsInternalFormatTensor(const at::Tensor& tensor) {
  if (!tensor.defined() || !tensor.device().is_privateuseone() || !tensor.has_storage()) {
    return false;
  }
  const c10_npu::NPUStorageDesc* desc = c10_npu::GetNPUStorageDesc(tensor.storage().unsafeGetStorageImpl());
  if (desc == nullptr || IsBaseFormatType(desc->npu_format_)) {
    return false;
  }
  return tensor.storage_offset() == 0 && tensor.is_contiguous() && tensor.dtype() == desc->data_type_ &&
         tensor.sizes().equals(c10::IntArrayRef(desc->base_sizes_));
}

}  // namespace at_npu::native
