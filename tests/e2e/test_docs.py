"""The documentation keeps up with the code: every command of `ltt help` has
a man page that names each of its long options, and the pages are installed."""
import os
import re
import subprocess

import pytest

from conftest import TOP, build_path

MAN = os.path.join(TOP, "doc", "man")
BUILTIN = {"help", "version"}     # documented in ltt(1)


def commands():
    out = subprocess.run([build_path("src", "cli", "ltt"), "help"], capture_output=True,
                         text=True, check=True).stdout
    block = out.split("Commands:\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in block.splitlines()]


def long_options(help_text):
    return set(re.findall(r"(?<![\w-])--([a-z][a-z-]*)", help_text))


def man_text(page):
    with open(os.path.join(MAN, page)) as f:
        return f.read().replace("\\-", "-")


@pytest.mark.parametrize("command", [c for c in commands() if c not in BUILTIN])
def test_man_page_names_every_option(command):
    page = f"ltt-{command}.1"
    assert os.path.exists(os.path.join(MAN, page)), f"no man page {page}"
    text = man_text(page)
    help_text = subprocess.run([build_path("src", "cli", "ltt"), command, "--help"],
                               capture_output=True, text=True, check=True).stdout
    missing = [o for o in long_options(help_text) if f"--{o}" not in text]
    assert not missing, f"{page} does not describe {missing}"
    assert f"ltt-{command}(1)" in man_text("ltt.1").replace(".BR ", "").replace(" (1)", "(1)")


def test_every_page_is_installed():
    with open(os.path.join(TOP, "doc", "meson.build")) as f:
        installed = set(re.findall(r"'man/([^']+)'", f.read()))
    assert installed == set(os.listdir(MAN))
