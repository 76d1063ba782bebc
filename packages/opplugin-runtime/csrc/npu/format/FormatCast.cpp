#include "npu/format/FormatCast.h"

#include <c10/util/Exception.h>

#include "npu/core/NPUEmptyTensor.h"
#include "npu/core/NPUGuard.h"
#include "npu/core/NPUStorageImpl.h"
#include "npu/format/FormatHelper.h"
#include "npu/acl_op/OpCommand.h"

namespace at_npu::native {
namespace {

// dst <- src re-laid from src's storage format into dst's.
void TransData(const at::Tensor& src, at::Tensor& dst, aclFormat from, aclFormat to) {
  OpCommand cmd;
  cmd.Name("TransData")
      .Input(src)
      .Output(dst)
      .Attr("src_format", FormatHelper::GetFormatName(from))
      .Attr("dst_format", FormatHelper::GetFormatName(to))
      .Run();
}

}  // namespace

at::Tensor empty_with_format(c10::IntArrayRef sizes, const c10::TensorOptions& options, aclFormat format,
                             const char* op) {
  const at::ScalarType dtype = c10::typeMetaToScalarType(options.dtype());
  c10_npu::NPUStorageDesc desc;
  desc.npu_format_ = format;
  if (FormatHelper::IsBaseFormatType(format)) {
    desc.origin_format_ = format;
  } else {
    desc.origin_format_ = FormatHelper::GetOriginFormat(format);
    desc.storage_sizes_ = FormatHelper::GetStorageSizes(format, sizes, dtype, op);
    desc.base_sizes_.assign(sizes.begin(), sizes.end());
    desc.data_type_ = options.dtype();
  }
  return c10_npu::empty_npu_with_storage_desc(sizes, dtype, options.device(), desc);
}

at::Tensor format_cast(const at::Tensor& src, aclFormat format, const char* op) {
  TORCH_CHECK(src.device().is_privateuseone(), op, ": expected an npu tensor, got one on ", src.device());
  const aclFormat from = FormatHelper::GetFormat(src);
  const bool from_base = FormatHelper::IsBaseFormatType(from);
  TORCH_CHECK(from_base || FormatHelper::IsInternalFormatTensor(src), op, ": self reinterprets the bytes of a ",
              FormatHelper::GetFormatName(from), " storage (shape ", src.sizes(), ", dtype ", src.scalar_type(),
              "); only the tensor the storage holds can be converted");
  if (from == format) {
    return src;
  }
  c10_npu::NPUGuard guard(src.device());
  const bool to_base = FormatHelper::IsBaseFormatType(format);
  if (!from_base && !to_base) {
    return format_cast(format_cast(src, FormatHelper::GetOriginFormat(from), op), format, op);
  }
  const at::Tensor input = from_base ? src.contiguous() : src;
  at::Tensor result = empty_with_format(src.sizes(), src.options(), format, op);
  if (src.numel() == 0) {
    return result;
  }
  if (from_base && to_base) {
    result.copy_(input);  // the same bytes, another label
  } else {
    TransData(input, result, from, format);
  }
  return result;
}

at::Tensor to_base_format(const at::Tensor& tensor, const char* op) {
  const aclFormat format = FormatHelper::GetFormat(tensor);
  if (FormatHelper::IsBaseFormatType(format)) {
    return tensor;
  }
  return format_cast(tensor, FormatHelper::GetOriginFormat(format), op);
}

void format_cast_into(const at::Tensor& src, at::Tensor& dst, const char* op) {
  const aclFormat from = FormatHelper::GetFormat(src);
  const aclFormat to = FormatHelper::GetFormat(dst);
  TORCH_CHECK(FormatHelper::IsBaseFormatType(from) && FormatHelper::IsInternalFormatTensor(dst), op,
              ": format_cast_into expects a base-format source and an internal-format destination, got ",
              FormatHelper::GetFormatName(from), " -> ", FormatHelper::GetFormatName(to));
  TORCH_CHECK(src.sizes().equals(dst.sizes()) && src.scalar_type() == dst.scalar_type(), op,
              ": source ", src.sizes(), " ", src.scalar_type(), " and destination ", dst.sizes(), " ",
              dst.scalar_type(), " differ");
  if (dst.numel() == 0) {
    return;
  }
  c10_npu::NPUGuard guard(dst.device());
  TransData(src.contiguous(), dst, from, to);
}

void convert_storage_to_base_format(const at::Tensor& tensor, const char* op) {
  if (!FormatHelper::IsInternalFormatTensor(tensor)) {
    return;
  }
  c10::StorageImpl* storage = tensor.storage().unsafeGetStorageImpl();
  c10_npu::NPUStorageDesc* desc = c10_npu::GetMutableNPUStorageDesc(storage);
  // The logical tensor the storage holds (tensor itself may be an alias of it).
  at::Tensor whole(at::detail::make_tensor_base<c10::TensorImpl>(
      c10::Storage(tensor.storage()), c10::DispatchKeySet(c10::DispatchKey::PrivateUse1), desc->data_type_));
  whole.unsafeGetTensorImpl()->set_sizes_contiguous(desc->base_sizes_);
  at::Tensor base = format_cast(whole, desc->origin_format_, op);
  c10::StorageImpl* base_storage = base.storage().unsafeGetStorageImpl();
  const size_t nbytes = base_storage->nbytes();
  // Stream-ordered: the caching allocator frees the old bytes after the queued TransData read them.
  storage->set_data_ptr_noswap(base_storage->set_data_ptr(c10::DataPtr(nullptr, base_storage->device())));
  storage->set_nbytes(nbytes);
  const aclFormat origin = desc->origin_format_;
  *desc = c10_npu::NPUStorageDesc();
  desc->origin_format_ = origin;
  desc->npu_format_ = origin;
}

}  // namespace at_npu::native
