#!/usr/bin/env python3
"""roundtrip.py FORMAT IN OUT [NAME=VALUE ...]

Reads IN with serval.loads(data, FORMAT, **options), writes it back with
serval.dumps(tree, FORMAT, **options) (the same options) and puts the bytes
in OUT; a conformance suite then compares OUT with IN.

Options are given as NAME=VALUE: the limits (max_depth, max_alloc,
max_string, max_decompressed) as whole numbers, schema=PATH as the type
list in file PATH (kingsisle, kingsisle-xml), every other one as the
string the format takes (framing=prefixed, shallow=true).

The module is the one of this checkout (bindings/python/); its libserval is
SERVAL_BUILD/libserval.so when the environment variable SERVAL_BUILD names a
build directory, else where the module looks (SERVAL_LIBRARY, then build/
at the top of the checkout, then the system's).

Exit status: 0 written; 1 the data or an option was refused (the message on
standard error, OUT not written); 2 bad command line.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # bindings/python, whose serval/ is the module

USAGE = "usage: roundtrip.py FORMAT IN OUT [NAME=VALUE ...]"


def parse_options(items, limits):
    options = {}
    for item in items:
        name, eq, value = item.partition("=")
        if not eq or not name:
            raise SystemExit("%s\nroundtrip.py: option %r is not NAME=VALUE" % (USAGE, item))
        if name in limits:
            try:
                options[name] = int(value, 10)
            except ValueError:
                raise ValueError("serval: %s needs a whole number, got %r" % (name, value))
        else:
            options[name] = value
    return options


def main(argv):
    if len(argv) < 4 or argv[1] in ("-h", "--help"):
        sys.stderr.write(USAGE + "\n")
        return 2
    build = os.environ.get("SERVAL_BUILD")
    if build:
        os.environ["SERVAL_LIBRARY"] = os.path.join(build, "libserval.so")
    try:
        import serval
        from serval import _options
    except ImportError as exc:
        sys.stderr.write("%s\n" % exc)
        return 1
    fmt, src, dst = argv[1], argv[2], argv[3]
    try:
        options = parse_options(argv[4:], _options.LIMITS)
        if "schema" in options:
            options["schema"] = serval.load_schema(options["schema"])
        with open(src, "rb") as f:
            data = f.read()
        tree = serval.loads(data, fmt, **options)
        out = serval.dumps(tree, fmt, **options)
        with open(dst, "wb") as f:
            f.write(out)
    except (ValueError, TypeError, OSError, RecursionError, OverflowError) as exc:
        # serval.Error is a ValueError; its text has format, offset and path
        sys.stderr.write("%s: %s\n" % (src, exc))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
