// Kernels whose data movement depends only on element sizes (copies, casts
// through the cast table) are instantiated per size, not per dtype.
#ifndef ASCENDC_SIM_KERNELS_ELEMENT_BYTES_H
#define ASCENDC_SIM_KERNELS_ELEMENT_BYTES_H

#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "acl/acl_base.h"
#include "common/error.h"

namespace ascendc_sim {
namespace kernels {

template <size_t N>
struct ElementOfSize;
template <>
struct ElementOfSize<1> {
  using type = uint8_t;
};
template <>
struct ElementOfSize<2> {
  using type = uint16_t;
};
template <>
struct ElementOfSize<4> {
  using type = uint32_t;
};
template <>
struct ElementOfSize<8> {
  using type = uint64_t;
};
// A complex128 element: moved as two 8-byte words.
struct Element16 {
  uint64_t lo = 0;
  uint64_t hi = 0;
};
template <>
struct ElementOfSize<16> {
  using type = Element16;
};

// Calls f(std::integral_constant<size_t, bytes>{}) for 1, 2, 4 or 8 bytes.
template <typename F>
aclError DispatchElementBytes(size_t bytes, const char* kernel, F&& f) {
  switch (bytes) {
    case 1: return f(std::integral_constant<size_t, 1>{});
    case 2: return f(std::integral_constant<size_t, 2>{});
    case 4: return f(std::integral_constant<size_t, 4>{});
    case 8: return f(std::integral_constant<size_t, 8>{});
    default:
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel '%s': no %zu-byte elements", kernel, bytes);
  }
}

// As DispatchElementBytes, with the 16-byte elements of complex128 too (data-movement kernels).
template <typename F>
aclError DispatchCopyElementBytes(size_t bytes, const char* kernel, F&& f) {
  if (bytes == 16) return f(std::integral_constant<size_t, 16>{});
  return DispatchElementBytes(bytes, kernel, f);
}

}  // namespace kernels
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_KERNELS_ELEMENT_BYTES_H
