// Builder for the acl_op path: an op run by type name on the ACL op executor
// (aclopCompileAndExecute), on the current stream.
//
//   OpCommand cmd;
//   cmd.Name("Axpy").Input(self).Input(other).Output(result).Attr("alpha", 2.0f).Run();
//
// Inputs are made contiguous on the device first (the executor reads dense
// buffers); scalar and list inputs are host constants (aclSetTensorConst: the
// executor copies the value at enqueue time); a non-contiguous output is
// computed into a dense temporary and copied back after the launch.
//
// An op whose output sizes depend on the data (NonZero, MaskedSelect, ...) is given its
// outputs at their largest size and named with Sync: Run then waits for it
// (aclopCompileAndExecuteV2) and resizes those outputs to the sizes it produced.
//
//   c10::SmallVector<int64_t, 1> sized_by_op = {0};
//   cmd.Sync(sized_by_op).Name("NonZero").Input(self).Output(result).Run();
#pragma once

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/core/Scalar.h>
#include <c10/util/ArrayRef.h>
#include <c10/util/SmallVector.h>
#include <c10/util/string_view.h>

#include "acl/acl_op.h"

namespace at_npu::native {

class OpCommand {
 public:
  OpCommand() = default;
  OpCommand(const OpCommand&) = delete;
  OpCommand& operator=(const OpCommand&) = delete;

  // The op type, e.g. "Add" (a string literal: it is not copied).
  OpCommand& Name(const char* op_type);

  OpCommand& Input(const at::Tensor& input);
  // A 0-dim constant input holding `value` as `dtype`.
  OpCommand& Input(const c10::Scalar& value, at::ScalarType dtype);
  // A 1-D constant input holding `values` as `dtype` (shape/axes operands).
  OpCommand& Input(c10::IntArrayRef values, at::ScalarType dtype = at::kLong);

  OpCommand& Output(at::Tensor& output);

  // The outputs (by index) whose sizes the op reports: each must be a dense tensor of its
  // largest size; Run resizes it (resize_, keeping its storage) to what the op produced.
  OpCommand& Sync(c10::IntArrayRef output_indices);

  OpCommand& Attr(const char* name, bool value);
  OpCommand& Attr(const char* name, float value);
  OpCommand& Attr(const char* name, double value) { return Attr(name, static_cast<float>(value)); }
  OpCommand& Attr(const char* name, int64_t value);
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                                             !std::is_same_v<T, int64_t>, int> = 0>
  OpCommand& Attr(const char* name, T value) {
    return Attr(name, static_cast<int64_t>(value));
  }
  OpCommand& Attr(const char* name, const c10::Scalar& value);  // float attribute
  OpCommand& Attr(const char* name, c10::string_view value);
  OpCommand& Attr(const char* name, const char* value) { return Attr(name, c10::string_view(value)); }
  OpCommand& Attr(const char* name, c10::IntArrayRef value);
  OpCommand& Attr(const char* name, c10::ArrayRef<float> value);  // a list of floats
  OpCommand& Attr(const char* name, at::ScalarType value);  // a data type attribute (aclopSetAttrDataType)

  // Enqueues the op on the current stream; raises naming the op type on failure.
  void Run();

 private:
  enum class AttrKind { Bool, Int, Float, String, IntList, FloatList, DataType };
  struct AttrValue {
    AttrValue(const char* attr_name, AttrKind attr_kind) : name(attr_name), kind(attr_kind) {}
    const char* name;
    AttrKind kind;
    bool b = false;
    int64_t i = 0;
    float f = 0.0f;
    std::string s;
    std::vector<int64_t> ints;
    std::vector<float> floats;
    aclDataType dtype = ACL_DT_UNDEFINED;
  };
  struct InputSlot {
    at::Tensor tensor;  // a dense npu tensor, or the host value of a constant
    bool is_const;
  };
  struct OutputSlot {
    at::Tensor target;   // the caller's tensor
    at::Tensor compute;  // what the op writes (target itself when it is dense)
  };

  void CheckDevice(const at::Tensor& tensor, const char* role);

  const char* op_type_ = nullptr;
  c10::SmallVector<InputSlot, 4> inputs_;
  c10::SmallVector<OutputSlot, 2> outputs_;
  c10::SmallVector<AttrValue, 4> attrs_;
  c10::SmallVector<int64_t, 2> sync_outputs_;
  c10::optional<c10::Device> device_;
};

}  // namespace at_npu::native
