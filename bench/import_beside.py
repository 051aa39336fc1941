#!/usr/bin/env python3
"""`share import` of two builds beside each other: for each size, rounds alternating the builds, each importing the
generated history (bench/generate.py, kept in .build/bench) into a fresh database of its own `shared`, timed from the
command's start to its exit, with the daemon's peak resident memory (VmHWM) after it. Prints a Markdown table for
docs/benchmarks.md.

Usage: python3 bench/import_beside.py BIN_FOLDER BASELINE_BIN_FOLDER [RECORDS ...]   (default 200000 1000000)
"""
import os
import sys
import tempfile

from measure import peak_rss_mb
from ten_million import WORK, timed_import
from users import Daemon

ROUNDS = 2


def run(binary, records):
    """(seconds, peak MB) of one import into a fresh database."""
    with tempfile.TemporaryDirectory(prefix="share-import-", dir=WORK) as folder:
        daemon = Daemon(binary, folder, per_user=False)
        try:
            return timed_import(binary, daemon, records), peak_rss_mb(daemon.process.pid)
        finally:
            daemon.stop(folder)


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    binary, baseline = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    sizes = [int(records) for records in sys.argv[3:]] or [200_000, 1_000_000]
    print("| records | build before: s (each round) | records/s | peak MB | this build: s (each round) | records/s | "
          "peak MB | ratio |")
    print("|---:|---|---:|---:|---|---:|---:|---:|")
    for records in sizes:
        runs = {baseline: [], binary: []}
        for _ in range(ROUNDS):
            for build in (baseline, binary):
                runs[build].append(run(build, records))
        cells = []
        for build in (baseline, binary):
            best = min(seconds for seconds, _ in runs[build])
            peak = max(peak for _, peak in runs[build])
            cells.append(f"{', '.join(f'{seconds:.1f}' for seconds, _ in runs[build])} | {records / best:,.0f} | {peak:.0f}")
        ratio = min(s for s, _ in runs[baseline]) / min(s for s, _ in runs[binary])
        print(f"| {records:,} | {cells[0]} | {cells[1]} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
