"""The acl_op declarations (abi/aclop/*.decl) are the one source of the op types: the
executor knows exactly the declared types, enforces their declared dtypes and attributes,
an implementation that drifts from its declaration fails to compile, and bad declaration
files are reported whole, each problem with its file, line and op type."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import ascendc_kernels_testing as sim
import pytest

PACKAGE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PACKAGE / "abi"))
import aclop_abi  # noqa: E402

ACL_TYPES = {"float": sim.ACL_FLOAT, "float16": sim.ACL_FLOAT16, "bfloat16": sim.ACL_BF16, "double": sim.ACL_DOUBLE,
             "int8": sim.ACL_INT8, "uint8": sim.ACL_UINT8, "int16": sim.ACL_INT16, "int32": sim.ACL_INT32,
             "int64": sim.ACL_INT64, "bool": sim.ACL_BOOL}
ACL_NAMES = {"float": "ACL_FLOAT", "float16": "ACL_FLOAT16", "bfloat16": "ACL_BF16", "double": "ACL_DOUBLE",
             "int8": "ACL_INT8", "uint8": "ACL_UINT8", "int16": "ACL_INT16", "int32": "ACL_INT32",
             "int64": "ACL_INT64", "bool": "ACL_BOOL"}
# A value of the wrong kind for each attribute type (run_aclop picks aclopSetAttr* by the value's type).
WRONG_KIND = {"bool": "text", "int": "text", "float": "text", "string": 1, "ints": "text", "floats": "text",
              "dtype": 1}
A_VALUE = {"bool": True, "int": 1, "float": 1.0, "string": "none", "ints": [1], "floats": [1.0],  # one of each kind
           "dtype": sim.DataTypeAttr(sim.ACL_INT64)}
A_KIND = {"bool": "a bool", "int": "an int", "float": "a float", "string": "a string", "ints": "a list of ints",
          "floats": "a list of floats", "dtype": "a data type"}


def write_decls(tmp_path: Path, files: dict[str, str]) -> Path:
    directory = tmp_path / "aclop"
    directory.mkdir()
    for name, text in files.items():
        (directory / name).write_text(text)
    return directory


def declared() -> list[aclop_abi.OpType]:
    return aclop_abi.op_types(aclop_abi.load())


def operand_dtype(operand: aclop_abi.Operand, dtype: str) -> str:
    """`dtype` for an operand declared like another or accepting it, else the operand's own first dtype
    (an index, mask or condition operand keeps its declared type)."""
    return dtype if operand.like or dtype in operand.dtypes or not operand.dtypes else operand.dtypes[0]


def call(op: aclop_abi.OpType, dtype: str, attrs: dict | None = None) -> int:
    """The op on (4,)-shaped ND operands of `dtype`, its required inputs only."""
    chosen: dict[str, str] = {}
    for index, operand in enumerate((*op.inputs[:op.min_inputs], *op.outputs)):
        # an operand declared like another takes that one's dtype
        chosen[operand.name] = dtype if index == 0 else chosen.get(operand.like or "", operand_dtype(operand, dtype))
    operands = [(sim.DeviceArray.empty((4,), ACL_TYPES[t]), (4,), ACL_TYPES[t]) for t in chosen.values()]
    return run(op, operands[: op.min_inputs], operands[op.min_inputs:], attrs)


def run(op: aclop_abi.OpType, inputs: list, outputs: list, attrs: dict | None = None) -> int:
    """run_aclop through the call the op takes (V2 for data-dependent output shapes)."""
    return sim.run_aclop(op.name, inputs, outputs, attrs, reported_shapes=[] if op.data_dependent_shape else None)


def first_operand(op: aclop_abi.OpType) -> aclop_abi.Operand:
    """The first input, or the first output of a type without inputs (Eye)."""
    return (*op.inputs, *op.outputs)[0]


def first_dtype(op: aclop_abi.OpType) -> str:
    return first_operand(op).dtypes[0]


def test_declarations_load_with_operands_attributes_and_formats():
    ops = {op.name: op for op in declared()}
    assert {"Add", "Mul", "Axpy", "Abs", "Muls", "Fills", "Cast", "Identity", "MatMulV2", "BatchMatMul",
            "TransData"} <= set(ops)
    axpy = ops["Axpy"]
    assert [(o.name, o.dtypes, o.like) for o in axpy.inputs] == [
        ("x1", ("float", "float16", "bfloat16", "double", "int32", "int64"), ""), ("x2", (), "x1")]
    assert [(a.name, a.type, a.required) for a in axpy.attrs] == [("alpha", "float", True)]
    matmul = ops["MatMulV2"]
    assert (len(matmul.inputs), matmul.min_inputs) == (3, 2)
    assert [(a.name, a.default) for a in matmul.attrs] == [("transpose_x1", "false"), ("transpose_x2", "false")]
    assert ops["TransData"].formats == "own" and ops["Fills"].formats == "base"


def test_the_executor_knows_exactly_the_declared_types(acl):
    x = sim.DeviceArray.empty((4,), sim.ACL_FLOAT)
    assert sim.run_aclop("NoSuchOpType", [(x, (4,), sim.ACL_FLOAT)], [(x, (4,), sim.ACL_FLOAT)]) == \
        sim.ACL_ERROR_OP_NOT_FOUND
    known = sim.recent_error().split("(known: ", 1)[1].rstrip(")").split(", ")
    assert known == sorted(op.name for op in declared())


def test_each_declared_operand_count_is_enforced(acl):
    for op in declared():
        dtype = first_dtype(op)
        arrays = [sim.DeviceArray.empty((4,), ACL_TYPES[dtype]) for _ in range(len(op.inputs) + 2)]
        operands = [(a, (4,), ACL_TYPES[dtype]) for a in arrays]
        # one too few (a dynamic input takes any number), or one too many
        wrong = operands[: len(op.inputs) - 1] if op.dynamic_inputs else operands[: len(op.inputs) + 1]
        assert run(op, wrong, operands[-1:]) == sim.ACL_ERROR_INVALID_PARAM, op.name
        assert f"op '{op.name}': takes " in sim.recent_error()


def test_each_declared_dtype_list_is_enforced_with_the_declared_list(acl):
    checked = 0
    for op in declared():
        operand = first_operand(op)
        refused = [d for d in ACL_TYPES if d not in operand.dtypes]
        if not refused:
            continue
        assert call(op, refused[0]) == sim.ACL_ERROR_UNSUPPORTED_DATA_TYPE, op.name
        supported = ", ".join(ACL_NAMES[d] for d in operand.dtypes)
        assert (f"op '{op.name}': {operand.role} has data type {ACL_NAMES[refused[0]]}; supported: {supported}"
                in sim.recent_error()), op.name
        checked += 1
    assert checked >= 4


def test_like_operands_must_share_the_dtype(acl):
    checked = 0
    for op in declared():
        like = [o for o in op.outputs if o.like]
        ref = next((o for o in (*op.inputs, *op.outputs) if like and o.name == like[0].like), None)
        if ref is None or len(ref.dtypes) < 2:
            continue
        first, second = ref.dtypes[:2]
        # an operand declared like another takes that one's dtype (an op may have several such groups)
        chosen: dict[str, str] = {}
        for o in op.inputs[:op.min_inputs]:
            chosen[o.name] = chosen[o.like] if o.like in chosen else operand_dtype(o, first)
        # the first `like` output gets the other dtype, the other outputs a dtype they accept
        kinds = [second if o is like[0] else chosen.get(o.like, first) if o.like else o.dtypes[0]
                 for o in op.outputs]
        inputs = [(sim.DeviceArray.empty((4,), ACL_TYPES[t]), (4,), ACL_TYPES[t]) for t in chosen.values()]
        outputs = [(sim.DeviceArray.empty((4,), ACL_TYPES[t]), (4,), ACL_TYPES[t]) for t in kinds]
        assert run(op, inputs, outputs) == sim.ACL_ERROR_INVALID_PARAM
        assert (f"{ref.role} has data type {ACL_NAMES[first]} but {like[0].role} has {ACL_NAMES[second]}"
                in sim.recent_error()), op.name
        checked += 1
    assert checked >= 4


def test_declared_attributes_are_required_and_typed(acl):
    checked = 0
    for op in declared():
        for attr in op.attrs:
            if attr.required:
                others = {a.name: A_VALUE[a.type] for a in op.attrs if a.required and a is not attr}
                assert call(op, first_dtype(op), others) == sim.ACL_ERROR_INVALID_PARAM, op.name
                kind = {"ints": "int list", "floats": "float list", "dtype": "data type"}.get(attr.type, attr.type)
                assert f"required {kind} attribute '{attr.name}' is missing" in sim.recent_error(), op.name
            attrs = {a.name: WRONG_KIND[a.type] if a is attr else A_VALUE[a.type] for a in op.attrs
                     if a.required or a is attr}
            rc = call(op, first_dtype(op), attrs)
            assert rc == sim.ACL_ERROR_INVALID_PARAM, (op.name, attr.name)
            assert f"attribute '{attr.name}' must be {A_KIND[attr.type]}" in sim.recent_error(), (op.name, attr.name)
            checked += 1
    assert checked >= 6


def test_every_problem_of_every_file_is_reported_with_its_line_and_op(tmp_path):
    directory = write_decls(tmp_path, {
        "good.decl": "# a family\n\nGood\n  input x: all\n  output y: like x\n  formats: base\n",
        "bad.decl": (
            "# doc\n\n"
            "One\n"                                  # line 3
            "  input x: float complex\n"             # line 4: unknown dtype
            "  output y: like z\n"                   # line 5: like an undeclared operand
            "  attr scale: double\n"                 # line 6: unknown attr type
            "  attr flag: bool = maybe\n"            # line 7: bad default
            "  formats: anything\n"                  # line 8: unknown formats
            "Good\n"                                 # line 9: declared in good.decl too
            "  input a?: all\n"                      # line 10
            "  input b: like a\n"                    # line 11: required after optional
            "  output a: all\n"                      # line 12: name twice
            "  formats: own\n"
            "notAType\n"                             # line 14
            "  input x: all\n"                       # its items are not reported again
            "Three\n"                                # line 16: no output, no formats
            "  input x: all\n"
            "  colour: red\n"                        # line 18: unknown item
            "Four\n"
            "  input x*: all\n"
            "  input y: all\n"                       # line 21: an input after a dynamic one
            "  output z*: like x\n"                  # line 22: a dynamic output
            "  attr Big: int\n"                      # line 23: two capitals
            "  formats: base\n"
            "  output_shape: sometimes\n"            # line 25: not 'data-dependent'
        ),
    })
    with pytest.raises(aclop_abi.AbiError) as caught:
        aclop_abi.load(directory)
    problems = caught.value.problems
    expected = [
        ("bad.decl:4:", "One: input 'x': dtype 'complex'"),
        ("bad.decl:5:", "One: output 'y': 'like z' names no operand declared before it"),
        ("bad.decl:6:", "One: attr 'scale': type 'double'"),
        ("bad.decl:7:", "One: attr 'flag': default 'maybe' is not a bool"),
        ("bad.decl:8:", "One: formats 'anything'"),
        ("good.decl:3:", "Good: declared in bad.decl:9 already"),  # bad.decl is read first
        ("bad.decl:11:", "Good: input 'b': a required input cannot follow an optional one"),
        ("bad.decl:12:", "Good: output 'a': the name is declared twice"),
        ("bad.decl:14:", "'notAType' is not an op type name"),
        ("bad.decl:16:", "Three: declares no output"),
        ("bad.decl:16:", "Three: declares no 'formats:'"),
        ("bad.decl:18:", "Three: 'colour:' is not one of input, output, attr, formats:, output_shape:"),
        ("bad.decl:21:", "Four: input 'y': a dynamic input must be the op's last input"),
        ("bad.decl:22:", "Four: output 'z': outputs cannot be dynamic"),
        ("bad.decl:23:", "Four: attr 'Big': not a lower_snake_case (or one capital letter) name"),
        ("bad.decl:25:", "Four: output_shape 'sometimes' is not 'data-dependent'"),
    ]
    for where, what in expected:
        assert any(p.startswith(where) and what in p for p in problems), (where, what, problems)
    assert len(problems) == len(expected), problems


def test_the_command_line_names_the_file_and_writes_nothing_on_errors(tmp_path):
    directory = write_decls(tmp_path, {"bad.decl": "Bad\n  input x: complex\n  output y: like x\n  formats: own\n"})
    out = tmp_path / "out"
    result = subprocess.run([sys.executable, str(PACKAGE / "abi" / "aclop_abi.py"), "--decl-dir", str(directory),
                             "--out", str(out)], capture_output=True, text=True)
    assert result.returncode == 1
    assert f"{directory}/bad.decl:2: Bad: input 'x': dtype 'complex'" in result.stderr
    assert not out.exists()


def test_unchanged_output_keeps_its_mtime(tmp_path):
    files = aclop_abi.outputs(aclop_abi.load(), tmp_path)
    assert aclop_abi.write_if_changed(files) == [tmp_path / aclop_abi.HEADER]
    assert aclop_abi.write_if_changed(files) == []


def _compile_op_source(source: str, generated: Path) -> subprocess.CompletedProcess:
    compiler = shutil.which("c++") or shutil.which("g++")
    if compiler is None:
        pytest.skip("no C++ compiler")
    return subprocess.run(
        [compiler, "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", f"-I{PACKAGE / 'include'}",
         f"-I{generated}", f"-I{PACKAGE / 'src'}", str(PACKAGE / "src" / "aclop" / "ops" / source)],
        capture_output=True, text=True)


def test_an_implementation_that_drifts_from_its_declaration_fails_to_compile(tmp_path):
    decls = tmp_path / "aclop"
    shutil.copytree(PACKAGE / "abi" / "aclop", decls)
    good = tmp_path / "good"
    aclop_abi.write_if_changed(aclop_abi.outputs(aclop_abi.load(decls), good))
    assert _compile_op_source("binary_ops.cpp", good).returncode == 0

    binary = decls / "binary.decl"
    text = binary.read_text()
    assert "attr alpha: float" in text
    binary.write_text(text.replace("attr alpha: float", "attr scale: float", 1))
    drifted = tmp_path / "drifted"
    aclop_abi.write_if_changed(aclop_abi.outputs(aclop_abi.load(decls), drifted))
    result = _compile_op_source("binary_ops.cpp", drifted)
    assert result.returncode != 0
    assert "alpha" in result.stderr


def test_the_registry_needs_the_run_function_of_every_declared_type(tmp_path):
    """op_registry.cpp's object refers to Run<Type> of each declared type, one more declared
    type included: libascendcl.so links with --no-undefined, so a type nothing implements fails
    its link."""
    compiler = shutil.which("c++") or shutil.which("g++")
    nm = shutil.which("nm")
    if compiler is None or nm is None:
        pytest.skip("needs a C++ compiler and nm")
    decls = tmp_path / "aclop"
    shutil.copytree(PACKAGE / "abi" / "aclop", decls)
    (decls / "extra.decl").write_text("Unimplemented\n  input x: all\n  output y: like x\n  formats: base\n")
    generated = tmp_path / "generated"
    aclop_abi.write_if_changed(aclop_abi.outputs(aclop_abi.load(decls), generated))
    import ascendc_kernels

    obj = tmp_path / "op_registry.o"
    subprocess.run([compiler, "-std=c++17", "-c", "-Wall", "-Wextra", "-Werror", f"-I{generated}",
                    f"-I{PACKAGE / 'include'}", f"-I{ascendc_kernels.get_include()}", f"-I{PACKAGE / 'src'}",
                    str(PACKAGE / "src" / "aclop" / "op_registry.cpp"), "-o", str(obj)], check=True)
    undefined = subprocess.run([nm, "-C", "-u", str(obj)], check=True, capture_output=True, text=True).stdout
    needed = set(re.findall(r"ascendc_sim::aclop::(Run\w+)\(", undefined))
    assert needed == {op.run_function for op in aclop_abi.op_types(aclop_abi.load(decls))}
    assert "RunUnimplemented" in needed
