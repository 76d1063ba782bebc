// Simulated CANN "ACL op" interface: tensor descriptors, data buffers,
// attributes and an executor that runs an op by type name ("Add", "Axpy",
// "MatMulV2", "TransData", ...). This is the path that understands internal
// (private) formats: a descriptor carries a storage format and storage shape
// besides the logical (origin) shape and format. Inputs are dense in their
// storage format (no strides); the caller makes views contiguous first.
#ifndef ASCENDC_SIM_ACL_OP_H
#define ASCENDC_SIM_ACL_OP_H

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclTensorDesc aclTensorDesc;
typedef struct aclDataBuffer aclDataBuffer;
typedef struct aclopAttr aclopAttr;

typedef enum aclEngineType { ACL_ENGINE_SYS = 0, ACL_ENGINE_AICORE = 1, ACL_ENGINE_VECTOR = 2 } aclopEngineType;
typedef enum aclCompileType { ACL_COMPILE_SYS = 0, ACL_COMPILE_UNREGISTERED = 1 } aclopCompileType;

// CANN's compile options, in CANN's order (the values are the positions). aclSetCompileopt takes
// those that steer CANN's online op compiler and precision (the simulator's kernels are built
// ahead, compute in full precision and deterministically, which every value of them allows; the
// values are kept and read back); ACL_AUTO_TUNE_MODE, ACL_OP_PERFORMANCE_MODE,
// ACL_CUSTOMIZE_DTYPES, ACL_OP_PRECISION_MODE and ACL_PRECISION_MODE_V2 are
// ACL_ERROR_FEATURE_UNSUPPORTED.
typedef enum {
  ACL_PRECISION_MODE,
  ACL_AICORE_NUM,
  ACL_AUTO_TUNE_MODE,
  ACL_OP_SELECT_IMPL_MODE,
  ACL_OPTYPELIST_FOR_IMPLMODE,
  ACL_OP_DEBUG_LEVEL,
  ACL_DEBUG_DIR,
  ACL_OP_COMPILER_CACHE_MODE,
  ACL_OP_COMPILER_CACHE_DIR,
  ACL_OP_PERFORMANCE_MODE,
  ACL_OP_JIT_COMPILE,
  ACL_OP_DETERMINISTIC,
  ACL_CUSTOMIZE_DTYPES,
  ACL_OP_PRECISION_MODE,
  ACL_ALLOW_HF32,
  ACL_PRECISION_MODE_V2,
  ACL_OP_DEBUG_OPTION,
} aclCompileOpt;

// `dims` is the shape in `format` (for a base format: the logical shape).
ACL_FUNC_VISIBILITY aclTensorDesc* aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t* dims,
                                                       aclFormat format);
ACL_FUNC_VISIBILITY void aclDestroyTensorDesc(const aclTensorDesc* desc);
// Storage (device-side) format and shape, for internal formats such as FRACTAL_NZ.
ACL_FUNC_VISIBILITY aclError aclSetTensorFormat(aclTensorDesc* desc, aclFormat format);
ACL_FUNC_VISIBILITY aclError aclSetTensorShape(aclTensorDesc* desc, int numDims, const int64_t* dims);
// Logical (user-visible) format and shape.
ACL_FUNC_VISIBILITY aclError aclSetTensorOriginFormat(aclTensorDesc* desc, aclFormat format);
ACL_FUNC_VISIBILITY aclError aclSetTensorOriginShape(aclTensorDesc* desc, int numDims, const int64_t* dims);
// What a descriptor says (CANN's getters): ACL_DT_UNDEFINED / ACL_FORMAT_UNDEFINED / 0 for a null desc.
ACL_FUNC_VISIBILITY aclDataType aclGetTensorDescType(const aclTensorDesc* desc);
ACL_FUNC_VISIBILITY aclFormat aclGetTensorDescFormat(const aclTensorDesc* desc);
ACL_FUNC_VISIBILITY size_t aclGetTensorDescNumDims(const aclTensorDesc* desc);
ACL_FUNC_VISIBILITY aclError aclGetTensorDescDimV2(const aclTensorDesc* desc, size_t index, int64_t* dimSize);
// A name for messages about the tensor (null clears it).
ACL_FUNC_VISIBILITY void aclSetTensorDescName(aclTensorDesc* desc, const char* name);
// Where the tensor's data buffer lives: device memory (the default) or host memory, which the
// executor reads at enqueue time like a constant.
ACL_FUNC_VISIBILITY aclError aclSetTensorPlaceMent(aclTensorDesc* desc, aclMemType memType);
// Marks an input as a host-side constant (value read at enqueue time).
ACL_FUNC_VISIBILITY aclError aclSetTensorConst(aclTensorDesc* desc, void* dataBuffer, size_t length);

ACL_FUNC_VISIBILITY aclDataBuffer* aclCreateDataBuffer(void* data, size_t size);
ACL_FUNC_VISIBILITY aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer);

ACL_FUNC_VISIBILITY aclopAttr* aclopCreateAttr(void);
ACL_FUNC_VISIBILITY void aclopDestroyAttr(const aclopAttr* attr);
ACL_FUNC_VISIBILITY aclError aclopSetAttrBool(aclopAttr* attr, const char* attrName, uint8_t attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrInt(aclopAttr* attr, const char* attrName, int64_t attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrFloat(aclopAttr* attr, const char* attrName, float attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrString(aclopAttr* attr, const char* attrName, const char* attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListInt(aclopAttr* attr, const char* attrName, int numValues,
                                                 const int64_t* values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrDataType(aclopAttr* attr, const char* attrName, aclDataType attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListBool(aclopAttr* attr, const char* attrName, int numValues,
                                                  const uint8_t* values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListFloat(aclopAttr* attr, const char* attrName, int numValues,
                                                   const float* values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListListInt(aclopAttr* attr, const char* attrName, int numLists,
                                                     const int* numValues, const int64_t* const values[]);

// Validates the op against its registered type (inputs, outputs, attributes,
// dtypes, formats), then enqueues it on `stream` and returns. Unknown op types
// give ACL_ERROR_OP_NOT_FOUND with a message naming the type.
ACL_FUNC_VISIBILITY aclError aclopCompileAndExecute(const char* opType, int numInputs,
                                                    const aclTensorDesc* const inputDesc[],
                                                    const aclDataBuffer* const inputs[], int numOutputs,
                                                    const aclTensorDesc* const outputDesc[],
                                                    aclDataBuffer* const outputs[], const aclopAttr* attr,
                                                    aclopEngineType engineType, aclopCompileType compileFlag,
                                                    const char* opPath, aclrtStream stream);

// As aclopCompileAndExecute, for op types whose output shapes depend on the input data: CANN
// writes the outputs' real shapes back into outputDesc. Every op type the simulator implements
// has its output shapes given by its inputs' shapes and attributes, so outputDesc stays as given.
ACL_FUNC_VISIBILITY aclError aclopCompileAndExecuteV2(const char* opType, int numInputs, aclTensorDesc* inputDesc[],
                                                      aclDataBuffer* inputs[], int numOutputs,
                                                      aclTensorDesc* outputDesc[], aclDataBuffer* outputs[],
                                                      aclopAttr* attr, aclopEngineType engineType,
                                                      aclopCompileType compileFlag, const char* opPath,
                                                      aclrtStream stream);

// Global compile options; ACL_OP_JIT_COMPILE takes "enable" or "disable", ACL_OP_DETERMINISTIC
// "0" or "1", ACL_ALLOW_HF32 two 0/1 digits (convolution, matrix multiply).
ACL_FUNC_VISIBILITY aclError aclSetCompileopt(aclCompileOpt opt, const char* value);
// The buffer size that holds any value of the option (0 for an option the simulator does not take).
ACL_FUNC_VISIBILITY size_t aclGetCompileoptSize(aclCompileOpt opt);
// Writes the option's value into `value` (at most `length` bytes, NUL-terminated).
ACL_FUNC_VISIBILITY aclError aclGetCompileopt(aclCompileOpt opt, char* value, size_t length);

#ifdef __cplusplus
}
#endif

#endif  // ASCENDC_SIM_ACL_OP_H
