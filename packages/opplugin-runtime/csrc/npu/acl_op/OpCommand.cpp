#include "npu/acl_op/OpCommand.h"

#include <ATen/ops/scalar_tensor.h>
#include <ATen/ops/tensor.h>
#include <c10/util/Exception.h>

#include "npu/core/NPUEmptyTensor.h"
#include "npu/core/NPUException.h"
#include "npu/core/NPUFunctions.h"
#include "npu/core/NPUStorageImpl.h"
#include "npu/core/NPUStream.h"
#include "npu/op_common/AclDataType.h"
#include "npu/op_common/AclObjects.h"
#include "npu/format/FormatHelper.h"
#include "npu/op_common/OpPreparation.h"

namespace at_npu::native {
namespace {

// A descriptor and buffer for a dense npu tensor.
struct AclOperand {
  AclTensorDescPtr desc;
  AclDataBufferPtr buffer;
};

// A descriptor for a host constant (no buffer: the executor copies the value).
AclOperand MakeConstOperand(const char* op_type, size_t index, const at::Tensor& host) {
  const aclDataType dtype = ToAclDataType(host.scalar_type());
  TORCH_CHECK(dtype != ACL_DT_UNDEFINED, "acl_op ", op_type, ": constant input ", index, " has dtype ",
              host.scalar_type(), ", which the npu device does not support");
  const c10::IntArrayRef sizes = host.sizes();
  AclOperand operand;
  operand.desc.reset(aclCreateTensorDesc(dtype, static_cast<int>(sizes.size()), sizes.data(), ACL_FORMAT_ND));
  TORCH_CHECK(operand.desc != nullptr, "acl_op ", op_type, ": aclCreateTensorDesc failed for constant input ", index,
              ": ", c10_npu::AclRecentErrorMessage());
  NPU_CHECK_ACL(aclSetTensorConst(operand.desc.get(), const_cast<void*>(host.const_data_ptr()),
                                  static_cast<size_t>(host.numel()) * host.element_size()));
  return operand;
}

AclOperand MakeOperand(const char* op_type, const char* role, size_t index, const at::Tensor& tensor) {
  const aclDataType dtype = ToAclDataType(tensor.scalar_type());
  TORCH_CHECK(dtype != ACL_DT_UNDEFINED, "acl_op ", op_type, ": ", role, " ", index, " has dtype ",
              tensor.scalar_type(), ", which the npu device does not support");
  const c10::IntArrayRef sizes = tensor.sizes();
  const aclFormat format = FormatHelper::GetFormat(tensor);
  const bool base = FormatHelper::IsBaseFormatType(format);
  AclOperand operand;
  operand.desc.reset(aclCreateTensorDesc(dtype, static_cast<int>(sizes.size()), sizes.data(),
                                         base ? format : ACL_FORMAT_ND));
  TORCH_CHECK(operand.desc != nullptr, "acl_op ", op_type, ": aclCreateTensorDesc failed for ", role, " ", index, ": ",
              c10_npu::AclRecentErrorMessage());
  if (!base) {
    // Internal format: the bytes are laid out in the storage format and shape.
    const c10_npu::NPUStorageDesc* desc = c10_npu::GetNPUStorageDesc(tensor.storage().unsafeGetStorageImpl());
    NPU_CHECK_ACL(aclSetTensorOriginFormat(operand.desc.get(), desc->origin_format_));
    NPU_CHECK_ACL(aclSetTensorOriginShape(operand.desc.get(), static_cast<int>(sizes.size()), sizes.data()));
    NPU_CHECK_ACL(aclSetTensorFormat(operand.desc.get(), format));
    NPU_CHECK_ACL(aclSetTensorShape(operand.desc.get(), static_cast<int>(desc->storage_sizes_.size()),
                                    desc->storage_sizes_.data()));
  }
  const size_t nbytes = base ? tensor.numel() * tensor.element_size()
                             : tensor.storage().nbytes() - tensor.storage_offset() * tensor.element_size();
  operand.buffer.reset(aclCreateDataBuffer(const_cast<void*>(tensor.const_data_ptr()), nbytes));
  TORCH_CHECK(operand.buffer != nullptr, "acl_op ", op_type, ": aclCreateDataBuffer failed for ", role, " ", index,
              ": ", c10_npu::AclRecentErrorMessage());
  return operand;
}

}  // namespace

OpCommand& OpCommand::Name(const char* op_type) {
  op_type_ = op_type;
  return *this;
}

void OpCommand::CheckDevice(const at::Tensor& tensor, const char* role) {
  TORCH_CHECK(tensor.defined(), "acl_op ", op_type_ ? op_type_ : "?", ": undefined ", role);
  TORCH_CHECK(tensor.device().is_privateuseone(), "acl_op ", op_type_ ? op_type_ : "?", ": ", role, " is on ",
              tensor.device(), "; expected an npu tensor");
  if (!device_.has_value()) {
    device_ = tensor.device();
  } else {
    TORCH_CHECK(*device_ == tensor.device(), "acl_op ", op_type_ ? op_type_ : "?",
                ": Expected all tensors to be on the same device, but found at least two devices, ", *device_, " and ",
                tensor.device(), "!");
  }
}

OpCommand& OpCommand::Input(const at::Tensor& input) {
  if (OpPreparation::IsCPUScalar(input)) {
    return Input(input.item(), input.scalar_type());
  }
  CheckDevice(input, "input");
  inputs_.push_back(InputSlot{input.is_contiguous() ? input : input.contiguous(), false});
  return *this;
}

OpCommand& OpCommand::Input(const c10::Scalar& value, at::ScalarType dtype) {
  inputs_.push_back(InputSlot{at::scalar_tensor(value, at::TensorOptions().dtype(dtype)), true});
  return *this;
}

OpCommand& OpCommand::Input(c10::IntArrayRef values, at::ScalarType dtype) {
  at::Tensor host = at::tensor(values, at::TensorOptions().dtype(at::kLong));
  inputs_.push_back(InputSlot{dtype == at::kLong ? host : host.to(dtype), true});
  return *this;
}

OpCommand& OpCommand::Output(at::Tensor& output) {
  CheckDevice(output, "output");
  if (output.is_non_overlapping_and_dense() && output.is_contiguous()) {
    outputs_.push_back(OutputSlot{output, output});
  } else {
    outputs_.push_back(OutputSlot{output, c10_npu::empty_npu(output.sizes(), output.options())});
  }
  return *this;
}

OpCommand& OpCommand::Sync(c10::IntArrayRef output_indices) {
  sync_outputs_.assign(output_indices.begin(), output_indices.end());
  return *this;
}

OpCommand& OpCommand::Attr(const char* name, bool value) {
  AttrValue attr(name, AttrKind::Bool);
  attr.b = value;
  attrs_.push_back(std::move(attr));
  return *this;
}

OpCommand& OpCommand::Attr(const char* name, float value) {
  AttrValue attr(name, AttrKind::Float);
  attr.f = value;
  attrs_.push_back(std::move(attr));
  return *this;
}

OpCommand& OpCommand::Attr(const char* name, int64_t value) {
  AttrValue attr(name, AttrKind::Int);
  attr.i = value;
  attrs_.push_back(std::move(attr));
  return *this;
}

OpCommand& OpCommand::Attr(const char* name, const c10::Scalar& value) {
  return Attr(name, static_cast<float>(value.toDouble()));
}

OpCommand& OpCommand::Attr(const char* name, c10::string_view value) {
  AttrValue attr(name, AttrKind::String);
  attr.s.assign(value.data(), value.size());
  attrs_.push_back(std::move(attr));
  return *this;
}

OpCommand& OpCommand::Attr(const char* name, c10::IntArrayRef value) {
  AttrValue attr(name, AttrKind::IntList);
  attr.ints = value.vec();
  attrs_.push_back(std::move(attr));
  return *this;
}

OpCommand& OpCommand::Attr(const char* name, c10::ArrayRef<float> value) {
  AttrValue attr(name, AttrKind::FloatList);
  attr.floats = value.vec();
  attrs_.push_back(std::move(attr));
  return *this;
}

OpCommand& OpCommand::Attr(const char* name, at::ScalarType value) {
  AttrValue attr(name, AttrKind::DataType);
  attr.dtype = at_npu::native::ToAclDataType(value);
  TORCH_CHECK(attr.dtype != ACL_DT_UNDEFINED, "acl_op ", op_type_ != nullptr ? op_type_ : "", ": attribute '", name,
              "': ", value, " has no acl data type");
  attrs_.push_back(std::move(attr));
  return *this;
}

void OpCommand::Run() {
  TORCH_CHECK(op_type_ != nullptr, "OpCommand::Run: no op type set (call Name first)");
  std::vector<AclOperand> inputs;
  inputs.reserve(inputs_.size());
  for (size_t i = 0; i < inputs_.size(); ++i) {
    inputs.push_back(inputs_[i].is_const ? MakeConstOperand(op_type_, i, inputs_[i].tensor)
                                         : MakeOperand(op_type_, "input", i, inputs_[i].tensor));
  }
  std::vector<AclOperand> outputs;
  outputs.reserve(outputs_.size());
  for (size_t i = 0; i < outputs_.size(); ++i) {
    outputs.push_back(MakeOperand(op_type_, "output", i, outputs_[i].compute));
  }
  AclOpAttrPtr attr(aclopCreateAttr());
  TORCH_CHECK(attr != nullptr, "acl_op ", op_type_, ": aclopCreateAttr failed: ", c10_npu::AclRecentErrorMessage());
  for (const AttrValue& value : attrs_) {
    aclError err = ACL_SUCCESS;
    switch (value.kind) {
      case AttrKind::Bool:
        err = aclopSetAttrBool(attr.get(), value.name, value.b ? 1 : 0);
        break;
      case AttrKind::Int:
        err = aclopSetAttrInt(attr.get(), value.name, value.i);
        break;
      case AttrKind::Float:
        err = aclopSetAttrFloat(attr.get(), value.name, value.f);
        break;
      case AttrKind::String:
        err = aclopSetAttrString(attr.get(), value.name, value.s.c_str());
        break;
      case AttrKind::IntList:
        err = aclopSetAttrListInt(attr.get(), value.name, static_cast<int>(value.ints.size()), value.ints.data());
        break;
      case AttrKind::FloatList:
        err = aclopSetAttrListFloat(attr.get(), value.name, static_cast<int>(value.floats.size()), value.floats.data());
        break;
      case AttrKind::DataType:
        err = aclopSetAttrDataType(attr.get(), value.name, value.dtype);
        break;
    }
    TORCH_CHECK(err == ACL_SUCCESS, "acl_op ", op_type_, ": setting attribute '", value.name,
                "' failed with error code ", err, ": ", c10_npu::AclRecentErrorMessage());
  }

  // Non-const arrays: aclopCompileAndExecuteV2 writes the sizes an op reports into output_descs.
  std::vector<aclTensorDesc*> input_descs;
  std::vector<aclDataBuffer*> input_buffers;
  for (AclOperand& operand : inputs) {
    input_descs.push_back(operand.desc.get());
    input_buffers.push_back(operand.buffer.get());  // null for constants
  }
  std::vector<aclTensorDesc*> output_descs;
  std::vector<aclDataBuffer*> output_buffers;
  for (AclOperand& operand : outputs) {
    output_descs.push_back(operand.desc.get());
    output_buffers.push_back(operand.buffer.get());
  }
  for (int64_t index : sync_outputs_) {
    TORCH_CHECK(index >= 0 && static_cast<size_t>(index) < outputs_.size(), "acl_op ", op_type_, ": Sync names output ",
                index, " of ", outputs_.size());
    const OutputSlot& slot = outputs_[static_cast<size_t>(index)];
    TORCH_CHECK(slot.compute.is_same(slot.target) &&
                    FormatHelper::IsBaseFormatType(FormatHelper::GetFormat(slot.target)),
                "acl_op ", op_type_, ": output ", index, ", sized by the op, must be a dense tensor of a base format");
  }

  const c10::DeviceIndex device = device_.has_value() ? device_->index() : c10_npu::current_device();
  const aclrtStream stream = c10_npu::getCurrentNPUStream(device).stream();
  const int num_inputs = static_cast<int>(input_descs.size());
  const int num_outputs = static_cast<int>(output_descs.size());
  const aclError err =
      sync_outputs_.empty()
          ? aclopCompileAndExecute(op_type_, num_inputs, input_descs.data(), input_buffers.data(), num_outputs,
                                   output_descs.data(), output_buffers.data(), attr.get(), ACL_ENGINE_SYS,
                                   ACL_COMPILE_SYS, nullptr, stream)
          : aclopCompileAndExecuteV2(op_type_, num_inputs, input_descs.data(), input_buffers.data(), num_outputs,
                                     output_descs.data(), output_buffers.data(), attr.get(), ACL_ENGINE_SYS,
                                     ACL_COMPILE_SYS, nullptr, stream);
  TORCH_CHECK(err == ACL_SUCCESS, "acl_op ", op_type_, " failed with error code ", err, ": ",
              c10_npu::AclRecentErrorMessage());
  for (int64_t index : sync_outputs_) {
    const aclTensorDesc* desc = output_descs[static_cast<size_t>(index)];
    std::vector<int64_t> produced(aclGetTensorDescNumDims(desc));
    for (size_t d = 0; d < produced.size(); ++d) {
      NPU_CHECK_ACL(aclGetTensorDescDimV2(desc, d, &produced[d]));
    }
    outputs_[static_cast<size_t>(index)].target.resize_(produced);
  }

  for (OutputSlot& slot : outputs_) {
    if (!slot.compute.is_same(slot.target)) {
      slot.target.copy_(slot.compute);
    }
  }
}

}  // namespace at_npu::native
