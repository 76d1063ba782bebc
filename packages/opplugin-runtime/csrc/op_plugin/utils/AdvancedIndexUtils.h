// What the two paths of index.Tensor and _index_put_impl_ share: ATen's expansion of the index list
// and the shape of the indexing result, with ATen's messages.
#pragma once

#include <ATen/core/List.h>
#include <ATen/core/Tensor.h>

#include <vector>

namespace op_plugin::utils {

// The index tensors after ATen's expansion: masks replaced by the long indices of their
// true elements, each on self's device; an undefined tensor is None.
std::vector<at::Tensor> expand_indices(const at::Tensor& self, const c10::List<c10::optional<at::Tensor>>& indices);

// The indexing result's shape (adjacent indexed dimensions are replaced in place by the
// indices' broadcast shape, otherwise it comes first), with ATen's broadcast error.
std::vector<int64_t> indexing_shape(const at::Tensor& self, const std::vector<at::Tensor>& indices);

// _index_put_impl_'s dtype check: values of self's dtype.
void check_index_put_dtypes(const at::Tensor& self, const at::Tensor& values);

// _index_put_impl_'s shape checks for an expanded index list with a defined tensor: values broadcast
// to the indexing result, and a non-empty result indexes a non-empty self. The result's shape.
std::vector<int64_t> index_put_shape(const at::Tensor& self, const std::vector<at::Tensor>& indices,
                                     const at::Tensor& values);

// Whether any tensor of an expanded index list is defined (none: the whole tensor is indexed).
bool any_index(const std::vector<at::Tensor>& indices);

}  // namespace op_plugin::utils
