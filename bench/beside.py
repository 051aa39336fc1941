#!/usr/bin/env python3
"""Two builds side by side on one history, signed in by a bearer token: each build's daemon serves its own copy of
the benchmark database with one token configured, and wrk measures the plain shapes (and `/healthz`, the fixed cost
of a request) on both, each shape four times in the order before, this, this, before, the better of each build's two
kept. Prints a Markdown table for docs/benchmarks.md.

Usage: python3 bench/beside.py BIN_FOLDER BASELINE_BIN_FOLDER [DATABASE]
   (DATABASE: default .build/bench/share.db, made by bench/run; release binaries from scripts/build-release)
"""
import os
import shutil
import sys
import tempfile

from measure import wrk
from users import Daemon

TOKEN = "bench-beside-token"
SHAPES = [
    ("/healthz", "/healthz"),
    ("100 newest", "/share"),
    ("1 newest", "/share?limit=1"),
    ("type=pdf", "/share?type=pdf"),
    ("q, common term (report)", "/share?q=report"),
    ("statistics", "/share/stats"),
]


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    database = sys.argv[3] if len(sys.argv) > 3 else ".build/bench/share.db"
    binaries = [os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[1])]
    with tempfile.TemporaryDirectory(prefix="share-beside-") as scratch:
        daemons = []
        for index, binary in enumerate(binaries):
            folder = os.path.join(scratch, str(index))
            os.mkdir(folder)
            shutil.copy(database, os.path.join(folder, "share.db"))
            daemons.append((Daemon(binary, folder, per_user=False, environment={"SHARE_AUTH_USERS": f"bench={TOKEN}"}), folder))
        best = [{}, {}]
        try:
            for _, path in SHAPES:
                # Before, this, this, before: the machine's drift within a shape falls on both builds alike.
                for index in (0, 1, 1, 0):
                    daemon = daemons[index][0]
                    result = wrk(f"http://127.0.0.1:{daemon.port}{path}", [f"Authorization: Bearer {TOKEN}"])
                    if path not in best[index] or result["rps"] > best[index][path]["rps"]:
                        best[index][path] = result
        finally:
            for daemon, folder in daemons:
                daemon.stop(folder)
    print("| shape | build before req/s | p99 ms | this build req/s | p99 ms | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, path in SHAPES:
        before, now = best[0][path], best[1][path]
        print(f"| {label} | {before['rps']:,.0f} | {before['p99']:.2f} | {now['rps']:,.0f} | {now['p99']:.2f} | "
              f"{now['rps'] / before['rps']:.2f} |")
    errors = sum(result["errors"] for results in best for result in results.values())
    print(f"\nAnswers that were not 2xx: {errors}.")


if __name__ == "__main__":
    main()
