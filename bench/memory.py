#!/usr/bin/env python3
"""Peak memory of two builds side by side under the benchmark's query load: each build's daemon serves its own copy
of the benchmark database, and wrk (32 connections) asks the plain shapes and then the heaviest searches in turn;
the daemon's peak resident memory (VmHWM) is read after the plain shapes, after the searches, and after an import
of the history's first 200,000 records into an empty one. Prints a Markdown table for docs/benchmarks.md.

Each build runs twice, in turn; the better rate of each shape and the higher peak of each phase are kept.

Usage: python3 bench/memory.py BIN_FOLDER BASELINE_BIN_FOLDER [FOLDER] [CACHE_BYTES]
   (FOLDER: default .build/bench, where bench/run left share.db and history-1000000.ndjson; CACHE_BYTES: this
   build's [database] cache_bytes, default its own; release binaries from scripts/build-release)
"""
import os
import shutil
import sys
import tempfile
import itertools
import time

from measure import peak_rss_mb, wrk
from users import Daemon

PLAIN = ["/share", "/share?limit=1", "/share?type=pdf", "/share?date=2023-06-15", "/share?folder=/projects/alpha",
         "/share?sort=size", "/share?q=budget%201234", "/share/stats"]
HEAVY = [
    "/share?from=2022-01-01&to=2022-12-31&q=%E5%B9%B4%E5%BA%A6&sort=name&order=asc",
    "/share?q=%E5%B9%B4%E5%BA%A6&sort=name&order=asc",
    "/share?q=report&sort=name&order=desc",
    "/share?folder=%2Freports%2F2021&recursive=true&q=%E5%B9%B4%E5%BA%A6&sort=name&order=asc",
    "/share?q=report",
]
IMPORTED = 200_000
ROUNDS = 2


def measure(binary, folder, lines, environment):
    """Peak RSS (MB) after each phase, the req/s of each shape, and the import's records/s."""
    daemon = Daemon(binary, folder, per_user=False, environment=environment)
    try:
        rates = {path: wrk(f"http://127.0.0.1:{daemon.port}{path}")["rps"] for path in PLAIN}
        plain = peak_rss_mb(daemon.process.pid)
        rates.update({path: wrk(f"http://127.0.0.1:{daemon.port}{path}")["rps"] for path in HEAVY})
        heavy = peak_rss_mb(daemon.process.pid)
    finally:
        daemon.stop(folder)
    empty = tempfile.mkdtemp(dir=folder)
    daemon = Daemon(binary, empty, per_user=False, environment=environment)
    try:
        started = time.monotonic()
        daemon.import_lines(lines)
        rate = IMPORTED / (time.monotonic() - started)
        imported = peak_rss_mb(daemon.process.pid)
    finally:
        daemon.stop(empty)
    return {"plain": plain, "heavy": heavy, "import": imported, "rates": rates, "import rate": rate}


def kept(earlier, latest):
    """The higher peaks and the better rates of two runs."""
    if earlier is None:
        return latest
    return {**{phase: max(earlier[phase], latest[phase]) for phase in ("plain", "heavy", "import")},
            "rates": {path: max(earlier["rates"][path], latest["rates"][path]) for path in latest["rates"]},
            "import rate": max(earlier["import rate"], latest["import rate"])}


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    bench = sys.argv[3] if len(sys.argv) > 3 else ".build/bench"
    with open(os.path.join(bench, "history-1000000.ndjson")) as history:
        lines = list(itertools.islice(history, IMPORTED))
    binaries = [os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[1])]
    environments = [{}, {"SHARE_DATABASE_CACHE_BYTES": sys.argv[4]} if len(sys.argv) > 4 else {}]
    results = [None, None]
    with tempfile.TemporaryDirectory(prefix="share-memory-") as scratch:
        for _ in range(ROUNDS):
            for index, binary in enumerate(binaries):
                folder = tempfile.mkdtemp(dir=scratch)
                shutil.copy(os.path.join(bench, "share.db"), os.path.join(folder, "share.db"))
                results[index] = kept(results[index], measure(binary, folder, lines, environments[index]))
                shutil.rmtree(folder)
    before, now = results
    print("| peak RSS after | build before MB | this build MB |")
    print("|---|---:|---:|")
    for phase, label in [("plain", "the plain shapes"), ("heavy", "the heaviest searches"), ("import", f"an import of {IMPORTED:,}")]:
        print(f"| {label} | {before[phase]:.0f} | {now[phase]:.0f} |")
    print("\n| shape | build before req/s | this build req/s | ratio |")
    print("|---|---:|---:|---:|")
    for path in PLAIN + HEAVY:
        print(f"| `{path}` | {before['rates'][path]:,.0f} | {now['rates'][path]:,.0f} | {now['rates'][path] / before['rates'][path]:.2f} |")
    print(f"| import (records/s) | {before['import rate']:,.0f} | {now['import rate']:,.0f} | "
          f"{now['import rate'] / before['import rate']:.2f} |")


if __name__ == "__main__":
    main()
