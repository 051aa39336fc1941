#!/usr/bin/env python3
"""The listing planner's every-combination grid (bench/grid.py), two builds side by side on one history: each
build's daemon serves its own copy of the benchmark database, the grid is timed once after a first pass, and the
slowest forty again (median of 5). Prints a Markdown table for docs/planner.md.

Usage: python3 bench/planner_grid.py BIN_FOLDER BASELINE_BIN_FOLDER [DATABASE]
   (DATABASE: default .build/bench/share.db, made by bench/run; release binaries from scripts/build-release)
"""
import os
import shutil
import statistics
import sys
import tempfile

import grid
from users import Daemon

SLOWEST_RETIMED = 40


def measure(binary, database):
    """The grid's timings (ms by path) and the slowest ones' medians, from `binary` serving a copy of `database`."""
    with tempfile.TemporaryDirectory(prefix="share-grid-") as folder:
        shutil.copy(database, os.path.join(folder, "share.db"))
        daemon = Daemon(binary, folder, per_user=False)
        try:
            grid.timed_grid("127.0.0.1", daemon.port)
            timings = grid.timed_grid("127.0.0.1", daemon.port)
            client = grid.Client("127.0.0.1", daemon.port)
            medians = {path: statistics.median(client.time(path)[0] for _ in range(5)) for _, path in timings[:SLOWEST_RETIMED]}
        finally:
            daemon.stop(folder)
    return timings, medians


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    database = sys.argv[3] if len(sys.argv) > 3 else ".build/bench/share.db"
    results = [measure(os.path.abspath(binary), database) for binary in (sys.argv[2], sys.argv[1])]
    rows = [
        ("grid, all requests", lambda t, m: f"{sum(ms for ms, _ in t) / 1000:.1f} s"),
        ("requests over 20 ms", lambda t, m: f"{sum(1 for ms, _ in t if ms > 20)}"),
        ("requests over 50 ms", lambda t, m: f"{sum(1 for ms, _ in t if ms > 50)}"),
        ("slowest (median of 5)", lambda t, m: f"{max(m.values()):.0f} ms"),
    ]
    print("| | build before | this build |\n|---|---:|---:|")
    for label, value in rows:
        print(f"| {label} | " + " | ".join(value(timings, medians) for timings, medians in results) + " |")
    print("\nThis build's slowest (median of 5):\n\n| request | ms |\n|---|---:|")
    for path, ms in sorted(results[1][1].items(), key=lambda item: -item[1])[:10]:
        print(f"| `{path}` | {ms:.1f} |")


if __name__ == "__main__":
    main()
