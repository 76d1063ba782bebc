// reduce_exact_custom<In, Acc>: y[r] = sum, mean, max, min or all() over row r
// of x (of the input's own dtype In), accumulated exactly in Acc (int64 for
// integers and bool, double for double; the vector unit's reductions are
// float32 only). x is rows x cols, either dense or a strided view whose row r is
// a multi-index of the kept dimensions and whose row elements are the
// multi-indices of the reduced ones (StridedRows). The input is read where it
// is, never converted or made dense first, so the only extra device memory is
// the output's. Row chunks of kRowChunk elements are copied (dense) or gathered
// (strided) into the unified buffer through a double-buffered queue and reduced
// by the scalar unit; rows are split over the cores as for reduce_custom
// (ComputeRowTiling). max/min: NaN wins. all(): 1 when no element is zero (NaN
// is not zero), else 0.
#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"
#include "kernels/row_pipeline.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using namespace AscendC;

struct ExactReduceTiling {
  RowTiling rows;
  RowReduceOp op = RowReduceOp::kSum;
  bool strided = false;
  StridedRows layout;   // when strided
  uint64_t extent = 0;  // elements of x from its first to its last one, plus one
};

// Element offset of multi-index number `linear` (row-major over sizes[0..dims)).
inline int64_t OffsetOf(uint64_t linear, int32_t dims, const int64_t* sizes, const int64_t* strides) {
  int64_t offset = 0;
  for (int32_t k = dims - 1; k >= 0; --k) {
    const uint64_t size = static_cast<uint64_t>(sizes[k]);
    offset += static_cast<int64_t>(linear % size) * strides[k];
    linear /= size;
  }
  return offset;
}

template <typename T>
__aicore__ inline bool IsNonZero(T v) {
  return v != T(0);
}
template <>
__aicore__ inline bool IsNonZero(half v) {
  return static_cast<float>(v) != 0.0f;
}
template <>
__aicore__ inline bool IsNonZero(bfloat16_t v) {
  return static_cast<float>(v) != 0.0f;
}

template <typename In, typename Acc>
class ExactReduceKernel {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ExactReduceTiling& tiling) {
    t_ = tiling;
    const RowTiling& r = t_.rows;
    firstRow_ = static_cast<uint64_t>(GetBlockIdx()) * r.rowsPerBlock;
    rowCount_ = std::min<uint64_t>(r.rowsPerBlock, r.rows - std::min(r.rows, firstRow_));
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ In*>(x), t_.strided ? t_.extent : r.rows * r.cols);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ Acc*>(y), r.rows);
    pipe_.InitBuffer(inQueue_, 2, TileRowPitch<In>(std::min<uint64_t>(r.cols, kRowChunk)) * sizeof(In));
  }

  __aicore__ inline void Process() {
    const uint64_t cols = t_.rows.cols;
    const uint64_t chunks = (cols + kRowChunk - 1) / kRowChunk;
    for (uint64_t r = 0; r < rowCount_; ++r) {
      const uint64_t row = firstRow_ + r;
      Acc acc = Acc(0);
      CopyIn(row, 0);
      for (uint64_t k = 0; k < chunks; ++k) {
        if (k + 1 < chunks) CopyIn(row, k + 1);
        const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(kRowChunk, cols - k * kRowChunk));
        LocalTensor<In> x = inQueue_.DeQue<In>();
        for (uint32_t c = 0; c < len; ++c) acc = Combine(acc, x.GetValue(c), k == 0 && c == 0);
        inQueue_.FreeTensor(x);
      }
      if (t_.op == RowReduceOp::kMean) acc = static_cast<Acc>(acc / static_cast<Acc>(cols));
      yGm_.SetValue(row, acc);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint64_t row, uint64_t chunk) {
    const uint64_t cols = t_.rows.cols;
    const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(kRowChunk, cols - chunk * kRowChunk));
    LocalTensor<In> x = inQueue_.AllocTensor<In>();
    if (t_.strided) {
      Gather(x, row, chunk * kRowChunk, len);
    } else {
      DataCopyExtParams copy{1, static_cast<uint32_t>(len * sizeof(In)), 0, 0, 0};
      DataCopyPad(x, xGm_[row * cols + chunk * kRowChunk], copy, DataCopyPadExtParams<In>{});
    }
    inQueue_.EnQue(x);
  }

  // x[0..len) = elements first .. first + len of `row` of the strided view, walking the
  // reduced multi-index like an odometer from its innermost dimension.
  __aicore__ inline void Gather(const LocalTensor<In>& x, uint64_t row, uint64_t first, uint32_t len) {
    const StridedRows& v = t_.layout;
    const int32_t last = v.reducedDims - 1;
    int64_t idx[kMaxViewDims];
    uint64_t rest = first;
    for (int32_t k = last; k >= 0; --k) {
      idx[k] = static_cast<int64_t>(rest % static_cast<uint64_t>(v.reducedSizes[k]));
      rest /= static_cast<uint64_t>(v.reducedSizes[k]);
    }
    int64_t offset = OffsetOf(row, v.keptDims, v.keptSizes, v.keptStrides) +
                     OffsetOf(first, v.reducedDims, v.reducedSizes, v.reducedStrides);
    for (uint32_t c = 0; c < len; ++c) {
      x.SetValue(c, xGm_.GetValue(static_cast<uint64_t>(offset)));
      offset += v.reducedStrides[last];
      for (int32_t k = last; k > 0 && ++idx[k] == v.reducedSizes[k]; --k) {
        offset -= v.reducedSizes[k] * v.reducedStrides[k];
        idx[k] = 0;
        offset += v.reducedStrides[k - 1];
      }
      if (last == 0) ++idx[0];
    }
  }

  __aicore__ inline Acc Combine(Acc acc, In in, bool first) const {
    if (t_.op == RowReduceOp::kAll) return (first || acc != Acc(0)) && IsNonZero(in) ? Acc(1) : Acc(0);
    const Acc v = static_cast<Acc>(in);
    switch (t_.op) {
      case RowReduceOp::kSum:
      case RowReduceOp::kMean:
        return acc + v;
      case RowReduceOp::kMax:
        if (first || v != v) return v;
        return acc != acc || acc >= v ? acc : v;
      case RowReduceOp::kMin:
        if (first || v != v) return v;
        return acc != acc || acc <= v ? acc : v;
      case RowReduceOp::kAll:
        break;
    }
    return acc;
  }

  ExactReduceTiling t_;
  uint64_t firstRow_ = 0, rowCount_ = 0;
  TPipe pipe_;
  TQue<TPosition::VECIN, 2> inQueue_;
  GlobalTensor<In> xGm_;
  GlobalTensor<Acc> yGm_;
};

template <typename In, typename Acc>
__global__ __aicore__ void reduce_exact_custom(GM_ADDR x, GM_ADDR y, ExactReduceTiling tiling) {
  ExactReduceKernel<In, Acc> op;
  op.Init(x, y, tiling);
  op.Process();
}

}  // namespace

aclDataType ExactReduceAccType(aclDataType xType, RowReduceOp op) {
  return xType == ACL_DOUBLE && op != RowReduceOp::kAll ? ACL_DOUBLE : ACL_INT64;
}

namespace {

aclError LaunchExact(aclDataType xType, const void* x, void* y, uint64_t rows, uint64_t cols, const StridedRows* layout,
                     RowReduceOp op, aclrtStream stream) {
  const bool floatInput = xType == ACL_FLOAT || xType == ACL_FLOAT16 || xType == ACL_BF16;
  if (floatInput && op != RowReduceOp::kAll) {
    return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE,
                      "kernel 'reduce_exact_custom' reduces %s only for all(); sums and extremes of it are "
                      "reduce_custom's", DataTypeName(xType));
  }
  auto launch = [&](auto tag) -> aclError {
    using In = typename decltype(tag)::type;
    ExactReduceTiling t;
    t.rows = ComputeRowTiling(rows, cols, sizeof(In));
    t.op = op;
    if (layout != nullptr) {
      t.strided = true;
      t.layout = *layout;
      t.extent = 1;
      for (int32_t k = 0; k < layout->keptDims; ++k) t.extent += (layout->keptSizes[k] - 1) * layout->keptStrides[k];
      for (int32_t k = 0; k < layout->reducedDims; ++k) {
        t.extent += (layout->reducedSizes[k] - 1) * layout->reducedStrides[k];
      }
    }
    if (t.rows.blockDim == 0) return ACL_SUCCESS;
    if (ExactReduceAccType(xType, op) == ACL_DOUBLE) {
      return LaunchKernel("reduce_exact_custom", t.rows.blockDim, stream, reduce_exact_custom<In, double>, x, y, t);
    }
    return LaunchKernel("reduce_exact_custom", t.rows.blockDim, stream, reduce_exact_custom<In, int64_t>, x, y, t);
  };
  return DispatchKernelType(xType, "reduce_exact_custom", launch);
}

}  // namespace

aclError LaunchRowReduceExact(aclDataType xType, const void* x, void* y, uint64_t rows, uint64_t cols, RowReduceOp op,
                              aclrtStream stream) {
  return LaunchExact(xType, x, y, rows, cols, nullptr, op, stream);
}

aclError LaunchStridedReduceExact(aclDataType xType, const void* x, const StridedRows& layout, void* y, RowReduceOp op,
                                  aclrtStream stream) {
  if (layout.keptDims < 0 || layout.keptDims > kMaxViewDims || layout.reducedDims < 1 ||
      layout.reducedDims > kMaxViewDims) {
    return RaiseError(ACL_ERROR_INVALID_PARAM,
                      "kernel 'reduce_exact_custom': a strided view has 0..%d kept and 1..%d reduced dimensions, "
                      "not %d and %d", kMaxViewDims, kMaxViewDims, layout.keptDims, layout.reducedDims);
  }
  uint64_t rows = 1, cols = 1;
  for (int32_t k = 0; k < layout.keptDims; ++k) {
    if (layout.keptSizes[k] < 0 || layout.keptStrides[k] < 0) {
      return RaiseError(ACL_ERROR_INVALID_PARAM, "kernel 'reduce_exact_custom': negative size or stride");
    }
    rows *= static_cast<uint64_t>(layout.keptSizes[k]);
  }
  for (int32_t k = 0; k < layout.reducedDims; ++k) {
    if (layout.reducedSizes[k] < 0 || layout.reducedStrides[k] < 0) {
      return RaiseError(ACL_ERROR_INVALID_PARAM, "kernel 'reduce_exact_custom': negative size or stride");
    }
    cols *= static_cast<uint64_t>(layout.reducedSizes[k]);
  }
  if (rows == 0 || cols == 0) return ACL_SUCCESS;  // nothing to read (the callers fill empty reductions)
  return LaunchExact(xType, x, y, rows, cols, &layout, op, stream);
}

}  // namespace kernels
}  // namespace ascendc_sim
