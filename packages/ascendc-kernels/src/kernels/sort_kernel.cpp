// sort_custom<C>: each row sorted, or a selection from it (the first k of the order, the
// k-th value, the median, nanmedian), with PyTorch's CPU algorithms, so that equal values
// (ties, -0 and +0, several NaN) come out in the same order and with the same indices:
// std::stable_sort / std::sort on (value, index) pairs with NaN above every number (sort),
// std::partial_sort or std::nth_element + std::sort (topk), ATen's median-of-three quick
// select (kthvalue), std::nth_element (median, nanmedian). A block takes a run of rows; a
// row is copied through the unified buffer (DataCopyPad, kRowChunk elements at a time) into
// the core's scalar working memory, where the selection runs.
#include <math.h>
#include <string.h>

#include <algorithm>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/dtype_dispatch.h"
#include "kernels/reduce_dim_api.h"
#include "kernels/row_pipeline.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using namespace AscendC;

struct SortTiling {
  SortSelect select = SortSelect::kSort;
  uint64_t rows = 0, cols = 0, k = 0;
  uint64_t rowsPerBlock = 0;
  uint32_t blockDim = 0;
  bool descending = false;
  bool stable = false;
  bool wholeTensor = false;
  bool withValues = false, withIndices = false;
};

template <typename C>
__aicore__ inline bool SortIsNan(C v) {
  if constexpr (std::is_floating_point<C>::value) {
    return v != v;
  } else {
    (void)v;
    return false;
  }
}

template <typename C>
class SortKernel {
 public:
  using Pair = std::pair<C, int64_t>;

  __aicore__ inline void Init(GM_ADDR x, GM_ADDR values, GM_ADDR indices, const SortTiling& tiling) {
    t_ = tiling;
    firstRow_ = static_cast<uint64_t>(GetBlockIdx()) * t_.rowsPerBlock;
    rowCount_ = std::min<uint64_t>(t_.rowsPerBlock, t_.rows - std::min(t_.rows, firstRow_));
    const bool wholeRows = t_.select == SortSelect::kSort || t_.select == SortSelect::kTopk;
    const uint64_t outCount = wholeRows ? t_.rows * t_.k : t_.rows;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(x), t_.rows * t_.cols);
    if (t_.withValues) valuesGm_.SetGlobalBuffer(reinterpret_cast<__gm__ C*>(values), outCount);
    if (t_.withIndices) indicesGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(indices), outCount);
    const uint32_t width = static_cast<uint32_t>(std::min<uint64_t>(t_.cols, kRowChunk));
    pipe_.InitBuffer(inQueue_, 2, TileRowPitch<C>(width) * sizeof(C));
    row_.resize(t_.cols);
  }

  __aicore__ inline void Process() {
    for (uint64_t r = 0; r < rowCount_; ++r) {
      Load(firstRow_ + r);
      Select(firstRow_ + r);
    }
  }

 private:
  static bool Greater(C a, C b) { return (SortIsNan(a) && !SortIsNan(b)) || a > b; }
  static bool Less(C a, C b) { return (!SortIsNan(a) && SortIsNan(b)) || a < b; }

  __aicore__ inline void Load(uint64_t row) {
    const uint64_t cols = t_.cols;
    for (uint64_t c0 = 0; c0 < cols; c0 += kRowChunk) {
      const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(kRowChunk, cols - c0));
      LocalTensor<C> x = inQueue_.AllocTensor<C>();
      DataCopyExtParams copy{1, static_cast<uint32_t>(len * sizeof(C)), 0, 0, 0};
      DataCopyPad(x, xGm_[row * cols + c0], copy, DataCopyPadExtParams<C>{});
      inQueue_.EnQue(x);
      x = inQueue_.DeQue<C>();
      memcpy(&row_[c0], x.GetPhyAddr(), len * sizeof(C));
      inQueue_.FreeTensor(x);
    }
  }

  __aicore__ inline void Put(uint64_t at, C value, int64_t index) {
    if (t_.withValues) valuesGm_.SetValue(at, value);
    if (t_.withIndices) indicesGm_.SetValue(at, index);
  }

  __aicore__ inline void Pairs() {
    pairs_.resize(t_.cols);
    for (uint64_t c = 0; c < t_.cols; ++c) pairs_[c] = Pair(row_[c], static_cast<int64_t>(c));
  }

  __aicore__ inline void Select(uint64_t row) {
    switch (t_.select) {
      case SortSelect::kSort:
      case SortSelect::kTopk:
        if (t_.select == SortSelect::kSort) {
          SortRow();
        } else {
          TopK();
        }
        for (uint64_t c = 0; c < t_.k; ++c) Put(row * t_.k + c, pairs_[c].first, pairs_[c].second);
        return;
      case SortSelect::kKth:
        KthValue(row);
        return;
      case SortSelect::kMedian:
      case SortSelect::kNanMedian:
        if (t_.wholeTensor) {
          MedianOfValues(row);
        } else {
          MedianWithIndex(row);
        }
        return;
    }
  }

  // sort: std::stable_sort when stable, std::sort otherwise, as ATen's CPU sort.
  __aicore__ inline void SortRow() {
    Pairs();
    auto asc = [](const Pair& a, const Pair& b) { return Less(a.first, b.first); };
    auto desc = [](const Pair& a, const Pair& b) { return Greater(a.first, b.first); };
    if (t_.descending) {
      if (t_.stable) {
        std::stable_sort(pairs_.begin(), pairs_.end(), desc);
      } else {
        std::sort(pairs_.begin(), pairs_.end(), desc);
      }
    } else if (t_.stable) {
      std::stable_sort(pairs_.begin(), pairs_.end(), asc);
    } else {
      std::sort(pairs_.begin(), pairs_.end(), asc);
    }
  }

  // topk: partial_sort when k is small against the row, else nth_element and a sort of the
  // first k - 1, as ATen's CPU topk (descending = largest).
  __aicore__ inline void TopK() {
    Pairs();
    const uint64_t k = t_.k, n = t_.cols;
    auto largest = [](const Pair& a, const Pair& b) { return Greater(a.first, b.first); };
    auto smallest = [](const Pair& a, const Pair& b) { return Less(a.first, b.first); };
    if (k * 64 <= n) {
      if (t_.descending) {
        std::partial_sort(pairs_.begin(), pairs_.begin() + k, pairs_.end(), largest);
      } else {
        std::partial_sort(pairs_.begin(), pairs_.begin() + k, pairs_.end(), smallest);
      }
      return;
    }
    if (t_.descending) {
      std::nth_element(pairs_.begin(), pairs_.begin() + k - 1, pairs_.end(), largest);
      std::sort(pairs_.begin(), pairs_.begin() + k - 1, largest);
    } else {
      std::nth_element(pairs_.begin(), pairs_.begin() + k - 1, pairs_.end(), smallest);
      std::sort(pairs_.begin(), pairs_.begin() + k - 1, smallest);
    }
  }

  // kthvalue: ATen's quick select (median-of-three pivot) on values and indices together.
  __aicore__ inline void KthValue(uint64_t row) {
    Pairs();
    const int64_t k = static_cast<int64_t>(t_.k) - 1;
    auto gt = [](C a, C b) { return Greater(a, b); };
    auto swap = [this](int64_t i, int64_t j) { std::swap(pairs_[i], pairs_[j]); };
    int64_t L = 0, R = static_cast<int64_t>(t_.cols) - 1;
    while (true) {
      if (R <= L) break;
      if (R == L + 1) {
        if (gt(pairs_[L].first, pairs_[R].first)) swap(L, R);
        break;
      }
      const int64_t P = L + (R - L) / 2;
      swap(P, L + 1);
      if (gt(pairs_[L + 1].first, pairs_[R].first)) swap(L + 1, R);
      if (gt(pairs_[L].first, pairs_[R].first)) swap(L, R);
      if (gt(pairs_[L + 1].first, pairs_[L].first)) swap(L + 1, L);
      int64_t i = L + 1, j = R;
      const C piv = pairs_[L].first;
      while (true) {
        do {
          ++i;
        } while (gt(piv, pairs_[i].first));
        do {
          --j;
        } while (gt(pairs_[j].first, piv));
        if (j < i) break;
        swap(i, j);
      }
      swap(L, j);
      if (j <= k) L = i;
      if (j >= k) R = j - 1;
    }
    Put(row, pairs_[k].first, pairs_[k].second);
  }

  // median / nanmedian along a dimension: the first NaN (median), else nth_element over the
  // column indices, as ATen's CPU kernel.
  __aicore__ inline void MedianWithIndex(uint64_t row) {
    const uint64_t n = t_.cols;
    const bool ignoreNan = t_.select == SortSelect::kNanMedian;
    idx_.resize(n);
    for (uint64_t c = 0; c < n; ++c) idx_[c] = static_cast<int64_t>(c);
    int64_t nans = 0;
    for (uint64_t c = 0; c < n; ++c) {
      if (!SortIsNan(row_[c])) continue;
      if (!ignoreNan) {
        Put(row, row_[c], static_cast<int64_t>(c));
        return;
      }
      ++nans;
    }
    const int64_t size = static_cast<int64_t>(n) - nans;
    const auto nth = idx_.begin() + (size - 1) / 2;
    const std::vector<C>& v = row_;
    std::nth_element(idx_.begin(), nth, idx_.end(), [&v](int64_t i, int64_t j) {
      return v[i] < v[j] || (SortIsNan(v[j]) && !SortIsNan(v[i]));
    });
    Put(row, v[*nth], *nth);
  }

  // median() / nanmedian() of the whole tensor: nth_element on the values (NaN: the result
  // of median; left out by nanmedian, NaN when nothing else is left).
  __aicore__ inline void MedianOfValues(uint64_t row) {
    auto first = row_.begin(), last = row_.end();
    if (t_.select == SortSelect::kMedian) {
      for (auto it = first; it != last; ++it) {
        if (SortIsNan(*it)) {
          Put(row, *it, 0);
          return;
        }
      }
    } else {
      last = std::partition(first, last, [](C v) { return !SortIsNan(v); });
      if (last == first) {
        Put(row, row_[0], 0);
        return;
      }
    }
    const auto median = first + (std::distance(first, last) - 1) / 2;
    std::nth_element(first, median, last);
    Put(row, *median, 0);
  }

  SortTiling t_;
  uint64_t firstRow_ = 0, rowCount_ = 0;
  TPipe pipe_;
  TQue<TPosition::VECIN, 2> inQueue_;
  GlobalTensor<C> xGm_, valuesGm_;
  GlobalTensor<int64_t> indicesGm_;
  std::vector<C> row_;
  std::vector<Pair> pairs_;
  std::vector<int64_t> idx_;
};

template <typename C>
__global__ __aicore__ void sort_custom(GM_ADDR x, GM_ADDR values, GM_ADDR indices, SortTiling tiling) {
  SortKernel<C> op;
  op.Init(x, values, indices, tiling);
  op.Process();
}

}  // namespace

aclError LaunchSort(const SortArgs& args, aclrtStream stream) {
  if (args.rows == 0 || args.cols == 0) return ACL_SUCCESS;
  const bool wholeRows = args.select == SortSelect::kSort || args.select == SortSelect::kTopk;
  if (wholeRows ? args.k > args.cols || (args.select == SortSelect::kSort && args.k != args.cols)
                : (args.select == SortSelect::kKth && (args.k < 1 || args.k > args.cols))) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "kernel 'sort_custom': k = %llu is out of range for rows of %llu",
                      static_cast<unsigned long long>(args.k), static_cast<unsigned long long>(args.cols));
  }
  if (wholeRows && args.k == 0) return ACL_SUCCESS;
  SortTiling t;
  t.select = args.select;
  t.rows = args.rows;
  t.cols = args.cols;
  t.k = args.k;
  t.descending = args.descending;
  t.stable = args.stable;
  t.wholeTensor = args.wholeTensor;
  t.withValues = args.values != nullptr;
  t.withIndices = args.indices != nullptr;
  const uint64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  const uint64_t bytes = args.rows * args.cols * 16;
  const uint64_t wanted = std::max<uint64_t>(1, std::min<uint64_t>({cores, args.rows, bytes / (64 * 1024)}));
  t.rowsPerBlock = (args.rows + wanted - 1) / wanted;
  t.blockDim = static_cast<uint32_t>((args.rows + t.rowsPerBlock - 1) / t.rowsPerBlock);
  auto x = const_cast<void*>(args.x);
  switch (args.dtype) {
    case ACL_FLOAT:
      return LaunchKernel("sort_custom", t.blockDim, stream, sort_custom<float>, x, args.values, args.indices, t);
    case ACL_DOUBLE:
      return LaunchKernel("sort_custom", t.blockDim, stream, sort_custom<double>, x, args.values, args.indices, t);
    case ACL_INT64:
      return LaunchKernel("sort_custom", t.blockDim, stream, sort_custom<int64_t>, x, args.values, args.indices, t);
    default:
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel 'sort_custom' sorts float, double or int64, not %s",
                        DataTypeName(args.dtype));
  }
}

}  // namespace kernels
}  // namespace ascendc_sim
