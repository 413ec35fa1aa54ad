"""serval.loads of the Godot mixed_dicts workload against json.loads of the same data.

The data is bench/gen_godot.c's mixed_dicts (the godot.dicts workloads of
serval-bench): an Array of 200,000 Dictionaries {id, name, pos: Vector3, hp,
tags: ["a", "bb", i]}, built here with the same values and written by
serval.dumps as Godot 3 var2bytes bytes (32.7 MB, as serval-bench reports).
The peer is json.loads of the same values as plain JSON (the Vector3 as a
list of three numbers), the text made by json.dumps. serval.loads pauses
Python's cyclic garbage collector while it builds the objects (they cannot
form cycles); json.loads does not, and much of its time on a document this
size is the collector walking the objects made so far. So json.loads is
also timed with the collector disabled around the call, the fairest peer.
Before each timed run a full collection leaves both starting alike.

    python3 bindings/python/bench/bench_loads.py [--runs N] [--count N]

Prints the median and minimum of N interleaved runs of each and the ratio
(json.loads time / serval.loads time: above 1, serval is faster).
"""
import argparse
import gc
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import serval  # noqa: E402


def mixed_dicts(count):
    out = []
    for i in range(count):
        hp = (i % 1000) / 8.0 if i % 2 == 0 else i * 0.1
        out.append({"id": i, "name": "entity_%d" % i,
                    "pos": serval.Vector3([float(i), i * 0.5, float(-i)]),
                    "hp": hp, "tags": ["a", "bb", i]})
    return out


def plain(v):
    """The value with every wrapper replaced by its plain Python type."""
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, float):
        return float(v)
    if isinstance(v, int) and not isinstance(v, bool):
        return int(v)
    return v


def json_loads_nogc(text):
    gc.disable()
    try:
        return json.loads(text)
    finally:
        gc.enable()


def timed(fn, arg):
    gc.collect()
    t0 = time.perf_counter()
    fn(arg)
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--count", type=int, default=200000)
    args = ap.parse_args()

    t0 = time.perf_counter()
    data = serval.dumps(mixed_dicts(args.count), "godot3")
    value = serval.loads(data, "godot3")
    text = json.dumps(plain(value), separators=(",", ":"))
    if json.loads(text) != plain(value):
        sys.exit("the JSON peer does not hold the same values")
    print("python %s, libserval %s (%s)" % (sys.version.split()[0], *serval.library_version()))
    print("input: mixed_dicts, %d dictionaries: Godot 3 bytes %d (%.1f MB); the same as plain "
          "JSON %d bytes (%.1f MB); made in %.1f s" % (args.count, len(data), len(data) / 1e6,
                                                       len(text), len(text) / 1e6,
                                                       time.perf_counter() - t0))
    del value
    impls = [("serval.loads", lambda d: serval.loads(d, "godot3"), data),
             ("json.loads", json.loads, text),
             ("json.loads, no gc", json_loads_nogc, text)]
    runs = {name: [] for name, _, _ in impls}
    for r in range(args.runs):
        for name, fn, arg in impls[r % 3:] + impls[:r % 3]:  # rotating order
            runs[name].append(timed(fn, arg))
    for name, ts in runs.items():
        print("%-17s median %7.1f ms  min %7.1f ms  (%d runs)" %
              (name, statistics.median(ts) * 1e3, min(ts) * 1e3, len(ts)))
    base = statistics.median(runs["serval.loads"])
    print("json.loads / serval.loads = %.2fx, json.loads with no gc / serval.loads = %.2fx "
          "(median times; > 1: serval.loads is faster)" %
          (statistics.median(runs["json.loads"]) / base,
           statistics.median(runs["json.loads, no gc"]) / base))


if __name__ == "__main__":
    main()
