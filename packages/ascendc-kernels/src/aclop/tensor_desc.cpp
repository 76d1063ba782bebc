// aclTensorDesc and aclDataBuffer.
#include "aclop/aclop_types.h"
#include "aclop/format_shape.h"
#include "common/dtype.h"
#include "common/error.h"

namespace {

// The formats a descriptor may carry: the known ones and the 3-D convolution layouts TransData converts.
bool IsDescFormat(aclFormat format) {
  return ascendc_sim::IsKnownFormat(format) || format == ascendc_sim::aclop::kFormatNdc1hwc0 ||
         format == ascendc_sim::aclop::kFormatFractalZ3d;
}

}  // namespace

using ascendc_sim::RaiseError;

namespace {

aclError CheckDims(const char* api, int numDims, const int64_t* dims) {
  if (numDims < 0) return RaiseError(ACL_ERROR_INVALID_PARAM, "%s: numDims %d is negative", api, numDims);
  if (numDims > 0 && dims == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "%s: dims is null", api);
  for (int i = 0; i < numDims; ++i) {
    if (dims[i] < 0) {
      return RaiseError(ACL_ERROR_INVALID_PARAM, "%s: dimension %d is %lld (negative)", api, i,
                        static_cast<long long>(dims[i]));
    }
  }
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclTensorDesc* aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t* dims, aclFormat format) {
  if (CheckDims("aclCreateTensorDesc", numDims, dims) != ACL_SUCCESS) return nullptr;
  if (ascendc_sim::DataTypeSize(dataType) == 0) {
    RaiseError(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "aclCreateTensorDesc: unknown data type %d", static_cast<int>(dataType));
    return nullptr;
  }
  if (!IsDescFormat(format)) {
    RaiseError(ACL_ERROR_INVALID_PARAM, "aclCreateTensorDesc: unknown format %d", static_cast<int>(format));
    return nullptr;
  }
  auto* desc = new aclTensorDesc();
  desc->dtype = dataType;
  desc->format = format;
  desc->originFormat = format;
  desc->dims.assign(dims, dims + numDims);
  desc->originDims = desc->dims;
  return desc;
}

void aclDestroyTensorDesc(const aclTensorDesc* desc) { delete desc; }

aclError aclSetTensorFormat(aclTensorDesc* desc, aclFormat format) {
  if (desc == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclSetTensorFormat: desc is null");
  if (!IsDescFormat(format)) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclSetTensorFormat: unknown format %d", static_cast<int>(format));
  }
  desc->format = format;
  return ACL_SUCCESS;
}

aclError aclSetTensorShape(aclTensorDesc* desc, int numDims, const int64_t* dims) {
  if (desc == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclSetTensorShape: desc is null");
  const aclError rc = CheckDims("aclSetTensorShape", numDims, dims);
  if (rc != ACL_SUCCESS) return rc;
  desc->dims.assign(dims, dims + numDims);
  return ACL_SUCCESS;
}

aclError aclSetTensorOriginFormat(aclTensorDesc* desc, aclFormat format) {
  if (desc == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclSetTensorOriginFormat: desc is null");
  if (!IsDescFormat(format)) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclSetTensorOriginFormat: unknown format %d", static_cast<int>(format));
  }
  desc->originFormat = format;
  return ACL_SUCCESS;
}

aclError aclSetTensorOriginShape(aclTensorDesc* desc, int numDims, const int64_t* dims) {
  if (desc == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclSetTensorOriginShape: desc is null");
  const aclError rc = CheckDims("aclSetTensorOriginShape", numDims, dims);
  if (rc != ACL_SUCCESS) return rc;
  desc->originDims.assign(dims, dims + numDims);
  return ACL_SUCCESS;
}

aclError aclSetTensorConst(aclTensorDesc* desc, void* dataBuffer, size_t length) {
  if (desc == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclSetTensorConst: desc is null");
  if (dataBuffer == nullptr && length > 0) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclSetTensorConst: dataBuffer is null");
  }
  const auto* bytes = static_cast<const uint8_t*>(dataBuffer);
  desc->isConst = true;
  desc->constData.assign(bytes, bytes + length);
  return ACL_SUCCESS;
}

aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) {
  auto* buffer = new aclDataBuffer();
  buffer->data = data;
  buffer->size = size;
  return buffer;
}

aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) {
  delete dataBuffer;
  return ACL_SUCCESS;
}

aclDataType aclGetTensorDescType(const aclTensorDesc* desc) { return desc == nullptr ? ACL_DT_UNDEFINED : desc->dtype; }

aclFormat aclGetTensorDescFormat(const aclTensorDesc* desc) {
  return desc == nullptr ? ACL_FORMAT_UNDEFINED : desc->format;
}

size_t aclGetTensorDescNumDims(const aclTensorDesc* desc) { return desc == nullptr ? 0 : desc->dims.size(); }

aclError aclGetTensorDescDimV2(const aclTensorDesc* desc, size_t index, int64_t* dimSize) {
  if (desc == nullptr || dimSize == nullptr) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclGetTensorDescDimV2: %s is null", desc == nullptr ? "desc" : "dimSize");
  }
  if (index >= desc->dims.size()) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclGetTensorDescDimV2: index %zu is out of range for %zu dimensions",
                      index, desc->dims.size());
  }
  *dimSize = desc->dims[index];
  return ACL_SUCCESS;
}

void aclSetTensorDescName(aclTensorDesc* desc, const char* name) {
  if (desc != nullptr) desc->name = name != nullptr ? name : "";
}

aclError aclSetTensorPlaceMent(aclTensorDesc* desc, aclMemType memType) {
  if (desc == nullptr) return RaiseError(ACL_ERROR_INVALID_PARAM, "aclSetTensorPlaceMent: desc is null");
  if (memType != ACL_MEMTYPE_DEVICE && memType != ACL_MEMTYPE_HOST && memType != ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT) {
    return RaiseError(ACL_ERROR_INVALID_PARAM, "aclSetTensorPlaceMent: unknown memory type %d", static_cast<int>(memType));
  }
  desc->placement = memType;
  return ACL_SUCCESS;
}

}  // extern "C"
