"""serval.dask.read_files on a LocalCluster of N worker processes.

The corpus is every file of tests/vectors and, when they are beside the
checkout, of the real samples (about 1,550 files, 1.3 MB), named --repeat
times over (each copy a file read and decoded again), so that the work is
large enough to time. The cluster is started and warmed up (one small
computation) before the clock starts; each timed run reads and decodes
every file on the workers and brings back only the number of good ones.

    python3 bindings/python/bench/bench_dask.py --workers 2 [--repeat 20] [--runs 3]

Prints the median and minimum wall time of the runs. Run it under
/usr/bin/time -v for the process's user/system time and peak memory (its
workers are its children: time reports the largest one's RSS).
"""
import argparse
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))

import serval.dask  # noqa: E402
from serval import _walk  # noqa: E402


def corpus():
    roots = [os.path.join(REPO, "tests", "vectors")]
    samples = os.path.normpath(os.path.join(REPO, "..", "shared", "samples"))
    if os.path.isdir(samples):
        roots.append(samples)
    return [p for p, _ in _walk.collect(roots)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    import logging
    from distributed import Client, LocalCluster
    paths = corpus() * args.repeat
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      dashboard_address=None, silence_logs=logging.ERROR) as cluster, \
            Client(cluster):
        serval.dask.read_files(paths[:50]).count().compute()  # warm: imports on every worker
        times = []
        good = 0
        for _ in range(args.runs):
            bag = serval.dask.read_files(paths, npartitions=8 * args.workers)
            t = time.perf_counter()
            good = bag.filter(lambda r: not isinstance(r[1], serval.dask.FileError)).count()\
                .compute()
            times.append(time.perf_counter() - t)
    print("%d workers: %d files (%d decoded), median %.2f s, min %.2f s over %d runs"
          % (args.workers, len(paths), good, statistics.median(times), min(times), args.runs))


if __name__ == "__main__":
    main()
