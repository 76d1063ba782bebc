// Row-wise kernels (softmax, layer norm): a block takes a contiguous run of
// rows; rows are processed in float32 in the unified buffer.
//
// Short rows (TileRowPitch<float>(cols) <= kMaxWholeRow elements): tiles of
// whole rows, as many as fit kTileBytes, through double-buffered VECIN/VECOUT
// queues (DataCopyPad with one 32-byte padded block per row), computed by
// Op::Row on each row. Long rows: Op::LongRow streams the row in chunks of
// kChunk elements (several passes over global memory).
#ifndef ASCENDC_SIM_KERNELS_ROW_PIPELINE_H
#define ASCENDC_SIM_KERNELS_ROW_PIPELINE_H

#include <stdint.h>

#include <algorithm>
#include <type_traits>

#include "kernel_operator.h"

namespace ascendc_sim {
namespace kernels {

struct RowTiling {
  uint64_t rows = 0;
  uint64_t cols = 0;
  uint64_t rowsPerBlock = 0;
  uint32_t rowsPerTile = 0;  // 0: long rows (chunked)
  uint32_t blockDim = 0;
};

constexpr uint32_t kRowTileBytes = 16 * 1024;   // float32 bytes of a tile of whole rows
constexpr uint32_t kMaxWholeRow = 4096;         // float32 elements
constexpr uint32_t kRowChunk = 2048;            // float32 elements of a long-row chunk

// Rows split over the cores (blocks of at least ~64 KiB of data).
RowTiling ComputeRowTiling(uint64_t rows, uint64_t cols, uint32_t elementBytes);

// Loads `count` elements of T from GM into the float buffer `dst` (cast
// through `stage` for 16-bit types), rows x cols with padded pitches.
template <typename T>
__aicore__ inline void LoadRowsAsFloat(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<T>& stage,
                                       const AscendC::GlobalTensor<T>& src, uint32_t rows, uint32_t cols,
                                       uint64_t srcPitch) {
  using namespace AscendC;
  DataCopyExtParams copy{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)),
                         static_cast<uint32_t>((srcPitch - cols) * sizeof(T)), 0, 0};
  if constexpr (std::is_same<T, float>::value) {
    (void)stage;
    DataCopyPad(dst, src, copy, DataCopyPadExtParams<float>{});
  } else {
    DataCopyPad(stage, src, copy, DataCopyPadExtParams<T>{});
    const uint32_t pt = TileRowPitch<T>(cols), pf = TileRowPitch<float>(cols);
    if (pt == pf) {
      Cast(dst, stage, RoundMode::CAST_NONE, rows * pf);
    } else {
      for (uint32_t r = 0; r < rows; ++r) Cast(dst[r * pf], stage[r * pt], RoundMode::CAST_NONE, cols);
    }
  }
}

template <typename T>
__aicore__ inline void StoreRowsFromFloat(const AscendC::GlobalTensor<T>& dstGm, const AscendC::LocalTensor<float>& src,
                                          const AscendC::LocalTensor<T>& stage, uint32_t rows, uint32_t cols,
                                          uint64_t dstPitch) {
  using namespace AscendC;
  DataCopyExtParams copy{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)), 0,
                         static_cast<uint32_t>((dstPitch - cols) * sizeof(T)), 0};
  if constexpr (std::is_same<T, float>::value) {
    (void)stage;
    DataCopyPad(dstGm, src, copy);
  } else {
    const uint32_t pt = TileRowPitch<T>(cols), pf = TileRowPitch<float>(cols);
    if (pt == pf) {
      Cast(stage, src, RoundMode::CAST_RINT, rows * pf);
    } else {
      for (uint32_t r = 0; r < rows; ++r) Cast(stage[r * pt], src[r * pf], RoundMode::CAST_RINT, cols);
    }
    DataCopyPad(dstGm, stage, copy);
  }
}

}  // namespace kernels
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_KERNELS_ROW_PIPELINE_H
