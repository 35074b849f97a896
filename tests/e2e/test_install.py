"""`make install` lays out bin/, lib/, include/, share/man/ and pkg-config files."""
import os
import subprocess

from conftest import BUILD


def test_install_layout(tmp_path):
    subprocess.run(["meson", "install", "-C", BUILD, "--quiet", "--destdir", str(tmp_path)],
                   check=True, capture_output=True)
    prefix = subprocess.run(["meson", "introspect", "--buildoptions", BUILD],
                            capture_output=True, text=True, check=True).stdout
    import json
    opts = {o["name"]: o["value"] for o in json.loads(prefix)}
    root = str(tmp_path) + opts["prefix"]
    libdir = os.path.join(root, opts["libdir"])
    expected = [
        os.path.join(root, "bin", "ltt"),
        os.path.join(root, "bin", "ltt-sessiond"),
        os.path.join(root, "include", "ltt", "ctl.h"),
        os.path.join(libdir, "libltt-ctl.so"),
        os.path.join(libdir, "pkgconfig", "ltt-ctl.pc"),
        os.path.join(root, "share", "man", "man1", "ltt-create.1"),
        os.path.join(root, "share", "man", "man8", "ltt-sessiond.8"),
    ]
    missing = [p for p in expected if not os.path.exists(p)]
    assert not missing
