"""Toolkit version queries: aclsysGetVersionStr / aclsysGetVersionNum / aclsysGetCANNVersion
report the simulated CANN package ("CANN"), NPU_SIM_CANN_VERSION overrides it (read once per
process, so each case runs in a fresh interpreter), other packages are CANN's error."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import ascendc_kernels_testing as sim
import pytest

ACL_ERROR_INVALID_FILE = 100003
ACL_ERROR_INTERNAL_ERROR = 500000

# Prints {"str": [rc, text], "num": [rc, value], "cann": [rc, version, major, minor, release, patch],
# "unknown": [rc of each query for another package, message]} as JSON.
_QUERY_SCRIPT = r"""
import ctypes, json
import ascendc_kernels_testing as sim

acl = sim.load().acl

class PackageVersion(ctypes.Structure):
    _fields_ = [("version", ctypes.c_char * 128), ("major", ctypes.c_char * 64), ("minor", ctypes.c_char * 64),
                ("release", ctypes.c_char * 64), ("patch", ctypes.c_char * 64), ("reserved", ctypes.c_char * 128)]

acl.aclsysGetVersionStr.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
acl.aclsysGetVersionNum.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int32)]
acl.aclsysGetCANNVersion.argtypes = [ctypes.c_int, ctypes.POINTER(PackageVersion)]

text = ctypes.create_string_buffer(128)
rc_str = acl.aclsysGetVersionStr(b"CANN", text)
number = ctypes.c_int32(-1)
rc_num = acl.aclsysGetVersionNum(b"CANN", ctypes.byref(number))
version = PackageVersion()
rc_cann = acl.aclsysGetCANNVersion(0, ctypes.byref(version))
unknown = [acl.aclsysGetVersionStr(b"opp", text), acl.aclsysGetVersionNum(b"opp", ctypes.byref(number)),
           acl.aclsysGetCANNVersion(7, ctypes.byref(version)), sim.recent_error()]
null_args = [acl.aclsysGetVersionStr(None, text), acl.aclsysGetVersionStr(b"CANN", None)]
print(json.dumps({
    "str": [rc_str, text.value.decode()],
    "num": [rc_num, number.value],
    "cann": [rc_cann] + [getattr(version, f).decode() for f in ("version", "major", "minor", "release", "patch")],
    "unknown": unknown,
    "null": null_args,
}))
"""


def query(cann_version: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "NPU_SIM_CANN_VERSION"}
    if cann_version is not None:
        env["NPU_SIM_CANN_VERSION"] = cann_version
    out = subprocess.run([sys.executable, "-c", _QUERY_SCRIPT], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return {"result": json.loads(out.stdout), "stderr": out.stderr}


def test_default_version_is_a_current_cann_release():
    result = query(None)["result"]
    assert result["str"] == [0, "8.5.0"]
    assert result["num"] == [0, 80500000]
    assert result["cann"] == [0, "8.5.0", "8", "5", "0", ""]


def test_other_packages_and_null_arguments_are_errors():
    result = query(None)["result"]
    assert result["unknown"][:3] == [ACL_ERROR_INVALID_FILE] * 3
    assert "no version information for package 7" in result["unknown"][3]
    assert result["null"] == [sim.ACL_ERROR_INVALID_PARAM] * 2


def test_env_simulates_an_older_toolkit():
    result = query("8.1.RC1")["result"]
    assert result["str"] == [0, "8.1.RC1"]
    assert result["cann"] == [0, "8.1.RC1", "8", "1", "RC1", ""]
    # CANN has no numeric form of the RC spelling.
    assert result["num"] == [ACL_ERROR_INTERNAL_ERROR, -1]


@pytest.mark.parametrize(("version", "number"), [("8.5.0.alpha003", 80500000 - 300 + 3), ("9.0.0-rc1", 89999901),
                                                 ("8.5.1", 80501000)])
def test_version_number_weighs_prereleases(version, number):
    assert query(version)["result"]["num"] == [0, number]


def test_unusable_env_value_is_ignored_with_a_warning():
    run = query("8.5.0; rm -rf /")
    assert run["result"]["str"] == [0, "8.5.0"]
    assert "ignoring NPU_SIM_CANN_VERSION" in run["stderr"]
