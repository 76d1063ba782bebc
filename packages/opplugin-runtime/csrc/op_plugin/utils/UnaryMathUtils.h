// What the two paths of nan_to_num share: the argument checks and the replacement values, which
// CANN takes as float parameters (aclnnNanToNum's and the acl op NanToNum's attributes).
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/Optional.h>

namespace op_plugin::utils {

struct NanToNumValues {
  float nan;
  float posinf;
  float neginf;
};

// Checks out's dtype against self's and that a float64 self names both infinities' replacements (its
// largest finite value does not fit a float); the replacements, the infinities' defaulting to the
// largest finite values of self's dtype.
NanToNumValues nan_to_num_values(const at::Tensor& self, c10::optional<double> nan, c10::optional<double> posinf,
                                 c10::optional<double> neginf, const at::Tensor& out);

}  // namespace op_plugin::utils
