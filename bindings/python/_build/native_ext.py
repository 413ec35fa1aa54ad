"""Compiling serval._native for the wheel, with the standard library only.

The extension (../src/*.c) is compiled by $CC, else the compiler Python was
built with (sysconfig's CC), against Python's headers (Debian: python3-dev) and a
libserval, looked for in this order:

  1. $SERVAL_BUILD, a serval build directory (libserval.so and include/);
  2. build/ of the serval checkout this package sits in;
  3. pkg-config's serval (an installed libserval: `make install`);
  4. the checkout's own sources, built with CMake into a static library
     that goes inside the extension (then the extension is the library
     the ctypes part loads too, so there is one copy in the process).

A shared libserval is linked with its directory as the run path, and that
path goes into serval/_built.py, so that the ctypes part loads the very same
file. When no compiler, no headers or no libserval is found, build()
returns None and says why on standard error: the wheel is then the pure
ctypes package.
"""
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig

SOURCES = ("native_module.c", "native_to_py.c", "native_from_py.c", "native_stream.c",
           "native_wrap.c", "native_godot.c", "native_bson.c")


class Built(object):
    def __init__(self, tag, files):
        self.tag = tag  # the wheel tag
        self.files = files  # [(path, path in the wheel)]


def _say(message):
    sys.stderr.write("serval: %s\n" % message)


def _checkout(here):
    top = os.path.normpath(os.path.join(here, "..", ".."))
    return top if os.path.exists(os.path.join(top, "include", "serval", "value.h")) else None


def _from_build(build, top):
    lib = os.path.join(build, "libserval.so")
    if not os.path.exists(lib):
        return None
    incs = [os.path.join(build, "include")]
    if top:
        incs.insert(0, os.path.join(top, "include"))
    return {"cflags": ["-I" + i for i in incs], "libs": ["-L" + build, "-lserval"],
            "rpath": build, "library": os.path.realpath(lib), "how": "the build in " + build}


def _from_pkg_config():
    if not shutil.which("pkg-config"):
        return None
    try:
        cflags = subprocess.run(["pkg-config", "--cflags", "serval"], capture_output=True,
                                text=True, check=True).stdout
        libs = subprocess.run(["pkg-config", "--libs", "serval"], capture_output=True,
                              text=True, check=True).stdout
        libdir = subprocess.run(["pkg-config", "--variable=libdir", "serval"],
                                capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    lib = os.path.join(libdir, "libserval.so")
    return {"cflags": shlex.split(cflags), "libs": shlex.split(libs), "rpath": libdir,
            "library": os.path.realpath(lib) if os.path.exists(lib) else None,
            "how": "pkg-config (%s)" % libdir}


def _from_sources(top, tmp):
    """libserval.a built from the checkout's sources with CMake, or None."""
    if not top or not shutil.which("cmake") or not os.path.exists(os.path.join(top, "CMakeLists.txt")):
        return None
    build = os.path.join(tmp, "libserval")
    cfg = ["cmake", "-S", top, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DSERVAL_TESTS=OFF",
           "-DSERVAL_BENCH=OFF", "-DSERVAL_EXAMPLES=OFF", "-DSERVAL_CLI=OFF", "-DSERVAL_PYTHON=OFF"]
    try:
        subprocess.run(cfg, check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["cmake", "--build", build, "-j2", "--target", "serval_static"], check=True,
                       stdout=subprocess.DEVNULL)
    except (OSError, subprocess.CalledProcessError) as exc:
        _say("building libserval from %s failed (%s)" % (top, exc))
        return None
    # the compression libraries libserval links (CMake recorded them)
    # the whole archive: the ctypes part loads the extension as libserval and
    # calls functions the extension itself does not (sv_version, ...)
    libs = ["-Wl,--whole-archive", os.path.join(build, "libserval.a"), "-Wl,--no-whole-archive"]
    for name in ("brotlienc", "brotlidec", "lzma", "lz4", "z", "expat"):
        libs.append("-l" + name)
    return {"cflags": ["-I" + os.path.join(top, "include"), "-I" + os.path.join(build, "include")],
            "libs": libs, "rpath": None, "library": None, "how": "the sources in " + top}


def _abi():
    """(Py_LIMITED_API wanted, file suffix, wheel tag)."""
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    if sys.version_info >= (3, 10):
        return True, ".abi3.so", "cp310-abi3-" + plat
    v = "cp%d%d" % sys.version_info[:2]
    return False, sysconfig.get_config_var("EXT_SUFFIX"), "%s-%s-%s" % (v, v, plat)


def build(here, tmp):
    """Compiles the extension into tmp; a Built, or None with the reason on stderr."""
    if os.environ.get("SERVAL_PYTHON_BACKEND") == "ctypes":
        _say("SERVAL_PYTHON_BACKEND=ctypes: installing the ctypes module without serval._native")
        return None
    cc = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    if not shutil.which(cc[0]):
        _say("no C compiler (%s; Debian: build-essential): installing the ctypes module "
             "without serval._native" % cc[0])
        return None
    include = sysconfig.get_paths()["include"]
    if not os.path.exists(os.path.join(include, "Python.h")):
        _say("no Python.h in %s (Debian: python3-dev): installing the ctypes module without "
             "serval._native" % include)
        return None
    top = _checkout(here)
    found = None
    if os.environ.get("SERVAL_BUILD"):
        found = _from_build(os.path.abspath(os.environ["SERVAL_BUILD"]), top)
    if not found and top:
        found = _from_build(os.path.join(top, "build"), top)
    if not found:
        found = _from_pkg_config()
    if not found:
        found = _from_sources(top, tmp)
    if not found:
        _say("no libserval (no serval build, no pkg-config serval, no sources to build): "
             "installing the ctypes module without serval._native")
        return None
    limited, suffix, tag = _abi()
    out = os.path.join(tmp, "_native" + suffix)
    src = os.path.join(here, "src")
    cmd = cc + ["-shared", "-fPIC", "-O2", "-std=c11", "-I" + include] + found["cflags"]
    if not limited:
        cmd.append("-DSERVAL_PY_FULL_API")
    cmd += [os.path.join(src, s) for s in SOURCES] + ["-o", out] + found["libs"]
    if found["rpath"]:
        cmd.append("-Wl,-rpath," + found["rpath"])
    try:
        subprocess.run(cmd, check=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        _say("compiling serval._native failed (%s): installing the ctypes module without it"
             % exc)
        return None
    built_py = os.path.join(tmp, "_built.py")
    with open(built_py, "w") as f:
        f.write('"""Written by the build: the libserval serval._native was linked with."""\n')
        # None: libserval is inside the extension itself
        f.write("LIBRARY = %r\n" % found["library"])
    _say("serval._native compiled against %s" % found["how"])
    return Built(tag, [(out, "serval/_native" + suffix), (built_py, "serval/_built.py")])
