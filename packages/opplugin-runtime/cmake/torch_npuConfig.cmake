# find_package(torch_npu): the installed npu runtime for CMake builds of user extensions,
# the route of an Ascend C operator built with add_library(... SHARED ...) and
# target_link_libraries(... torch_npu ...).
#
#   cmake -DCMAKE_PREFIX_PATH="$(python -c 'import torch; print(torch.utils.cmake_prefix_path)');$(python -c \
#         'from opplugin_runtime import cpp_extension; print(cpp_extension.cmake_prefix_path())')" ...
#
# Defines
#   torch_npu                 imported (interface) target: the runtime library (opplugin_runtime._C) and the
#                             simulated CANN (libascendcl), their include directories, the C++
#                             standard and the libstdc++ ABI the runtime was compiled with
#   TORCH_NPU_INCLUDE_DIRS    the runtime's public headers ("npu/core/NPUStream.h"), then the device
#                             ABI and Ascend C kernel headers of ascendc-kernels ("kernel_operator.h")
#   TORCH_NPU_LIBRARIES       torch_npu
#   TORCH_NPU_LABEL, TORCH_NPU_TORCH_VERSION   the version label and torch release of the build
# and, unless the caller ran find_package(Torch) first, finds the torch next to the runtime:
#   TORCH_INCLUDE_DIRS, TORCH_LIBRARIES, TORCH_INSTALL_PREFIX, TORCH_CXX_FLAGS, Torch_VERSION
#                             through torch's own CMake package; for a CUDA build of torch from its CPU
#                             libraries and headers directly, as torch.utils.cpp_extension builds: the
#                             package of a CUDA build stops with FATAL_ERROR without a complete CUDA
#                             toolkit (nvcc, headers, cudart), and an npu extension uses nothing of CUDA
#
# The package lives in site-packages/opplugin_runtime/share/cmake/torch_npu; ascendc-kernels
# is installed next to opplugin_runtime (both wheels go to one site-packages).

get_filename_component(_torch_npu_package "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
get_filename_component(_torch_npu_ascendc "${_torch_npu_package}/../ascendc_kernels" ABSOLUTE)
include("${CMAKE_CURRENT_LIST_DIR}/torch_npuBuild.cmake")

file(GLOB _torch_npu_runtime "${_torch_npu_package}/_C*.so")
set(_torch_npu_acl "${_torch_npu_ascendc}/lib/libascendcl.so")
set(torch_npu_FOUND TRUE)
if(NOT _torch_npu_runtime)
  set(torch_npu_FOUND FALSE)
  set(torch_npu_NOT_FOUND_MESSAGE "no runtime library (_C*.so) in ${_torch_npu_package}: is opplugin-runtime built?")
elseif(NOT EXISTS "${_torch_npu_acl}")
  set(torch_npu_FOUND FALSE)
  set(torch_npu_NOT_FOUND_MESSAGE "${_torch_npu_acl} does not exist: install ascendc-kernels next to opplugin-runtime")
endif()

if(torch_npu_FOUND AND NOT DEFINED Torch_VERSION)
  get_filename_component(_torch_npu_torch "${_torch_npu_package}/../torch" ABSOLUTE)
  if(NOT TORCH_NPU_TORCH_CUDA)
    include(CMakeFindDependencyMacro)
    find_dependency(Torch HINTS "${_torch_npu_torch}/share/cmake/Torch")
  else()
    message(STATUS "torch_npu: torch ${TORCH_NPU_TORCH_VERSION} is a CUDA ${TORCH_NPU_TORCH_CUDA} build: using its "
                   "CPU libraries without torch's CMake package, which needs a complete CUDA toolkit")
    string(REGEX MATCH "^[0-9]+\\.[0-9]+\\.[0-9]+" Torch_VERSION "${TORCH_NPU_TORCH_VERSION}")
    set(TORCH_INSTALL_PREFIX "${_torch_npu_torch}")
    set(TORCH_INCLUDE_DIRS "${_torch_npu_torch}/include" "${_torch_npu_torch}/include/torch/csrc/api/include")
    set(TORCH_CXX_FLAGS "-D_GLIBCXX_USE_CXX11_ABI=${TORCH_NPU_CXX11_ABI}")
    set(_torch_npu_torch_libraries)
    foreach(_library c10 torch_cpu torch)
      list(APPEND _torch_npu_torch_libraries "${_torch_npu_torch}/lib/lib${_library}.so")
    endforeach()
    if(NOT TARGET torch_npu::torch)
      # torch's CPU libraries: an npu extension links these (torch loads its CUDA parts itself).
      add_library(torch_npu::torch INTERFACE IMPORTED)
      set_target_properties(torch_npu::torch PROPERTIES
        INTERFACE_INCLUDE_DIRECTORIES "${TORCH_INCLUDE_DIRS}"
        INTERFACE_LINK_LIBRARIES "${_torch_npu_torch_libraries}"
        INTERFACE_COMPILE_DEFINITIONS "_GLIBCXX_USE_CXX11_ABI=${TORCH_NPU_CXX11_ABI}")
    endif()
    set(TORCH_LIBRARIES torch_npu::torch)
  endif()
endif()

if(torch_npu_FOUND AND DEFINED Torch_VERSION AND NOT "${TORCH_NPU_TORCH_VERSION}" MATCHES "^${Torch_VERSION}")
  set(torch_npu_FOUND FALSE)
  set(torch_npu_NOT_FOUND_MESSAGE
      "this runtime was built for torch ${TORCH_NPU_TORCH_VERSION} (${TORCH_NPU_LABEL}) but find_package(Torch) found "
      "${Torch_VERSION}: point CMAKE_PREFIX_PATH at the torch of the runtime's environment")
endif()

if(torch_npu_FOUND AND NOT TARGET torch_npu)
  list(GET _torch_npu_runtime 0 _torch_npu_runtime)
  set(TORCH_NPU_INCLUDE_DIRS "${_torch_npu_package}/include" "${_torch_npu_ascendc}/include")

  add_library(torch_npu::ascendcl SHARED IMPORTED)
  set_target_properties(torch_npu::ascendcl PROPERTIES IMPORTED_LOCATION "${_torch_npu_acl}")

  # The runtime is a Python extension module without a soname: linked by file name (-l:), as
  # opplugin_runtime.cpp_extension.NpuExtension does, and found at run time through the rpath
  # (after `import torch_npu` it is loaded already).
  get_filename_component(_torch_npu_runtime_dir "${_torch_npu_runtime}" DIRECTORY)
  get_filename_component(_torch_npu_runtime_name "${_torch_npu_runtime}" NAME)
  add_library(torch_npu INTERFACE IMPORTED)
  set_target_properties(torch_npu PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${TORCH_NPU_INCLUDE_DIRS}"
    INTERFACE_LINK_DIRECTORIES "${_torch_npu_runtime_dir}"
    INTERFACE_LINK_LIBRARIES "-l:${_torch_npu_runtime_name};torch_npu::ascendcl"
    INTERFACE_LINK_OPTIONS "LINKER:-rpath,${_torch_npu_runtime_dir}:${_torch_npu_ascendc}/lib"
    INTERFACE_COMPILE_FEATURES "cxx_std_${TORCH_NPU_CXX_STANDARD}"
    INTERFACE_COMPILE_DEFINITIONS "_GLIBCXX_USE_CXX11_ABI=${TORCH_NPU_CXX11_ABI}")
  set(TORCH_NPU_LIBRARIES torch_npu)
endif()
