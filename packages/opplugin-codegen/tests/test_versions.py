"""The version registry and the one range model every step uses."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from opplugin_codegen.errors import Diagnostics
from opplugin_codegen.versions import (
    RangeError,
    VersionRegistry,
    load_registry,
    parse_range,
)
from opplugin_codegen_testing import PROJECT_YAML


def registry(n: int) -> VersionRegistry:
    labels = tuple(f"v2.{i}" for i in range(1, n + 1))
    return VersionRegistry(labels, tuple(f"2.{i}.0" for i in range(1, n + 1)), labels[-1])


REG = registry(15)


def test_project_registry_loads() -> None:
    diags = Diagnostics()
    reg = load_registry(PROJECT_YAML / "versions.yaml", "yaml/versions.yaml", diags)
    assert not diags, diags.items
    assert reg is not None
    assert reg.labels[0] == "v2.1"
    assert reg.default in reg.labels
    assert reg.torch_pin("v2.13").startswith("2.13")
    assert reg.has_named_tensors("v2.12")
    assert not reg.has_named_tensors("v2.13")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("all_version", REG.labels),
        (["v2.3", "newest"], REG.labels[2:]),
        (["v2.1", "v2.6"], REG.labels[:6]),
        (["v2.4", "v2.4"], ("v2.4",)),
        ("v2.2", ("v2.2",)),
        ("v2.1, v2.2", ("v2.1", "v2.2")),
        ("v2.1,v2.10", ("v2.1", "v2.10")),
        (" v2.3 ,v2.5 ", ("v2.3", "v2.5")),
    ],
)
def test_grammar(value: object, expected: tuple[str, ...]) -> None:
    assert parse_range(value, REG).labels == expected


def test_spelling_is_normalised() -> None:
    assert str(parse_range(["v2.3", "newest"], REG)) == "[v2.3, newest]"
    assert str(parse_range("v2.1,v2.2", REG)) == "v2.1, v2.2"
    assert str(parse_range("all_version", REG)) == "all_version"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (["v2.5", "v2.2"], "reversed range [v2.5, v2.2]: v2.2 comes before v2.5"),
        ("v2.70", "unknown version label 'v2.70' (known: v2.1 ... v2.15); did you mean 'v2.7'?"),
        (["v2.0", "newest"], "unknown version label 'v2.0'"),
        (["v2.3"], "a range list must be [start, end] with two labels, got 1 element(s)"),
        (["v2.1", "v2.2", "v2.3"], "got 3 element(s)"),
        (["newest", "v2.3"], "'newest' can only end a range"),
        (2.2, "got the number 2.2"),
        (
            True,
            "expected a version range (all_version, [start, end], v2.5 or 'v2.1, v2.2'), got true",
        ),
        (None, "got null"),
        (5, "expected a version label such as 'v2.15', got the number 5"),
        ("", "empty version range"),
        ("v2.1,,v2.2", "empty label in the list"),
        ("v2.1, v2.1", "label 'v2.1' is listed twice"),
        ("v2.1, newest", "'newest' cannot be part of a label list"),
        ({"a": 1}, "expected a version range, got a mapping"),
    ],
)
def test_errors(value: object, message: str) -> None:
    with pytest.raises(RangeError) as e:
        parse_range(value, REG)
    assert message in str(e.value)


def test_v2_1_never_matches_v2_10() -> None:
    r = parse_range("v2.1", REG)
    assert "v2.1" in r
    assert "v2.10" not in r
    assert "v2.11" not in r
    assert "v2.10" not in parse_range(["v2.1", "v2.1"], REG)


def test_unknown_or_foreign_labels_are_never_members() -> None:
    r = parse_range("all_version", REG)
    assert "v2.16" not in r
    assert "2.1" not in r
    assert 2.1 not in r


# -- property tests ---------------------------------------------------------------------

sizes = st.integers(min_value=2, max_value=20)


@st.composite
def range_case(draw: st.DrawFn) -> tuple[VersionRegistry, object, set[str]]:
    reg = registry(draw(sizes))
    labels = reg.labels
    kind = draw(st.sampled_from(["all", "pair", "newest", "single", "list"]))
    if kind == "all":
        return reg, "all_version", set(labels)
    if kind in ("pair", "newest"):
        lo = draw(st.integers(0, len(labels) - 1))
        if kind == "newest":
            return reg, [labels[lo], "newest"], set(labels[lo:])
        hi = draw(st.integers(lo, len(labels) - 1))
        return reg, [labels[lo], labels[hi]], set(labels[lo : hi + 1])
    if kind == "single":
        label = draw(st.sampled_from(labels))
        return reg, label, {label}
    chosen = draw(st.lists(st.sampled_from(labels), min_size=1, unique=True))
    sep = draw(st.sampled_from([", ", ",", " , "]))
    return reg, sep.join(chosen), set(chosen)


@settings(database=None)  # write no .hypothesis/ outside the package
@given(range_case())
def test_membership_is_exact(case: tuple[VersionRegistry, object, set[str]]) -> None:
    reg, value, expected = case
    r = parse_range(value, reg)
    assert {label for label in reg.labels if label in r} == expected
    assert set(r.labels) == expected
    # The normalised spelling parses back to the same set.
    assert set(parse_range(_reparse(str(r)), reg).labels) == expected


def _reparse(spelling: str) -> object:
    if spelling.startswith("["):
        a, b = spelling[1:-1].split(", ")
        return [a, b]
    return spelling


@settings(database=None)
@given(sizes, st.data())
def test_newest_is_a_suffix(n: int, data: st.DataObject) -> None:
    reg = registry(n)
    start = data.draw(st.sampled_from(reg.labels))
    r = parse_range([start, "newest"], reg)
    assert r.labels == reg.labels[reg.labels.index(start) :]


@settings(database=None)
@given(sizes, st.data())
def test_reversed_ranges_are_errors(n: int, data: st.DataObject) -> None:
    reg = registry(n)
    lo = data.draw(st.integers(0, n - 2))
    hi = data.draw(st.integers(lo + 1, n - 1))
    with pytest.raises(RangeError, match="reversed range"):
        parse_range([reg.labels[hi], reg.labels[lo]], reg)


@settings(database=None)
@given(st.integers(min_value=10, max_value=20), st.data())
def test_single_label_never_matches_a_longer_one(n: int, data: st.DataObject) -> None:
    reg = registry(n)
    label = data.draw(st.sampled_from(reg.labels))
    r = parse_range(label, reg)
    assert [x for x in reg.labels if x in r] == [label]


# -- versions.yaml validation -----------------------------------------------------------


def _load(tmp_path: Path, text: str) -> tuple[VersionRegistry | None, list[str]]:
    p = tmp_path / "versions.yaml"
    p.write_text(text)
    diags = Diagnostics()
    reg = load_registry(p, "yaml/versions.yaml", diags)
    return reg, [str(d) for d in diags.items]


def test_registry_errors(tmp_path: Path) -> None:
    reg, errors = _load(
        tmp_path,
        "default: v2.9\n"
        "versions:\n"
        '  v2.2: {torch: "2.2.2"}\n'
        '  v2.1: {torch: "2.1.2"}\n'
        '  v2.3: {torch: "2.4.0", cuda: x}\n'
        "extra: 1\n",
    )
    assert reg is None
    assert "yaml/versions.yaml:4: label 'v2.1' is out of order: labels must ascend" in errors
    assert "yaml/versions.yaml:5: unknown key 'cuda' for label 'v2.3'" in errors
    assert "yaml/versions.yaml:5: torch pin 2.4.0 does not match label 'v2.3'" in errors
    assert "yaml/versions.yaml:6: unknown key 'extra'" in errors
    assert any(e.startswith("yaml/versions.yaml:1: default 'v2.9' is not a label") for e in errors)


# -- every step asks the same question --------------------------------------------------


def _yaml_range(value: object) -> str:
    return f"[{value[0]}, {value[1]}]" if isinstance(value, list) else f'"{value}"'


@st.composite
def range15(draw: st.DrawFn) -> tuple[object, set[str]]:
    reg15 = registry(15)  # the registry of the project and of the test YAMLs
    kind = draw(st.sampled_from(["all", "pair", "newest", "single", "list"]))
    labels = reg15.labels
    if kind == "all":
        return "all_version", set(labels)
    if kind in ("pair", "newest"):
        lo = draw(st.integers(0, 14))
        if kind == "newest":
            return [labels[lo], "newest"], set(labels[lo:])
        hi = draw(st.integers(lo, 14))
        return [labels[lo], labels[hi]], set(labels[lo : hi + 1])
    if kind == "single":
        label = draw(st.sampled_from(labels))
        return label, {label}
    chosen = draw(st.lists(st.sampled_from(labels), min_size=1, max_size=4, unique=True))
    return ", ".join(chosen), set(chosen)


@settings(database=None, max_examples=30, deadline=None)
@given(range15(), range15())
def test_projection_interface_kernels_and_meta_agree(
    api: tuple[object, set[str]], acl: tuple[object, set[str]]
) -> None:
    """The struct kernel, the declarations, the projection and the meta function of an op
    exist exactly in the labels of its ranges (upstream's struct step re-implemented the
    test and got `[v2.1, v2.3]` and `v2.10` wrong)."""
    import tempfile

    from opplugin_codegen import load_model, render_label
    from opplugin_codegen_testing import make_yaml_dir

    (api_value, api_set), (acl_value, acl_set) = api, acl
    with tempfile.TemporaryDirectory() as tmp:
        d = make_yaml_dir(
            Path(tmp),
            f"""\
            official:
              - func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
                op_api: {_yaml_range(api_value)}
                acl_op: {_yaml_range(acl_value)}
                gen_opapi:
                  out: {{size: self, dtype: self}}
                  exec: aclnnAbs
            """,
        )
        model = load_model(d)
        for label in model.registry.labels:
            files = render_label(model, label, shards=1)
            text = "".join(files.values())
            projected = files["op_plugin/config/op_plugin_functions.yaml"]
            assert ("op_api::abs_out(self, out)" in text) == (label in api_set), label
            assert ("EXEC_NPU_CMD(aclnnAbs" in text) == (label in api_set), label
            assert ('m.def("abs.out(Tensor self)' in text) == (label in api_set), label
            assert ("acl_op::abs_out(self, out)" in text) == (label in acl_set), label
            live = label in api_set | acl_set
            assert ("abs_out(" in files["op_plugin/ops/abs.h"]) == live, label
            # A hand-written kernel asks the family header instead of restating the range.
            header = files["op_plugin/ops/abs.h"]
            assert f"#define OP_API_LIVE_abs_out {int(label in api_set)}\n" in header, label
            assert f"#define ACL_OP_LIVE_abs_out {int(label in acl_set)}\n" in header, label
            assert ('func: "abs.out(' in projected) == live, label


@settings(database=None, max_examples=30, deadline=None)
@given(range15(), range15())
def test_one_schema_in_two_entries_must_not_overlap(
    first: tuple[object, set[str]], second: tuple[object, set[str]]
) -> None:
    import tempfile

    from opplugin_codegen import CodegenError, load_model
    from opplugin_codegen_testing import make_yaml_dir

    with tempfile.TemporaryDirectory() as tmp:
        d = make_yaml_dir(
            Path(tmp),
            f"""\
            official:
              - func: abs(Tensor self) -> Tensor
                op_api: {_yaml_range(first[0])}
              - func: abs(Tensor self) -> Tensor
                acl_op: {_yaml_range(second[0])}
            """,
        )
        overlap = first[1] & second[1]
        if overlap:
            with pytest.raises(CodegenError, match="declared twice for"):
                load_model(d)
        else:
            load_model(d)


def test_registry_extra_requirements(tmp_path: Path) -> None:
    reg, errors = _load(
        tmp_path,
        "default: v2.2\n"
        "versions:\n"
        '  v2.1: {torch: "2.1.2", extra: ["numpy<2", "typing-extensions"]}\n'
        '  v2.2: {torch: "2.2.2"}\n',
    )
    assert errors == [] and reg is not None
    assert reg.extra_requirements("v2.1") == ("numpy<2", "typing-extensions")
    assert reg.extra_requirements("v2.2") == ()
    assert (reg.ordinal("v2.1"), reg.ordinal("v2.2")) == (1, 2)


def test_registry_extra_must_be_a_list_of_strings(tmp_path: Path) -> None:
    reg, errors = _load(
        tmp_path,
        'default: v2.1\nversions:\n  v2.1: {torch: "2.1.2", extra: "numpy<2"}\n',
    )
    assert reg is None
    assert errors == [
        "yaml/versions.yaml:3: 'extra' of 'v2.1' must be a list of pip requirement strings, "
        'e.g. ["numpy<2"]'
    ]
