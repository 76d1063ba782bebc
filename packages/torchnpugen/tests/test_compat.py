"""compat.py: the differences between supported torch releases, each named with its
releases and detected on the installed torchgen (never by comparing version numbers)."""

from __future__ import annotations

import pytest

from torchnpugen.compat import (
    TORCHGEN_DIFFERENCES,
    cpp_default,
    cpp_spelling,
    detected_differences,
    difference,
    release_tuple,
    tags_for_installed_torch,
    torch_version,
)
from torchnpugen_testlib import run_cli


def test_every_difference_names_the_releases_it_applies_to() -> None:
    names = [d.name for d in TORCHGEN_DIFFERENCES]
    assert len(names) == len(set(names))
    for d in TORCHGEN_DIFFERENCES:
        first, last = d.measured
        assert release_tuple(first) <= release_tuple(last), d.name
        assert first in d.releases and last in d.releases, (d.name, d.releases)
        assert d.handling.strip(), d.name
    assert difference("no-aoti-c-shim").name == "no-aoti-c-shim"
    with pytest.raises(KeyError):
        difference("nope")


def test_detection_agrees_with_the_measured_releases() -> None:
    """Each difference was measured on every label's torch (2.1-2.15): the installed torchgen shows
    exactly the differences whose measured releases include it."""
    release = release_tuple(torch_version())
    here = {d.name for d in detected_differences()}
    assert here == {d.name for d in TORCHGEN_DIFFERENCES if d.measured_on(release)}, torch_version()


def test_spellings_are_one_across_releases() -> None:
    # torch 2.1 and 2.13 spell these differently; generated code gets one spelling.
    assert cpp_spelling("::std::optional<int64_t>") == "c10::optional<int64_t>"
    assert cpp_spelling("c10::optional<int64_t>") == "c10::optional<int64_t>"
    assert cpp_default("::std::nullopt") == cpp_default("c10::nullopt") == "c10::nullopt"
    assert cpp_default("MemoryFormat::Contiguous") == "c10::MemoryFormat::Contiguous"
    assert cpp_spelling("padding_idx.expect_int()") == "padding_idx.guard_int(__FILE__, __LINE__)"
    assert (
        cpp_spelling("p.has_value() ? c10::make_optional(p->expect_int()) : c10::nullopt")
        == "p.has_value() ? c10::make_optional(p->guard_int(__FILE__, __LINE__)) : c10::nullopt"
    )


def test_only_tags_of_later_releases_are_dropped() -> None:
    assert tags_for_installed_torch(("pt2_compliant_tag", "core"), {"core"}) == (("core",), ("pt2_compliant_tag",))
    assert tags_for_installed_torch(("pt2_compliant_tag",), {"pt2_compliant_tag"}) == (("pt2_compliant_tag",), ())
    # an unknown tag is kept, so that validation reports it
    assert tags_for_installed_torch(("pointwize",), {"pointwise"}) == (("pointwize",), ())


def test_the_compat_command_lists_every_difference() -> None:
    result = run_cli("compat")
    assert result.returncode == 0, result.stderr
    assert f"torch {torch_version()}: {len(detected_differences())} of {len(TORCHGEN_DIFFERENCES)}" in result.stdout
    for d in TORCHGEN_DIFFERENCES:
        assert f"{d.name}: " in result.stdout
