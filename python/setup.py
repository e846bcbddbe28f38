"""setup.py: builds the `carcassonne` package with the C library inside.

The library's sources are those CMakeLists.txt builds (read from it, so
the two never disagree): the modules every build shares, and the layout
modules compiled twice, once per state layout (src/layout.h), each with
the rotated tile tables that tools/gen_tables.c generates at build time.
Everything is compiled here with the compiler Python was built with; no
CMake, no network. Offline install (docs/python.md):

    pip install --no-build-isolation ./python

Environment: CARC_ROOT=DIR the repository when this folder was copied
elsewhere; CARC_WERROR=1 turns warnings into errors (the tests set it);
CARC_SANITIZE=1 builds with AddressSanitizer and UBSan (the ASan test).
"""
import json
import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
# The repository (the library's sources): this folder's parent, or
# $CARC_ROOT when the package folder was copied elsewhere (the tests do).
ROOT = os.environ.get("CARC_ROOT") or os.path.dirname(HERE)

WARNINGS = ["-Wall", "-Wextra", "-Wshadow", "-Wconversion", "-Wstrict-prototypes",
            "-Wmissing-prototypes", "-Wpointer-arith", "-Wvla", "-Wformat=2", "-Wundef"]
PYTHON_ONLY_FLAGS = {"-fwrapv", "-fstack-protector-strong", "-g", "-Wsign-compare",
                     "-Werror=format-security", "-Wformat", "-O3", "-O0", "-O1"}


def cmake_list(text, pattern):
    """The .c files of the first CMake command matching `pattern`."""
    match = re.search(pattern + r"(.*?)\)", text, re.S)
    if not match:
        raise RuntimeError("setup.py: CMakeLists.txt has no " + pattern)
    return re.findall(r"(?:src|tools)/[\w/]+\.c", match.group(1))


def library_sources():
    """(shared sources, layout sources, wide-only sources) from CMakeLists.txt."""
    path = os.path.join(ROOT, "CMakeLists.txt")
    if not os.path.exists(path):
        raise RuntimeError("setup.py: no %s: build from the repository's python/ folder, "
                           "or set CARC_ROOT to the repository" % path)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    layout = cmake_list(text, r"set\(CARC_LAYOUT_SOURCES")
    wide = cmake_list(text, r"set\(CARC_WIDE_SOURCES")
    shared = cmake_list(text, r"add_library\(carcassonne STATIC")
    return shared, layout, wide


def flags():
    common = ["-std=c17", "-O2", "-fPIC", "-fvisibility=hidden"] + WARNINGS
    if os.environ.get("CARC_WERROR") == "1":
        common.append("-Werror")
    if os.environ.get("CARC_SANITIZE") == "1":
        # -g1: line tables, all a sanitizer's report needs (its stack
        # frames' variables come from the sanitizer's own instrumentation).
        common += ["-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                   "-fno-omit-frame-pointer", "-g1", "-O1"]
    return common


def up_to_date(obj, command):
    """Whether the object `obj` was made by `command` and is newer than
    every file it was made from (the dependency list gcc wrote beside it,
    -MMD): a second install in the same tree compiles only what changed."""
    try:
        with open(obj + ".cmd", encoding="utf-8") as f:
            if f.read() != command:
                return False
        with open(os.path.splitext(obj)[0] + ".d", encoding="utf-8") as f:
            deps = f.read().replace("\\\n", " ").split(":", 1)[1].split()
        made = os.path.getmtime(obj)
        return all(os.path.getmtime(dep) <= made for dep in deps)
    except (OSError, IndexError):
        return False


class BuildWithLibrary(build_ext):
    """Generates the tile tables, compiles the library, links it in."""

    def build_extension(self, ext):
        tmp = os.path.abspath(os.path.join(self.build_temp, "carc"))
        os.makedirs(tmp, exist_ok=True)
        shared, layout, wide = library_sources()
        units = []  # (wrapper file, LAYOUT_WIDE) to compile
        for name in ("base", "wide"):
            is_wide = 1 if name == "wide" else 0
            tables = self.generate_tables(tmp, name, is_wide)
            units.append((tables, is_wide))
            for src in layout + (wide if is_wide else []):
                units.append((self.wrapper(tmp, src, name, is_wide), is_wide))
        for src in shared:
            units.append((self.wrapper(tmp, src, "all", 0), 0))
        objects = self.compile_parallel(tmp, units)
        ext.extra_objects = objects
        # The extension is linked again when an object is newer than it
        # (build_ext looks only at the sources and `depends`).
        ext.depends = list(ext.depends) + objects
        ext.extra_compile_args = flags()
        ext.extra_link_args = ["-pthread", "-lm"] + (
            ["-fsanitize=address,undefined"] if os.environ.get("CARC_SANITIZE") == "1" else [])
        super().build_extension(ext)

    def wrapper(self, tmp, src, name, is_wide):
        """A file that compiles `src` in one layout (objects never collide)."""
        path = os.path.join(tmp, name + "_" + src.replace("/", "_"))
        text = '#define LAYOUT_WIDE %d\n#include "%s"\n' % (is_wide, os.path.join(ROOT, src))
        if src == "src/ai/player.c":
            # "mcts:net=default": the network committed with the sources,
            # built into the library as the CMake build does
            # (docs/learning.md).
            net = os.path.join(ROOT, "data", "nets", "default.carcnet")
            text = "#define CARC_NET_DEFAULT %s\n" % json.dumps(net) + text
        if not os.path.exists(path) or open(path, encoding="utf-8").read() != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        return path

    def generate_tables(self, tmp, name, is_wide):
        """Builds and runs tools/gen_tables.c for one layout; returns the .c."""
        out_dir = os.path.join(tmp, "gen_" + name)
        sources = [os.path.join(ROOT, "tools/gen_tables.c"), os.path.join(ROOT, "src/tile_data.c")]
        objects = self.compiler.compile(
            sources, output_dir=out_dir,
            macros=[("LAYOUT_WIDE", str(is_wide)), ("_POSIX_C_SOURCE", "200809L")],
            include_dirs=[os.path.join(ROOT, "include"), os.path.join(ROOT, "src")],
            extra_postargs=["-std=c17", "-O1"])
        exe = os.path.join(out_dir, "gen_tables_" + name)
        self.compiler.link_executable(objects, exe)
        tables = os.path.join(tmp, "tile_tables_%s.c" % name)
        args = [exe] + (["--shared"] if not is_wide else [])
        text = subprocess.run(args, check=True, stdout=subprocess.PIPE).stdout
        if not os.path.exists(tables) or open(tables, "rb").read() != text:
            with open(tables, "wb") as f:
                f.write(text)
        return tables

    def compile_parallel(self, tmp, units):
        include = [os.path.join(ROOT, "include"), os.path.join(ROOT, "src")]
        extra = flags()

        out = os.path.join(tmp, "obj")

        def one(unit):
            path, is_wide = unit
            macros = [("LAYOUT_WIDE", str(is_wide)), ("_POSIX_C_SOURCE", "200809L")]
            obj = self.compiler.object_filenames([path], output_dir=out)[0]
            # What the object was made with: a change of compiler, flags
            # or macros (CARC_SANITIZE in the same tree) makes it anew.
            command = repr((self.compiler.compiler_so, macros, include, extra))
            if not self.force and up_to_date(obj, command):
                return obj
            made = self.compiler.compile([path], output_dir=out, macros=macros,
                                         include_dirs=include, extra_postargs=extra + ["-MMD"])[0]
            with open(obj + ".cmd", "w", encoding="utf-8") as f:
                f.write(command)
            return made

        # The library gets the project's own optimisation, not Python's
        # extra flags (-fwrapv, -fstack-protector-strong, -g cost 10-15% in
        # random play), so that it runs as fast as `carcassonne bench`.
        saved = self.compiler.compiler_so
        self.compiler.compiler_so = [f for f in saved if f not in PYTHON_ONLY_FLAGS]
        try:
            jobs = max(1, min(8, os.cpu_count() or 1))
            with ThreadPoolExecutor(jobs) as pool:
                return list(pool.map(one, units))
        finally:
            self.compiler.compiler_so = saved


setup(
    name="carcassonne",
    version="0.1.0",
    description="The Carcassonne rules engine, computer players and research interfaces",
    python_requires=">=3.11",
    packages=["carcassonne"],
    install_requires=["numpy"],
    ext_modules=[Extension(
        "carcassonne._core",
        sources=["carcassonne/_core.c"],
        include_dirs=[os.path.join(ROOT, "include")])],
    cmdclass={"build_ext": BuildWithLibrary},
)
