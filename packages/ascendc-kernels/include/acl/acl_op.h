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

typedef enum { ACL_ENGINE_SYS = 0, ACL_ENGINE_AICORE = 1, ACL_ENGINE_VECTOR = 2 } aclopEngineType;
typedef enum { ACL_COMPILE_SYS = 0, ACL_COMPILE_UNREGISTERED = 1 } aclopCompileType;

typedef enum {
  ACL_PRECISION_MODE = 0,
  ACL_AICORE_NUM = 1,
  ACL_OP_JIT_COMPILE = 12,
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

// Global compile options; ACL_OP_JIT_COMPILE takes "enable" or "disable".
ACL_FUNC_VISIBILITY aclError aclSetCompileopt(aclCompileOpt opt, const char* value);
// Writes the option's value into `value` (at most `length` bytes, NUL-terminated).
ACL_FUNC_VISIBILITY aclError aclGetCompileopt(aclCompileOpt opt, char* value, size_t length);

#ifdef __cplusplus
}
#endif

#endif  // ASCENDC_SIM_ACL_OP_H
