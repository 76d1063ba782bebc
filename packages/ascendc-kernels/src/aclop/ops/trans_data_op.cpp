// The acl op "TransData": converts dense data between a base format and an
// internal one (ND/NCHW <-> FRACTAL_NZ, NCHW/ND <-> NC1HWC0). Input and output
// carry the same origin (logical) shape; each descriptor's storage shape must be
// the one its format infers. Optional string attributes src_format/dst_format
// ("ND", "NCHW", "NC1HWC0", "FRACTAL_NZ"), when given, must name the
// descriptors' formats. "Identity" converts likewise between two formats and copies within one.
// Declared in abi/aclop/trans_data.decl.
#include "aclop/declared_ops.h"
#include "aclop/format_shape.h"
#include "common/dtype.h"
#include "common/error.h"
#include "kernels/kernel_api.h"

namespace ascendc_sim {
namespace aclop {

bool InferStorageShape(aclFormat format, const std::vector<int64_t>& origin, aclDataType dtype,
                       std::vector<int64_t>* out, std::string* why) {
  if (IsBaseFormat(format)) {
    *out = origin;
    return true;
  }
  const int64_t c0 = kernels::TransDataC0(dtype);
  if (c0 == 0) {
    *why = StrFormat("data type %s has no %s layout (1-, 2- and 4-byte types only)", DataTypeName(dtype),
                     FormatName(format));
    return false;
  }
  auto ceil = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
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
  *why = StrFormat("format %s is not supported", FormatName(format));
  return false;
}

namespace {

// The formats a string attribute may name.
const char* ShortFormatName(aclFormat f) {
  switch (f) {
    case ACL_FORMAT_ND: return "ND";
    case ACL_FORMAT_NCHW: return "NCHW";
    case ACL_FORMAT_NC1HWC0: return "NC1HWC0";
    case ACL_FORMAT_FRACTAL_NZ: return "FRACTAL_NZ";
    default: return FormatName(f);
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
                    FormatName(t.format()), ShapeToString(expected).c_str());
  }
  return ACL_SUCCESS;
}

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
      fromBase != toBase && (internal == ACL_FORMAT_FRACTAL_NZ || internal == ACL_FORMAT_NC1HWC0) &&
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
                    "conversion from %s to %s is not supported (supported: a base format <-> ACL_FORMAT_FRACTAL_NZ "
                    "or ACL_FORMAT_NC1HWC0)",
                    FormatName(from), FormatName(to));
  }
  rc = CheckStorageShape(ctx, x, "input x");
  if (rc == ACL_SUCCESS) rc = CheckStorageShape(ctx, y, "output y");
  if (rc != ACL_SUCCESS) return rc;
  const std::vector<int64_t>& origin = x.desc->originDims;
  kernels::TransDataArgs args;
  args.dtype = x.dtype();
  args.src = x.data;
  args.dst = y.data;
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
