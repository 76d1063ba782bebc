// index_select_custom: y[o, j, i] = x[o, index[j], i] (x [outer, dimSize, inner]).
//
// Each block takes a range of y's linear (row-major) positions; per tile it
// gathers the source runs (one run per (o, j) row segment, found through the
// index read from global memory) into the unified buffer and writes the tile to
// y with one DataCopy. The copy depends only on the element size. An index
// outside [0, dimSize) fails the kernel (a device-side assertion).
#include <string.h>

#include <algorithm>

#include "ascendc_sim/kernel/trap.h"
#include "common/dtype.h"
#include "kernels/element_bytes.h"
#include "kernels/index_kernel_api.h"
#include "kernels/kernel_helpers.h"
#include "kernels/tiling.h"

namespace ascendc_sim {
namespace kernels {
namespace {

struct IndexSelectTiling {
  ElementwiseTiling tiling;
  int64_t dimSize = 0, inner = 0, count = 0;
  bool index64 = true;
  const char* op = "index_select";
};

template <size_t Bytes>
class KernelIndexSelect {
  using E = typename ElementOfSize<Bytes>::type;

 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR index, GM_ADDR y, const IndexSelectTiling& t) {
    t_ = &t;
    const uint64_t block = static_cast<uint64_t>(AscendC::GetBlockIdx());
    start_ = t.tiling.BlockOffset(block);
    length_ = t.tiling.BlockElements(block);
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ E*>(x));
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ E*>(y));
    index_ = index;
    pipe_.InitBuffer(queue_, BUFFER_NUM, t.tiling.tileLength * Bytes);
  }

  __aicore__ inline void Process() {
    const uint32_t tileLength = t_->tiling.tileLength;
    const uint64_t tiles = (length_ + tileLength - 1) / tileLength;
    for (uint64_t k = 0; k < tiles; ++k) {
      const uint64_t linear = start_ + k * tileLength;
      const uint32_t n = static_cast<uint32_t>(k + 1 < tiles ? tileLength : length_ - k * tileLength);
      AscendC::LocalTensor<E> tile = queue_.AllocTensor<E>();
      Gather(tile, linear, n);
      queue_.EnQue(tile);
      AscendC::LocalTensor<E> out = queue_.DeQue<E>();
      CopyTileOut(yGm_[linear], out, n);
      queue_.FreeTensor(out);
    }
  }

 private:
  __aicore__ inline int64_t IndexAt(int64_t j) const {
    const int64_t v = t_->index64 ? reinterpret_cast<const int64_t*>(index_)[j]
                                  : static_cast<int64_t>(reinterpret_cast<const int32_t*>(index_)[j]);
    if (v < 0 || v >= t_->dimSize) {
      KernelFail("%s: index %lld is out of range for a dimension of size %lld", t_->op, static_cast<long long>(v),
                 static_cast<long long>(t_->dimSize));
    }
    return v;
  }

  __aicore__ inline void Gather(const AscendC::LocalTensor<E>& tile, uint64_t linear, uint32_t n) {
    const int64_t inner = t_->inner, count = t_->count;
    const E* x = xGm_.GetPhyAddr();
    E* dst = tile.GetPhyAddr();
    uint64_t row = linear / static_cast<uint64_t>(inner);  // (o, j) row of y
    int64_t i = static_cast<int64_t>(linear % static_cast<uint64_t>(inner));
    uint32_t position = 0;
    while (position < n) {
      const int64_t o = static_cast<int64_t>(row / static_cast<uint64_t>(count));
      const int64_t j = static_cast<int64_t>(row % static_cast<uint64_t>(count));
      const int64_t src = (o * t_->dimSize + IndexAt(j)) * inner + i;
      const uint32_t run = static_cast<uint32_t>(std::min<int64_t>(n - position, inner - i));
      memcpy(dst + position, x + src, run * Bytes);
      position += run;
      i = 0;
      ++row;
    }
  }

  const IndexSelectTiling* t_ = nullptr;
  uint64_t start_ = 0, length_ = 0;
  GM_ADDR index_ = nullptr;
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> queue_;
  AscendC::GlobalTensor<E> xGm_;
  AscendC::GlobalTensor<E> yGm_;
};

template <size_t Bytes>
__global__ __aicore__ void index_select_custom(GM_ADDR x, GM_ADDR index, GM_ADDR y, IndexSelectTiling tiling) {
  KernelIndexSelect<Bytes> op;
  op.Init(x, index, y, tiling);
  op.Process();
}

}  // namespace

aclError LaunchIndexSelect(const IndexSelectArgs& args, aclrtStream stream) {
  if (args.indexDtype != ACL_INT64 && args.indexDtype != ACL_INT32) {
    return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'index_select_custom': index must be int32 or int64, "
                      "got %s", DataTypeName(args.indexDtype));
  }
  if (!IsKernelType(args.dtype)) {
    return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'index_select_custom' does not support data type %s",
                      DataTypeName(args.dtype));
  }
  const uint64_t total = static_cast<uint64_t>(args.outer) * args.count * args.inner;
  if (total == 0) return ACL_SUCCESS;
  IndexSelectTiling t;
  const size_t bytes = DataTypeSize(args.dtype);
  t.tiling = ComputeElementwiseTiling(total, static_cast<uint32_t>(BUFFER_NUM * bytes), static_cast<uint32_t>(bytes));
  t.dimSize = args.dimSize;
  t.inner = args.inner;
  t.count = args.count;
  t.index64 = args.indexDtype == ACL_INT64;
  t.op = args.op;
  const void* x = args.x;
  const void* index = args.index;
  void* y = args.y;
  return DispatchElementBytes(bytes, "index_select_custom", [&](auto size) -> aclError {
    constexpr size_t B = decltype(size)::value;
    return LaunchKernel("index_select_custom", t.tiling.blockDim, stream, index_select_custom<B>, x, index, y, t);
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
