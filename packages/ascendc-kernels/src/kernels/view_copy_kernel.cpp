// view_copy: dst[i] = cast(src[i]) for every multi-index i, with arbitrary
// strides on both sides (stride 0 on the source broadcasts). This is the aclnn
// "l0" step that makes views contiguous, broadcasts, converts dtypes and writes
// into non-contiguous outputs.
//
// Each block takes a range of linear (row-major) indices; per tile it gathers
// the source elements into the unified buffer (a plain DataCopy when the source
// is dense), converts the tile when the dtypes differ, and scatters it to the
// destination (a plain DataCopy when dense). The copy loops depend only on the
// element sizes, the conversion comes from the cast table.
#include <string.h>

#include <algorithm>

#include "kernels/cast_table.h"
#include "kernels/dtype_dispatch.h"
#include "kernels/element_bytes.h"
#include "kernels/kernel_helpers.h"
#include "kernels/tiling.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace kernels {
namespace {

struct ViewCopyTiling {
  ElementwiseTiling tiling;
  int32_t ndim = 1;
  int64_t shape[kMaxViewDims] = {};
  int64_t srcStrides[kMaxViewDims] = {};
  int64_t dstStrides[kMaxViewDims] = {};
  int64_t srcOffset = 0;
  int64_t dstOffset = 0;
  bool srcDense = false;  // one dimension of stride 1
  bool dstDense = false;
  CastTileFn cast = nullptr;  // null: same dtype
};

// Calls run(offset, stride, position, length) for the runs along the innermost
// dimension that cover linear indices [linear, linear + count) of `shape`;
// `offset` is the element offset of the run's first element.
template <typename Run>
inline void ForEachRun(const ViewCopyTiling& t, const int64_t* strides, int64_t base, uint64_t linear, uint32_t count,
                       Run&& run) {
  const int32_t last = t.ndim - 1;
  int64_t idx[kMaxViewDims];
  int64_t offset = base;
  uint64_t rest = linear;
  for (int32_t k = last; k >= 0; --k) {
    idx[k] = static_cast<int64_t>(rest % static_cast<uint64_t>(t.shape[k]));
    rest /= static_cast<uint64_t>(t.shape[k]);
    offset += idx[k] * strides[k];
  }
  uint32_t position = 0;
  while (position < count) {
    const uint32_t length =
        static_cast<uint32_t>(std::min<int64_t>(count - position, t.shape[last] - idx[last]));
    run(offset, strides[last], position, length);
    position += length;
    idx[last] += length;
    offset += static_cast<int64_t>(length) * strides[last];
    for (int32_t k = last; k > 0 && idx[k] == t.shape[k]; --k) {
      offset -= t.shape[k] * strides[k];
      idx[k] = 0;
      ++idx[k - 1];
      offset += strides[k - 1];
    }
  }
}

template <size_t SrcBytes, size_t DstBytes>
class KernelViewCopy {
  using S = typename ElementOfSize<SrcBytes>::type;
  using D = typename ElementOfSize<DstBytes>::type;

 public:
  __aicore__ inline void Init(GM_ADDR src, GM_ADDR dst, const ViewCopyTiling& t) {
    t_ = &t;
    const uint64_t block = static_cast<uint64_t>(AscendC::GetBlockIdx());
    start_ = t.tiling.BlockOffset(block);
    length_ = t.tiling.BlockElements(block);
    tileLength_ = t.tiling.tileLength;
    srcGm_.SetGlobalBuffer(reinterpret_cast<__gm__ S*>(src));
    dstGm_.SetGlobalBuffer(reinterpret_cast<__gm__ D*>(dst));
    pipe_.InitBuffer(inQueue_, BUFFER_NUM, tileLength_ * SrcBytes);
    if (t.cast != nullptr) pipe_.InitBuffer(outQueue_, BUFFER_NUM, tileLength_ * DstBytes);
  }

  __aicore__ inline void Process() {
    const uint64_t tiles = (length_ + tileLength_ - 1) / tileLength_;
    for (uint64_t i = 0; i < tiles; ++i) {
      const uint64_t linear = start_ + i * tileLength_;
      const uint32_t count = static_cast<uint32_t>(i + 1 < tiles ? tileLength_ : length_ - i * tileLength_);
      AscendC::LocalTensor<S> x = inQueue_.AllocTensor<S>();
      Gather(x, linear, count);
      inQueue_.EnQue(x);
      AscendC::LocalTensor<S> xIn = inQueue_.DeQue<S>();
      if (t_->cast == nullptr) {
        Scatter(xIn.template ReinterpretCast<D>(), linear, count);
        inQueue_.FreeTensor(xIn);
        continue;
      }
      AscendC::LocalTensor<D> y = outQueue_.AllocTensor<D>();
      t_->cast(y.GetPhyAddr(), xIn.GetPhyAddr(), count);
      outQueue_.EnQue(y);
      inQueue_.FreeTensor(xIn);
      AscendC::LocalTensor<D> yOut = outQueue_.DeQue<D>();
      Scatter(yOut, linear, count);
      outQueue_.FreeTensor(yOut);
    }
  }

 private:
  __aicore__ inline void Gather(const AscendC::LocalTensor<S>& tile, uint64_t linear, uint32_t count) {
    if (t_->srcDense) {
      CopyTileIn(tile, srcGm_[static_cast<uint64_t>(t_->srcOffset) + linear], count);
      return;
    }
    const S* src = srcGm_.GetPhyAddr();
    S* out = tile.GetPhyAddr();
    ForEachRun(*t_, t_->srcStrides, t_->srcOffset, linear, count,
               [&](int64_t offset, int64_t stride, uint32_t position, uint32_t length) {
                 const S* __restrict from = src + offset;
                 S* __restrict to = out + position;
                 if (stride == 1) {
                   memcpy(to, from, length * sizeof(S));
                 } else if (stride == 0) {
                   const S v = *from;
                   for (uint32_t j = 0; j < length; ++j) to[j] = v;
                 } else if (stride == -1) {  // flip: a constant step vectorises (reversed loads)
                   for (int64_t j = 0; j < static_cast<int64_t>(length); ++j) to[j] = from[-j];
                 } else {
                   for (uint32_t j = 0; j < length; ++j) to[j] = from[static_cast<int64_t>(j) * stride];
                 }
               });
  }

  __aicore__ inline void Scatter(const AscendC::LocalTensor<D>& tile, uint64_t linear, uint32_t count) {
    if (t_->dstDense) {
      CopyTileOut(dstGm_[static_cast<uint64_t>(t_->dstOffset) + linear], tile, count);
      return;
    }
    D* dst = dstGm_.GetPhyAddr();
    const D* in = tile.GetPhyAddr();
    ForEachRun(*t_, t_->dstStrides, t_->dstOffset, linear, count,
               [&](int64_t offset, int64_t stride, uint32_t position, uint32_t length) {
                 D* __restrict to = dst + offset;
                 const D* __restrict from = in + position;
                 if (stride == 1) {
                   memcpy(to, from, length * sizeof(D));
                 } else {
                   for (uint32_t j = 0; j < length; ++j) to[static_cast<int64_t>(j) * stride] = from[j];
                 }
               });
  }

  const ViewCopyTiling* t_ = nullptr;
  uint64_t start_ = 0;
  uint64_t length_ = 0;
  uint32_t tileLength_ = 0;
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue_;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue_;
  AscendC::GlobalTensor<S> srcGm_;
  AscendC::GlobalTensor<D> dstGm_;
};

template <size_t SrcBytes, size_t DstBytes>
__global__ __aicore__ void view_copy(GM_ADDR src, GM_ADDR dst, ViewCopyTiling tiling) {
  KernelViewCopy<SrcBytes, DstBytes> op;
  op.Init(src, dst, tiling);
  op.Process();
}

// Drops size-1 dimensions and merges dimensions that are contiguous in both views.
void Coalesce(const ViewCopyArgs& args, ViewCopyTiling* t) {
  int32_t n = 0;
  for (int32_t k = 0; k < args.ndim; ++k) {
    if (args.shape[k] == 1) continue;
    if (n > 0 && t->srcStrides[n - 1] == args.src.strides[k] * args.shape[k] &&
        t->dstStrides[n - 1] == args.dst.strides[k] * args.shape[k]) {
      t->shape[n - 1] *= args.shape[k];
      t->srcStrides[n - 1] = args.src.strides[k];
      t->dstStrides[n - 1] = args.dst.strides[k];
      continue;
    }
    t->shape[n] = args.shape[k];
    t->srcStrides[n] = args.src.strides[k];
    t->dstStrides[n] = args.dst.strides[k];
    ++n;
  }
  if (n == 0) {  // a single element
    t->shape[0] = 1;
    t->srcStrides[0] = 1;
    t->dstStrides[0] = 1;
    n = 1;
  }
  t->ndim = n;
}

}  // namespace

aclError LaunchViewCopy(const ViewCopyArgs& args, aclrtStream stream) {
  if (args.ndim < 0 || args.ndim > kMaxViewDims) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "kernel 'view_copy': %d dimensions (at most %d)", args.ndim,
                      kMaxViewDims);
  }
  uint64_t total = 1;
  for (int32_t k = 0; k < args.ndim; ++k) total *= static_cast<uint64_t>(args.shape[k]);
  if (total == 0) return ACL_SUCCESS;
  const size_t srcBytes = DataTypeSize(args.src.dtype);
  const size_t dstBytes = DataTypeSize(args.dst.dtype);
  ViewCopyTiling t;
  if (args.src.dtype != args.dst.dtype) {
    t.cast = LookupCastTile(args.src.dtype, args.dst.dtype);
    if (t.cast == nullptr) {
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'view_copy' cannot convert %s to %s",
                        DataTypeName(args.src.dtype), DataTypeName(args.dst.dtype));
    }
  } else if (!IsCopyType(args.src.dtype)) {
    return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'view_copy' does not support data type %s",
                      DataTypeName(args.src.dtype));
  }
  Coalesce(args, &t);
  t.srcOffset = args.src.offset;
  t.dstOffset = args.dst.offset;
  t.srcDense = t.ndim == 1 && t.srcStrides[0] == 1;
  t.dstDense = t.ndim == 1 && t.dstStrides[0] == 1;
  const uint32_t ubPerElement =
      static_cast<uint32_t>(BUFFER_NUM * (srcBytes + (t.cast != nullptr ? dstBytes : 0)));
  t.tiling = ComputeElementwiseTiling(total, ubPerElement, static_cast<uint32_t>(std::max(srcBytes, dstBytes)));
  const void* src = args.src.data;
  void* dst = args.dst.data;
  return DispatchCopyElementBytes(srcBytes, "view_copy", [&](auto srcSize) -> aclError {
    return DispatchCopyElementBytes(dstBytes, "view_copy", [&](auto dstSize) -> aclError {
      constexpr size_t SB = decltype(srcSize)::value;
      constexpr size_t DB = decltype(dstSize)::value;
      if constexpr (SB != DB) {
        if (t.cast == nullptr) return ACL_ERROR_INTERNAL_ERROR;  // unreachable: equal dtypes have equal sizes
      }
      return LaunchKernel("view_copy", t.tiling.blockDim, stream, view_copy<SB, DB>, src, dst, t);
    });
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
