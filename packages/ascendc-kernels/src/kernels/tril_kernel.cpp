// tril_custom: y = the lower triangle of each (m x n) matrix of x (dense,
// batch x m rows of n columns): element (i, j) is kept where j <= i + diagonal,
// else zero; triu_custom (the same kernel with `upper`): kept where
// j >= i + diagonal. Any element type (the values are moved, not computed).
//
// Tiling by rows: each block takes a contiguous run of the batch * m rows (at
// least ~64 KiB of data per block, at most one block per core); a row goes
// through the unified buffer in column tiles over a double-buffered VECIN
// queue. Only the kept prefix of a row is copied in; the rest of the tile is
// zeroed with Duplicate, so rows above the diagonal are never read. The upper
// triangle copies a row's tile in whole and zeroes its prefix below the diagonal.
#include <algorithm>

#include "ascendc_sim/launch.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"
#include "kernels/kernel_helpers.h"

namespace ascendc_sim {
namespace kernels {
namespace {

struct TrilTiling {
  uint64_t rows = 0;          // batch * m
  uint64_t m = 0;             // rows of one matrix
  uint64_t n = 0;             // columns
  int64_t diagonal = 0;
  bool upper = false;         // triu: keep j >= i + diagonal
  uint64_t rowsPerBlock = 0;
  uint32_t tileLength = 0;    // columns per unified-buffer tile (multiple of 32 elements)
  uint32_t blockDim = 0;
};

constexpr uint64_t kMinBlockBytes = 64 * 1024;
constexpr uint64_t kMaxTileBytes = 8 * 1024;
constexpr uint64_t kAlign = 32;

template <typename T>
class TrilKernel {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const TrilTiling& tiling) {
    t_ = tiling;
    const uint64_t block = static_cast<uint64_t>(AscendC::GetBlockIdx());
    firstRow_ = block * t_.rowsPerBlock;
    rowCount_ = std::min<uint64_t>(t_.rowsPerBlock, t_.rows - std::min(t_.rows, firstRow_));
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), t_.rows * t_.n);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), t_.rows * t_.n);
    pipe_.InitBuffer(queue_, BUFFER_NUM, t_.tileLength * sizeof(T));
  }

  __aicore__ inline void Process() {
    for (uint64_t r = 0; r < rowCount_; ++r) {
      const uint64_t row = firstRow_ + r;
      const int64_t i = static_cast<int64_t>(row % t_.m);
      if (t_.upper) {
        // Columns first .. n-1 of this row are kept.
        const int64_t firstKept = i + t_.diagonal;
        for (uint64_t c0 = 0; c0 < t_.n; c0 += t_.tileLength) {
          const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(t_.tileLength, t_.n - c0));
          const int64_t zeros = std::min<int64_t>(len, std::max<int64_t>(0, firstKept - static_cast<int64_t>(c0)));
          CopyIn(row * t_.n + c0, zeros < len ? len : 0);
          ZeroPrefixAndCopyOut(row * t_.n + c0, static_cast<uint32_t>(zeros), len);
        }
        continue;
      }
      // Columns 0 .. keep-1 of this row are kept.
      const int64_t last = i + t_.diagonal + 1;
      const uint64_t keep = last <= 0 ? 0 : std::min<uint64_t>(t_.n, static_cast<uint64_t>(last));
      for (uint64_t c0 = 0; c0 < t_.n; c0 += t_.tileLength) {
        const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(t_.tileLength, t_.n - c0));
        const uint32_t kept = static_cast<uint32_t>(keep > c0 ? std::min<uint64_t>(len, keep - c0) : 0);
        CopyIn(row * t_.n + c0, kept);
        ZeroAndCopyOut(row * t_.n + c0, kept, len);
      }
    }
  }

 private:
  __aicore__ inline void CopyIn(uint64_t offset, uint32_t kept) {
    AscendC::LocalTensor<T> tile = queue_.template AllocTensor<T>();
    if (kept != 0) CopyTileIn(tile, xGm_[offset], kept);
    queue_.EnQue(tile);
  }

  __aicore__ inline void ZeroAndCopyOut(uint64_t offset, uint32_t kept, uint32_t len) {
    AscendC::LocalTensor<T> tile = queue_.template DeQue<T>();
    if (kept < len) AscendC::Duplicate(tile[kept], static_cast<T>(0.0f), len - kept);
    CopyTileOut(yGm_[offset], tile, len);
    queue_.FreeTensor(tile);
  }

  __aicore__ inline void ZeroPrefixAndCopyOut(uint64_t offset, uint32_t zeros, uint32_t len) {
    AscendC::LocalTensor<T> tile = queue_.template DeQue<T>();
    if (zeros != 0) AscendC::Duplicate(tile, static_cast<T>(0.0f), zeros);
    CopyTileOut(yGm_[offset], tile, len);
    queue_.FreeTensor(tile);
  }

  TrilTiling t_;
  uint64_t firstRow_ = 0, rowCount_ = 0;
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> queue_;
  AscendC::GlobalTensor<T> xGm_, yGm_;
};

template <typename T>
__global__ __aicore__ void tril_custom(GM_ADDR x, GM_ADDR y, TrilTiling tiling) {
  TrilKernel<T> op;
  op.Init(x, y, tiling);
  op.Process();
}

template <typename T>
__global__ __aicore__ void triu_custom(GM_ADDR x, GM_ADDR y, TrilTiling tiling) {
  TrilKernel<T> op;
  op.Init(x, y, tiling);
  op.Process();
}

TrilTiling ComputeTrilTiling(uint64_t rows, uint64_t m, uint64_t n, int64_t diagonal, uint32_t elementBytes) {
  TrilTiling t;
  t.rows = rows;
  t.m = m;
  t.n = n;
  t.diagonal = diagonal;
  if (rows == 0 || n == 0) return t;
  const uint64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  const uint64_t bytes = rows * n * elementBytes;
  const uint64_t wanted = std::max<uint64_t>(1, std::min<uint64_t>({cores, bytes / kMinBlockBytes, rows}));
  t.rowsPerBlock = (rows + wanted - 1) / wanted;
  t.blockDim = static_cast<uint32_t>((rows + t.rowsPerBlock - 1) / t.rowsPerBlock);
  const uint64_t cap = std::max<uint64_t>(kAlign, kMaxTileBytes / elementBytes / kAlign * kAlign);
  t.tileLength = static_cast<uint32_t>(std::min<uint64_t>(cap, (n + kAlign - 1) / kAlign * kAlign));
  return t;
}

}  // namespace

aclError LaunchTril(aclDataType dtype, const void* x, void* y, uint64_t batch, uint64_t m, uint64_t n,
                    int64_t diagonal, aclrtStream stream) {
  return DispatchKernelType(dtype, "tril_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    const TrilTiling tiling = ComputeTrilTiling(batch * m, m, n, diagonal, sizeof(T));
    if (tiling.blockDim == 0) return ACL_SUCCESS;
    return LaunchKernel("tril_custom", tiling.blockDim, stream, tril_custom<T>, x, y, tiling);
  });
}

aclError LaunchTriu(aclDataType dtype, const void* x, void* y, uint64_t batch, uint64_t m, uint64_t n,
                    int64_t diagonal, aclrtStream stream) {
  return DispatchKernelType(dtype, "triu_custom", [&](auto tag) -> aclError {
    using T = typename decltype(tag)::type;
    TrilTiling tiling = ComputeTrilTiling(batch * m, m, n, diagonal, sizeof(T));
    tiling.upper = true;
    if (tiling.blockDim == 0) return ACL_SUCCESS;
    return LaunchKernel("triu_custom", tiling.blockDim, stream, triu_custom<T>, x, y, tiling);
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
