"""The shared libraries export exactly their public API: ltt_ symbols."""
import glob
import subprocess

import pytest

from conftest import build_path

LIBS = sorted(glob.glob(build_path("src", "*", "libltt-*.so")))


def test_libraries_were_found():
    assert build_path("src", "ctl", "libltt-ctl.so") in LIBS


@pytest.mark.parametrize("lib", LIBS)
def test_exports_only_ltt_symbols(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True,
                         text=True, check=True).stdout
    names = [line.split()[-1] for line in out.splitlines() if line.strip()]
    assert names, f"{lib} exports nothing"
    stray = [n for n in names if not n.startswith("ltt_") and not n.startswith("LTT_")]
    assert not stray, f"{lib} exports {stray}"
