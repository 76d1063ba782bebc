"""Invalid input: every error names file:line, the entry and what is wrong; all errors of
a file come together; the exit code is 1; and nothing is written."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from opplugin_codegen import CodegenError, generate
from opplugin_codegen.cli import main
from opplugin_codegen_testing import make_yaml_dir, snapshot

OPS = "yaml/op_plugin_functions.yaml"

GOOD = """\
official:
  - func: abs(Tensor self) -> Tensor
    op_api: all_version
    gen_opapi:
      structured_inherit: abs.out
  - func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
    op_api: all_version
    gen_opapi:
      out:
        size: self
        dtype: self
      exec: aclnnAbs
"""


def check_invalid(
    tmp_path: Path, ops: str, expected: list[str], derivatives: str | None = None
) -> list[str]:
    """Generate GOOD, then the broken YAML: assert the errors and an untouched tree."""
    yaml_dir = make_yaml_dir(tmp_path, GOOD)
    out = tmp_path / "out" / "v2.13"
    generate("v2.13", yaml_dir, out)
    before = snapshot(out)

    make_yaml_dir(tmp_path, ops, derivatives)
    with pytest.raises(CodegenError) as e:
        generate("v2.13", yaml_dir, out)
    lines = [str(d) for d in e.value.diagnostics]
    for message in expected:
        assert message in lines, f"{message!r} not in {lines}"
    assert snapshot(out) == before, "an invalid input changed the output tree"
    assert not list(out.glob(".opplugin-codegen-*")), "temporary directory left behind"
    return lines


def test_unknown_key_did_you_mean(tmp_path: Path) -> None:
    check_invalid(
        tmp_path,
        """\
        official:
          - func: abs(Tensor self) -> Tensor
            op_api: all_version
            op_apii: all_version
        """,
        [f"{OPS}:4: abs: unknown key 'op_apii'; did you mean 'op_api'?"],
    )


def test_unknown_label(tmp_path: Path) -> None:
    check_invalid(
        tmp_path,
        """\
        official:
          - func: abs(Tensor self) -> Tensor
            op_api: v2.70
        """,
        [
            f"{OPS}:3: abs: op_api: unknown version label 'v2.70' (known: v2.1 ... v2.15); "
            "did you mean 'v2.7'?"
        ],
    )


def test_reversed_range(tmp_path: Path) -> None:
    check_invalid(
        tmp_path,
        """\
        official:
          - func: abs(Tensor self) -> Tensor
            acl_op: [v2.5, v2.2]
            op_api: all_version
        """,
        [f"{OPS}:3: abs: acl_op: reversed range [v2.5, v2.2]: v2.2 comes before v2.5"],
    )


def test_duplicate_schema_in_one_version(tmp_path: Path) -> None:
    check_invalid(
        tmp_path,
        """\
        official:
          - func: abs(Tensor self) -> Tensor
            op_api: [v2.1, v2.6]
          - func: abs(Tensor self) -> Tensor
            op_api: [v2.5, newest]
        """,
        [
            f"{OPS}:4: abs: declared twice for v2.5, v2.6 (also at {OPS}:2); "
            "give the entries disjoint version ranges"
        ],
    )


def test_disjoint_versions_of_one_schema_are_fine(tmp_path: Path) -> None:
    yaml_dir = make_yaml_dir(
        tmp_path,
        """\
        official:
          - func: abs(Tensor self) -> Tensor
            op_api: [v2.1, v2.6]
          - func: abs(Tensor self) -> Tensor
            op_api: [v2.7, newest]
            acl_op: v2.7
        """,
    )
    generate("v2.7", yaml_dir, tmp_path / "out")


def test_exec_arg_not_in_signature(tmp_path: Path) -> None:
    check_invalid(
        tmp_path,
        """\
        official:
          - func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
            op_api: all_version
            gen_opapi:
              out:
                size: self
                dtype: self
              exec: aclnnAbs, slef, out
        """,
        [
            f"{OPS}:8: abs.out: gen_opapi: exec argument 'slef' is not an argument, output "
            "or new_params name of abs.out; did you mean 'self'?"
        ],
    )


def test_gen_opapi_without_op_api(tmp_path: Path) -> None:
    check_invalid(
        tmp_path,
        """\
        official:
          - func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
            acl_op: all_version
            gen_opapi:
              exec: aclnnAbs
        """,
        [
            f"{OPS}:4: abs.out: gen_opapi generates the op_api kernel, but the entry has no "
            "op_api range; add one (e.g. op_api: all_version)"
        ],
    )


def test_gen_opapi_inherits_from_a_version_without_op_api(tmp_path: Path) -> None:
    check_invalid(
        tmp_path,
        """\
        official:
          - func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
            op_api: [v2.5, newest]
            gen_opapi: {exec: aclnnAbs}
          - func: abs_(Tensor(a!) self) -> Tensor(a!)
            op_api: all_version
            gen_opapi:
              structured_inherit: abs.out
        """,
        [
            f"{OPS}:7: abs_: structured_inherit: abs.out has no op_api in v2.1 ... v2.4, "
            "where abs_ has"
        ],
    )


def test_malformed_schema(tmp_path: Path) -> None:
    check_invalid(
        tmp_path,
        """\
        official:
          - func: abs(Tensr self) -> Tensor
            op_api: all_version
        """,
        [
            f"{OPS}:2: 'abs(Tensr self) -> Tensor': malformed schema: unknown type 'Tensr'; "
            "did you mean 'Tensor'?"
        ],
    )


def test_all_errors_of_a_file_are_reported_together(tmp_path: Path) -> None:
    lines = check_invalid(
        tmp_path,
        """\
        official:
          - func: abs(Tensor self) -> Tensor
            op_api: v2.70
          - func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
            op_apii: all_version
            op_api: all_version
          - func: neg(Tensor self) -> Tensor
            acl_op: [v2.9, v2.3]
        """,
        [],
    )
    assert [line.split(": ")[0] for line in lines] == [f"{OPS}:3", f"{OPS}:5", f"{OPS}:8"]


@pytest.mark.parametrize(
    ("ops", "expected"),
    [
        (
            """\
         official:
           - func: abs(Tensor self) -> Tensor
             op_api: all_version
             op_api: v2.1
         """,
            f"{OPS}:4: duplicate key 'op_api' (first at line 3)",
        ),
        (
            """\
         officail:
           - func: abs(Tensor self) -> Tensor
             op_api: all_version
         """,
            f"{OPS}:1: unknown section 'officail'; did you mean 'official'?",
        ),
        (
            """\
         official:
           - func: abs(Tensor self) -> Tensor
             op_api: [v2.1, newest
         """,
            f"{OPS}:4: YAML syntax error: while parsing a flow sequence did not find "
            "expected ',' or ']'",
        ),
        (
            """\
         official:
           - func: abs(Tensor self) -> Tensor
         """,
            f"{OPS}:2: abs: declares no implementation path: give acl_op and/or op_api a "
            "version range",
        ),
        (
            """\
         official:
           - func: abs(Tensor self) -> Tensor
             impl_ns: op_api
             op_api: all_version
         """,
            f"{OPS}:3: abs: impl_ns is written by the projection; declare acl_op/op_api "
            "ranges instead",
        ),
        (
            """\
         official:
           - func: abs(Tensor self) -> Tensor
             op_api: 2.2
         """,
            f"{OPS}:3: abs: op_api: expected a version label such as 'v2.2', got the number "
            "2.2 (write labels with a leading 'v')",
        ),
        (
            """\
         official:
           - func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
             op_api: all_version
             gen_opapi:
               out:
                 sizee: self
               exec: aclnnAbs
         """,
            f"{OPS}:6: abs.out: gen_opapi: out: unknown key 'sizee'; did you mean 'size'?",
        ),
        (
            """\
         official:
           - func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
             op_api: all_version
             gen_opapi:
               exce: aclnnAbs
         """,
            f"{OPS}:5: abs.out: gen_opapi: unknown key 'exce'; did you mean 'exec'?",
        ),
        (
            """\
         official:
           - func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
             op_api: all_version
             gen_opapi:
               result:
                 size: self
               exec: aclnnAbs
         """,
            f"{OPS}:5: abs.out: gen_opapi: 'result' is not an out argument of abs.out (outs: out)",
        ),
        (
            """\
         official:
           - func: max.dim(Tensor self, int dim) -> (Tensor values, Tensor indices)
             op_api: all_version
             gen_opapi:
               values: {size: self, dtype: self}
               exec: aclnnMaxDim
         """,
            f"{OPS}:4: max.dim: gen_opapi: max.dim returns 2 tensor(s) but the block "
            "describes 1 output(s)",
        ),
        (
            """\
         official:
           - func: abs(Tensor self) -> Tensor
             op_api: all_version
             gen_opapi:
               out: {size: self}
               exec: aclnnAbs
         """,
            f"{OPS}:5: abs: gen_opapi: output 'out' needs both size and dtype",
        ),
        (
            """\
         official:
           - func: abs(Tensor self) -> Tensor
             op_api: all_version
             gen_opapi:
               out: {size: self, dtype: self}
               new_params: {unused: "1.0"}
               exec: aclnnAbs
         """,
            f"{OPS}:4: abs: gen_opapi: new_params 'unused' is never used (not in exec, size "
            "or dtype)",
        ),
        (
            """\
         official:
           - func: add.Tensor(Tensor self, Tensor other) -> Tensor
             op_api: all_version
             gen_opapi:
               out: {size: self, dtype: self}
               cpu_scalar_h2d: [othr]
               exec: aclnnAdd
         """,
            f"{OPS}:4: add.Tensor: gen_opapi: cpu_scalar_h2d: 'othr' is not a Tensor input of "
            "add.Tensor; did you mean 'other'?",
        ),
        (
            """\
         official:
           - func: abs_(Tensor(a!) self) -> Tensor(a!)
             op_api: all_version
             gen_opapi: {structured_inherit: abs.outt}
         """,
            f"{OPS}:4: abs_: structured_inherit: no op named 'abs.outt'",
        ),
        (
            """\
         official:
           - func: sum.dim_DimnameList(Tensor self, Dimname[1] dim, bool keepdim=False) -> Tensor
             op_api: [v2.10, newest]
         """,
            f"{OPS}:2: sum.dim_DimnameList: uses Dimname, but torch 2.13.0 (v2.13) and later "
            "have no named tensors; end its ranges before v2.13 (live in v2.13 ... v2.15)",
        ),
        (
            """\
         official:
           - func: abs(Tensor self) -> Tensor
             op_api: all_version
           - func: abs.int(Tensor self) -> Tensor
             op_api: v2.13
         """,
            f"{OPS}:4: abs.int: its C++ signature abs(const at::Tensor&) is the same as abs's "
            f"(at {OPS}:2) in v2.13; set impl_name on one of them",
        ),
        (
            """\
         official:
           - func: abs.int(Tensor self, int n) -> Tensor
             op_api: all_version
           - func: abs_int(Tensor self, int n, int m) -> Tensor
             op_api: all_version
         """,
            f"{OPS}:4: abs_int: its name in C macros, abs_int, is also abs.int's (at {OPS}:2); "
            "rename one of them",
        ),
        (
            """\
         official:
           - func: abs(Tensor self) -> Tensor
             op_api: all_version
         symint:
           - func: neg(Tensor self) -> Tensor
             op_api: all_version
         """,
            f"{OPS}:5: neg: 'symint' entries mark an op declared in official or custom, and "
            "there is none of this name",
        ),
        (
            """\
         official:
           - func: abs(Tensor self) -> Tensor
             op_api: all_version
             device_check: Nocheck
         """,
            f"{OPS}:4: abs: device_check must be NoCheck or ExactSame, got 'Nocheck'; "
            "did you mean 'NoCheck'?",
        ),
        (
            """\
         all_version: [v2.1, v2.2]
         official: []
         """,
            f"{OPS}:1: all_version must list the labels of versions.yaml in the same order "
            "(v2.1, v2.2, v2.3, v2.4, v2.5, v2.6, v2.7, v2.8, v2.9, v2.10, v2.11, v2.12, v2.13, "
            "v2.14, v2.15); missing v2.3, v2.4, v2.5, v2.6, v2.7, v2.8, v2.9, v2.10, v2.11, "
            "v2.12, v2.13, v2.14, v2.15",
        ),
    ],
)
def test_more_errors(tmp_path: Path, ops: str, expected: str) -> None:
    check_invalid(tmp_path, textwrap.dedent(ops), [expected])


def test_derivative_errors(tmp_path: Path) -> None:
    check_invalid(
        tmp_path,
        GOOD,
        [
            "yaml/derivatives.yaml:2: abs: needs a 'version' range",
            "yaml/derivatives.yaml:6: abs.out: version: unknown version label 'v3.0' (known: "
            "v2.1 ... v2.15)",
        ],
        derivatives="""\
        backward:
          - name: abs(Tensor self) -> Tensor
            self: grad * self.sgn()
          - name: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
            self: grad
            version: v3.0
        """,
    )


def test_cli_exit_code_and_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    yaml_dir = make_yaml_dir(
        tmp_path,
        """\
        official:
          - func: abs(Tensor self) -> Tensor
            op_api: v2.70
        """,
    )
    out = tmp_path / "out"
    code = main(["generate", "--label", "v2.13", "--yaml-dir", str(yaml_dir), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 1
    assert f"{OPS}:3: abs: op_api: unknown version label 'v2.70'" in err
    assert err.rstrip().endswith("1 error")
    assert not out.exists()


# -- the keys added for the whole upstream format -----------------------------------------

BINARY = "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"


@pytest.mark.parametrize(
    ("ops", "expected"),
    [
        (
            f"""\
         official:
           - func: {BINARY}
             op_api: [v2.6, newest]
             dvm: all_version
         """,
            f"{OPS}:4: add.Tensor: dvm: the lazy_fusion kernel is tried inside the op_api "
            "path, which is absent in v2.1 ... v2.5",
        ),
        (
            f"""\
         official:
           - func: {BINARY}
             op_api: all_version
             gen_opapi:
               out: {{size: self, dtype: self}}
               cpu_scalar_op:
                 - parm: other
                   exec: aclnnAdds
               exec: aclnnAdd
         """,
            f"{OPS}:7: add.Tensor: cpu_scalar_op: unknown key 'parm'; did you mean 'param'?",
        ),
        (
            f"""\
         official:
           - func: {BINARY}
             op_api: all_version
             gen_opapi:
               out: {{size: self, dtype: self}}
               cpu_scalar_op:
                 - param: alpha
                   exec: aclnnAdds
               exec: aclnnAdd
         """,
            f"{OPS}:8: add.Tensor: gen_opapi: cpu_scalar_op: 'alpha' is not a Tensor input of "
            "add.Tensor",
        ),
        (
            f"""\
         official:
           - func: {BINARY}
             op_api: all_version
             gen_opapi:
               out: {{size: self, dtype: self}}
               cpu_scalar_op:
                 - param: other
                   exec: aclnnAdds, self, othr, alpha, out
               exec: aclnnAdd
         """,
            f"{OPS}:8: add.Tensor: gen_opapi: cpu_scalar_op: exec argument 'othr' is not an "
            "argument, output or new_params name of add.Tensor; did you mean 'other'?",
        ),
        (
            f"""\
         official:
           - func: {BINARY}
             op_api: all_version
             gen_opapi:
               out: {{size: self, dtype: self}}
               cpu_scalar_op:
                 - param: other
                   exec: aclnnAdds
               exec: aclnnAdd, self, alpha, out
         """,
            f"{OPS}:8: add.Tensor: gen_opapi: cpu_scalar_op: 'other' is not an argument of "
            "exec, so 'exec: aclnnAdds' would not pass the scalar; list its arguments",
        ),
        (
            f"""\
         official:
           - func: {BINARY}
             op_api: all_version
             gen_opapi:
               out: {{size: self, dtype: self}}
               cpu_scalar_op: {{param: other, exec: aclnnAdds}}
               exec: aclnnAdd
         """,
            f"{OPS}:6: add.Tensor: cpu_scalar_op must be a list of {{param, exec}} mappings",
        ),
        (
            f"""\
         official:
           - func: {BINARY}
             op_api: all_version
             gen_opapi:
               out: {{size: self, dtype: self}}
               cpu_scalar_h2d: {{other: true}}
               exec: aclnnAdd
         """,
            f"{OPS}:6: add.Tensor: cpu_scalar_h2d must be a list of tensor argument names",
        ),
        (
            """\
         official:
           - func: max.dim(Tensor self, int dim) -> (Tensor values, Tensor indices)
             op_api: all_version
             acl_op: all_version
             gen_opapi:
               values: {size: self, dtype: self}
               indices: {size: self, dtype: at::kLong}
               integral_identity_tensor: self
               exec: aclnnMaxDim
         """,
            f"{OPS}:5: max.dim: gen_opapi: integral_identity_tensor copies its tensor to the "
            "one result; max.dim has 2",
        ),
        (
            """\
         official:
           - func: abs(Tensor self) -> Tensor
             op_api: all_version
             dispatch:
               CompositeExplicitAutogard: abs
         """,
            f"{OPS}:4: abs: dispatch: unknown dispatch key 'CompositeExplicitAutogard'; did you "
            "mean 'CompositeExplicitAutograd'?",
        ),
        (
            """\
         official:
           - func: abs(Tensor self) -> Tensor
             op_api: all_version
             tags: [core, "not a tag"]
         """,
            f"{OPS}:4: abs: tags: 'not a tag' is not a tag name",
        ),
        (
            """\
         official:
           - func: abs(Tensor self) -> Tensor
             op_api: "[v2.3, newest]"
         """,
            f"{OPS}:3: abs: op_api: '[v2.3, newest]' is a quoted string, not a list: write the "
            "range without quotes",
        ),
        (
            """\
         all_version: [v2.2, v2.1, v2.3, v2.4, v2.5, v2.6, v2.7, v2.8, v2.9, v2.10, v2.11,
                       v2.12, v2.13, v2.14, v2.15]
         official: []
         """,
            f"{OPS}:1: all_version must list the labels of versions.yaml in the same order "
            "(v2.1, v2.2, v2.3, v2.4, v2.5, v2.6, v2.7, v2.8, v2.9, v2.10, v2.11, v2.12, v2.13, "
            "v2.14, v2.15); same labels in another order",
        ),
        (
            """\
         all_version: [v2.1, v2.2, v2.3, v2.4, v2.5, v2.6, v2.7, v2.8, v2.9, v2.10, v2.11,
                       v2.12, v2.13, v2.14, v2.15, v2.16]
         official: []
         """,
            f"{OPS}:1: all_version must list the labels of versions.yaml in the same order "
            "(v2.1, v2.2, v2.3, v2.4, v2.5, v2.6, v2.7, v2.8, v2.9, v2.10, v2.11, v2.12, v2.13, "
            "v2.14, v2.15); not in versions.yaml: v2.16",
        ),
    ],
)
def test_errors_of_the_full_format(tmp_path: Path, ops: str, expected: str) -> None:
    check_invalid(tmp_path, textwrap.dedent(ops), [expected])


def _with_deprecated(tmp_path: Path, text: str) -> list[str]:
    (tmp_path / "yaml").mkdir(parents=True, exist_ok=True)
    make_yaml_dir(tmp_path, GOOD)
    (tmp_path / "yaml" / "deprecated.yaml").write_text(textwrap.dedent(text))
    with pytest.raises(CodegenError) as e:
        generate("v2.13", tmp_path / "yaml", tmp_path / "out")
    assert not (tmp_path / "out").exists()
    return [str(d) for d in e.value.diagnostics]


def test_deprecated_yaml_errors(tmp_path: Path) -> None:
    lines = _with_deprecated(
        tmp_path,
        """\
        deprecated:
          - name: abss
          - name: abs.out
            replce: torch.abs
          - name: abs
            replace: torch.abs
          - name: abs
        """,
    )
    dep = "yaml/deprecated.yaml"
    assert lines == [
        f"{dep}:2: abss: no op of this name in official, custom or quant; did you mean 'abs'?",
        f"{dep}:4: abs.out: unknown key 'replce'; did you mean 'replace'?",
        f"{dep}:7: abs: listed twice (first at {dep}:5)",
    ]


def test_deprecated_names_are_exact_overloads(tmp_path: Path) -> None:
    """As upstream: `abs` is the overload without a name, not every overload of abs, so a
    file lists `abs` and `abs.out` side by side; an overload that is not declared is unknown."""
    lines = _with_deprecated(
        tmp_path, "deprecated:\n  - name: abs.out\n  - name: abs\n  - name: abs.Scalar\n"
    )
    assert lines == [
        "yaml/deprecated.yaml:4: abs.Scalar: no op of this name in official, custom or quant"
    ]


def test_derivatives_all_version_must_match(tmp_path: Path) -> None:
    check_invalid(
        tmp_path,
        GOOD,
        [
            "yaml/derivatives.yaml:1: all_version must list the labels of versions.yaml in the "
            "same order (v2.1, v2.2, v2.3, v2.4, v2.5, v2.6, v2.7, v2.8, v2.9, v2.10, v2.11, "
            "v2.12, v2.13, v2.14, v2.15); missing v2.15"
        ],
        derivatives="""\
        all_version: [v2.1, v2.2, v2.3, v2.4, v2.5, v2.6, v2.7, v2.8, v2.9, v2.10, v2.11,
                      v2.12, v2.13, v2.14]
        backward: []
        """,
    )
