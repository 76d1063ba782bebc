// searchsorted's argument checks and warnings (the same conditions and messages as ATen's
// searchsorted on CPU), called from `new_params:` expressions of the searchsorted kernels.
// Each check returns 0 so that it can stand in a comma expression.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Scalar.h>
#include <c10/util/Optional.h>
#include <c10/util/string_view.h>

namespace op_plugin {

// The effective `right` of searchsorted: side ("left"/"right") when given, else right.
bool resolve_searchsorted_effective_right(bool right, const c10::optional<c10::string_view>& side_opt);

// searchsorted.Tensor, .Scalar and .Tensor_out: every check ATen makes before searching.
int searchsorted_validate_core_no_output(const at::Tensor& sorted_sequence, const at::Tensor& self, bool out_int32,
                                         bool right, const c10::optional<c10::string_view>& side_opt,
                                         const c10::optional<at::Tensor>& sorter_opt);
int searchsorted_validate_scalar_op(const at::Tensor& sorted_sequence, const c10::Scalar& self, bool out_int32,
                                    bool right, const c10::optional<c10::string_view>& side_opt,
                                    const c10::optional<at::Tensor>& sorter_opt);
int searchsorted_validate_tensor_out_op(const at::Tensor& sorted_sequence, const at::Tensor& self,
                                        const at::Tensor& out, bool out_int32, bool right,
                                        const c10::optional<c10::string_view>& side_opt,
                                        const c10::optional<at::Tensor>& sorter_opt);

// ATen's performance warning when sorted_sequence / self / sorter are not contiguous.
int warn_if_searchsorted_inputs_noncontiguous(const at::Tensor& sorted_sequence, const at::Tensor& self,
                                              const c10::optional<at::Tensor>& sorter_opt);
int warn_if_searchsorted_scalar_inputs_noncontiguous(const at::Tensor& sorted_sequence,
                                                     const c10::optional<at::Tensor>& sorter_opt);

}  // namespace op_plugin
