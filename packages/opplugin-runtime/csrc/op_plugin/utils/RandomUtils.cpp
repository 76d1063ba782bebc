#include "op_plugin/utils/RandomUtils.h"

#include <cstdlib>
#include <limits>

#include <c10/util/BFloat16.h>
#include <c10/util/Exception.h>
#include <c10/util/Half.h>

namespace op_plugin::utils {
namespace {

// The largest value random_ draws for a dtype without a `to` (CPU's: 2^digits for floats).
int64_t random_inclusive_max(const at::Tensor& self) {
  switch (self.scalar_type()) {
    case at::kDouble: return int64_t{1} << std::numeric_limits<double>::digits;
    case at::kFloat: return int64_t{1} << std::numeric_limits<float>::digits;
    case at::kHalf: return int64_t{1} << 11;
    case at::kBFloat16: return int64_t{1} << 8;
    case at::kLong: return std::numeric_limits<int64_t>::max();
    case at::kInt: return std::numeric_limits<int32_t>::max();
    case at::kShort: return std::numeric_limits<int16_t>::max();
    case at::kChar: return std::numeric_limits<int8_t>::max();
    case at::kByte: return std::numeric_limits<uint8_t>::max();
    case at::kBool: return 1;
    default:
      TORCH_CHECK(false, "random_: self has dtype ", self.scalar_type(), ", which is not supported on npu");
  }
}

// CPU's bounds of [from, last] for the dtype (floats: the representable range).
void check_random_range(const at::Tensor& self, int64_t from, int64_t last) {
  const at::ScalarType t = self.scalar_type();
  double lo = 0.0, hi = 0.0;
  switch (t) {
    case at::kDouble: lo = std::numeric_limits<double>::lowest(); hi = std::numeric_limits<double>::max(); break;
    case at::kFloat: lo = std::numeric_limits<float>::lowest(); hi = std::numeric_limits<float>::max(); break;
    case at::kHalf: lo = -65504.0; hi = 65504.0; break;
    case at::kBFloat16: lo = -3.38953139e38; hi = 3.38953139e38; break;
    case at::kLong: return;
    case at::kInt: lo = std::numeric_limits<int32_t>::min(); hi = std::numeric_limits<int32_t>::max(); break;
    case at::kShort: lo = std::numeric_limits<int16_t>::min(); hi = std::numeric_limits<int16_t>::max(); break;
    case at::kChar: lo = std::numeric_limits<int8_t>::min(); hi = std::numeric_limits<int8_t>::max(); break;
    case at::kByte: lo = 0; hi = std::numeric_limits<uint8_t>::max(); break;
    case at::kBool: lo = 0; hi = 1; break;
    default:
      TORCH_CHECK(false, "random_: self has dtype ", t, ", which is not supported on npu");
  }
  TORCH_CHECK(static_cast<double>(from) >= lo && static_cast<double>(from) <= hi, "from is out of bounds for ",
              self.dtype());
  TORCH_CHECK(static_cast<double>(last) >= lo && static_cast<double>(last) <= hi, "to - 1 is out of bounds for ",
              self.dtype());
}

// `v` stored in the floating dtype of self and read back as an integer, and that dtype's mantissa digits.
int64_t stored_as(const at::Tensor& self, int64_t v) {
  switch (self.scalar_type()) {
    case at::kDouble: return static_cast<int64_t>(static_cast<double>(v));
    case at::kFloat: return static_cast<int64_t>(static_cast<float>(v));
    case at::kHalf: return static_cast<int64_t>(static_cast<float>(c10::Half(static_cast<float>(v))));
    default: return static_cast<int64_t>(static_cast<float>(c10::BFloat16(static_cast<float>(v))));
  }
}

int digits_of(const at::Tensor& self) {
  switch (self.scalar_type()) {
    case at::kDouble: return std::numeric_limits<double>::digits;
    case at::kFloat: return std::numeric_limits<float>::digits;
    case at::kHalf: return 11;
    default: return 8;
  }
}

// CPU's adjustment of the bounds of a floating draw: from moves up, to down, to values the dtype holds.
int64_t floating_from(const at::Tensor& self, int64_t from) {
  const int64_t from_plus_1 = stored_as(self, from + 1);
  if (from_plus_1 < from) {
    int64_t bits = std::abs(from + 1);
    int n = 0;
    while (bits >>= 1) ++n;
    from = from_plus_1 + (int64_t{1} << (n - digits_of(self) + 1));
  }
  return from;
}

int64_t floating_to(const at::Tensor& self, int64_t to) {
  const int64_t to_minus_1 = stored_as(self, to - 1);
  if (to_minus_1 >= to) {
    int64_t bits = std::abs(to - 1);
    int n = 0;
    while (bits >>= 1) ++n;
    to = to_minus_1 - (int64_t{1} << (n - digits_of(self) + 1));
  }
  return to;
}

}  // namespace

std::pair<int64_t, int64_t> random_range(const at::Tensor& self, int64_t from, c10::optional<int64_t> to) {
  TORCH_CHECK(!self.is_complex(), "random_: complex tensors are not supported on npu");
  const bool floating = at::isFloatingType(self.scalar_type());
  if (to.has_value()) {
    int64_t end = *to;
    TORCH_CHECK(from < end, "random_ expects 'from' to be less than 'to', but got from=", from, " >= to=", end);
    if (floating) {
      from = floating_from(self, from);
      end = floating_to(self, end);
      TORCH_CHECK(from < end, "random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but got from=",
                  from, " >= to=", end);
    }
    check_random_range(self, from, end - 1);
    return {from, end - 1};
  }
  if (from == std::numeric_limits<int64_t>::lowest()) {  // every int64, for any dtype, as CPU draws it
    return {from, std::numeric_limits<int64_t>::max()};
  }
  const int64_t last = random_inclusive_max(self);
  if (floating) {
    from = floating_from(self, from);
    TORCH_CHECK(from < last, "random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted to "
                "dtype, but got from=", from, " > to_inc=", last);
  }
  check_random_range(self, from, last);
  return {from, last};
}

std::pair<int64_t, int64_t> random_full_range(const at::Tensor& self) {
  TORCH_CHECK(!self.is_complex(), "random_: complex tensors are not supported on npu");
  return {0, random_inclusive_max(self)};
}

}  // namespace op_plugin::utils
