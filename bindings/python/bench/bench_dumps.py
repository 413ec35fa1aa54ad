"""serval.dumps of the Godot mixed_dicts workload against json.dumps of the same data.

The data is bench_loads.py's: an Array of 200,000 Dictionaries {id, name,
pos: Vector3, hp, tags: ["a", "bb", i]}, as serval.loads gives it back from
Godot 3 bytes (so with the wrappers that keep the engine types: F32 for the
Vector3's floats, ...). serval.dumps writes it as Godot 3 var2bytes bytes
(32.7 MB); the peer is json.dumps of the same values as plain Python (the
Vector3 as a list of three floats), compact. Both start from Python objects
and end in a bytes/str object, so both walk the same tree once.

    python3 bindings/python/bench/bench_dumps.py [--runs N] [--count N]

Prints the median and minimum of N interleaved runs of each and the ratio
(serval.dumps time / json.dumps time: above 1, serval is slower).
"""
import argparse
import gc
import json
import os
import statistics
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, ".."))
sys.path.insert(0, here)
import serval  # noqa: E402
from bench_loads import mixed_dicts, plain  # noqa: E402


def timed(fn, arg):
    gc.collect()
    t0 = time.perf_counter()
    fn(arg)
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--count", type=int, default=200000)
    args = ap.parse_args()

    data = serval.dumps(mixed_dicts(args.count), "godot3")
    value = serval.loads(data, "godot3")
    peer = plain(value)
    if serval.dumps(value, "godot3") != data:
        sys.exit("serval.dumps does not give back the bytes serval.loads read")
    print("python %s, libserval %s (%s)" % (sys.version.split()[0], *serval.library_version()))
    print("input: mixed_dicts, %d dictionaries: Godot 3 bytes %d (%.1f MB)" %
          (args.count, len(data), len(data) / 1e6))
    impls = [("serval.dumps", lambda v: serval.dumps(v, "godot3"), value),
             ("json.dumps", lambda v: json.dumps(v, separators=(",", ":")), peer)]
    runs = {name: [] for name, _, _ in impls}
    for r in range(args.runs):
        for name, fn, arg in impls[r % 2:] + impls[:r % 2]:  # alternating order
            runs[name].append(timed(fn, arg))
    for name, ts in runs.items():
        print("%-13s median %7.1f ms  min %7.1f ms  (%d runs)" %
              (name, statistics.median(ts) * 1e3, min(ts) * 1e3, len(ts)))
    print("serval.dumps / json.dumps = %.2fx (median times; > 1: serval.dumps is slower)" %
          (statistics.median(runs["serval.dumps"]) / statistics.median(runs["json.dumps"])))


if __name__ == "__main__":
    main()
