#!/usr/bin/env python3
"""The import and the listing combinations at each size given (default a million and ten million records): for
each, `share import` of the generated history (bench/generate.py) into a fresh database, timed from the command's
start to its exit, then the every-combination grid (bench/grid.py) once to warm up and once timed, its ten slowest
requests timed again (median of five) and the worst of those kept.
Prints a Markdown table for docs/benchmarks.md. Ten million records take 1.1 GB of NDJSON, up to 11 GB of database
and write-ahead log in the work folder while they are imported, and about half an hour on two cores.

Usage: python3 bench/ten_million.py BIN_FOLDER [RECORDS ...]   (also from bench/run --ten-million)
"""
import os
import subprocess
import sys
import tempfile
import time

import grid
from users import Daemon

# The grid's slowest requests are timed again (median of five): one pass's worst may be a stall of the machine.
SLOWEST_RETIMED = 10
WORK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build", "bench")


def history(records):
    """The generated history of `records` records, made once and kept in the work folder."""
    path = os.path.join(WORK, f"history-{records}.ndjson")
    if not os.path.exists(path):
        os.makedirs(WORK, exist_ok=True)
        with open(path + ".partial", "w") as output:
            subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "generate.py"), str(records)],
                           check=True, stdout=output)
        os.rename(path + ".partial", path)
    return path


def timed_import(binary, daemon, records):
    """Seconds `share import` of `binary` takes for the generated history of `records` records, start to exit."""
    source = history(records)
    started = time.monotonic()
    subprocess.run([f"{binary}/share", "--server", f"http://127.0.0.1:{daemon.port}", "import", source],
                   check=True, stdout=subprocess.DEVNULL)
    return time.monotonic() - started


def measure(binary, records):
    """(import seconds, worst grid ms, its path) for `records` records imported through `share import`."""
    with tempfile.TemporaryDirectory(prefix="share-ten-million-", dir=WORK) as folder:
        daemon = Daemon(binary, folder, per_user=False)
        try:
            imported = timed_import(binary, daemon, records)
            grid.timed_grid("127.0.0.1", daemon.port)
            slowest = grid.timed_grid("127.0.0.1", daemon.port)[:SLOWEST_RETIMED]
            worst, path = max((grid.median_ms("127.0.0.1", daemon.port, path), path) for _, path in slowest)
        finally:
            daemon.stop(folder)
    return imported, worst, path


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    sizes = [int(records) for records in sys.argv[2:]] or [1_000_000, 10_000_000]
    rows = [(records, *measure(binary, records)) for records in sizes]
    first_rate = rows[0][0] / rows[0][1]
    print("| records | `share import` (s) | records/s | × the first size's rate | worst combination (ms) | its request |")
    print("|---:|---:|---:|---:|---:|---|")
    for records, imported, worst, path in rows:
        rate = records / imported
        print(f"| {records:,} | {imported:.0f} | {rate:,.0f} | {rate / first_rate:.2f} | {worst:.1f} | `{path}` |")


if __name__ == "__main__":
    main()
