// group_norm_custom / group_norm_grad_custom: group normalization of an (n, c, hw)
// input in `groups` groups of d = c / groups channels, as torch's CPU kernel:
//   forward: mean/rstd per (n, group) (two passes of double moments), then
//     y = x * scale + shift per channel with scale = rstd * gamma, shift = beta - scale * mean;
//   backward: ds = sum(dy * x), db = sum(dy) per (n, channel); per group
//     c2 = (sum(db * gamma) * mean - sum(ds * gamma)) * rstd^3 / (d * hw), c3 = -c2 * mean - sum(db * gamma) * rstd / (d * hw),
//     dx = rstd * gamma * dy + c2 * x + c3; dgamma/dbeta summed over n by group_norm_param_grad_custom.
// Groups are split over the cores; a group that fits the unified buffer is read once,
// a larger one is streamed in chunks per pass. float32, float16, bfloat16 (computed in float32).
#include <math.h>

#include "kernels/dtype_dispatch.h"
#include "kernels/kernel_api.h"
#include "kernels/row_pipeline.h"

namespace ascendc_sim {
namespace kernels {
namespace {

using namespace AscendC;

constexpr uint32_t kGroupResidentFloats = 16 * 1024;  // float32 elements of the groups' copies held whole

struct GroupNormTiling {
  uint64_t n = 0, c = 0, hw = 0, groups = 0, d = 0;
  uint64_t groupsPerBlock = 0;
  uint32_t pitch = 0;     // float elements per channel in the unified buffer (resident groups)
  bool resident = false;  // the whole group (or, backward, its dy and x) fits the unified buffer
  float eps = 1e-5f;
  bool hasGamma = false, hasBeta = false, hasMean = false, hasRstd = false, hasVariance = false;
  bool hasDx = false, hasSums = false;
};

// The chunks of one group's channels: resident groups have one chunk per channel at
// its pitch in the unified buffer, streamed groups chunks of kRowChunk elements.
template <typename T>
class GroupWalker {
 public:
  __aicore__ inline void InitWalker(TPipe& pipe, const GroupNormTiling& t, uint32_t buffers) {
    t_ = t;
    const uint32_t floats = t_.resident ? static_cast<uint32_t>(t_.d) * t_.pitch : kRowChunk;
    pipe.InitBuffer(stageBuf_, floats * sizeof(float));
    for (uint32_t i = 0; i < buffers; ++i) pipe.InitBuffer(workBuf_[i], floats * sizeof(float));
    pipe.InitBuffer(tempBuf_, (t_.resident ? t_.pitch : kRowChunk) * sizeof(float));
    pipe.InitBuffer(scalarBuf_, 64);
  }

  __aicore__ inline uint32_t Step() const {
    return t_.resident ? static_cast<uint32_t>(t_.hw) : kRowChunk;
  }

  // Resident groups: buffer i holds all of the group starting at `src`.
  __aicore__ inline void LoadGroup(uint32_t i, const GlobalTensor<T>& src) {
    if (t_.resident) LoadRowsAsFloat(workBuf_[i].Get<float>(), Stage(), src, Rows(), Cols(), t_.hw);
  }

  // Buffer i's view of channel k's elements [h0, h0 + len) of group `src` (streamed: loaded now).
  __aicore__ inline LocalTensor<float> Chunk(uint32_t i, const GlobalTensor<T>& src, uint64_t k, uint64_t h0,
                                             uint32_t len) {
    LocalTensor<float> w = workBuf_[i].Get<float>();
    if (t_.resident) return w[static_cast<uint32_t>(k * t_.pitch + h0)];
    LoadRowsAsFloat(w, Stage(), src[k * t_.hw + h0], 1, len, len);
    return w;
  }

  __aicore__ inline void StoreChunk(const GlobalTensor<T>& dst, uint64_t k, uint64_t h0, uint32_t len,
                                    const LocalTensor<float>& chunk) {
    if (!t_.resident) StoreRowsFromFloat(dst[k * t_.hw + h0], chunk, Stage(), 1, len, len);
  }

  __aicore__ inline void StoreGroup(const GlobalTensor<T>& dst, uint32_t i) {
    if (t_.resident) StoreRowsFromFloat(dst, workBuf_[i].Get<float>(), Stage(), Rows(), Cols(), t_.hw);
  }

  __aicore__ inline float Sum(const LocalTensor<float>& v, uint32_t len) {
    LocalTensor<float> s = scalarBuf_.Get<float>();
    ReduceSum(s, v, s, static_cast<int32_t>(len));
    return s.GetValue(0);
  }

  __aicore__ inline LocalTensor<float> Temp() {
    return tempBuf_.Get<float>();
  }

 protected:
  __aicore__ inline LocalTensor<T> Stage() {
    return stageBuf_.Get<T>();
  }
  __aicore__ inline uint32_t Rows() const {
    return static_cast<uint32_t>(t_.d);
  }
  __aicore__ inline uint32_t Cols() const {
    return static_cast<uint32_t>(t_.hw);
  }

  GroupNormTiling t_;
  TBuf<TPosition::VECCALC> stageBuf_, workBuf_[2], tempBuf_, scalarBuf_;
};

template <typename T>
__aicore__ inline float ParamOr(const GlobalTensor<T>& g, bool has, uint64_t i, float otherwise) {
  return has ? static_cast<float>(g.GetValue(i)) : otherwise;
}

template <typename T, typename S>
class GroupNormKernel : public GroupWalker<T> {
  using Base = GroupWalker<T>;

 public:
  __aicore__ inline void Init(const GroupNormArgs& a, const GroupNormTiling& t) {
    const uint64_t numel = t.n * t.c * t.hw;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(const_cast<void*>(a.x)), numel);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.y), numel);
    if (t.hasGamma) gammaGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(const_cast<void*>(a.gamma)), t.c);
    if (t.hasBeta) betaGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(const_cast<void*>(a.beta)), t.c);
    if (t.hasMean) meanGm_.SetGlobalBuffer(reinterpret_cast<__gm__ S*>(a.mean), t.n * t.groups);
    if (t.hasRstd) rstdGm_.SetGlobalBuffer(reinterpret_cast<__gm__ S*>(a.rstd), t.n * t.groups);
    if (t.hasVariance) varianceGm_.SetGlobalBuffer(reinterpret_cast<__gm__ S*>(a.variance), t.n * t.groups);
    this->InitWalker(pipe_, t, 1);
  }

  __aicore__ inline void Process() {
    const GroupNormTiling& t = this->t_;
    const uint64_t first = static_cast<uint64_t>(GetBlockIdx()) * t.groupsPerBlock;
    const uint64_t last = std::min(t.n * t.groups, first + t.groupsPerBlock);
    for (uint64_t g = first; g < last; ++g) Group(g);
  }

 private:
  __aicore__ inline void Group(uint64_t group) {
    const GroupNormTiling& t = this->t_;
    const uint64_t base = group * t.d * t.hw;
    const GlobalTensor<T> x = xGm_[base];
    const GlobalTensor<T> y = yGm_[base];
    const uint32_t step = this->Step();
    const double count = static_cast<double>(t.d * t.hw);
    this->LoadGroup(0, x);
    // the moments in double on the vector unit, as the variance kernel's
    double sum = 0.0;
    for (uint64_t k = 0; k < t.d; ++k) {
      for (uint64_t h0 = 0; h0 < t.hw; h0 += step) {
        const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(step, t.hw - h0));
        sum += aclsimVectorSumF32AsF64(this->Chunk(0, x, k, h0, len).GetPhyAddr(), len);
      }
    }
    // CPU's for empty groups (rstd NaN); an infinity makes CPU's running moments NaN
    const double meanD = count == 0 ? 0.0 : isfinite(sum) ? sum / count : NAN;
    double sumSq = 0.0;
    for (uint64_t k = 0; k < t.d; ++k) {
      for (uint64_t h0 = 0; h0 < t.hw; h0 += step) {
        const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(step, t.hw - h0));
        sumSq += aclsimVectorSquaredDeviationF32(this->Chunk(0, x, k, h0, len).GetPhyAddr(), len, meanD);
      }
    }
    const float mean = static_cast<float>(meanD);
    const float var = static_cast<float>(sumSq / count);
    // A variance past float's range gives NaN, as CPU's moments do (not silent zeros).
    const float rstd = isinf(var) ? NAN : 1.0f / sqrtf(var + t.eps);
    const uint64_t c0 = (group % t.groups) * t.d;
    for (uint64_t k = 0; k < t.d; ++k) {
      const float scale = rstd * ParamOr(gammaGm_, t.hasGamma, c0 + k, 1.0f);
      const float shift = ParamOr(betaGm_, t.hasBeta, c0 + k, 0.0f) - scale * mean;
      for (uint64_t h0 = 0; h0 < t.hw; h0 += step) {
        const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(step, t.hw - h0));
        LocalTensor<float> v = this->Chunk(0, x, k, h0, len);
        Muls(v, v, scale, len);
        Adds(v, v, shift, len);
        this->StoreChunk(y, k, h0, len, v);
      }
    }
    this->StoreGroup(y, 0);
    if (t.hasMean) meanGm_.SetValue(group, static_cast<S>(mean));
    if (t.hasRstd) rstdGm_.SetValue(group, static_cast<S>(rstd));
    if (t.hasVariance) varianceGm_.SetValue(group, static_cast<S>(var));
  }

  TPipe pipe_;
  GlobalTensor<T> xGm_, yGm_, gammaGm_, betaGm_;
  GlobalTensor<S> meanGm_, rstdGm_, varianceGm_;
};

template <typename T, typename S>
class GroupNormGradKernel : public GroupWalker<T> {
 public:
  __aicore__ inline void Init(const GroupNormGradArgs& a, const GroupNormTiling& t) {
    const uint64_t numel = t.n * t.c * t.hw;
    dyGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(const_cast<void*>(a.dy)), numel);
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(const_cast<void*>(a.x)), numel);
    if (t.hasDx) dxGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.dx), numel);
    if (t.hasGamma) gammaGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(const_cast<void*>(a.gamma)), t.c);
    meanGm_.SetGlobalBuffer(reinterpret_cast<__gm__ S*>(const_cast<void*>(a.mean)), t.n * t.groups);
    rstdGm_.SetGlobalBuffer(reinterpret_cast<__gm__ S*>(const_cast<void*>(a.rstd)), t.n * t.groups);
    if (t.hasSums) {
      dsGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a.ds), t.n * t.c);
      dbGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a.db), t.n * t.c);
    }
    this->InitWalker(pipe_, t, 2);
  }

  __aicore__ inline void Process() {
    const GroupNormTiling& t = this->t_;
    const uint64_t first = static_cast<uint64_t>(GetBlockIdx()) * t.groupsPerBlock;
    const uint64_t last = std::min(t.n * t.groups, first + t.groupsPerBlock);
    for (uint64_t g = first; g < last; ++g) Group(g);
  }

 private:
  __aicore__ inline void Group(uint64_t group) {
    const GroupNormTiling& t = this->t_;
    const uint64_t base = group * t.d * t.hw;
    const GlobalTensor<T> dy = dyGm_[base];
    const GlobalTensor<T> x = xGm_[base];
    const uint32_t step = this->Step();
    const uint64_t c0 = (group % t.groups) * t.d;
    const uint64_t row0 = (group / t.groups) * t.c + c0;  // (n, first channel) in the per-channel sums
    this->LoadGroup(0, dy);
    this->LoadGroup(1, x);
    LocalTensor<float> prod = this->Temp();
    double dsGamma = 0.0, dbGamma = 0.0;
    for (uint64_t k = 0; k < t.d; ++k) {
      double ds = 0.0, db = 0.0;
      for (uint64_t h0 = 0; h0 < t.hw; h0 += step) {
        const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(step, t.hw - h0));
        const LocalTensor<float> vdy = this->Chunk(0, dy, k, h0, len);
        Mul(prod, vdy, this->Chunk(1, x, k, h0, len), len);
        ds += this->Sum(prod, len);
        db += this->Sum(vdy, len);
      }
      if (t.hasSums) {
        dsGm_.SetValue(row0 + k, static_cast<float>(ds));
        dbGm_.SetValue(row0 + k, static_cast<float>(db));
      }
      const double gamma = ParamOr(gammaGm_, t.hasGamma, c0 + k, 1.0f);
      dsGamma += static_cast<double>(static_cast<float>(ds)) * gamma;
      dbGamma += static_cast<double>(static_cast<float>(db)) * gamma;
    }
    if (!t.hasDx) return;
    const float mean = static_cast<float>(meanGm_.GetValue(group));
    const float rstd = static_cast<float>(rstdGm_.GetValue(group));
    const float s = 1.0f / static_cast<float>(t.d * t.hw);
    const float dsg = static_cast<float>(dsGamma), dbg = static_cast<float>(dbGamma);
    const float c2 = (dbg * mean - dsg) * rstd * rstd * rstd * s;
    const float c3 = -c2 * mean - dbg * rstd * s;
    const GlobalTensor<T> dx = dxGm_[base];
    for (uint64_t k = 0; k < t.d; ++k) {
      const float c1 = rstd * ParamOr(gammaGm_, t.hasGamma, c0 + k, 1.0f);
      for (uint64_t h0 = 0; h0 < t.hw; h0 += step) {
        const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(step, t.hw - h0));
        LocalTensor<float> vdy = this->Chunk(0, dy, k, h0, len);
        LocalTensor<float> vx = this->Chunk(1, x, k, h0, len);
        Muls(vdy, vdy, c1, len);
        Muls(vx, vx, c2, len);
        Add(vdy, vdy, vx, len);
        Adds(vdy, vdy, c3, len);
        this->StoreChunk(dx, k, h0, len, vdy);
      }
    }
    this->StoreGroup(dx, 0);
  }

  TPipe pipe_;
  GlobalTensor<T> dyGm_, xGm_, dxGm_, gammaGm_;
  GlobalTensor<S> meanGm_, rstdGm_;
  GlobalTensor<float> dsGm_, dbGm_;
};

// dgamma[c] = sum_n (ds[n, c] - db[n, c] * mean[n, g]) * rstd[n, g], dbeta[c] = sum_n db[n, c];
// channels split over the cores.
template <typename T, typename S>
__global__ __aicore__ void group_norm_param_grad_custom(GroupNormGradArgs a, GroupNormTiling t, uint64_t perBlock) {
  GlobalTensor<float> ds, db;
  GlobalTensor<S> mean, rstd;
  GlobalTensor<T> dgamma, dbeta;
  ds.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a.ds), t.n * t.c);
  db.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(a.db), t.n * t.c);
  mean.SetGlobalBuffer(reinterpret_cast<__gm__ S*>(const_cast<void*>(a.mean)), t.n * t.groups);
  rstd.SetGlobalBuffer(reinterpret_cast<__gm__ S*>(const_cast<void*>(a.rstd)), t.n * t.groups);
  if (a.dgamma != nullptr) dgamma.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.dgamma), t.c);
  if (a.dbeta != nullptr) dbeta.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a.dbeta), t.c);
  const uint64_t first = static_cast<uint64_t>(GetBlockIdx()) * perBlock;
  const uint64_t last = std::min(t.c, first + perBlock);
  for (uint64_t ch = first; ch < last; ++ch) {
    double dg = 0.0, dbSum = 0.0;
    for (uint64_t i = 0; i < t.n; ++i) {
      const uint64_t g = i * t.groups + ch / t.d;
      const double m = static_cast<float>(mean.GetValue(g)), r = static_cast<float>(rstd.GetValue(g));
      dg += (ds.GetValue(i * t.c + ch) - db.GetValue(i * t.c + ch) * m) * r;
      dbSum += db.GetValue(i * t.c + ch);
    }
    if (a.dgamma != nullptr) dgamma.SetValue(ch, static_cast<T>(static_cast<float>(dg)));
    if (a.dbeta != nullptr) dbeta.SetValue(ch, static_cast<T>(static_cast<float>(dbSum)));
  }
}

template <typename T, typename S>
__global__ __aicore__ void group_norm_custom(GroupNormArgs a, GroupNormTiling t) {
  GroupNormKernel<T, S> op;
  op.Init(a, t);
  op.Process();
}

template <typename T, typename S>
__global__ __aicore__ void group_norm_grad_custom(GroupNormGradArgs a, GroupNormTiling t) {
  GroupNormGradKernel<T, S> op;
  op.Init(a, t);
  op.Process();
}

// Groups over the cores (at least ~64 KiB of data each); resident when `buffers` float copies fit.
GroupNormTiling GroupTiling(uint64_t n, uint64_t c, uint64_t hw, uint64_t groups, uint32_t elementBytes,
                            uint32_t buffers) {
  GroupNormTiling t;
  t.n = n;
  t.c = c;
  t.hw = hw;
  t.groups = groups;
  t.d = c / groups;
  const uint64_t total = n * groups;
  const uint64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
  const uint64_t wanted = std::max<uint64_t>(1, std::min<uint64_t>({cores, total, total * t.d * hw * elementBytes / (64 * 1024)}));
  t.groupsPerBlock = (total + wanted - 1) / wanted;
  t.pitch = hw <= kMaxWholeRow ? AscendC::TileRowPitch<float>(static_cast<uint32_t>(hw)) : 0;
  t.resident = t.pitch != 0 && t.d <= 0xffff && t.d * t.pitch * buffers <= kGroupResidentFloats;
  return t;
}

uint32_t BlocksOf(uint64_t count, uint64_t perBlock) {
  return static_cast<uint32_t>((count + perBlock - 1) / perBlock);
}

// Calls go(TypeTag<T>, TypeTag<S>) for the input and statistics dtypes.
template <typename Go>
aclError DispatchGroupNorm(const char* kernel, aclDataType dtype, aclDataType statsDtype, Go&& go) {
  auto withStats = [&](auto tag) -> aclError {
    switch (statsDtype) {
      case ACL_FLOAT: return go(tag, TypeTag<float>{});
      case ACL_FLOAT16: return go(tag, TypeTag<half>{});
      case ACL_BF16: return go(tag, TypeTag<bfloat16_t>{});
      default:
        return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel '%s' does not support stats type %s", kernel,
                          DataTypeName(statsDtype));
    }
  };
  switch (dtype) {
    case ACL_FLOAT: return withStats(TypeTag<float>{});
    case ACL_FLOAT16: return withStats(TypeTag<half>{});
    case ACL_BF16: return withStats(TypeTag<bfloat16_t>{});
    default:
      return RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "kernel '%s' does not support data type %s", kernel,
                        DataTypeName(dtype));
  }
}

}  // namespace

aclError LaunchGroupNorm(const GroupNormArgs& a, aclrtStream stream) {
  if (a.n * a.groups == 0) return ACL_SUCCESS;
  return DispatchGroupNorm("group_norm_custom", a.dtype, a.statsDtype, [&](auto tTag, auto sTag) -> aclError {
    using T = typename decltype(tTag)::type;
    using S = typename decltype(sTag)::type;
    GroupNormTiling t = GroupTiling(a.n, a.c, a.hw, a.groups, sizeof(T), 1);
    t.eps = static_cast<float>(a.eps);
    t.hasGamma = a.gamma != nullptr;
    t.hasBeta = a.beta != nullptr;
    t.hasMean = a.mean != nullptr;
    t.hasRstd = a.rstd != nullptr;
    t.hasVariance = a.variance != nullptr;
    return LaunchKernel("group_norm_custom", BlocksOf(a.n * a.groups, t.groupsPerBlock), stream,
                        group_norm_custom<T, S>, a, t);
  });
}

aclError LaunchGroupNormGrad(const GroupNormGradArgs& a, aclrtStream stream) {
  if (a.c == 0) return ACL_SUCCESS;
  return DispatchGroupNorm("group_norm_grad_custom", a.dtype, a.statsDtype, [&](auto tTag, auto sTag) -> aclError {
    using T = typename decltype(tTag)::type;
    using S = typename decltype(sTag)::type;
    GroupNormTiling t = GroupTiling(a.n, a.c, a.hw, a.groups, sizeof(T), 2);
    t.hasGamma = a.gamma != nullptr;
    t.hasDx = a.dx != nullptr;
    t.hasSums = a.ds != nullptr && a.db != nullptr;
    aclError rc = a.n == 0 ? ACL_SUCCESS
                           : LaunchKernel("group_norm_grad_custom", BlocksOf(a.n * a.groups, t.groupsPerBlock),
                                          stream, group_norm_grad_custom<T, S>, a, t);
    if (rc != ACL_SUCCESS || (a.dgamma == nullptr && a.dbeta == nullptr)) return rc;
    const uint64_t cores = std::max<uint32_t>(1, aclsimGetCoreNumAiv());
    const uint64_t perBlock = std::max<uint64_t>((a.c + cores - 1) / cores, a.n * a.c < 64 * 1024 ? a.c : 1);
    return LaunchKernel("group_norm_param_grad_custom", BlocksOf(a.c, perBlock), stream,
                        group_norm_param_grad_custom<T, S>, a, t, perBlock);
  });
}

}  // namespace kernels
}  // namespace ascendc_sim
