"""A PEP 517 build backend made of the standard library only.

It builds the wheel (and an sdist) of the package serval/ with zipfile: no
setuptools, no download, so `pip install bindings/python` works on a
machine without network access. The wheel holds the C extension
serval._native (src/, see native_ext.py beside this file) when the system
compiler, Python's headers and a libserval are there, and is the pure
ctypes package otherwise (said on standard error).
"""
import base64
import hashlib
import os
import sys
import tarfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import native_ext  # noqa: E402

NAME = "serval"
VERSION = "0.1.0"
HERE = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
TAG = "py3-none-any"
SUMMARY = ("Read and write game-engine serialization formats byte for byte "
           "(libserval through a C extension, or ctypes)")


def _package_files(extra=()):
    pkg = os.path.join(HERE, NAME)
    for name in sorted(os.listdir(pkg)):
        if (name.endswith((".py", ".pyi")) or name == "py.typed") and name != "_built.py":  # code, type stubs, marker
            yield os.path.join(pkg, name), NAME + "/" + name
    for path, arc in extra:
        yield path, arc


def _metadata():
    text = ("Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: %s\nRequires-Python: >=3.8\n"
            % (NAME, VERSION, SUMMARY))
    readme = os.path.join(HERE, "README.md")
    if os.path.exists(readme):
        with open(readme, encoding="utf-8") as f:
            text += "Description-Content-Type: text/markdown\n\n" + f.read()
    return text


def _digest(data):
    h = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "sha256=" + h


def _dist_info_files(tag=TAG):
    pure = "true" if tag == TAG else "false"
    return {
        "METADATA": _metadata().encode("utf-8"),
        "WHEEL": ("Wheel-Version: 1.0\nGenerator: serval_build\nRoot-Is-Purelib: %s\nTag: %s\n"
                  % (pure, tag)).encode(),
    }


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = "%s-%s.dist-info" % (NAME, VERSION)
    os.makedirs(os.path.join(metadata_directory, info), exist_ok=True)
    for name, data in _dist_info_files().items():
        with open(os.path.join(metadata_directory, info, name), "wb") as f:
            f.write(data)
    return info


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        built = native_ext.build(HERE, tmp)  # None: the ctypes package alone
        tag = built.tag if built else TAG
        extra = built.files if built else ()
        filename = "%s-%s-%s.whl" % (NAME, VERSION, tag)
        info = "%s-%s.dist-info" % (NAME, VERSION)
        record = []
        with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w",
                             zipfile.ZIP_DEFLATED) as z:
            entries = []
            for path, arc in _package_files(extra):
                with open(path, "rb") as f:
                    entries.append((arc, f.read()))
            for name, data in _dist_info_files(tag).items():
                entries.append((info + "/" + name, data))
            for arc, data in entries:
                z.writestr(arc, data)
                record.append("%s,%s,%d" % (arc, _digest(data), len(data)))
            record.append(info + "/RECORD,,")
            z.writestr(info + "/RECORD", "\n".join(record) + "\n")
    return filename


def build_sdist(sdist_directory, config_settings=None):
    base = "%s-%s" % (NAME, VERSION)
    filename = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz") as t:
        for rel in ("pyproject.toml", "README.md", "_build/serval_build.py", "_build/native_ext.py"):
            path = os.path.join(HERE, rel)
            if os.path.exists(path):
                t.add(path, base + "/" + rel)
        for path, arc in _package_files():
            t.add(path, base + "/" + arc)
        src = os.path.join(HERE, "src")
        for name in sorted(os.listdir(src)):
            if name.endswith((".c", ".h")):
                t.add(os.path.join(src, name), base + "/src/" + name)
        pkg_info = tarfile.TarInfo(base + "/PKG-INFO")
        data = _metadata().encode("utf-8")
        pkg_info.size = len(data)
        import io
        t.addfile(pkg_info, io.BytesIO(data))
    return filename
