// index.Tensor, _index_put_impl_, masked_scatter_, put_, index_fill_ (Scalar and Tensor value) and
// index_copy (+ in-place) on the acl_op path, as upstream's acl_op kernels run them: "Index" and
// "IndexPutV2" with the indexed dimensions as host input "indexed_sizes" and the index tensors broadcast
// to one shape (masks made long indices first, as ATen does); "MaskedScatter"; put_ as "ScatterNdUpdate" ("ScatterNdAdd"
// with accumulate) over self flattened with the indices as one column; index_fill_ as "IndexFillD" with
// the two assist tensors built on the host from the index; index_copy as a copy of each indexed slice
// (the indices read on the host). Checks and messages are op_plugin::utils' (AdvancedIndexUtils.h,
// IndexUpdateUtils.h, MaskedCompressUtils.h), shared with the op_api kernels.
#define TORCH_ASSERT_ONLY_METHOD_OPERATORS
#include <ATen/core/Tensor.h>
#include <ATen/ExpandUtils.h>
#include <c10/util/accumulate.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/zeros.h>
#include <c10/core/WrapDimMinimal.h>

#include <functional>
#include <vector>

#include "npu/acl_op/OpCommand.h"
#include "npu/core/NPUGuard.h"
#include "npu/op_common/OpPreparation.h"
#include "op_plugin/ops/_index_put_impl.h"
#include "op_plugin/ops/index.h"
#include "op_plugin/ops/index_copy.h"
#include "op_plugin/ops/index_fill.h"
#include "op_plugin/ops/masked_scatter.h"
#include "op_plugin/ops/put.h"
#include "op_plugin/utils/AclOpUtils.h"
#include "op_plugin/utils/AdvancedIndexUtils.h"
#include "op_plugin/utils/IndexUpdateUtils.h"
#include "op_plugin/utils/MaskedCompressUtils.h"

namespace acl_op {
namespace {

using at_npu::native::OpCommand;

// The indices of a 0-d or 1-D long tensor, on the host, each checked against `size` (negative ones
// count from the end when `wrap`), with CPU's message for one outside.
std::vector<int64_t> host_indices(const at::Tensor& index, int64_t size, int64_t dim, bool wrap, const char* op) {
  const at::Tensor host = index.reshape({-1}).cpu();
  const int64_t* data = host.const_data_ptr<int64_t>();
  std::vector<int64_t> out(data, data + host.numel());
  for (int64_t& i : out) {
    const bool inside = wrap ? (i >= -size && i < size) : (i >= 0 && i < size);
    TORCH_CHECK_INDEX(inside, op, "index ", i, " is out of bounds for dimension ", dim, " with size ", size);
    if (i < 0) i += size;
  }
  return out;
}

// `self` (any layout) <- `run` on a dense base-format tensor holding self's values.
at::Tensor& update_in_place(at::Tensor& self, const std::function<void(at::Tensor&)>& run) {
  return op_plugin::utils::write_through_base_format(self, [&](at::Tensor& result) {
    if (!result.is_same(self)) result.copy_(self);  // a temporary: the ops update it
    run(result);
  });
}

// Adds indexed_sizes (1 for each dimension an index tensor takes, 0 for None), indexed_strides (the
// result's sizes, as upstream passes them) and the defined index tensors broadcast to one shape.
void add_index_inputs(OpCommand& cmd, const std::vector<at::Tensor>& indices, at::IntArrayRef result_sizes) {
  std::vector<int64_t> masks;
  std::vector<int64_t> broadcast;
  bool first = true;
  for (const at::Tensor& t : indices) {
    masks.push_back(t.defined() ? 1 : 0);
    if (!t.defined()) continue;
    broadcast = first ? t.sizes().vec() : at::infer_size(broadcast, t.sizes());
    first = false;
  }
  cmd.Input(masks, at::kLong).Input(result_sizes, at::kLong);
  for (const at::Tensor& t : indices) {
    if (t.defined()) op_plugin::utils::AddInputAs(cmd, t.expand(broadcast), at::kLong);
  }
}

}  // namespace

at::Tensor index(const at::Tensor& self, const c10::List<c10::optional<at::Tensor>>& indices) {
  op_plugin::utils::check_not_complex("index", self);
  c10_npu::NPUGuard guard(self.device());
  const std::vector<at::Tensor> expanded = op_plugin::utils::expand_indices(self, indices);
  if (!op_plugin::utils::any_index(expanded)) return self.clone();
  const std::vector<int64_t> shape = op_plugin::utils::indexing_shape(self, expanded);
  at::Tensor result = at_npu::native::OpPreparation::apply_tensor_without_format(shape, self.options());
  if (result.numel() == 0) return result;
  TORCH_CHECK_INDEX(self.numel() > 0, "index is out of bounds for dimension with size 0");
  OpCommand cmd;
  cmd.Name("Index");
  op_plugin::utils::AddInputAs(cmd, self, self.scalar_type());
  add_index_inputs(cmd, expanded, result.sizes());
  cmd.Output(result).Run();
  return result;
}

at::Tensor& _index_put_impl_(at::Tensor& self, const c10::List<c10::optional<at::Tensor>>& indices,
                             const at::Tensor& values, bool accumulate, bool unsafe) {
  (void)unsafe;  // the kernel checks every index
  op_plugin::utils::check_not_complex("index_put_", self);
  op_plugin::utils::check_index_put_dtypes(self, values);
  c10_npu::NPUGuard guard(self.device());
  const std::vector<at::Tensor> expanded = op_plugin::utils::expand_indices(self, indices);
  const at::Tensor v = values.device() == self.device() ? values : values.to(self.device());
  if (!op_plugin::utils::any_index(expanded)) {  // self[...] = values
    return accumulate ? self.add_(v) : self.copy_(v);
  }
  const std::vector<int64_t> shape = op_plugin::utils::index_put_shape(self, expanded, v);
  if (c10::multiply_integers(shape) == 0) return self;
  return update_in_place(self, [&](at::Tensor& result) {
    OpCommand cmd;
    cmd.Name("IndexPutV2").Input(result);
    op_plugin::utils::AddInputAs(cmd, v.expand(shape), self.scalar_type());
    add_index_inputs(cmd, expanded, shape);
    cmd.Output(result).Attr("accumulate", accumulate).Run();
  });
}

at::Tensor& masked_scatter_(at::Tensor& self, const at::Tensor& mask, const at::Tensor& source) {
  op_plugin::utils::check_masked_scatter(self, mask, source);
  c10_npu::NPUGuard guard(self.device());
  return update_in_place(self, [&](at::Tensor& result) {
    OpCommand cmd;
    cmd.Name("MaskedScatter").Input(result);
    op_plugin::utils::AddInputAs(cmd, mask, at::kBool);
    op_plugin::utils::AddInputAs(cmd, source, self.scalar_type());
    cmd.Output(result).Run();
  });
}

at::Tensor& put_(at::Tensor& self, const at::Tensor& index, const at::Tensor& source, bool accumulate) {
  op_plugin::utils::check_put(self, index, source);
  if (index.numel() == 0) return self;
  c10_npu::NPUGuard guard(self.device());
  if (accumulate && self.scalar_type() == at::kBool) {
    // ScatterNdAdd takes no bool: add as int32, then nonzero is true (a logical or, as CPU's bool sum).
    at::Tensor wide = self.to(at::kInt);
    acl_op::put_(wide, index, source.to(at::kInt), true);
    return self.copy_(wide);
  }
  return update_in_place(self, [&](at::Tensor& result) {
    at::Tensor flat = result.view({-1});
    OpCommand cmd;
    cmd.Name(accumulate ? "ScatterNdAdd" : "ScatterNdUpdate").Input(flat);
    op_plugin::utils::AddInputAs(cmd, index.reshape({-1, 1}), at::kLong);
    op_plugin::utils::AddInputAs(cmd, source.reshape({-1}), self.scalar_type());
    cmd.Output(flat).Attr("use_locking", false).Run();
  });
}

at::Tensor& index_fill_(at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Scalar& value) {
  op_plugin::utils::check_index_fill(self, dim, index);
  if (self.numel() == 0 || index.numel() == 0) return self;
  dim = c10::maybe_wrap_dim(dim, self.dim());
  const int64_t size = self.dim() == 0 ? 1 : self.size(dim);
  // The slices along dim to fill, as assist1 (0 there, 1 elsewhere) and assist2 (value there, 0 elsewhere).
  const at::TensorOptions host = at::TensorOptions().dtype(self.scalar_type());
  at::Tensor keep = at::ones({size}, host);
  at::Tensor fill = at::zeros({size}, host);
  for (int64_t i : host_indices(index, size, dim, true, "")) {
    keep[i].fill_(0);
    fill[i].fill_(value);
  }
  std::vector<int64_t> along(static_cast<size_t>(self.dim()), 1);
  if (self.dim() > 0) along[static_cast<size_t>(dim)] = size;
  const at::Tensor assist1 = keep.view(along).expand(self.sizes()).contiguous().to(self.device());
  const at::Tensor assist2 = fill.view(along).expand(self.sizes()).contiguous().to(self.device());
  c10_npu::NPUGuard guard(self.device());
  return update_in_place(self, [&](at::Tensor& result) {
    OpCommand cmd;
    cmd.Name("IndexFillD").Input(result).Input(assist1).Input(assist2).Attr("dim", dim).Output(result).Run();
  });
}

at::Tensor& index_fill_(at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& value) {
  op_plugin::utils::check_index_fill_value(value);
  return acl_op::index_fill_(self, dim, index, value.item());
}

at::Tensor& index_copy_(at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& source) {
  op_plugin::utils::check_index_copy(self, dim, index, source);
  if (self.numel() == 0) return self;
  dim = c10::maybe_wrap_dim(dim, self.dim());
  const int64_t size = self.dim() == 0 ? 1 : self.size(dim);
  const std::vector<int64_t> indices = host_indices(index, size, dim, false, "index_copy_(): ");
  c10_npu::NPUGuard guard(self.device());
  for (size_t i = 0; i < indices.size(); ++i) {
    at::Tensor to = self.dim() == 0 ? self : self.select(dim, indices[i]);
    const at::Tensor from = source.dim() == 0 ? source : source.select(dim, static_cast<int64_t>(i));
    to.copy_(from);
  }
  return self;
}

at::Tensor index_copy(const at::Tensor& self, int64_t dim, const at::Tensor& index, const at::Tensor& source) {
  at::Tensor result = self.clone(at::MemoryFormat::Contiguous);
  return acl_op::index_copy_(result, dim, index, source);
}

}  // namespace acl_op
