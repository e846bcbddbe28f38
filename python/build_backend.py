"""build_backend.py: the package's PEP 517 build backend (pyproject.toml),
so that pip builds it with any CPython 3.11+ that has setuptools, with or
without the `wheel` package (docs/python.md, "Install").

setuptools before 70.1 needs `wheel` for its bdist_wheel command, and a
Python that lacks it (a pyenv or python.org build: `python3 -m venv`
gives pip and setuptools, not wheel) failed with "error: invalid command
'bdist_wheel'" under `pip install --no-build-isolation ./python`. This
backend compiles with setuptools (`setup.py egg_info build`, the same
build as before) and writes the wheel itself: a zip of the built files
and a .dist-info folder (METADATA, WHEEL, RECORD), as the wheel format
(PEP 427) defines it. The sdist is setuptools' own.
"""
import base64
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

from setuptools import build_meta as _setuptools

HERE = os.path.dirname(os.path.abspath(__file__))
NAME = "carcassonne"


def get_requires_for_build_wheel(config_settings=None):
    return []  # setuptools, which pyproject.toml requires, is all


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_sdist(sdist_directory, config_settings=None):
    return _setuptools.build_sdist(sdist_directory, config_settings)


def _tag():
    """This interpreter's wheel tag: cpXY-cpXY-platform."""
    python = "cp%d%d" % sys.version_info[:2]
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return "%s-%s-%s" % (python, python, platform)


def _digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _metadata(egg_base):
    """The PKG-INFO that egg_info wrote (the METADATA format) and the version."""
    with open(os.path.join(egg_base, NAME + ".egg-info", "PKG-INFO"), encoding="utf-8") as f:
        text = f.read()
    version = next(line.split(":", 1)[1].strip() for line in text.splitlines()
                   if line.startswith("Version:"))
    return text, version


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    """Builds the extension with setup.py and packs the wheel."""
    tmp = tempfile.mkdtemp(prefix="carcassonne-wheel-")
    try:
        lib, egg_base = os.path.join(tmp, "lib"), os.path.join(tmp, "egg")
        os.makedirs(egg_base)
        subprocess.run([sys.executable, "setup.py", "-q", "egg_info", "--egg-base", egg_base,
                        "build", "--build-lib", lib], cwd=HERE, check=True)
        metadata, version = _metadata(egg_base)
        tag = _tag()
        info = "%s-%s.dist-info" % (NAME, version)
        files = {}
        for root, _, names in os.walk(lib):
            for name in names:
                path = os.path.join(root, name)
                with open(path, "rb") as f:
                    files[os.path.relpath(path, lib).replace(os.sep, "/")] = f.read()
        files[info + "/METADATA"] = metadata.encode()
        files[info + "/WHEEL"] = ("Wheel-Version: 1.0\nGenerator: carcassonne build_backend\n"
                                  "Root-Is-Purelib: false\nTag: %s\n" % tag).encode()
        files[info + "/top_level.txt"] = (NAME + "\n").encode()
        record = "".join("%s,%s,%d\n" % (path, _digest(data), len(data))
                         for path, data in sorted(files.items()))
        files[info + "/RECORD"] = (record + info + "/RECORD,,\n").encode()
        wheel = "%s-%s-%s.whl" % (NAME, version, tag)
        with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w",
                             zipfile.ZIP_DEFLATED) as z:
            for path, data in sorted(files.items()):
                z.writestr(path, data)
        return wheel
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
