#include "npu/op_api/op_api_common.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unordered_set>

#include <ATen/core/Formatting.h>
#include <c10/util/Exception.h>

#include "npu/core/NPUCachingAllocator.h"
#include "npu/core/NPUException.h"
#include "npu/core/NPUFunctions.h"
#include "npu/core/NPUStream.h"
#include "npu/core/NpuVariables.h"
#include "npu/format/FormatHelper.h"
#include "npu/op_common/OpPreparation.h"
#include "npu/dispatch/PathLedger.h"
#include "npu/core/NPUStorageImpl.h"

namespace {

std::vector<std::string> SplitList(const char* value, char separator) {
  std::vector<std::string> items;
  if (value == nullptr) {
    return items;
  }
  std::stringstream stream(value);
  std::string item;
  while (std::getline(stream, item, separator)) {
    const auto begin = item.find_first_not_of(" \t");
    const auto end = item.find_last_not_of(" \t");
    if (begin != std::string::npos) {
      items.push_back(item.substr(begin, end - begin + 1));
    }
  }
  return items;
}

bool IsFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The directory holding libascendcl.so (the simulator's libraries live together).
std::string AscendclLibraryDir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&aclrtMalloc), &info) == 0 || info.dli_fname == nullptr) {
    return std::string();
  }
  const std::string path(info.dli_fname);
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

struct OpApiLibraries {
  std::vector<void*> handles;  // search order: custom libraries, then libopapi.so
  std::string description;     // for error messages
  std::unordered_set<std::string> hidden;
};

const OpApiLibraries& Libraries() {
  static const OpApiLibraries libraries = [] {
    OpApiLibraries libs;
    c10_npu::EnsureAclInitialized();
    // ASCEND_CUSTOM_OPP_PATH: entries separated by ':'; each is a library file
    // or a custom-op package directory holding op_api/lib/libcust_opapi.so.
    for (const std::string& entry : SplitList(std::getenv("ASCEND_CUSTOM_OPP_PATH"), ':')) {
      const std::string path = IsFile(entry) ? entry : entry + "/op_api/lib/libcust_opapi.so";
      if (!IsFile(path)) {
        TORCH_WARN("ASCEND_CUSTOM_OPP_PATH entry '", entry, "' has no op_api library (looked for ", path, ")");
        continue;
      }
      void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (handle == nullptr) {
        TORCH_WARN("could not load custom op_api library ", path, ": ", dlerror());
        continue;
      }
      libs.handles.push_back(handle);
      libs.description += path + ", ";
    }
    const std::string dir = AscendclLibraryDir();
    const std::string opapi = (dir.empty() ? std::string() : dir + "/") + "libopapi.so";
    void* handle = dlopen(opapi.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      TORCH_WARN("could not load the op_api library ", opapi, ": ", dlerror(),
                 "; every aclnn api is treated as missing");
    } else {
      libs.handles.push_back(handle);
    }
    libs.description += opapi;
    for (const std::string& name : SplitList(std::getenv("NPU_HIDE_ACLNN_SYMBOLS"), ',')) {
      libs.hidden.insert(name);
    }
    return libs;
  }();
  return libraries;
}

}  // namespace

void* GetOpApiFuncAddr(const char* api_name) {
  const OpApiLibraries& libs = Libraries();
  if (libs.hidden.count(api_name) != 0) {
    return nullptr;
  }
  for (void* handle : libs.handles) {
    if (void* symbol = dlsym(handle, api_name)) {
      return symbol;
    }
  }
  return nullptr;
}

namespace at_npu::native::opapi_detail {

OpApiSymbols ResolveOpApi(const char* api) {
  const std::string workspace_name = std::string(api) + "GetWorkspaceSize";
  return OpApiSymbols{GetOpApiFuncAddr(workspace_name.c_str()), GetOpApiFuncAddr(api)};
}

void OnOpApiMissing(const char* api) {
  TORCH_CHECK(!NpuDecide(nullptr, "aclnn_only_device", api, c10_npu::IsAclnnOnly()), api, " is not available in ", Libraries().description,
              " and this device is aclnn-only (NPU_ACLNN_ONLY=1), so there is no acl_op fallback");
  PathLedger::HitCurrent(ExecPath::Compat);
}

bool WarnOpApiMissing(const char* api) {
  TORCH_WARN(api, " (or ", api, "GetWorkspaceSize) is not available in ", Libraries().description,
             "; falling back to the acl_op implementation");
  return true;
}

void ThrowOpApiMissing(const char* api) {
  TORCH_CHECK(false, api, " (or ", api, "GetWorkspaceSize) is not available in ", Libraries().description,
              " (an older toolkit, or hidden by NPU_HIDE_ACLNN_SYMBOLS)");
}

void ThrowStatus(const char* api, const char* phase, aclnnStatus status) {
  TORCH_CHECK(false, api, phase, " failed with status ", status, ": ", c10_npu::AclRecentErrorMessage());
}

void LaunchOpApi(const char* api, void* run, uint64_t workspace_size, aclOpExecutor* executor) {
  AclExecutorPtr owned(executor);
  const c10::DeviceIndex device = c10_npu::current_device();
  const c10_npu::NPUStream stream = c10_npu::getCurrentNPUStream(device);
  // Freed when this function returns: the block goes back to this stream's
  // cache, and the stream's queue orders any later user after this launch.
  c10::DataPtr workspace;
  if (workspace_size > 0) {
    workspace = c10_npu::NPUCachingAllocator::allocate_on(workspace_size, device, stream);
  }
  using RunFn = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);
  const aclnnStatus status = reinterpret_cast<RunFn>(run)(workspace.get(), workspace_size, owned.release(),
                                                          stream.stream());
  if (C10_UNLIKELY(status != ACLNN_SUCCESS)) {
    ThrowStatus(api, "", status);
  }
}

void SynchronizeAfter(const char* api) {
  const aclError status = aclrtSynchronizeStream(c10_npu::getCurrentNPUStream().stream());
  TORCH_CHECK(status == ACL_SUCCESS, api, " failed on the device with error ", status, ": ",
              c10_npu::AclRecentErrorMessage());
}

aclTensor* CreateAclTensor(const char* api, size_t index, const at::Tensor& tensor) {
  if (!tensor.defined()) {
    return nullptr;
  }
  TORCH_CHECK(tensor.device().is_privateuseone(), api, ": argument ", index, " is a tensor on ", tensor.device(),
              "; expected an npu tensor");
  const aclDataType dtype = ToAclDataType(tensor.scalar_type());
  TORCH_CHECK(dtype != ACL_DT_UNDEFINED, api, ": argument ", index, " has dtype ", tensor.scalar_type(),
              ", which the npu device does not support");
  const c10::StorageImpl* storage = tensor.storage().unsafeGetStorageImpl();
  const c10_npu::NPUStorageDesc* desc = c10_npu::GetNPUStorageDesc(storage);
  const aclFormat format = desc != nullptr ? desc->npu_format_ : ACL_FORMAT_ND;
  int64_t storage_elements = static_cast<int64_t>(storage->nbytes() / tensor.element_size());
  const int64_t* storage_dims = &storage_elements;
  uint64_t storage_dims_num = 1;
  if (desc != nullptr && !desc->storage_sizes_.empty() && !FormatHelper::IsBaseFormatType(format)) {
    storage_dims = desc->storage_sizes_.data();
    storage_dims_num = desc->storage_sizes_.size();
  }
  const c10::IntArrayRef sizes = tensor.sizes();
  const c10::IntArrayRef strides = tensor.strides();
  aclTensor* handle = aclCreateTensor(sizes.data(), sizes.size(), dtype, strides.data(), tensor.storage_offset(),
                                      format, storage_dims, storage_dims_num, const_cast<void*>(storage->data()));
  TORCH_CHECK(handle != nullptr, api, ": aclCreateTensor failed for argument ", index, ": ",
              c10_npu::AclRecentErrorMessage());
  return handle;
}

ConvertedTensor ConvertTensor(const char* api, size_t index, const at::Tensor& tensor) {
  if (tensor.defined() && tensor.device().is_cpu()) {
    TORCH_CHECK(tensor.dim() == 0, api, ": argument ", index, " is a CPU tensor with ", tensor.dim(),
                " dimensions; only 0-dim CPU tensors (scalars) may be mixed with npu tensors");
    at::Tensor device_copy = OpPreparation::copy_scalar_to_device(tensor.item(), tensor.scalar_type());
    ConvertedTensor converted{AclTensorPtr(CreateAclTensor(api, index, device_copy)), device_copy};
    return converted;
  }
  return ConvertedTensor{AclTensorPtr(CreateAclTensor(api, index, tensor)), at::Tensor()};
}

aclScalar* CreateAclScalar(const c10::Scalar& scalar) {
  aclScalar* handle = nullptr;
  if (scalar.isBoolean()) {
    bool value = scalar.toBool();
    handle = aclCreateScalar(&value, ACL_BOOL);
  } else if (scalar.isIntegral(/*includeBool=*/false)) {
    int64_t value = scalar.toLong();
    handle = aclCreateScalar(&value, ACL_INT64);
  } else if (scalar.isComplex()) {
    c10::complex<double> value = scalar.toComplexDouble();
    handle = aclCreateScalar(&value, ACL_COMPLEX128);
  } else {
    double value = scalar.toDouble();
    handle = aclCreateScalar(&value, ACL_DOUBLE);
  }
  TORCH_CHECK(handle != nullptr, "aclCreateScalar failed for ", scalar, ": ", c10_npu::AclRecentErrorMessage());
  return handle;
}

ConvertedTensorList ConvertTensorList(const char* api, size_t index, at::ArrayRef<at::Tensor> tensors) {
  ConvertedTensorList converted;
  std::vector<AclTensorPtr> owned;
  owned.reserve(tensors.size());
  for (const at::Tensor& tensor : tensors) {
    ConvertedTensor element = ConvertTensor(api, index, tensor);
    if (element.keep_alive.defined()) {
      converted.keep_alive.push_back(element.keep_alive);
    }
    owned.push_back(std::move(element.handle));
  }
  std::vector<const aclTensor*> raw;
  raw.reserve(owned.size());
  for (const AclTensorPtr& element : owned) {
    raw.push_back(element.get());
  }
  converted.handle.reset(aclCreateTensorList(raw.data(), raw.size()));
  TORCH_CHECK(converted.handle != nullptr, api, ": aclCreateTensorList failed for argument ", index, ": ",
              c10_npu::AclRecentErrorMessage());
  for (AclTensorPtr& element : owned) {
    (void)element.release();  // the list owns its tensors now
  }
  return converted;
}

ConvertedScalarList ConvertScalarList(at::ArrayRef<c10::Scalar> scalars) {
  std::vector<AclScalarPtr> owned;
  owned.reserve(scalars.size());
  for (const c10::Scalar& scalar : scalars) {
    owned.emplace_back(CreateAclScalar(scalar));
  }
  std::vector<const aclScalar*> raw;
  raw.reserve(owned.size());
  for (const AclScalarPtr& element : owned) {
    raw.push_back(element.get());
  }
  ConvertedScalarList converted{AclScalarListPtr(aclCreateScalarList(raw.data(), raw.size()))};
  TORCH_CHECK(converted.handle != nullptr, "aclCreateScalarList failed: ", c10_npu::AclRecentErrorMessage());
  for (AclScalarPtr& element : owned) {
    (void)element.release();  // the list owns its scalars now
  }
  return converted;
}

}  // namespace at_npu::native::opapi_detail
