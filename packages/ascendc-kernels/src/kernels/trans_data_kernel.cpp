// trans_data: re-lays dense data between a base layout and an internal one.
//
// FRACTAL_NZ: the ND matrix [batch, rows, cols] becomes [batch, N1, M1, M0, C0]
// fractals (M0 = 16 rows, C0 = 16 columns; 32 for 1-byte types), zero padded:
// nz[b, n1, m1, i, j] = nd[b, m1 * 16 + i, n1 * C0 + j]. For a fixed (b, n1) the
// fractals along m1 are contiguous, so one tile is a run of fractals of one
// column strip: a strided DataCopyPad reads C0 columns of consecutive rows (the
// right padding zero-filled by the copy, missing rows by Duplicate) and one
// DataCopy writes the run; NZ -> ND is the same tile read back.
//
// NC1HWC0 (5HD): [N, C, HW] becomes [N, C1, HW, C0], zero padded channels:
// hd[n, c1, p, c] = nchw[n, c1 * C0 + c, p]. A tile is C0 channel rows of a run
// of HW positions, loaded with a strided DataCopyPad and transposed in the
// unified buffer to [run, C0] (TransDataTo5HD's job on hardware), and back.
#include <string.h>

#include <algorithm>

#include "common/dtype.h"
#include "kernels/element_bytes.h"
#include "kernels/kernel_helpers.h"
#include "kernels/kernel_api.h"
#include "kernels/tiling.h"

namespace ascendc_sim {
namespace kernels {
namespace {

constexpr int64_t kM0 = 16;
constexpr uint32_t kTileBytes = 16 * 1024;      // per unified-buffer buffer
constexpr uint64_t kBlockBytes = 64 * 1024;     // at least this much data per block
constexpr uint32_t kRunAlign = 32;              // HW runs: whole 32-byte blocks for any element size

struct TransDataTiling {
  TransDataKind kind = TransDataKind::kNdToNz;
  int64_t batch = 0;
  int64_t rows = 0;  // NZ: M; 5HD: C
  int64_t cols = 0;  // NZ: N; 5HD: H*W
  int64_t c0 = 16;
  int64_t outer1 = 0;        // NZ: N1 (column strips); 5HD: C1
  int64_t inner1 = 0;        // NZ: M1 (fractals per strip); 5HD: HW
  int64_t unitsPerTile = 0;  // NZ: fractals; 5HD: HW positions
  int64_t tilesPerGroup = 0;
  uint64_t totalTiles = 0;
  uint64_t tilesPerBlock = 0;
  uint32_t blockDim = 0;
  uint64_t srcElements = 0;  // global buffer extents (accesses beyond fail the launch)
  uint64_t dstElements = 0;
};

template <size_t E>
class KernelTransData {
  using T = typename ElementOfSize<E>::type;

 public:
  __aicore__ inline void Init(GM_ADDR src, GM_ADDR dst, const TransDataTiling& t) {
    t_ = &t;
    srcGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(src), t.srcElements);
    dstGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(dst), t.dstElements);
    const uint32_t tileElements = static_cast<uint32_t>(t.unitsPerTile * (IsNz() ? kM0 * t.c0 : t.c0));
    pipe_.InitBuffer(queue_, BUFFER_NUM, tileElements * E);
    if (!IsNz()) pipe_.InitBuffer(slabQueue_, BUFFER_NUM, static_cast<uint32_t>(t.c0 * RunPitch(t.unitsPerTile) * E));
  }

  __aicore__ inline void Process() {
    const uint64_t block = static_cast<uint64_t>(AscendC::GetBlockIdx());
    const uint64_t first = block * t_->tilesPerBlock;
    const uint64_t last = std::min(t_->totalTiles, first + t_->tilesPerBlock);
    for (uint64_t tile = first; tile < last; ++tile) {
      const int64_t group = static_cast<int64_t>(tile / static_cast<uint64_t>(t_->tilesPerGroup));
      const int64_t start = static_cast<int64_t>(tile % static_cast<uint64_t>(t_->tilesPerGroup)) * t_->unitsPerTile;
      switch (t_->kind) {
        case TransDataKind::kNdToNz: NdToNz(group, start); break;
        case TransDataKind::kNzToNd: NzToNd(group, start); break;
        case TransDataKind::kNchwToNc1hwc0: NchwTo5hd(group, start); break;
        case TransDataKind::kNc1hwc0ToNchw: Nc1hwc0ToNchw(group, start); break;
      }
    }
  }

 private:
  bool IsNz() const { return t_->kind == TransDataKind::kNdToNz || t_->kind == TransDataKind::kNzToNd; }
  // Elements per channel row of a 5HD slab in the unified buffer (32-byte aligned rows).
  static int64_t RunPitch(int64_t run) {
    const int64_t perBlock = static_cast<int64_t>(AscendC::ONE_BLK_SIZE / E);
    return (run + perBlock - 1) / perBlock * perBlock;
  }

  // The fractal run [m1, m1 + count) of column strip `group` = (b, n1).
  struct NzTile {
    int64_t count, validRows, validCols;
    uint64_t ndOffset, nzOffset;
  };
  __aicore__ inline NzTile LocateNz(int64_t group, int64_t m1) const {
    const TransDataTiling& t = *t_;
    const int64_t b = group / t.outer1;
    const int64_t n1 = group % t.outer1;
    NzTile tile;
    tile.count = std::min(t.unitsPerTile, t.inner1 - m1);
    const int64_t row0 = m1 * kM0;
    tile.validRows = std::max<int64_t>(0, std::min(t.rows - row0, tile.count * kM0));
    tile.validCols = std::min(t.c0, t.cols - n1 * t.c0);
    tile.ndOffset = static_cast<uint64_t>((b * t.rows + row0) * t.cols + n1 * t.c0);
    tile.nzOffset = static_cast<uint64_t>(((b * t.outer1 + n1) * t.inner1 + m1) * kM0 * t.c0);
    return tile;
  }

  __aicore__ inline void NdToNz(int64_t group, int64_t m1) {
    const NzTile tile = LocateNz(group, m1);
    const uint32_t elements = static_cast<uint32_t>(tile.count * kM0 * t_->c0);
    AscendC::LocalTensor<T> x = queue_.AllocTensor<T>();
    if (tile.validRows > 0) {
      // Each row: validCols elements, right-padded with zeros to C0 (one 32- or 64-byte UB block).
      AscendC::DataCopyExtParams params{static_cast<uint16_t>(tile.validRows),
                                        static_cast<uint32_t>(tile.validCols * E),
                                        static_cast<uint32_t>((t_->cols - tile.validCols) * E), 0, 0};
      AscendC::DataCopyPadExtParams<T> pad{true, 0, static_cast<uint8_t>(t_->c0 - tile.validCols), T(0)};
      AscendC::DataCopyPad(x, srcGm_[tile.ndOffset], params, pad);
    }
    const uint32_t written = static_cast<uint32_t>(tile.validRows * t_->c0);
    if (written < elements) AscendC::Duplicate(x[written], T(0), elements - written);
    queue_.EnQue(x);
    AscendC::LocalTensor<T> y = queue_.DeQue<T>();
    AscendC::DataCopy(dstGm_[tile.nzOffset], y, elements);
    queue_.FreeTensor(y);
  }

  __aicore__ inline void NzToNd(int64_t group, int64_t m1) {
    const NzTile tile = LocateNz(group, m1);
    if (tile.validRows == 0) return;  // a run of padding rows only
    AscendC::LocalTensor<T> x = queue_.AllocTensor<T>();
    AscendC::DataCopy(x, srcGm_[tile.nzOffset], static_cast<uint32_t>(tile.count * kM0 * t_->c0));
    queue_.EnQue(x);
    AscendC::LocalTensor<T> y = queue_.DeQue<T>();
    const uint32_t rowBytes = static_cast<uint32_t>(t_->c0 * E);
    const uint32_t usedBytes = static_cast<uint32_t>(RunPitch(tile.validCols) * E);
    AscendC::DataCopyExtParams params{static_cast<uint16_t>(tile.validRows),
                                      static_cast<uint32_t>(tile.validCols * E),
                                      (rowBytes - usedBytes) / AscendC::ONE_BLK_SIZE,
                                      static_cast<uint32_t>((t_->cols - tile.validCols) * E), 0};
    AscendC::DataCopyPad(dstGm_[tile.ndOffset], y, params);
    queue_.FreeTensor(y);
  }

  // The HW run [p, p + count) of channel group `group` = (n, c1).
  struct HdTile {
    int64_t count, validChannels;
    uint64_t nchwOffset, hdOffset;
  };
  __aicore__ inline HdTile LocateHd(int64_t group, int64_t p) const {
    const TransDataTiling& t = *t_;
    const int64_t n = group / t.outer1;
    const int64_t c1 = group % t.outer1;
    HdTile tile;
    tile.count = std::min(t.unitsPerTile, t.inner1 - p);
    tile.validChannels = std::min(t.c0, t.rows - c1 * t.c0);
    tile.nchwOffset = static_cast<uint64_t>((n * t.rows + c1 * t.c0) * t.cols + p);
    tile.hdOffset = static_cast<uint64_t>(((n * t.outer1 + c1) * t.inner1 + p) * t.c0);
    return tile;
  }

  __aicore__ inline void NchwTo5hd(int64_t group, int64_t p) {
    const HdTile tile = LocateHd(group, p);
    const int64_t pitch = RunPitch(tile.count);
    AscendC::LocalTensor<T> slab = slabQueue_.AllocTensor<T>();
    AscendC::DataCopyExtParams params{static_cast<uint16_t>(tile.validChannels),
                                      static_cast<uint32_t>(tile.count * E),
                                      static_cast<uint32_t>((t_->cols - tile.count) * E), 0, 0};
    AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, T(0)};
    AscendC::DataCopyPad(slab, srcGm_[tile.nchwOffset], params, pad);
    const uint32_t loaded = static_cast<uint32_t>(tile.validChannels * pitch);
    const uint32_t slabElements = static_cast<uint32_t>(t_->c0 * pitch);
    if (loaded < slabElements) AscendC::Duplicate(slab[loaded], T(0), slabElements - loaded);
    slabQueue_.EnQue(slab);
    AscendC::LocalTensor<T> in = slabQueue_.DeQue<T>();
    AscendC::LocalTensor<T> out = queue_.AllocTensor<T>();
    Transpose(out, in, t_->c0, tile.count, pitch, t_->c0);  // [C0, run] -> [run, C0]
    slabQueue_.FreeTensor(in);
    queue_.EnQue(out);
    AscendC::LocalTensor<T> y = queue_.DeQue<T>();
    AscendC::DataCopy(dstGm_[tile.hdOffset], y, static_cast<uint32_t>(tile.count * t_->c0));
    queue_.FreeTensor(y);
  }

  __aicore__ inline void Nc1hwc0ToNchw(int64_t group, int64_t p) {
    const HdTile tile = LocateHd(group, p);
    const int64_t pitch = RunPitch(tile.count);
    AscendC::LocalTensor<T> x = queue_.AllocTensor<T>();
    AscendC::DataCopy(x, srcGm_[tile.hdOffset], static_cast<uint32_t>(tile.count * t_->c0));
    queue_.EnQue(x);
    AscendC::LocalTensor<T> in = queue_.DeQue<T>();
    AscendC::LocalTensor<T> slab = slabQueue_.AllocTensor<T>();
    Transpose(slab, in, tile.count, t_->c0, t_->c0, pitch);  // [run, C0] -> [C0, run]
    queue_.FreeTensor(in);
    slabQueue_.EnQue(slab);
    AscendC::LocalTensor<T> y = slabQueue_.DeQue<T>();
    AscendC::DataCopyExtParams params{static_cast<uint16_t>(tile.validChannels),
                                      static_cast<uint32_t>(tile.count * E), 0,
                                      static_cast<uint32_t>((t_->cols - tile.count) * E), 0};
    AscendC::DataCopyPad(dstGm_[tile.nchwOffset], y, params);
    slabQueue_.FreeTensor(y);
  }

  // dst[j * dstPitch + i] = src[i * srcPitch + j] for i < rows, j < cols (unified buffer).
  static __aicore__ inline void Transpose(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                                          int64_t rows, int64_t cols, int64_t srcPitch, int64_t dstPitch) {
    const T* __restrict s = src.GetPhyAddr();
    T* __restrict d = dst.GetPhyAddr();
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < cols; ++j) d[j * dstPitch + i] = s[i * srcPitch + j];
    }
  }

  const TransDataTiling* t_ = nullptr;
  AscendC::TPipe pipe_;
  AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, BUFFER_NUM> queue_;
  AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, BUFFER_NUM> slabQueue_;
  AscendC::GlobalTensor<T> srcGm_;
  AscendC::GlobalTensor<T> dstGm_;
};

template <size_t E>
__global__ __aicore__ void trans_data(GM_ADDR src, GM_ADDR dst, TransDataTiling tiling) {
  KernelTransData<E> op;
  op.Init(src, dst, tiling);
  op.Process();
}

uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

}  // namespace

int64_t TransDataC0(aclDataType dtype) {
  switch (DataTypeSize(dtype)) {
    case 1: return 32;
    case 2:
    case 4: return 16;
    default: return 0;
  }
}

aclError LaunchTransData(const TransDataArgs& args, aclrtStream stream) {
  const size_t bytes = DataTypeSize(args.dtype);
  TransDataTiling t;
  t.kind = args.kind;
  t.batch = args.batch;
  t.rows = args.rows;
  t.cols = args.cols;
  t.c0 = TransDataC0(args.dtype);
  if (t.c0 == 0 || !IsKernelType(args.dtype)) {
    return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE,
                      "kernel 'trans_data': data type %s has no internal layout (1-, 2- and 4-byte types only)",
                      DataTypeName(args.dtype));
  }
  if (args.batch < 0 || args.rows < 0 || args.cols < 0) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "kernel 'trans_data': negative extent");
  }
  if (args.batch == 0 || args.rows == 0 || args.cols == 0) return ACL_SUCCESS;
  if (static_cast<uint64_t>(args.cols) * bytes > UINT32_MAX) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "kernel 'trans_data': rows of %lld elements exceed the copy stride",
                      static_cast<long long>(args.cols));
  }
  const bool nz = args.kind == TransDataKind::kNdToNz || args.kind == TransDataKind::kNzToNd;
  uint64_t unitBytes = 0;
  if (nz) {
    t.outer1 = static_cast<int64_t>(CeilDiv(static_cast<uint64_t>(args.cols), static_cast<uint64_t>(t.c0)));
    t.inner1 = static_cast<int64_t>(CeilDiv(static_cast<uint64_t>(args.rows), kM0));
    unitBytes = static_cast<uint64_t>(kM0 * t.c0) * bytes;  // one fractal
    t.unitsPerTile = std::min<int64_t>(t.inner1, std::max<int64_t>(1, kTileBytes / unitBytes));
  } else {
    t.outer1 = static_cast<int64_t>(CeilDiv(static_cast<uint64_t>(args.rows), static_cast<uint64_t>(t.c0)));
    t.inner1 = args.cols;
    unitBytes = static_cast<uint64_t>(t.c0) * bytes;  // one HW position
    const int64_t fit = std::max<int64_t>(kRunAlign, static_cast<int64_t>(kTileBytes / unitBytes) / kRunAlign * kRunAlign);
    t.unitsPerTile = std::min<int64_t>(fit, t.inner1);
  }
  t.tilesPerGroup = static_cast<int64_t>(CeilDiv(static_cast<uint64_t>(t.inner1), static_cast<uint64_t>(t.unitsPerTile)));
  t.totalTiles = static_cast<uint64_t>(args.batch * t.outer1 * t.tilesPerGroup);
  const uint64_t logical = static_cast<uint64_t>(args.batch * args.rows * args.cols);
  const uint64_t padded = nz ? static_cast<uint64_t>(args.batch * t.outer1 * t.inner1 * kM0 * t.c0)
                             : static_cast<uint64_t>(args.batch * t.outer1 * t.inner1 * t.c0);
  const bool toInternal = args.kind == TransDataKind::kNdToNz || args.kind == TransDataKind::kNchwToNc1hwc0;
  t.srcElements = toInternal ? logical : padded;
  t.dstElements = toInternal ? padded : logical;
  const uint64_t tileBytes = static_cast<uint64_t>(t.unitsPerTile) * unitBytes;
  const uint64_t byData = std::max<uint64_t>(1, t.totalTiles * tileBytes / kBlockBytes);
  const uint64_t blocks = std::min<uint64_t>({static_cast<uint64_t>(aclsimGetCoreNumAiv()), t.totalTiles, byData});
  t.tilesPerBlock = CeilDiv(t.totalTiles, std::max<uint64_t>(1, blocks));
  t.blockDim = static_cast<uint32_t>(CeilDiv(t.totalTiles, t.tilesPerBlock));
  const void* src = args.src;
  void* dst = args.dst;
  return DispatchElementBytes(bytes, "trans_data", [&](auto size) -> aclError {
    constexpr size_t E = decltype(size)::value;
    if constexpr (E == 8) {
      return ACL_ERROR_INTERNAL_ERROR;  // unreachable: rejected above
    } else {
      return LaunchKernel("trans_data", t.blockDim, stream, trans_data<E>, src, dst, t);
    }
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
