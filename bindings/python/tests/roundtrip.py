#!/usr/bin/env python3
"""roundtrip.py FORMAT IN OUT [NAME=VALUE ...]
roundtrip.py --batch LIST

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

--batch LIST does the same for every line of the file LIST (tab-separated:
FORMAT, a label, IN, then NAME=VALUE options) in one process, compares
the bytes with IN itself and prints one line per input:
"ok<TAB>FORMAT<TAB>label" or "FAIL<TAB>FORMAT<TAB>label<TAB>why". It exits 0 when every line was ok, else 1.

Exit status: 0 written; 1 the data or an option was refused (the message on
standard error, OUT not written); 2 bad command line.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # bindings/python, whose serval/ is the module

USAGE = "usage: roundtrip.py FORMAT IN OUT [NAME=VALUE ...] | --batch LIST"


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


def round_trip(serval, limits, fmt, src, items):
    """The bytes of src back through loads and dumps (raises on refusal)."""
    options = parse_options(items, limits)
    if "schema" in options:
        options["schema"] = serval.load_schema(options["schema"])
    with open(src, "rb") as f:
        data = f.read()
    tree = serval.loads(data, fmt, **options)
    return data, serval.dumps(tree, fmt, **options)


# What a refusal raises: serval.Error is a ValueError, whose text has the
# format, offset and path.
REFUSED = (ValueError, TypeError, OSError, RecursionError, OverflowError)


def batch(serval, limits, listing):
    failed = 0
    with open(listing, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 3:
                continue
            fmt, label, src = fields[:3]
            try:
                data, out = round_trip(serval, limits, fmt, src, fields[3:])
                why = None if out == data else "the bytes differ from the input"
            except REFUSED as exc:
                why = str(exc).replace("\n", " ")
            if why is None:
                print("ok\t%s\t%s" % (fmt, label))
            else:
                failed += 1
                print("FAIL\t%s\t%s\t%s" % (fmt, label, why))
    return 1 if failed else 0


def main(argv):
    is_batch = len(argv) == 3 and argv[1] == "--batch"
    if (len(argv) < 4 and not is_batch) or argv[1] in ("-h", "--help"):
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
    if is_batch:
        return batch(serval, _options.LIMITS, argv[2])
    fmt, src, dst = argv[1], argv[2], argv[3]
    try:
        _, out = round_trip(serval, _options.LIMITS, fmt, src, argv[4:])
        with open(dst, "wb") as f:
            f.write(out)
    except REFUSED as exc:
        sys.stderr.write("%s: %s\n" % (src, exc))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
