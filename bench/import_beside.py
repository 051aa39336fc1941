#!/usr/bin/env python3
"""`share import` of two builds beside each other: for each size, rounds alternating the builds, each importing the
generated history (bench/generate.py, kept in .build/bench) into a fresh database of its own `shared`, timed from the
command's start to its exit, with the daemon's peak resident memory (VmHWM) after it. Prints a Markdown table for
docs/benchmarks.md. With --postgres, each import goes into a fresh database of one throwaway PostgreSQL cluster
(scripts/postgres-cluster) instead of a SQLite file.

Usage: python3 bench/import_beside.py [--postgres] BIN_FOLDER BASELINE_BIN_FOLDER [RECORDS ...]
   (default 200000 1000000)
"""
import argparse
import itertools
import os
import tempfile

from measure import peak_rss_mb
from postgres import cluster, psql
from ten_million import WORK, timed_import
from users import Daemon

ROUNDS = 2
DATABASE_NUMBERS = itertools.count(1)


def run(binary, records, postgres):
    """(seconds, peak MB) of one import into a fresh database: a file, or a database of the cluster in `postgres`."""
    with tempfile.TemporaryDirectory(prefix="share-import-", dir=WORK) as folder:
        environment = {}
        if postgres:
            name = f"import_{next(DATABASE_NUMBERS)}"
            psql(postgres, "postgres", f"CREATE DATABASE {name}")
            environment["SHARE_DATABASE_URL"] = f"postgresql://postgres@/{name}?host={postgres}"
        daemon = Daemon(binary, folder, per_user=False, environment=environment)
        try:
            return timed_import(binary, daemon, records), peak_rss_mb(daemon.process.pid)
        finally:
            daemon.stop(folder)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("bin")
    parser.add_argument("baseline")
    parser.add_argument("records", nargs="*", type=int)
    args = parser.parse_args()
    binary, baseline = os.path.abspath(args.bin), os.path.abspath(args.baseline)
    sizes = args.records or [200_000, 1_000_000]
    postgres = cluster("start") if args.postgres else None
    try:
        table(binary, baseline, sizes, postgres)
    finally:
        if postgres:
            cluster("stop", postgres)


def table(binary, baseline, sizes, postgres):
    print("| records | build before: s (each round) | records/s | peak MB | this build: s (each round) | records/s | "
          "peak MB | ratio |")
    print("|---:|---|---:|---:|---|---:|---:|---:|")
    for records in sizes:
        runs = {baseline: [], binary: []}
        for _ in range(ROUNDS):
            for build in (baseline, binary):
                runs[build].append(run(build, records, postgres))
        cells = []
        for build in (baseline, binary):
            best = min(seconds for seconds, _ in runs[build])
            peak = max(peak for _, peak in runs[build])
            cells.append(f"{', '.join(f'{seconds:.1f}' for seconds, _ in runs[build])} | {records / best:,.0f} | {peak:.0f}")
        ratio = min(s for s, _ in runs[baseline]) / min(s for s, _ in runs[binary])
        print(f"| {records:,} | {cells[0]} | {cells[1]} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
