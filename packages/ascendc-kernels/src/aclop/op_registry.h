// The acl_op type registry: each op type ("Add", "Cast", ...) is an OpDef with
// its input/output counts, its format policy and a function that validates the
// op-specific rules and launches its kernels on the stream. The OpDefs are
// generated from the declarations abi/aclop/*.decl (aclop/declared_ops.h, which
// also checks the declared dtypes and reads the declared attributes).
#ifndef ASCENDC_SIM_ACLOP_OP_REGISTRY_H
#define ASCENDC_SIM_ACLOP_OP_REGISTRY_H

#include <stdint.h>

#include <string>
#include <vector>

#include "aclop/aclop_types.h"

namespace ascendc_sim {
namespace aclop {

// One input or output of an op call: dense device memory in the descriptor's
// storage format and shape.
struct OpOperand {
  const aclTensorDesc* desc = nullptr;
  void* data = nullptr;  // device memory (a constant input: a device copy of its value)

  aclDataType dtype() const { return desc->dtype; }
  aclFormat format() const { return desc->format; }
  const std::vector<int64_t>& shape() const { return desc->dims; }
  int64_t Numel() const { return desc->Numel(); }
};

class OpContext {
 public:
  OpContext(std::string type, const aclopAttr* attr, aclrtStream stream, int32_t device)
      : type_(std::move(type)), attr_(attr), stream_(stream), device_(device) {}
  ~OpContext();  // frees the temporaries in stream order
  OpContext(const OpContext&) = delete;
  OpContext& operator=(const OpContext&) = delete;

  const std::string& type() const { return type_; }
  aclrtStream stream() const { return stream_; }
  std::vector<OpOperand> inputs;
  std::vector<OpOperand> outputs;

  // Sets "aclopCompileAndExecute: op '<type>': <message>" and returns `code`.
  aclError Fail(aclError code, const char* fmt, ...) __attribute__((format(printf, 3, 4)));

  // Attributes. A float attribute also accepts an int value.
  bool HasAttr(const char* name) const;
  aclError GetFloatAttr(const char* name, float* out) const;
  aclError GetIntAttr(const char* name, int64_t* out) const;
  aclError GetStringAttr(const char* name, std::string* out) const;
  aclError GetBoolAttr(const char* name, bool* out) const;
  aclError GetIntListAttr(const char* name, std::vector<int64_t>* out) const;
  aclError GetFloatListAttr(const char* name, std::vector<float>* out) const;
  aclError GetDataTypeAttr(const char* name, aclDataType* out) const;

  // Device memory on the op's device, released after the op's kernels ran.
  aclError AllocTemp(size_t bytes, void** out);

  // Input `index` as a dense buffer of `shape` (numpy broadcasting): the input
  // itself when its shape is `shape`, else a broadcast copy in a temporary.
  aclError BroadcastInput(size_t index, const std::vector<int64_t>& shape, void** out);

  // The checks shared by the ops.
  aclError RequireSameDtype(const OpOperand& a, const char* aName, const OpOperand& b, const char* bName);
  // Every input from `first` on has inputs[first]'s dtype (the tensors of the dynamic input `name`:
  // "<name><i>" in messages).
  aclError RequireInputsShareDtype(const char* name, size_t first);
  aclError RequireDtypeIn(const OpOperand& t, const char* name, std::initializer_list<aclDataType> allowed);
  aclError RequireSameShape(const OpOperand& a, const char* aName, const OpOperand& b, const char* bName);

  // An op with a data-dependent output shape: output `index` is [*count, trailing...]
  // once the kernels queued before this call have run (`count` is device memory the op's
  // kernels write; it must live until then, e.g. a temporary of this context).
  void ReportOutputShape(size_t index, const int64_t* count, std::vector<int64_t> trailing);
  struct ReportedShape {
    size_t index;
    const int64_t* count;
    std::vector<int64_t> trailing;
  };
  const std::vector<ReportedShape>& reported_shapes() const { return reported_; }

 private:
  std::string type_;
  const aclopAttr* attr_;
  aclrtStream stream_;
  int32_t device_;
  std::vector<void*> temps_;
  std::vector<ReportedShape> reported_;
};

// Which storage formats an op type accepts.
enum class FormatPolicy {
  kBaseOnly,            // base formats only: internal ones are rejected by the executor
  kElementwiseAnyFormat,  // elementwise over storage: any format, all operands share format and storage shape
  kOwnCheck,            // the op checks formats itself (TransData)
};

struct OpDef {
  const char* type;
  int numInputs;
  int numOutputs;
  FormatPolicy formats;
  aclError (*run)(OpContext& ctx);
  int minInputs = -1;  // fewer inputs accepted (the trailing ones optional); -1: exactly numInputs
  bool dynamicInputs = false;  // one or more inputs (a dynamic input x0, x1, ...): numInputs is not a bound
  bool dataDependentShape = false;  // outputs shrink to the data's result: aclopCompileAndExecuteV2 only
};

// The declared op type `type`, or null.
const OpDef* FindOp(const std::string& type);
// Every declared op type, sorted.
std::vector<std::string> RegisteredOpTypes();

// Numpy-style broadcast of two shapes; false when they are incompatible.
bool BroadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b, std::vector<int64_t>* out);

}  // namespace aclop
}  // namespace ascendc_sim

#endif  // ASCENDC_SIM_ACLOP_OP_REGISTRY_H
