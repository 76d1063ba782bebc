"""torch.compile with Inductor on npu: the Dynamo device interface and the Inductor backend.

Device memory of the simulated npu is host memory, so Inductor's C++ code generation
(``CppScheduling``, vectorised) writes the kernels; they run as device work. Each kernel
is compiled once (Inductor's own code cache, keyed by its source) into a module whose
entry, instead of calling the kernel, packs the arguments and queues the kernel on the
current npu stream through the simulator's launch entry point (``aclsimLaunchKernel``,
reached through the runtime's ``NpuLaunchHostKernel``). The stream's worker runs it in
order after earlier work on that stream; the host returns at once.

A kernel runs as one block (one simulated core). Inductor's kernels are written for
OpenMP worksharing, which blocks of a launch cannot take over; by default they are
generated single-threaded (``torch._inductor.config.cpp.threads`` left at -1 means 1
here), a value >= 2 makes the one block run the kernel's OpenMP loops on that many
threads (bench/npu_compile_speed.py measures both).

Buffers come from the npu caching allocator (``empty_strided`` on npu). A buffer freed by
the generated code while a queued kernel still uses it goes back to its stream's pool,
whose next user is queued on that same stream after the kernel: stream order keeps it
alive, as for CUDA. Extern kernels (mm, convolution, ...) are the npu aten ops.

Inductor's C++ wrapper (``cpp_wrapper=True``) and AOTInductor work too: extern kernels call the
generated C shim (``aoti_torch_npu_*``), the C++ kernels are queued on the stream through
``NpuLaunchHostKernel``, the library links the runtime; an AOTInductor package loads through
the npu model runner the runtime registers (csrc/npu/inductor/AOTIModelRunnerNpu.cpp).

Registration is lazy, so ``import torch`` does not pay for Dynamo: the Inductor backend
through torch's privateuse1 lookup (``torch.npu.Scheduling``/``PythonWrapperCodegen``/
``CppWrapperCodegen``), the Dynamo device interface when ``torch._dynamo.device_interface``
is first imported (``install``).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import torch

from . import _C

_DEVICE = "npu"
_INTERFACE_MODULE = "torch._dynamo.device_interface"
_INDUCTOR_REGISTRY_MODULE = "torch._inductor.codegen.common"
_TORCH = torch.torch_version.TorchVersion(torch.__version__)
#: Environment variable through which a kernel module receives the launcher's address at import.
LAUNCHER_ENV = "_NPU_INDUCTOR_LAUNCH_HOST_KERNEL"


def _has_device_interface_registry() -> bool:
    # By file: importing or finding a torch._dynamo submodule would import Dynamo itself.
    return (Path(torch.__file__).parent / "_dynamo" / "device_interface.py").is_file()


def supported() -> tuple[bool, str]:
    """Whether this torch's Dynamo and Inductor have what the npu backend registers with
    (imports Inductor's code cache and wrapper modules)."""
    if not _has_device_interface_registry():
        return False, (f"torch {torch.__version__} has no Dynamo device interface registry "
                       f"({_INTERFACE_MODULE}, added in torch 2.2)")
    try:
        from torch._inductor.codecache import CppPythonBindingsCodeCache  # noqa: F401
        from torch._inductor.codegen.wrapper import PythonWrapperCodegen  # noqa: F401
    except ImportError as error:
        return False, (f"torch {torch.__version__}'s Inductor lacks what the npu backend subclasses "
                       f"(CppPythonBindingsCodeCache, PythonWrapperCodegen): {error}")
    return True, ""


# --------------------------------------------------------------------------------------------
# Dynamo device interface
# --------------------------------------------------------------------------------------------

def _register_streams_with_dynamo_bases() -> None:
    """torch 2.2-2.5: Dynamo's DeviceInterface takes only an Event and a Stream derived from the
    abstract bases of torch._streambase (from 2.6 deprecated aliases of torch.Event/Stream that it
    no longer checks). npu's implement their methods: they are registered as virtual subclasses."""
    if _TORCH >= (2, 6):
        return
    from torch._streambase import _EventBase, _StreamBase

    _EventBase.register(torch.npu.Event)
    _StreamBase.register(torch.npu.Stream)


def _make_device_interface() -> type:
    from torch._dynamo.device_interface import DeviceInterface, caching_worker_device_properties

    _register_streams_with_dynamo_bases()
    npu = torch.npu

    class NpuInterface(DeviceInterface):
        device = npu.device
        Event = npu.Event
        Stream = npu.Stream

        class Worker:
            @staticmethod
            def set_device(device: int) -> None:
                npu.set_device(device)

            @staticmethod
            def current_device() -> int:
                return npu.current_device()

            @staticmethod
            def get_device_properties(device: Any = None) -> Any:
                # Recorded once, so compile workers read the parent's record.
                if device is None:
                    index = npu.current_device()
                elif isinstance(device, int):
                    index = device
                else:
                    index = torch.device(device).index or 0
                key = f"{_DEVICE}:{index}"
                if key not in caching_worker_device_properties:
                    caching_worker_device_properties[key] = npu.get_device_properties(index)
                return caching_worker_device_properties[key]

        current_device = staticmethod(npu.current_device)
        set_device = staticmethod(npu.set_device)
        device_count = staticmethod(npu.device_count)
        is_available = staticmethod(npu.is_available)
        stream = staticmethod(npu.stream)
        current_stream = staticmethod(npu.current_stream)
        set_stream = staticmethod(npu.set_stream)
        synchronize = staticmethod(npu.synchronize)
        get_device_properties = staticmethod(npu.get_device_properties)
        memory_allocated = staticmethod(npu.memory_allocated)

        @staticmethod
        def exchange_device(device: int) -> int:
            previous = npu.current_device()
            if device >= 0 and device != previous:
                npu.set_device(device)
            return previous

        @staticmethod
        def maybe_exchange_device(device: int) -> int:
            return NpuInterface.exchange_device(device)

        @staticmethod
        def _set_stream_by_id(stream_id: int, device_index: int, device_type: int) -> None:
            npu.set_stream(npu.Stream(stream_id=stream_id, device_index=device_index, device_type=device_type))

        @staticmethod
        def get_raw_stream(device_idx: int) -> int:
            return npu.current_stream(device_idx).npu_stream

        @staticmethod
        def get_compute_capability(device: Any = None) -> str:
            return ""  # no Triton: Inductor generates C++ for this device

        @staticmethod
        def is_bf16_supported(including_emulation: bool = False) -> bool:
            return True

        @staticmethod
        def is_triton_capable(device: Any = None) -> bool:
            return False

    return NpuInterface


def register_device_interface() -> None:
    """Registers the npu device interface with Dynamo (imports torch._dynamo)."""
    from torch._dynamo.device_interface import register_interface_for_device

    interface = _make_device_interface()
    register_interface_for_device(_DEVICE, interface)
    for index in range(torch.npu.device_count()):
        register_interface_for_device(f"{_DEVICE}:{index}", interface)


class _RegisterOnImport(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Runs `register` right after the module `name` is imported."""

    def __init__(self, name: str, register: Callable[[], None]) -> None:
        self.name = name
        self.register = register

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)  # find the real module with the other finders
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        self._loader = spec.loader
        spec.loader = self
        return spec

    def create_module(self, spec: Any) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        self._loader.exec_module(module)
        self.register()


def _on_import(name: str, register: Callable[[], None]) -> None:
    """`register` now if the module `name` is loaded, else right after it is imported."""
    if name in sys.modules:
        register()
    elif not any(isinstance(finder, _RegisterOnImport) and finder.name == name for finder in sys.meta_path):
        sys.meta_path.insert(0, _RegisterOnImport(name, register))


class InductorUnavailable:
    """Inductor's scheduling and wrapper codegen for npu on a torch whose Inductor the npu backend
    cannot build on: making one (when Inductor lowers a graph with npu tensors) raises, saying why,
    where Inductor would otherwise fail on the missing backend (torch 2.1: "'NoneType' object is not
    callable", 2.4: "Device npu not supported")."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        ok, reason = supported()
        raise RuntimeError(
            "torch.compile's Inductor backend (the default) cannot compile for npu: "
            f"{reason if not ok else 'its npu backend is not registered'}. On this torch compile npu graphs "
            "with backend='aot_eager' or backend='eager' (they run the graph's npu ops), or use torch >= 2.6")


def _register_unavailable_backend() -> None:
    from torch._inductor.codegen.common import get_scheduling_for_device, register_backend_for_device

    if get_scheduling_for_device(_DEVICE) is None:
        register_backend_for_device(_DEVICE, InductorUnavailable, InductorUnavailable)


def install() -> None:
    """Makes torch.compile reach npu: the Dynamo device interface when Dynamo is loaded; on a torch
    whose Inductor the backend cannot use (before 2.6), a backend that says so when Inductor is."""
    if _has_device_interface_registry():
        _on_import(_INTERFACE_MODULE, register_device_interface)
    if _TORCH < (2, 6):
        _on_import(_INDUCTOR_REGISTRY_MODULE, _register_unavailable_backend)


# --------------------------------------------------------------------------------------------
# Kernel modules: compiled by Inductor's code cache, their entry queues the kernel on a stream
# --------------------------------------------------------------------------------------------

# Appended to a kernel's source. The module's `kernel(name)` returns its launch entry bound to
# the kernel's name; a call takes the kernel's arguments and the npu device index last.
_LAUNCH_ENTRY = textwrap.dedent(
    """
    // The npu launch entry of kernel(): the module's {entry_func}(name) returns a callable
    // that queues kernel(args...) on the current stream of an npu device (the last argument).
    #define PY_SSIZE_T_CLEAN
    #include <Python.h>
    #include <cerrno>
    #include <cstdint>
    #include <cstdlib>
    #include <cstring>
    #include <new>
    #include <stdexcept>
    #include <optional>
    #include <type_traits>

    namespace npu_launch {{
    using BlockFn = void (*)(void*);
    using Launcher = const char* (*)(const char* name, int device, uint32_t blockDim, BlockFn fn, void* ctx,
                                     BlockFn destroy);
    static void* (*tensor_data_ptr)(PyObject*) = nullptr;
    static Launcher launcher = nullptr;

    // A launch: kernel() bound to its arguments, plus room for the values of 0-dim CPU tensors:
    // those are passed as Python numbers and their pointer argument points into the pack (the
    // CPU tensor itself may be freed before the kernel runs). The arguments are a lambda's
    // captures, not a std::tuple: a foreach kernel (an optimizer step) takes hundreds of
    // pointers, and a tuple of that many elements takes the compiler minutes.
    template <typename Call> struct Pack {{
        int64_t scalars[{arg_len} + 1];
        std::optional<Call> call;
    }};
    static int64_t* current_scalars = nullptr;  // the pack being filled (the GIL is held)

    template <typename... A> static auto bind_kernel(A... a) {{
        return [a...] {{ kernel(a...); }};
    }}

    template <typename P> static void run_block(void* ctx) {{ (*static_cast<P*>(ctx)->call)(); }}
    template <typename P> static void destroy(void* ctx) {{ delete static_cast<P*>(ctx); }}

    template <typename MakeCall> static PyObject* launch(PyObject* name, int device, MakeCall make_call) {{
        using P = Pack<decltype(make_call())>;
        auto* pack = new P();
        current_scalars = pack->scalars;
        try {{
            pack->call.emplace(make_call());
        }} catch (...) {{
            delete pack;
            throw;
        }}
        const char* error = launcher(PyUnicode_AsUTF8(name), device, 1u, &run_block<P>, pack, &destroy<P>);
        if (error != nullptr) {{
            PyErr_SetString(PyExc_RuntimeError, error);
            return nullptr;
        }}
        Py_RETURN_NONE;
    }}

    // The value of a Python number as the element type E of a pointer argument, stored in slot n.
    template <typename E> static E* scalar_slot(PyObject* item, Py_ssize_t n) {{
        static_assert(sizeof(E) <= sizeof(int64_t), "a scalar argument fits one slot");
        E value{{}};
        if constexpr (std::is_same_v<E, bool>) {{
            value = PyObject_IsTrue(item) == 1;
        }} else if constexpr (std::is_integral_v<E>) {{
            const long long v = PyLong_AsLongLong(item);
            if (v == -1 && PyErr_Occurred()) throw std::runtime_error("expected an int for a 0-dim tensor argument");
            value = static_cast<E>(v);
        }} else {{
            const double v = PyFloat_AsDouble(item);
            if (v == -1.0 && PyErr_Occurred()) {{
                throw std::runtime_error("expected a number for a 0-dim tensor argument");
            }}
            if constexpr (std::is_same_v<E, double>) {{
                value = v;
            }} else {{
                value = E(static_cast<float>(v));
            }}
        }}
        E* slot = reinterpret_cast<E*>(&current_scalars[n]);
        std::memcpy(static_cast<void*>(slot), &value, sizeof(E));
        return slot;
    }}

    static uintptr_t address_from_env(const char* variable) {{
        const char* text = std::getenv(variable);
        if (text == nullptr) return 0;
        char* end = nullptr;
        errno = 0;
        const unsigned long long value = std::strtoull(text, &end, 10);
        return (errno != 0 || end == text) ? 0 : static_cast<uintptr_t>(value);
    }}
    }}  // namespace npu_launch

    template <typename T> static inline T parse_arg(PyObject* args, Py_ssize_t n) {{
        static_assert(std::is_pointer_v<T>, "a kernel argument is a pointer, an integer or a float");
        PyObject* item = PyTuple_GET_ITEM(args, n);
        if (item == Py_None) return nullptr;
        if (PyFloat_Check(item) || PyLong_Check(item)) {{  // PyLong_Check: bool too
            return npu_launch::scalar_slot<std::remove_cv_t<std::remove_pointer_t<T>>>(item, n);
        }}
        return static_cast<T>(npu_launch::tensor_data_ptr(item));
    }}
    template <> inline int64_t parse_arg<int64_t>(PyObject* args, Py_ssize_t n) {{
        const Py_ssize_t value = PyLong_AsSsize_t(PyTuple_GET_ITEM(args, n));
        if (value == -1 && PyErr_Occurred()) throw std::runtime_error("expected an int argument");
        return value;
    }}
    template <> inline uintptr_t parse_arg<uintptr_t>(PyObject* args, Py_ssize_t n) {{
        void* value = PyLong_AsVoidPtr(PyTuple_GET_ITEM(args, n));
        if (PyErr_Occurred()) throw std::runtime_error("expected an address argument");
        return reinterpret_cast<uintptr_t>(value);
    }}
    template <> inline float parse_arg<float>(PyObject* args, Py_ssize_t n) {{
        const double value = PyFloat_AsDouble(PyTuple_GET_ITEM(args, n));
        if (value == -1.0 && PyErr_Occurred()) throw std::runtime_error("expected a float argument");
        return static_cast<float>(value);
    }}
    template <> inline double parse_arg<double>(PyObject* args, Py_ssize_t n) {{
        const double value = PyFloat_AsDouble(PyTuple_GET_ITEM(args, n));
        if (value == -1.0 && PyErr_Occurred()) throw std::runtime_error("expected a float argument");
        return value;
    }}

    static PyObject* launch_kernel(PyObject* self, PyObject* args) {{
        try {{
            if (!PyTuple_CheckExact(args) || PyTuple_GET_SIZE(args) != {arg_len} + 1) {{
                PyErr_Format(PyExc_TypeError, "npu kernel %s takes {arg_len} arguments and the device index",
                             PyUnicode_AsUTF8(self));
                return nullptr;
            }}
            const long device = PyLong_AsLong(PyTuple_GET_ITEM(args, {arg_len}));
            if (device == -1 && PyErr_Occurred()) return nullptr;
            {call_entry_func}
        }} catch (const std::bad_alloc&) {{
            return PyErr_NoMemory();
        }} catch (const std::exception& e) {{
            PyErr_Format(PyExc_RuntimeError, "npu kernel %s: %s", PyUnicode_AsUTF8(self), e.what());
            return nullptr;
        }}
    }}

    static PyMethodDef launch_def = {{"launch", launch_kernel, METH_VARARGS, "queues the kernel on an npu stream"}};

    static PyObject* bind(PyObject* module, PyObject* name) {{
        if (!PyUnicode_Check(name)) {{
            PyErr_SetString(PyExc_TypeError, "bind() takes the kernel's name");
            return nullptr;
        }}
        return PyCFunction_NewEx(&launch_def, name, module);
    }}

    static PyMethodDef module_methods[] = {{
        {{"{entry_func}", bind, METH_O, "the kernel's launch entry under a name"}},
        {{nullptr, nullptr, 0, nullptr}}}};

    static struct PyModuleDef kernel_module = {{PyModuleDef_HEAD_INIT, "{entry_func}", nullptr, -1, module_methods,
                                                nullptr, nullptr, nullptr, nullptr}};

    PyMODINIT_FUNC PyInit_{entry_func}(void) {{
        npu_launch::tensor_data_ptr = reinterpret_cast<void* (*)(PyObject*)>(
            npu_launch::address_from_env("_TORCHINDUCTOR_PYOBJECT_TENSOR_DATA_PTR"));
        npu_launch::launcher = reinterpret_cast<npu_launch::Launcher>(npu_launch::address_from_env("{launcher_env}"));
        if (npu_launch::tensor_data_ptr == nullptr || npu_launch::launcher == nullptr) {{
            PyErr_SetString(PyExc_RuntimeError,
                            "an npu kernel module is loaded by opplugin_runtime.npu.inductor, which passes "
                            "the tensor data pointer and launcher addresses");
            return nullptr;
        }}
        return PyModule_Create(&kernel_module);
    }}
    """
)

_kernel_cache_class: type | None = None


def _kernel_code_cache() -> type:
    """Inductor's CppPythonBindingsCodeCache with the npu launch entry (made on first use)."""
    global _kernel_cache_class
    if _kernel_cache_class is not None:
        return _kernel_cache_class
    from torch._inductor.codecache import CppPythonBindingsCodeCache

    class NpuKernelCodeCache(CppPythonBindingsCodeCache):
        cache: ClassVar[dict[str, Any]] = {}
        _loaded_module_names: Any = type(CppPythonBindingsCodeCache._loaded_module_names)()
        entry_function = "kernel"
        call_entry_function = ("return npu_launch::launch(self, static_cast<int>(device), "
                               "[&] {{ return npu_launch::bind_kernel({}); }});")
        extra_parse_arg = ""
        suffix_template = _LAUNCH_ENTRY.replace("{launcher_env}", LAUNCHER_ENV)

        @staticmethod
        def cache_clear() -> None:
            NpuKernelCodeCache.cache.clear()
            for name in NpuKernelCodeCache._loaded_module_names:
                sys.modules.pop(name, None)
            NpuKernelCodeCache._loaded_module_names.clear()

        @classmethod
        def _load_library_inner(cls, path: str, key: str) -> Any:
            os.environ[LAUNCHER_ENV] = str(_C.C._host_kernel_launcher())
            module = super()._load_library_inner(path, key)
            NpuKernelCodeCache._loaded_module_names.add(f"{key}.{cls.entry_function}")
            return module

    try:
        from torch._inductor.utils import clear_on_fresh_cache

        NpuKernelCodeCache = clear_on_fresh_cache(NpuKernelCodeCache)
    except ImportError:  # older Inductor: its fresh-cache helper has no registry
        pass
    _kernel_cache_class = NpuKernelCodeCache
    return NpuKernelCodeCache


def host_kernel(async_compile: Any, name: str, argtypes: list[str], source: str) -> Any:
    """What the generated wrapper calls to define an npu kernel: compiles `source` (in the
    compile workers where Inductor uses them) and returns the launch entry bound to `name`,
    or a future of it that ``async_compile.wait`` resolves."""
    from torch._inductor.async_compile import get_compile_threads
    from torch._inductor.codecache import LambdaFuture

    cache = _kernel_code_cache()
    if get_compile_threads() <= 1:
        return cache.load_pybinding(argtypes, source)(name)
    get_entry = cache.load_pybinding_async(argtypes, source, submit_fn=async_compile.submit)
    return LambdaFuture(lambda: get_entry()(name))


# --------------------------------------------------------------------------------------------
# Inductor backend: C++ kernels (CppScheduling) and a Python wrapper that launches them
# --------------------------------------------------------------------------------------------

_CPP_KERNEL_DEFINITION = "async_compile.cpp_pybinding("
_HOST_KERNEL_IMPORT = f"from {__name__} import host_kernel as npu_host_kernel"


def _threads_for_npu_kernels() -> int:
    """OpenMP threads an npu kernel is generated for: cpp.threads when set, else one."""
    from torch._inductor import config

    return config.cpp.threads if config.cpp.threads >= 1 else 1


def _is_cpu_or_npu(original: Any) -> Any:
    def is_cpu(self: Any) -> bool:
        device = self.get_device()
        return device is not None and device.type in ("cpu", _DEVICE)

    return is_cpu


def _cpp_backend_for_npu(original: Any) -> Any:
    def get_current_backend(device_type: str | None = None) -> str:
        if device_type is None:
            from torch._inductor.virtualized import V

            device_type = V.graph.get_current_device_or_throw().type
        return "cpp" if device_type == _DEVICE else original(device_type)

    return get_current_backend


def _npu_aten_device(original: dict) -> dict:
    original[_DEVICE] = "at::kPrivateUse1"  # in place: importers hold this dict
    return original


def _npu_build_options(original: Any) -> Any:
    def get_cpp_torch_device_options(device_type: str, *args: Any, **kwargs: Any) -> Any:
        options = original(device_type, *args, **kwargs)
        if device_type != _DEVICE:
            return options
        definitions, include_dirs, cflags, ldflags, libraries_dirs, libraries, passthrough = options
        from opplugin_runtime import cpp_extension

        runtime = cpp_extension.runtime_library()
        include_dirs = [*include_dirs, *cpp_extension.include_paths()]
        # Linker flags, not inputs: compile-only and precompiled-header steps share these options.
        ldflags = [*ldflags, f"Wl,{runtime}", f"Wl,-rpath,{runtime.parent}"]
        return definitions, include_dirs, cflags, ldflags, libraries_dirs, libraries, passthrough

    return get_cpp_torch_device_options


def _npu_headers_are_cpu_headers(original: Any) -> Any:
    def header_for(device: str, *args: Any, **kwargs: Any) -> Any:
        base = device.split(":", maxsplit=1)[0]
        return original("cpu" if base == _DEVICE else device, *args, **kwargs)

    return header_for


# Inductor tells its C++ (CPU) backend apart by the device being "cpu"; npu nodes are generated
# by that backend too. Its C++ wrapper knows the devices it builds for by name. (module,
# attribute, replacement given the original (a table: completed in place), why, the first torch
# release without the target, where Inductor asks what replaces it, or None).
_INDUCTOR_PATCHES = (
    ("torch._inductor.scheduler", "BaseSchedulerNode.is_cpu", _is_cpu_or_npu,
     "the scheduler skips loop reordering, reindexing and index inversion for C++ kernels by is_cpu()", None),
    ("torch._inductor.codegen.common", "get_current_backend", _cpp_backend_for_npu,
     "the kernels' ops handler propagates dtypes the C++ way when the current backend is 'cpp'", None),
    ("torch._inductor.utils", "get_current_backend", _cpp_backend_for_npu,
     "the same question asked from torch._inductor.utils", None),
    ("torch._inductor.codegen.cpp_utils", "DEVICE_TO_ATEN", _npu_aten_device,
     "the C++ wrapper names a graph's device by this table (npu: PrivateUse1)",
     (2, 15)),  # from 2.15 it asks the device's DeviceOpOverrides.aten_device_type()
    ("torch._inductor.cpp_builder", "get_cpp_torch_device_options", _npu_build_options,
     "a C++ wrapper library of an npu graph includes the npu C shim and links the runtime", None),
    ("torch._inductor.codecache", "_get_cpp_wrapper_header", _npu_headers_are_cpu_headers,
     "the C++ wrapper's precompiled header of a device: npu's is the CPU one (host code)", None),
    ("torch._inductor.codecache", "_get_cpp_prefix_header", _npu_headers_are_cpu_headers,
     "the precompiled prefix header of C++ kernels: npu kernels are CPU C++", None),
)
_PATCHED = "_npu_patched"


def _apply_inductor_patches() -> None:
    """Applies _INDUCTOR_PATCHES once; a target torch moved fails here, naming it."""
    import importlib

    for module_name, attribute, make, _why, gone_in in _INDUCTOR_PATCHES:
        if gone_in is not None and gone_in <= _TORCH:
            continue
        owner: Any = importlib.import_module(module_name)
        *path, name = attribute.split(".")
        for part in path:
            owner = getattr(owner, part, None)
        original = getattr(owner, name, None) if owner is not None else None
        if original is None:
            raise RuntimeError(f"torch {torch.__version__}: {module_name}.{attribute} is gone; the npu Inductor "
                               f"backend patches it because {_why}")
        if isinstance(original, dict):
            make(original)
            continue
        if getattr(original, _PATCHED, False):
            continue
        replacement = make(original)
        setattr(replacement, _PATCHED, True)
        setattr(owner, name, replacement)


def _make_backend() -> dict[str, type]:
    from torch._inductor import config
    from torch._inductor.codegen.cpp import CppScheduling
    from torch._inductor.codegen.cpp_wrapper_cpu import CppWrapperCpu
    from torch._inductor.codegen.wrapper import PythonWrapperCodegen, SubgraphPythonWrapperCodegen
    from torch._inductor.virtualized import V

    class NpuCppScheduling(CppScheduling):
        """CppScheduling whose kernels the wrapper defines as npu host kernels."""

        def _as_npu(self) -> Any:
            return config.patch({"cpp.threads": _threads_for_npu_kernels()})

        def codegen_node(self, node: Any) -> None:
            with self._as_npu():
                super().codegen_node(node)

        def codegen_template(self, *args: Any, **kwargs: Any) -> Any:
            with self._as_npu():
                return super().codegen_template(*args, **kwargs)

        def flush(self) -> None:
            with self._as_npu():
                super().flush()

        def define_kernel(self, src_code: str, nodes: Any, kernel_args: Any = None) -> str:
            wrapper = V.graph.wrapper_code
            previous = getattr(wrapper, "_npu_defining_kernel", False)
            wrapper._npu_defining_kernel = True
            try:
                return super().define_kernel(src_code, nodes, kernel_args)
            finally:
                wrapper._npu_defining_kernel = previous

    class NpuWrapperMixin:
        """Defines the C++ kernels of npu nodes as npu host kernels and calls them with the
        device index; kernels of CPU nodes in the same graph stay CPU kernels."""

        def write_header(self) -> None:
            super().write_header()
            self.imports.writeline(_HOST_KERNEL_IMPORT)

        def define_kernel(self, kernel_name: str, kernel_body: str, metadata: str | None = None,
                          gpu: bool = True, cpp_definition: str | None = None) -> None:
            if getattr(self, "_npu_defining_kernel", False) and kernel_body.startswith(_CPP_KERNEL_DEFINITION):
                kernel_body = (f"npu_host_kernel(async_compile, {kernel_name!r}, "
                               + kernel_body[len(_CPP_KERNEL_DEFINITION):])
            super().define_kernel(kernel_name, kernel_body, metadata=metadata, gpu=gpu,
                                  cpp_definition=cpp_definition)

        def make_allocation(self, name: str, device: Any, dtype: Any, shape: Any, stride: Any,
                            allocation_shape: Any = None, is_pinned: bool = False) -> str:
            line = super().make_allocation(name, device, dtype, shape, stride, allocation_shape, is_pinned)
            if device.type == _DEVICE and device.index is not None:
                # No device guard surrounds npu code (Inductor guards GPU devices only): name the index.
                line = line.replace(f"device='{_DEVICE}'", f"device='{_DEVICE}:{device.index}'", 1)
            return line

        @staticmethod
        def _npu_kernel_argument(kernel_name: str, arg: Any) -> Any:
            """A CPU tensor read by an npu kernel is passed by value (0-dim: Inductor lets those
            into device kernels), never by address: the kernel runs later, the tensor may be gone."""
            buffer = V.graph.try_get_buffer(arg) if isinstance(arg, str) else None
            get_device = getattr(buffer, "get_device", None)
            device = get_device() if get_device is not None else None
            if device is None or device.type != "cpu":
                return arg
            if list(buffer.get_size()) != []:
                raise RuntimeError(f"npu kernel {kernel_name} reads the CPU tensor {arg} of shape "
                                   f"{list(buffer.get_size())}; only 0-dim CPU tensors can be passed to npu kernels")
            return f"{arg}.item()"

        def _generate_kernel_call_helper(self, kernel_name: str, call_args: Any, *, device: Any = None,
                                         triton: bool = True, **kwargs: Any) -> None:
            device = device or V.graph.get_current_device_or_throw()
            if device.type == _DEVICE and not triton:
                index = device.index if device.index is not None else -1
                args = [self._npu_kernel_argument(kernel_name, arg) for arg in call_args]
                self.writeline(self.wrap_kernel_call(kernel_name, [*args, str(index)]))
                return
            super()._generate_kernel_call_helper(kernel_name, call_args, device=device, triton=triton, **kwargs)

    class NpuSubgraphPythonWrapperCodegen(NpuWrapperMixin, SubgraphPythonWrapperCodegen):
        def write_header(self) -> None:
            pass  # the parent's header has the import

    class NpuPythonWrapperCodegen(NpuWrapperMixin, PythonWrapperCodegen):
        @staticmethod
        def create(is_subgraph: bool, subgraph_name: str | None, parent_wrapper: Any,
                   partition_signatures: Any = None) -> Any:
            if is_subgraph:
                return NpuSubgraphPythonWrapperCodegen(subgraph_name, parent_wrapper, partition_signatures)
            return NpuPythonWrapperCodegen()

    class NpuCppWrapperCodegen(CppWrapperCpu):
        """Inductor's C++ wrapper (cpp_wrapper=True, AOTInductor) for npu graphs: extern kernels
        through the generated C shim (aoti_torch_npu_*), the C++ kernels launched on the current
        npu stream through NpuLaunchHostKernel (the compiled library links the runtime)."""

        def __init__(self) -> None:
            self.device = _DEVICE  # CppWrapperCpu keeps a device set before its __init__
            super().__init__()

        @staticmethod
        def create(is_subgraph: bool, subgraph_name: str | None, parent_wrapper: Any,
                   partition_signatures: Any = None) -> Any:
            return NpuCppWrapperCodegen()

        def _write_constants_unpacking(self) -> None:
            if not V.graph.aot_mode:
                super()._write_constants_unpacking()
                return
            for idx, (name, value) in enumerate(V.graph.constants.items()):
                if value.device.type == _DEVICE:  # the host blob's constant, copied to npu once
                    self.prefix.writeline(f"[[maybe_unused]] auto {name} = "
                                          f"npu_aoti::as_npu(constants_->at({idx}), {value.device.index or 0});")
                else:
                    self.prefix.writeline(f"[[maybe_unused]] auto& {name} = constants_->at({idx});")

        def codegen_model_constructor(self) -> None:
            # The model runtime loads constants only on its own device or the CPU, and it runs an npu
            # model as "cpu": constants are declared CPU tensors (a host blob), copied to npu on
            # first use (_write_constants_unpacking).
            self._npu_constants_on_cpu = True
            try:
                super().codegen_model_constructor()
            finally:
                self._npu_constants_on_cpu = False

        def codegen_device(self, device: Any) -> str:
            if getattr(self, "_npu_constants_on_cpu", False) and device.type == _DEVICE:
                device = torch.device("cpu")
            return super().codegen_device(device)

        def add_device_include(self, device: str) -> None:
            if device != _DEVICE:
                super().add_device_include(device)
                return
            if device in self.included_devices:
                return
            super().add_device_include("cpu")  # the common AOTI includes
            self.included_devices.add(device)
            self.header.splice(_AOTI_NPU_HEADER)

        def _generate_kernel_call_helper(self, kernel_name: str, call_args: Any, *, device: Any = None,
                                         triton: bool = True, arg_types: Any = None, **kwargs: Any) -> None:
            device = device or V.graph.get_current_device_or_throw()
            if device.type != _DEVICE or triton:
                super()._generate_kernel_call_helper(kernel_name, call_args, device=device, triton=triton,
                                                     arg_types=arg_types, **kwargs)
                return
            self.add_device_include(_DEVICE)
            captures, names = [], []
            for index, (arg, arg_type) in enumerate(zip(call_args, arg_types)):
                if not (isinstance(arg_type, str) and "*" in arg_type):
                    captures.append(f"a{index} = {arg}")
                    names.append(f"a{index}")
                elif NpuWrapperMixin._npu_kernel_argument(kernel_name, arg) != arg:
                    # a 0-dim CPU tensor: its value, copied now (the kernel runs after the call)
                    captures.append(f"a{index} = *({arg_type})({arg}.data_ptr())")
                    names.append(f"&a{index}")
                else:
                    captures.append(f"a{index} = ({arg_type})({arg}.data_ptr())")
                    names.append(f"a{index}")
            index = device.index if device.index is not None else -1
            self.writeline(f'npu_aoti::launch("{kernel_name}", {index}, [{", ".join(captures)}]() '
                           f'{{ {kernel_name}({", ".join(names)}); }});')

    from torch._inductor.codegen.common import DeviceOpOverrides, register_device_op_overrides
    from torch._inductor.codegen.wrapper_fxir import WrapperFxCodegen

    class NpuDeviceOpOverrides(DeviceOpOverrides):
        """What the Python wrapper writes for npu device and stream handling."""

        def import_get_raw_stream_as(self, name: str) -> str:
            return f"from {__name__} import raw_stream as {name}"

        def set_device(self, device_idx: int) -> str:
            return f"torch.npu.set_device({device_idx})"

        def synchronize(self) -> str:
            return "torch.npu.synchronize()"

        def device_guard(self, device_idx: int) -> str:
            return f"torch.npu.device({device_idx})"

        def cpp_kernel_type(self) -> str:
            return "void*"  # C++ kernels are plain functions, as on the CPU

        def cpp_device_ptr(self) -> str:
            return "void*"

        def aten_device_type(self) -> str:
            return "at::kPrivateUse1"  # the C++ wrapper's name of the device (torch >= 2.15)

    register_device_op_overrides(_DEVICE, NpuDeviceOpOverrides())
    _apply_inductor_patches()

    return {
        "Scheduling": NpuCppScheduling,
        "PythonWrapperCodegen": NpuPythonWrapperCodegen,
        "CppWrapperCodegen": NpuCppWrapperCodegen,
        "WrapperFxCodegen": WrapperFxCodegen,
    }


_backend: dict[str, type] | None = None

# What an AOTInductor / cpp_wrapper library of an npu graph includes: the npu C shim and the launch.
_AOTI_NPU_HEADER = """
#include <npu/inductor/c_shim_npu.h>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <type_traits>
#include <unordered_map>
#include <utility>
extern "C" const char* NpuLaunchHostKernel(const char* kernelName, int device, uint32_t blockDim,
                                           void (*fn)(void*), void* ctx, void (*destroy)(void*));
namespace npu_aoti {
// Queues call() on the current stream of npu `device` (-1: the current device) as one block.
template <typename Call> void launch(const char* name, int device, Call&& call) {
    using Stored = std::decay_t<Call>;
    auto* ctx = new Stored(std::forward<Call>(call));
    const char* error = NpuLaunchHostKernel(
        name, device, 1u, [](void* c) { (*static_cast<Stored*>(c))(); },
        ctx, [](void* c) { delete static_cast<Stored*>(c); });
    if (error != nullptr) throw std::runtime_error(error);
}
// A constant of the model's host blob as an npu tensor: copied to the npu device on first use
// (keyed by the host data, so an updated constant buffer is copied again) and kept for the
// model library's lifetime.
inline torch::aot_inductor::ConstantHandle as_npu(AtenTensorHandle host, int32_t device) {
    static std::mutex mutex;
    static std::unordered_map<void*, torch::aot_inductor::RAIIAtenTensorHandle> copies;
    void* data = nullptr;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_get_data_ptr(host, &data));
    std::lock_guard<std::mutex> lock(mutex);
    auto found = copies.find(data);
    if (found == copies.end()) {
        int64_t dim = 0;
        int64_t* sizes = nullptr;
        int64_t* strides = nullptr;
        int32_t dtype = 0;
        AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_get_dim(host, &dim));
        AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_get_sizes(host, &sizes));
        AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_get_strides(host, &strides));
        AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_get_dtype(host, &dtype));
        AtenTensorHandle copy = nullptr;
        AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(
            dim, sizes, strides, dtype, aoti_torch_device_type_privateuse1(), device, &copy));
        torch::aot_inductor::RAIIAtenTensorHandle owned(copy);
        AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_copy_(copy, host, 0));
        found = copies.emplace(data, std::move(owned)).first;
    }
    return torch::aot_inductor::ConstantHandle(found->second.get());
}
}  // namespace npu_aoti
"""


def raw_stream(device_index: int) -> int:
    """The aclrtStream handle of the current stream of npu `device_index`."""
    return torch.npu.current_stream(device_index).npu_stream

#: The names torch's Inductor looks up on torch.npu to register the npu backend.
BACKEND_ATTRIBUTES = ("Scheduling", "PythonWrapperCodegen", "CppWrapperCodegen", "WrapperFxCodegen")


def backend_class(name: str) -> type:
    """torch.npu.<name> for the BACKEND_ATTRIBUTES (imports Inductor on first use)."""
    global _backend
    ok, reason = supported()
    if not ok:
        raise AttributeError(f"torch.npu.{name}: {reason}")
    if _backend is None:
        _backend = _make_backend()
    return _backend[name]
