// Channel tiles of an (n, c, l) tensor for the batch norm kernels: the n slices
// of channel ch, cut into tiles of rows x len elements (rows: consecutive n at
// pitch c * l when a slice fits one tile, else one row of a slice chunk), loaded
// as float32 with padded row pitches (row_pipeline.h).
#ifndef ASCENDC_SIM_KERNELS_BATCH_NORM_TILES_H
#define ASCENDC_SIM_KERNELS_BATCH_NORM_TILES_H

#include "kernels/row_pipeline.h"

namespace ascendc_sim {
namespace kernels {

struct ChannelTile {
  uint64_t offset = 0;  // element offset of the tile's first element
  uint32_t rows = 0, len = 0;
  uint64_t pitch = 0;   // elements between rows in global memory
};

// Calls f(tile) for each tile of channel ch in order.
template <typename F>
__aicore__ inline void ForEachChannelTile(uint64_t n, uint64_t c, uint64_t l, uint64_t ch, uint32_t maxRows, F&& f) {
  if (l <= kRowChunk) {
    for (uint64_t n0 = 0; n0 < n; n0 += maxRows) {
      ChannelTile t;
      t.rows = static_cast<uint32_t>(std::min<uint64_t>(maxRows, n - n0));
      t.len = static_cast<uint32_t>(l);
      t.pitch = c * l;
      t.offset = (n0 * c + ch) * l;
      f(t);
    }
    return;
  }
  for (uint64_t i = 0; i < n; ++i) {
    for (uint64_t l0 = 0; l0 < l; l0 += kRowChunk) {
      ChannelTile t;
      t.rows = 1;
      t.len = static_cast<uint32_t>(std::min<uint64_t>(kRowChunk, l - l0));
      t.pitch = t.len;
      t.offset = (i * c + ch) * l + l0;
      f(t);
    }
  }
}

// Rows of a tile of width min(l, kRowChunk) that fit kRowTileBytes of float32 (at most 4095).
inline uint32_t ChannelTileRows(uint64_t l) {
  const uint32_t width = static_cast<uint32_t>(std::min<uint64_t>(l, kRowChunk));
  const uint32_t pitch = AscendC::TileRowPitch<float>(width);
  return std::max<uint32_t>(1, std::min<uint32_t>(4095, kRowTileBytes / (pitch * 4)));
}

}  // namespace kernels
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_KERNELS_BATCH_NORM_TILES_H
