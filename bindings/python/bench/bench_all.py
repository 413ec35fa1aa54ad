"""serval.loads and serval.dumps against their peers, in one run.

Workloads:
  godot  bench_loads.py's mixed_dicts: 200,000 Godot Dictionaries {id, name,
         pos: Vector3, hp, tags} as Godot 3 bytes (32.7 MB); the peers are
         json.loads and json.dumps of the same values as plain JSON.
  bson   100,000 documents as pymongo writes them (bson.encode of dicts with
         an ObjectId, strings, int32 and int64, a double, a bool, an array and
         a sub-document), one after the other as mongodump writes a
         collection; the peers are pymongo's bson (Debian's python3-bson, with
         its C extension python3-bson-ext): bson.decode_all and bson.encode.

Each side starts from its own natural input: serval from the bytes, or from
the values serval.loads gave (with the wrappers that keep the engine
types); the peer from its text or bytes, or from plain values. Every call
is timed twice over: with Python's cyclic garbage collector on, as a user
runs it (serval pauses it inside its own calls; the peers do not), and
with it off around every peer's call. Runs are interleaved; a full
collection precedes each. Both wall time and the process's CPU time are
taken: on a shared machine CPU time moves less.

    python3 bindings/python/bench/bench_all.py [--runs N] [--scale F] [--loads-path tree|stream] [--keep]

--keep times each call as a caller who keeps its result sees it: the result
lives on past the clock (its freeing is not timed, on either side), and one
list is made before the clock stops. With the collector on, that list starts
the collection of the young generation that a call which paused the
collector leaves behind (every container it made is in it), so it is
counted. Without --keep the result is dropped inside the timing, which
takes its freeing in and leaves that collection out.

--loads-path tree times serval.loads as it was before it read Godot and BSON
straight from the bytes: through the library's value tree (the path it
still takes for what the streaming decoder declines). --loads-path stream
times the library's streaming decoder alone (sv_visit_decode), the path a
raw Godot Variant and BSON took before the extension read them itself
(native_godot.c, native_bson.c) and still take where those readers
decline.

Prints per workload and direction the medians and the ratio peer / serval
(above 1: serval is faster). For godot loads it also times marshal.loads
of the same plain values (marshal's own bytes), as a floor: little more
than the cost of making and freeing the objects, which any loads pays.
"""
import argparse
import gc
import json
import marshal
import os
import statistics
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, ".."))
sys.path.insert(0, here)
import serval  # noqa: E402
from bench_loads import mixed_dicts, plain  # noqa: E402

try:
    import bson
except ImportError:  # Debian: python3-bson python3-bson-ext
    bson = None


def bson_docs(count):
    out = []
    for i in range(count):
        out.append({"_id": bson.ObjectId(b"%012d" % i), "name": "user_%d" % i, "age": i % 90,
                    "score": i * 0.25, "active": i % 3 == 0, "balance": i * 1000003 << 20,
                    "tags": ["red", "green", "n%d" % (i % 7)],
                    "address": {"city": "city_%d" % (i % 100), "zip": 10000 + i % 89999}})
    return out


def loads_via(path):
    """serval.loads, or with path "tree" or "stream" that path of the extension."""
    if path == "auto":
        return serval.loads
    if serval.BACKEND != "native":
        sys.exit("--loads-path %s needs serval._native" % path)
    number = {"tree": 1, "stream": 2}[path]
    import ctypes
    from serval import _options

    def loads(data, fmt):
        opts = _options.Options(serval._find(fmt), {}, "loads", serval._schema_of)
        out = serval._native.loads(data, fmt, ctypes.addressof(opts.struct), number)
        if out is NotImplemented:
            sys.exit("the %s path declines this input" % path)
        return out
    return loads


KEEP = False  # --keep


def timed(fn, arg, gc_off):
    gc.collect()
    if gc_off:
        gc.disable()
    kept = None
    try:
        w0, c0 = time.perf_counter(), time.process_time()
        if KEEP:
            kept = fn(arg)
            kept = (kept, [])  # the caller's next container
        else:
            fn(arg)
        return time.perf_counter() - w0, time.process_time() - c0
    finally:
        if gc_off:
            gc.enable()
        del kept


def compare(title, ours, peer, runs):
    """ours and peer: (name, fn, arg). Prints both modes; returns the ratios."""
    ratios = {}
    for gc_off in (False, True):
        t = {ours[0]: [], peer[0]: []}
        for r in range(runs):
            pair = (ours, peer) if r % 2 == 0 else (peer, ours)
            for name, fn, arg in pair:
                t[name].append(timed(fn, arg, gc_off))
        mode = "gc off" if gc_off else "gc on"
        med = {n: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v))
               for n, v in t.items()}
        for n, (w, c) in med.items():
            print("  %-6s %-24s wall %8.1f ms  cpu %8.1f ms" % (mode, n, w * 1e3, c * 1e3))
        rw = med[peer[0]][0] / med[ours[0]][0]
        rc = med[peer[0]][1] / med[ours[0]][1]
        ratios[mode] = (rw, rc)
        print("  %-6s %s: %s / %s = %.2fx wall, %.2fx cpu" % (mode, title, peer[0], ours[0], rw, rc))
    return ratios


def floor(blob, runs):
    """marshal.loads of the godot values: the objects' cost, as a floor."""
    for gc_off in (False, True):
        t = [timed(marshal.loads, blob, gc_off) for _ in range(runs)]
        print("  %-6s %-24s wall %8.1f ms  cpu %8.1f ms  (floor: the objects alone)"
              % ("gc off" if gc_off else "gc on", "marshal.loads",
                 statistics.median(x[0] for x in t) * 1e3, statistics.median(x[1] for x in t) * 1e3))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--loads-path", choices=("auto", "tree", "stream"), default="auto")
    ap.add_argument("--only", choices=("godot", "bson"), default=None)
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    global KEEP
    KEEP = args.keep
    sv_loads = loads_via(args.loads_path)
    print("python %s, libserval %s (%s), serval backend %s%s" % (
        sys.version.split()[0], *serval.library_version(), serval.BACKEND,
        ", results kept (--keep)" if KEEP else ""))
    results = {}

    if args.only != "bson":
        count = int(200000 * args.scale)
        data = serval.dumps(mixed_dicts(count), "godot3")
        value = serval.loads(data, "godot3")
        pvalue = plain(value)
        text = json.dumps(pvalue, separators=(",", ":"))
        assert json.loads(text) == pvalue
        print("godot: %d dictionaries, Godot 3 bytes %.1f MB, plain JSON %.1f MB"
              % (count, len(data) / 1e6, len(text) / 1e6))
        results["godot loads"] = compare("godot loads", ("serval.loads", lambda d: sv_loads(d, "godot3"), data),
                                         ("json.loads", json.loads, text), args.runs)
        floor(marshal.dumps(pvalue), args.runs)
        results["godot dumps"] = compare(
            "godot dumps", ("serval.dumps", lambda v: serval.dumps(v, "godot3"), value),
            ("json.dumps", lambda v: json.dumps(v, separators=(",", ":")), pvalue), args.runs)
        del value, pvalue, text

    if args.only == "godot":
        pass
    elif bson is None:
        print("bson: skipped (Debian: apt-get install python3-bson python3-bson-ext)")
    else:
        docs = bson_docs(int(100000 * args.scale))
        raw = b"".join(map(bson.encode, docs))
        svalue = serval.loads(raw, "bson")
        assert serval.dumps(svalue, "bson") == raw, "serval does not give the same BSON back"
        assert bson.decode_all(raw) == docs
        print("bson: %d documents, %.1f MB, pymongo bson %s (C extension: %s)"
              % (len(docs), len(raw) / 1e6, bson.__file__, bson.has_c()))
        results["bson loads"] = compare("bson loads", ("serval.loads", lambda d: sv_loads(d, "bson"), raw),
                                        ("bson.decode_all", bson.decode_all, raw), args.runs)
        results["bson dumps"] = compare(
            "bson dumps", ("serval.dumps", lambda v: serval.dumps(v, "bson"), svalue),
            ("bson.encode", lambda ds: b"".join(map(bson.encode, ds)), docs), args.runs)

    print("summary (peer / serval; above 1: serval is faster):")
    for name, r in results.items():
        print("  %-12s gc on %.2fx wall %.2fx cpu;  gc off %.2fx wall %.2fx cpu"
              % (name, r["gc on"][0], r["gc on"][1], r["gc off"][0], r["gc off"][1]))


if __name__ == "__main__":
    main()
