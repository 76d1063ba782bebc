"""The schema parser and the C++ type mapping (contracts.md section 2)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
import yaml

from opplugin_codegen.cpp import CppTypeError, signature, without_ambiguous_defaults
from opplugin_codegen.schema import SchemaError, SchemaKind, parse_schema


def decl(func: str, name: str | None = None, *, defaults: bool = True) -> str:
    schema = parse_schema(func)
    return signature(schema, name or schema.name.name).declaration(with_defaults=defaults)


@pytest.mark.parametrize(
    ("func", "kind", "name", "overload"),
    [
        ("abs(Tensor self) -> Tensor", SchemaKind.functional, "abs", ""),
        ("abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", SchemaKind.out, "abs", "out"),
        ("abs_(Tensor(a!) self) -> Tensor(a!)", SchemaKind.inplace, "abs_", ""),
        (
            "__iand__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
            SchemaKind.inplace,
            "__iand__",
            "Tensor",
        ),
        (
            "__and__.Tensor(Tensor self, Tensor other) -> Tensor",
            SchemaKind.functional,
            "__and__",
            "Tensor",
        ),
        (
            "_native_batch_norm_legit(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) "
            "running_mean, Tensor(b!) running_var, bool training, float momentum, float eps) -> "
            "(Tensor, Tensor, Tensor)",
            SchemaKind.mutable,
            "_native_batch_norm_legit",
            "",
        ),
        ("npu::npu_add(Tensor self) -> Tensor", SchemaKind.functional, "npu_add", ""),
    ],
)
def test_kinds_and_names(func: str, kind: SchemaKind, name: str, overload: str) -> None:
    s = parse_schema(func)
    assert s.kind is kind
    assert s.name.name == name
    assert s.name.overload == overload
    assert str(s) == func


CASES = [
    # functional / out / inplace of one family, defaults only on non-out
    (
        "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
        "at::Tensor add(const at::Tensor& self, const at::Tensor& other, "
        "const at::Scalar& alpha = 1)",
    ),
    (
        "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
        "at::Tensor& add(const at::Tensor& self, const at::Tensor& other, "
        "const at::Scalar& alpha, at::Tensor& out)",
    ),
    (
        "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
        "at::Tensor& add_(at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha = 1)",
    ),
    # optional tensors, lists, Tensor?[]
    (
        "index.Tensor(Tensor self, Tensor?[] indices) -> Tensor",
        "at::Tensor index(const at::Tensor& self, "
        "const c10::List<c10::optional<at::Tensor>>& indices)",
    ),
    (
        "cat(Tensor[] tensors, int dim=0) -> Tensor",
        "at::Tensor cat(at::TensorList tensors, int64_t dim = 0)",
    ),
    (
        "native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, "
        "float eps) -> (Tensor, Tensor, Tensor)",
        "::std::tuple<at::Tensor, at::Tensor, at::Tensor> native_layer_norm("
        "const at::Tensor& input, at::IntArrayRef normalized_shape, "
        "const c10::optional<at::Tensor>& weight, const c10::optional<at::Tensor>& bias, "
        "double eps)",
    ),
    (
        "max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
        "int[2] dilation=1, bool ceil_mode=False) -> Tensor",
        "at::Tensor max_pool2d(const at::Tensor& self, at::IntArrayRef kernel_size, "
        "at::IntArrayRef stride = {}, at::IntArrayRef padding = 0, at::IntArrayRef dilation = 1, "
        "bool ceil_mode = false)",
    ),
    (
        "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) "
        "-> Tensor",
        "at::Tensor sum(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim = false, "
        "c10::optional<at::ScalarType> dtype = c10::nullopt)",
    ),
    # scalars, strings, generators, reductions, memory formats
    (
        "clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor",
        "at::Tensor clamp(const at::Tensor& self, const c10::optional<at::Scalar>& min = "
        "c10::nullopt, const c10::optional<at::Scalar>& max = c10::nullopt)",
    ),
    (
        "gelu(Tensor self, *, str approximate='none') -> Tensor",
        'at::Tensor gelu(const at::Tensor& self, c10::string_view approximate = "none")',
    ),
    (
        "div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor",
        "at::Tensor div(const at::Tensor& self, const at::Tensor& other, "
        "c10::optional<c10::string_view> rounding_mode)",
    ),
    (
        "bernoulli.p(Tensor self, float p=0.5, *, Generator? generator=None) -> Tensor",
        "at::Tensor bernoulli(const at::Tensor& self, double p = 0.5, "
        "c10::optional<at::Generator> generator = c10::nullopt)",
    ),
    (
        "mse_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor",
        "at::Tensor mse_loss(const at::Tensor& self, const at::Tensor& target, "
        "int64_t reduction = at::Reduction::Mean)",
    ),
    (
        "clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor",
        "at::Tensor clone(const at::Tensor& self, "
        "c10::optional<at::MemoryFormat> memory_format = c10::nullopt)",
    ),
    (
        "contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)",
        "at::Tensor contiguous(const at::Tensor& self, "
        "at::MemoryFormat memory_format = c10::MemoryFormat::Contiguous)",
    ),
    (
        "_foreach_add.ScalarList(Tensor[] self, Scalar[] scalars) -> Tensor[]",
        "::std::vector<at::Tensor> _foreach_add(at::TensorList self, "
        "at::ArrayRef<at::Scalar> scalars)",
    ),
    (
        "_foreach_add_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()",
        "void _foreach_add_(at::TensorList self, const at::Scalar& scalar)",
    ),
    # factory arguments stay scattered; torchgen defaults the group to {}
    (
        "empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, "
        "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
        "at::Tensor empty(at::IntArrayRef size, c10::optional<at::ScalarType> dtype = {}, "
        "c10::optional<at::Layout> layout = {}, c10::optional<at::Device> device = {}, "
        "c10::optional<bool> pin_memory = {}, "
        "c10::optional<at::MemoryFormat> memory_format = c10::nullopt)",
    ),
    (
        "to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, "
        "MemoryFormat? memory_format=None) -> Tensor(a)",
        "at::Tensor to(const at::Tensor& self, at::ScalarType dtype, bool non_blocking = false, "
        "bool copy = false, c10::optional<at::MemoryFormat> memory_format = c10::nullopt)",
    ),
    # bool[3], Dimname, SymInt returns, multi-out out= functions
    (
        "native_batch_norm_backward(Tensor grad_out, Tensor input, Tensor? weight, "
        "Tensor? running_mean, Tensor? running_var, Tensor? save_mean, Tensor? save_invstd, "
        "bool train, float eps, bool[3] output_mask) -> (Tensor, Tensor, Tensor)",
        "::std::tuple<at::Tensor, at::Tensor, at::Tensor> native_batch_norm_backward("
        "const at::Tensor& grad_out, const at::Tensor& input, "
        "const c10::optional<at::Tensor>& weight, const c10::optional<at::Tensor>& running_mean, "
        "const c10::optional<at::Tensor>& running_var, const c10::optional<at::Tensor>& save_mean, "
        "const c10::optional<at::Tensor>& save_invstd, bool train, double eps, "
        "::std::array<bool,3> output_mask)",
    ),
    (
        "sum.dim_DimnameList(Tensor self, Dimname[1] dim, bool keepdim=False, *, "
        "ScalarType? dtype=None) -> Tensor",
        "at::Tensor sum(const at::Tensor& self, at::DimnameList dim, bool keepdim = false, "
        "c10::optional<at::ScalarType> dtype = c10::nullopt)",
    ),
    (
        "size.Dimname(Tensor self, Dimname dim) -> int",
        "int64_t size(const at::Tensor& self, at::Dimname dim)",
    ),
    (
        "sym_size.int(Tensor self, int dim) -> SymInt",
        "c10::SymInt sym_size(const at::Tensor& self, int64_t dim)",
    ),
    (
        "max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, "
        "Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)",
        "::std::tuple<at::Tensor&, at::Tensor&> max(const at::Tensor& self, int64_t dim, "
        "bool keepdim, at::Tensor& max, at::Tensor& max_values)",
    ),
    (
        "_local_scalar_dense(Tensor self) -> Scalar",
        "at::Scalar _local_scalar_dense(const at::Tensor& self)",
    ),
    (
        "split_with_sizes(Tensor(a -> *) self, SymInt[] split_sizes, int dim=0) -> Tensor(a)[]",
        "::std::vector<at::Tensor> split_with_sizes(const at::Tensor& self, "
        "at::IntArrayRef split_sizes, int64_t dim = 0)",
    ),
    (
        "_cudnn_rnn_flatten_weight(Tensor[] weight_arr, int weight_stride0, SymInt input_size, "
        "int mode, SymInt hidden_size, SymInt proj_size, int num_layers, bool batch_first, "
        "bool bidirectional) -> Tensor",
        "at::Tensor _cudnn_rnn_flatten_weight(at::TensorList weight_arr, int64_t weight_stride0, "
        "int64_t input_size, int64_t mode, int64_t hidden_size, int64_t proj_size, "
        "int64_t num_layers, bool batch_first, bool bidirectional)",
    ),
    (
        "quantize_per_tensor(Tensor self, float scale, int zero_point, ScalarType dtype) -> Tensor",
        "at::Tensor quantize_per_tensor(const at::Tensor& self, double scale, "
        "int64_t zero_point, at::ScalarType dtype)",
    ),
    (
        "_nested_tensor_size(Tensor self, Device? device=None, bool? b=None) -> bool?",
        "c10::optional<bool> _nested_tensor_size(const at::Tensor& self, "
        "c10::optional<at::Device> device = c10::nullopt, c10::optional<bool> b = c10::nullopt)",
    ),
]


@pytest.mark.parametrize(("func", "expected"), CASES, ids=[c[0].split("(")[0] for c in CASES])
def test_cpp_declaration(func: str, expected: str) -> None:
    assert decl(func) == expected


def test_defaults_only_on_a_trailing_run() -> None:
    # `b` has no default after defaulted `a`: C++ cannot default `a` then.
    assert decl("f(Tensor self, *, int a=1, int b) -> Tensor") == (
        "at::Tensor f(const at::Tensor& self, int64_t a, int64_t b)"
    )


def test_const_ref_for_mutable_tensors() -> None:
    s = parse_schema("foo.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)")
    sig = signature(s, "foo_out", const_ref_for_mutable=True)
    assert sig.declaration(with_defaults=False) == (
        "const at::Tensor& foo_out(const at::Tensor& self, const at::Tensor& out)"
    )


def test_headers_follow_types() -> None:
    sig = signature(parse_schema("index.Tensor(Tensor self, Tensor?[] indices) -> Tensor"), "i")
    assert "<ATen/core/List.h>" in sig.headers
    sig = signature(parse_schema("mse_loss(Tensor self, int reduction=Mean) -> Tensor"), "m")
    assert "<ATen/core/Reduction.h>" in sig.default_headers()


@pytest.mark.parametrize(
    ("func", "message"),
    [
        ("abs(Tensr self) -> Tensor", "unknown type 'Tensr'; did you mean 'Tensor'?"),
        ("abs(Tensor self)", "expected 'name.overload(args) -> returns'"),
        ("abs(Tensor  self) -> Tensor", "unknown type 'Tensor '"),
        ("abs(Tensor self,Tensor other) -> Tensor", "unknown type"),
        ("abs_out(Tensor self) -> Tensor", "ends with '_out'"),
        (
            "abs.out(Tensor self, *, Tensor(a!) out, int x) -> Tensor(a!)",
            "argument 'x' follows the out arguments",
        ),
        (
            "abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(b!)",
            "out argument 'out' is annotated (a!) but the matching return is 'Tensor(b!)'",
        ),
        ("abs_(Tensor self) -> Tensor(a!)", "needs a mutable 'Tensor(a!) self'"),
        ("f(Tensor self, int(a) x) -> Tensor", "unknown type 'int(a)'"),
        ("f(Tensor self, *, *, int x) -> Tensor", "'*' can appear only once"),
        ("f(Tensor self, Tensor self) -> Tensor", "argument 'self' appears twice"),
        ("f(Tensor(A!) self) -> Tensor", "malformed alias annotation"),
        ("f.bad-name(Tensor self) -> Tensor", "malformed overload name"),
        ("f(Tensor self) -> (Tensor)", "not in canonical form"),
        ("f(Tensor self=) -> Tensor", "malformed default"),
    ],
)
def test_malformed(func: str, message: str) -> None:
    with pytest.raises(SchemaError) as e:
        parse_schema(func)
    assert message in str(e.value)


def test_bool_list_needs_size() -> None:
    with pytest.raises(CppTypeError, match=r"bool\[\] needs a size"):
        signature(parse_schema("f(Tensor self, bool[] mask) -> Tensor"), "f")


# -- every schema of the installed torch's native_functions.yaml -------------------------


def _native_functions() -> list[str]:
    spec = importlib.util.find_spec("torchgen")  # located, not imported
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("torchgen is not installed")
    root = Path(next(iter(spec.submodule_search_locations)))
    path = root / "packaged" / "ATen" / "native" / "native_functions.yaml"
    if not path.exists():
        pytest.skip("no packaged native_functions.yaml")
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return [e["func"] for e in yaml.load(path.read_text(), Loader=loader)]


def test_every_native_function_parses_and_round_trips() -> None:
    funcs = _native_functions()
    assert len(funcs) > 2000
    for func in funcs:
        s = parse_schema(func)
        assert str(s) == func
        signature(s, s.name.name)


def test_cpp_types_match_torchgen_native_api() -> None:
    """Our mapping is torchgen's native API (symint=False) modulo the optional spelling."""
    pytest.importorskip("torchgen")
    from torchgen import local
    from torchgen.api import native
    from torchgen.model import FunctionSchema

    def norm(s: str) -> str:
        # torch 2.1's JIT_TO_CPP_DEFAULT spells the default `MemoryFormat::Contiguous`
        # (unqualified); ours is `c10::MemoryFormat::Contiguous` everywhere.
        return (
            s.replace("::std::optional", "c10::optional")
            .replace("::std::nullopt", "c10::nullopt")
            .replace("c10::MemoryFormat::", "MemoryFormat::")
            .replace(" ", "")
        )

    mismatches = []
    with local.parametrize(
        use_const_ref_for_mutable_tensors=False, use_ilistref_for_tensor_lists=False
    ):
        for func in _native_functions():
            theirs_schema = FunctionSchema.parse(func)
            ours = signature(parse_schema(func), "x")
            theirs = [
                (b.name, norm(b.nctype.cpp_type()), norm(b.default or ""))
                for b in native.arguments(theirs_schema, symint=False)
            ]
            mine = [(p.name, norm(p.type.text), norm(p.default or "")) for p in ours.params]
            ret = norm(native.returns_type(theirs_schema.returns, symint=False).cpp_type())
            if theirs != mine or ret != norm(ours.returns.text):
                mismatches.append(func)
    assert mismatches == []


def test_a_symint_list_defaults_to_a_symint_not_to_the_integer() -> None:
    """``c10::SymIntArrayRef stride = 1`` does not compile (two user conversions); torchgen
    writes ``c10::SymInt(1)``, and so must the op_plugin:: declaration."""
    schema = parse_schema("conv(Tensor x, SymInt[3] stride=1, SymInt[3] padding=[0,0,0]) -> Tensor")
    sym = signature(schema, "conv_symint", symint=True).declaration(with_defaults=True)
    assert "c10::SymIntArrayRef stride = c10::SymInt(1)" in sym
    assert "c10::SymIntArrayRef padding = {0,0,0}" in sym
    plain = signature(schema, "conv").declaration(with_defaults=True)
    assert "at::IntArrayRef stride = 1" in plain


def test_defaults_that_would_make_a_call_ambiguous_are_dropped() -> None:
    """all(self) next to all.dims(self, int[]? dim=None, bool keepdim=False): a call all(x)
    would match both, so all.dims' dim loses its default (native_functions.yaml's
    cpp_no_default_args), keepdim keeps its; all.dim is not ambiguous and keeps both."""
    schemas = [
        "all(Tensor self) -> Tensor",
        "all.dim(Tensor self, int dim, bool keepdim=False) -> Tensor",
        "all.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor",
    ]
    sigs = [signature(parse_schema(s), "all") for s in schemas]
    fixed = without_ambiguous_defaults(sigs)
    assert [s.declaration(with_defaults=True) for s in fixed] == [
        "at::Tensor all(const at::Tensor& self)",
        "at::Tensor all(const at::Tensor& self, int64_t dim, bool keepdim = false)",
        "at::Tensor all(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim = false)",
    ]
    assert without_ambiguous_defaults(sigs[1:]) == sigs[1:]  # nothing to disambiguate
