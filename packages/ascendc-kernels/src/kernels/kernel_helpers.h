// Device-side helpers shared by the simulator's elementwise kernels.
#ifndef ASCENDC_SIM_KERNELS_KERNEL_HELPERS_H
#define ASCENDC_SIM_KERNELS_KERNEL_HELPERS_H

#include <type_traits>

#include "kernel_operator.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace kernels {

constexpr int32_t BUFFER_NUM = 2;  // double buffering

// GM -> UB of one tile: whole data blocks with DataCopy, a ragged tail with DataCopyPad.
template <typename T>
__aicore__ inline void CopyTileIn(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                  uint32_t count) {
  if ((count * sizeof(T)) % AscendC::ONE_BLK_SIZE == 0) {
    AscendC::DataCopy(dst, src, count);
  } else {
    AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
    AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, T()};
    AscendC::DataCopyPad(dst, src, params, pad);
  }
}

// UB -> GM of one tile.
template <typename T>
__aicore__ inline void CopyTileOut(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                                   uint32_t count) {
  if ((count * sizeof(T)) % AscendC::ONE_BLK_SIZE == 0) {
    AscendC::DataCopy(dst, src, count);
  } else {
    AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
    AscendC::DataCopyPad(dst, src, params);
  }
}

// The scalar operand in the element type's compute type (float for half/bfloat16_t).
template <typename T>
inline typename AscendC::detail::Arith<T>::Compute ScalarAs(const ScalarValue& s) {
  using C = typename AscendC::detail::Arith<T>::Compute;
  if constexpr (std::is_same<C, bool>::value) {
    return s.isFloating ? s.f != 0.0 : s.i != 0;
  } else if constexpr (std::is_floating_point<C>::value) {
    return s.isFloating ? static_cast<C>(s.f) : static_cast<C>(s.i);
  } else {
    // Integral kernels take integral scalars; a floating one truncates.
    return s.isFloating ? static_cast<C>(static_cast<int64_t>(s.f)) : static_cast<C>(s.i);
  }
}

}  // namespace kernels
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_KERNELS_KERNEL_HELPERS_H
