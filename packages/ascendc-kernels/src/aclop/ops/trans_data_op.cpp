// The acl op "TransData": converts dense data between a base format and an
// internal one (ND/NCHW <-> FRACTAL_NZ, NCHW/ND <-> NC1HWC0, NCHW <-> FRACTAL_Z, NCDHW <-> NDC1HWC0
// and FRACTAL_Z_3D). Input and output
// carry the same origin (logical) shape; each descriptor's storage shape must be
// the one its format infers. Optional string attributes src_format/dst_format
// ("ND", "NCHW", "NC1HWC0", "FRACTAL_NZ"), when given, must name the
// descriptors' formats. "Identity" converts likewise between two formats and copies within one.
// Declared in abi/aclop/trans_data.decl.
#include <utility>

#include "aclop/declared_ops.h"
#include "aclop/format_shape.h"
#include "aclop/ops/layout_convert.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {

const char* LayoutFormatName(aclFormat format) {
  if (format == kFormatNdc1hwc0) return "ACL_FORMAT_NDC1HWC0";
  if (format == kFormatFractalZ3d) return "ACL_FRACTAL_Z_3D";
  return FormatName(format);
}

bool IsSplitLayoutFormat(aclFormat format) {
  return format == ACL_FORMAT_FRACTAL_Z || format == kFormatNdc1hwc0 || format == kFormatFractalZ3d;
}

bool SplitLayoutOf(aclFormat format, const std::vector<int64_t>& origin, int64_t c0, SplitLayout* out,
                   std::string* why) {
  auto ceil = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
  const bool is3d = format != ACL_FORMAT_FRACTAL_Z;
  std::vector<int64_t> shape = origin;  // NCHW or NCDHW
  if (is3d) {
    if (shape.size() != 5) {
      *why = StrFormat("shape %s has no %s layout (5 dimensions, read as NCDHW)", ShapeToString(origin).c_str(),
                       LayoutFormatName(format));
      return false;
    }
  } else {
    if (shape.empty() || shape.size() > 4) {
      *why = StrFormat("shape %s has no %s layout (1 to 4 dimensions, read as NCHW)", ShapeToString(origin).c_str(),
                       LayoutFormatName(format));
      return false;
    }
    if (shape.size() == 1) shape = {1, shape[0]};
    shape.resize(4, 1);
  }
  const bool fractal = format != kFormatNdc1hwc0;
  const int64_t n = shape[0];
  const int64_t c1 = ceil(shape[1], c0);
  const int64_t no = ceil(n, 16);
  out->padded = shape;
  out->padded[0] = fractal ? no * 16 : n;
  out->padded[1] = c1 * c0;
  // split: [No, 16, C1, C0, spatial...] (fractal) or [N, C1, C0, spatial...]
  out->split.clear();
  if (fractal) {
    out->split = {no, 16};
  } else {
    out->split = {n};
  }
  out->split.insert(out->split.end(), {c1, c0});
  out->split.insert(out->split.end(), shape.begin() + 2, shape.end());
  out->splitStrides.assign(out->split.size(), 1);
  for (size_t k = out->split.size(); k-- > 1;) out->splitStrides[k - 1] = out->splitStrides[k] * out->split[k];
  const size_t nd = fractal ? 2 : 1;  // the dimensions N splits into
  const size_t c1i = nd, c0i = nd + 1, sp = nd + 2;  // C1, C0 and the first spatial dimension
  if (format == ACL_FORMAT_FRACTAL_Z) {
    out->perm = {c1i, sp, sp + 1, 0, 1, c0i};  // [C1, H, W, No, 16, C0]
  } else if (format == kFormatFractalZ3d) {
    out->perm = {sp, c1i, sp + 1, sp + 2, 0, 1, c0i};  // [D, C1, H, W, No, 16, C0]
  } else {
    out->perm = {0, sp, c1i, sp + 1, sp + 2, c0i};  // [N, D, C1, H, W, C0]
  }
  return true;
}

bool InferStorageShape(aclFormat format, const std::vector<int64_t>& origin, aclDataType dtype,
                       std::vector<int64_t>* out, std::string* why) {
  if (IsBaseFormat(format)) {
    *out = origin;
    return true;
  }
  const int64_t c0 = kernels::TransDataC0(dtype);
  if (c0 == 0) {
    *why = StrFormat("data type %s has no %s layout (1-, 2- and 4-byte types only)", DataTypeName(dtype),
                     LayoutFormatName(format));
    return false;
  }
  auto ceil = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
  if (IsSplitLayoutFormat(format)) {
    SplitLayout layout;
    if (!SplitLayoutOf(format, origin, c0, &layout, why)) return false;
    std::vector<int64_t> dims;
    for (size_t k : layout.perm) dims.push_back(layout.split[k]);
    if (format == kFormatNdc1hwc0) {
      *out = dims;
    } else {  // fractal: the leading dimensions fold into one, then [No, 16, C0]
      int64_t lead = 1;
      for (size_t k = 0; k + 3 < dims.size(); ++k) lead *= dims[k];
      *out = {lead, dims[dims.size() - 3], 16, c0};
    }
    return true;
  }
  if (format == ACL_FORMAT_FRACTAL_NZ) {
    if (origin.empty()) {
      *why = "a 0-dimensional shape has no ACL_FORMAT_FRACTAL_NZ layout";
      return false;
    }
    const int64_t m = origin.size() == 1 ? 1 : origin[origin.size() - 2];
    const int64_t n = origin.back();
    out->assign(origin.begin(), origin.end() - (origin.size() == 1 ? 1 : 2));
    out->insert(out->end(), {ceil(n, c0), ceil(m, 16), 16, c0});
    return true;
  }
  if (format == ACL_FORMAT_NC1HWC0) {
    if (origin.empty() || origin.size() > 4) {
      *why = StrFormat("shape %s has no ACL_FORMAT_NC1HWC0 layout (1 to 4 dimensions, read as NCHW)",
                       ShapeToString(origin).c_str());
      return false;
    }
    std::vector<int64_t> nchw = origin.size() == 1 ? std::vector<int64_t>{1, origin[0]} : origin;
    nchw.resize(4, 1);
    *out = {nchw[0], ceil(nchw[1], c0), nchw[2], nchw[3], c0};
    return true;
  }
  *why = StrFormat("format %s is not supported", LayoutFormatName(format));
  return false;
}

namespace {

// The formats a string attribute may name.
const char* ShortFormatName(aclFormat f) {
  switch (static_cast<int>(f)) {  // int: the 3-D layouts are not in the enum
    case ACL_FORMAT_ND: return "ND";
    case ACL_FORMAT_NCHW: return "NCHW";
    case ACL_FORMAT_NC1HWC0: return "NC1HWC0";
    case ACL_FORMAT_FRACTAL_NZ: return "FRACTAL_NZ";
    case ACL_FORMAT_FRACTAL_Z: return "FRACTAL_Z";
    case kFormatNdc1hwc0: return "NDC1HWC0";
    case kFormatFractalZ3d: return "FRACTAL_Z_3D";
    case ACL_FORMAT_NCDHW: return "NCDHW";
    default: return LayoutFormatName(f);
  }
}

aclError CheckFormatAttr(OpContext& ctx, const char* name, const std::optional<std::string>& value,
                         aclFormat actual) {
  if (!value || *value == ShortFormatName(actual) || *value == FormatName(actual)) return ACL_SUCCESS;
  return ctx.Fail(ACL_ERROR_INVALID_PARAM, "attribute %s is \"%s\" but the descriptor's format is %s", name,
                  value->c_str(), ShortFormatName(actual));
}

aclError CheckStorageShape(OpContext& ctx, const OpOperand& t, const char* role) {
  std::vector<int64_t> expected;
  std::string why;
  if (!InferStorageShape(t.format(), t.desc->originDims, t.dtype(), &expected, &why)) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "%s: %s", role, why.c_str());
  }
  if (expected != t.shape()) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "%s has storage shape %s but origin shape %s in %s needs %s", role,
                    ShapeToString(t.shape()).c_str(), ShapeToString(t.desc->originDims).c_str(),
                    LayoutFormatName(t.format()), ShapeToString(expected).c_str());
  }
  return ACL_SUCCESS;
}

// Dense `origin`-shaped data <-> a split-permute layout (FRACTAL_Z, NDC1HWC0, FRACTAL_Z_3D) by the view
// copy kernel: into the layout, the origin goes into a zeroed padded buffer (unless nothing pads), which is
// then copied permuted into the storage; out of it, the reverse.
aclError ConvertSplitLayout(OpContext& ctx, aclFormat format, bool toInternal, const std::vector<int64_t>& origin,
                            aclDataType dtype, const void* src, void* dst) {
  SplitLayout layout;
  std::string why;
  if (!SplitLayoutOf(format, origin, kernels::TransDataC0(dtype), &layout, &why)) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "%s", why.c_str());
  }
  int64_t paddedNumel = 1;
  for (int64_t d : layout.padded) paddedNumel *= d;
  int64_t originNumel = 1;
  for (int64_t d : origin) originNumel *= d;
  if (originNumel == 0) {
    return toInternal ? kernels::LaunchFill(dtype, dst, static_cast<uint64_t>(paddedNumel),
                                            kernels::ScalarValue::Integral(0), ctx.stream())
                      : ACL_SUCCESS;
  }
  const bool padding = paddedNumel != originNumel;
  const size_t rank = layout.padded.size();
  // The origin region of the padded buffer: origin (as NCHW/NCDHW) with the padded buffer's strides.
  kernels::ViewCopyArgs region;
  region.ndim = static_cast<int32_t>(rank);
  {
    int64_t dense = 1, padded = 1;
    for (size_t k = rank; k-- > 0;) {
      const int64_t size = k < 2 ? (k == 0 ? (origin.size() == 1 ? 1 : origin[0])
                                           : (origin.size() == 1 ? origin[0] : origin[1]))
                                 : (k < origin.size() ? origin[k] : 1);
      region.shape[k] = size;
      region.src.strides[k] = dense;   // dense origin
      region.dst.strides[k] = padded;  // padded buffer
      dense *= size;
      padded *= layout.padded[k];
    }
  }
  // The permuted copy between the padded buffer and the storage, in storage order.
  kernels::ViewCopyArgs permuted;
  permuted.ndim = static_cast<int32_t>(layout.perm.size());
  {
    int64_t stride = 1;
    for (size_t i = layout.perm.size(); i-- > 0;) {
      permuted.shape[i] = layout.split[layout.perm[i]];
      permuted.src.strides[i] = layout.splitStrides[layout.perm[i]];  // in the padded buffer
      permuted.dst.strides[i] = stride;                                // in the storage
      stride *= permuted.shape[i];
    }
  }
  void* paddedData = nullptr;
  aclError rc = ACL_SUCCESS;
  if (padding) {
    rc = ctx.AllocTemp(static_cast<size_t>(paddedNumel) * DataTypeSize(dtype), &paddedData);
    if (rc != ACL_SUCCESS) return rc;
  }
  auto launch = [&](kernels::ViewCopyArgs args, const void* from, void* to, bool swap) {
    if (swap) std::swap(args.src.strides, args.dst.strides);
    args.src.data = const_cast<void*>(from);
    args.src.dtype = dtype;
    args.dst.data = to;
    args.dst.dtype = dtype;
    return kernels::LaunchViewCopy(args, ctx.stream());
  };
  if (toInternal) {
    if (padding) {
      rc = kernels::LaunchFill(dtype, paddedData, static_cast<uint64_t>(paddedNumel),
                               kernels::ScalarValue::Integral(0), ctx.stream());
      if (rc == ACL_SUCCESS) rc = launch(region, src, paddedData, false);
      if (rc != ACL_SUCCESS) return rc;
    }
    return launch(permuted, padding ? paddedData : src, dst, false);
  }
  rc = launch(permuted, src, padding ? paddedData : dst, true);
  if (rc != ACL_SUCCESS || !padding) return rc;
  return launch(region, paddedData, dst, true);
}

}  // namespace

aclError ConvertStorage(OpContext& ctx, aclFormat from, aclFormat to, const std::vector<int64_t>& origin,
                        aclDataType dtype, const void* src, void* dst) {
  const bool fromBase = IsBaseFormat(from);
  const aclFormat internal = fromBase ? to : from;
  if (IsSplitLayoutFormat(internal)) {
    return ConvertSplitLayout(ctx, internal, fromBase, origin, dtype, src, dst);
  }
  kernels::TransDataArgs args;
  args.dtype = dtype;
  args.src = src;
  args.dst = dst;
  if (internal == ACL_FORMAT_FRACTAL_NZ) {
    args.kind = fromBase ? kernels::TransDataKind::kNdToNz : kernels::TransDataKind::kNzToNd;
    args.cols = origin.back();
    args.rows = origin.size() == 1 ? 1 : origin[origin.size() - 2];
    args.batch = 1;
    for (size_t i = 0; i + 2 < origin.size(); ++i) args.batch *= origin[i];
  } else {
    args.kind = fromBase ? kernels::TransDataKind::kNchwToNc1hwc0 : kernels::TransDataKind::kNc1hwc0ToNchw;
    std::vector<int64_t> nchw = origin.size() == 1 ? std::vector<int64_t>{1, origin[0]} : origin;
    nchw.resize(4, 1);
    args.batch = nchw[0];
    args.rows = nchw[1];
    args.cols = nchw[2] * nchw[3];
  }
  return kernels::LaunchTransData(args, ctx.stream());
}

const std::vector<int64_t>& LogicalShape(const OpOperand& t) {
  return IsBaseFormat(t.format()) ? t.shape() : t.desc->originDims;
}

namespace {

// An internal-format operand in one of `internal` whose storage shape is its origin's; its bytes in *bytes.
aclError CheckInternalOperand(OpContext& ctx, const OpOperand& t, const char* name,
                              const std::vector<aclFormat>& internal, size_t* bytes) {
  bool accepted = false;
  for (aclFormat f : internal) accepted = accepted || f == t.format();
  if (!accepted) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED, "%s has storage format %s, which this op does not take", name,
                    LayoutFormatName(t.format()));
  }
  aclError rc = CheckStorageShape(ctx, t, name);
  if (rc != ACL_SUCCESS) return rc;
  int64_t numel = 1;
  for (int64_t d : t.desc->originDims) numel *= d;
  *bytes = static_cast<size_t>(numel) * DataTypeSize(t.dtype());
  return ACL_SUCCESS;
}

}  // namespace

aclError BaseFormatOutput(OpContext& ctx, const OpOperand& y, const char* name,
                          const std::vector<aclFormat>& internal, void** data) {
  if (IsBaseFormat(y.format())) {
    *data = y.data;
    return ACL_SUCCESS;
  }
  size_t bytes = 0;
  aclError rc = CheckInternalOperand(ctx, y, name, internal, &bytes);
  if (rc != ACL_SUCCESS) return rc;
  return ctx.AllocTemp(bytes, data);
}

aclError BaseFormatInput(OpContext& ctx, const OpOperand& t, const char* name,
                         const std::vector<aclFormat>& internal, void** data) {
  aclError rc = BaseFormatOutput(ctx, t, name, internal, data);  // the same buffer, then filled from t
  if (rc != ACL_SUCCESS || IsBaseFormat(t.format())) return rc;
  return ConvertStorage(ctx, t.format(), ACL_FORMAT_ND, t.desc->originDims, t.dtype(), t.data, *data);
}

aclError StoreOutput(OpContext& ctx, const OpOperand& y, const void* data) {
  if (IsBaseFormat(y.format())) return ACL_SUCCESS;
  return ConvertStorage(ctx, ACL_FORMAT_ND, y.format(), y.desc->originDims, y.dtype(), data, y.data);
}

namespace {

// y = x re-laid from x's storage format into y's (a plain copy when the two lay the bytes out alike).
aclError ConvertLayout(OpContext& ctx) {
  const OpOperand& x = ctx.inputs[0];
  const OpOperand& y = ctx.outputs[0];
  aclError rc = ACL_SUCCESS;
  if (x.desc->originDims != y.desc->originDims) {
    return ctx.Fail(ACL_ERROR_INVALID_PARAM, "input x has origin shape %s but output y has %s; they must match",
                    ShapeToString(x.desc->originDims).c_str(), ShapeToString(y.desc->originDims).c_str());
  }
  const aclFormat from = x.format();
  const aclFormat to = y.format();
  const bool fromBase = IsBaseFormat(from);
  const bool toBase = IsBaseFormat(to);
  const aclFormat internal = fromBase ? to : from;
  const bool supported =
      fromBase != toBase &&
      (internal == ACL_FORMAT_FRACTAL_NZ || internal == ACL_FORMAT_NC1HWC0 || IsSplitLayoutFormat(internal)) &&
      (fromBase ? from : to) != ACL_FORMAT_UNDEFINED;
  if (from == to || (fromBase && toBase)) {
    // Same bytes in both: a plain copy.
    rc = CheckStorageShape(ctx, x, "input x");
    if (rc == ACL_SUCCESS) rc = CheckStorageShape(ctx, y, "output y");
    if (rc != ACL_SUCCESS) return rc;
    return kernels::LaunchCast(x.dtype(), x.data, y.dtype(), y.data, static_cast<uint64_t>(x.Numel()), ctx.stream());
  }
  if (!supported) {
    return ctx.Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                    "conversion from %s to %s is not supported (supported: a base format <-> ACL_FORMAT_FRACTAL_NZ, "
                    "ACL_FORMAT_NC1HWC0, ACL_FORMAT_FRACTAL_Z, kFormatNdc1hwc0 or kFormatFractalZ3d)",
                    LayoutFormatName(from), LayoutFormatName(to));
  }
  rc = CheckStorageShape(ctx, x, "input x");
  if (rc == ACL_SUCCESS) rc = CheckStorageShape(ctx, y, "output y");
  if (rc != ACL_SUCCESS) return rc;
  return ConvertStorage(ctx, from, to, x.desc->originDims, x.dtype(), x.data, y.data);
}

}  // namespace

aclError RunTransData(OpContext& ctx, const TransDataAttrs& attrs) {
  aclError rc = CheckFormatAttr(ctx, "src_format", attrs.src_format, ctx.inputs[0].format());
  if (rc == ACL_SUCCESS) rc = CheckFormatAttr(ctx, "dst_format", attrs.dst_format, ctx.outputs[0].format());
  if (rc != ACL_SUCCESS) return rc;
  return ConvertLayout(ctx);
}

// Identity between two formats converts the layout, as the graph engine does by putting a
// TransData between them (torch_npu's npu_format_cast runs Identity so).
aclError RunIdentity(OpContext& ctx, const IdentityAttrs&) { return ConvertLayout(ctx); }

}  // namespace aclop
}  // namespace ascendc_sim
