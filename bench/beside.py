#!/usr/bin/env python3
"""Two builds side by side on one history, signed in by a bearer token: each build's daemon serves its own copy of
the benchmark database with one token configured, and wrk measures the plain shapes (and `/healthz`, the fixed cost
of a request) on each in turn, two rounds, the better of the two kept. Prints a Markdown table for
docs/benchmarks.md.

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
ROUNDS = 2


def measure(binary, folder):
    """req/s and p99 of every shape, from `binary` serving `folder` with one user signed in by `TOKEN`."""
    daemon = Daemon(binary, folder, per_user=False, environment={"SHARE_AUTH_USERS": f"bench={TOKEN}"})
    try:
        return {path: wrk(f"http://127.0.0.1:{daemon.port}{path}", [f"Authorization: Bearer {TOKEN}"]) for _, path in SHAPES}
    finally:
        daemon.stop(folder)


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    database = sys.argv[3] if len(sys.argv) > 3 else ".build/bench/share.db"
    binaries = [os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[1])]
    with tempfile.TemporaryDirectory(prefix="share-beside-") as scratch:
        folders = []
        for index in range(2):
            folder = os.path.join(scratch, str(index))
            os.mkdir(folder)
            shutil.copy(database, os.path.join(folder, "share.db"))
            folders.append(folder)
        best = [{}, {}]
        for _ in range(ROUNDS):
            for index, binary in enumerate(binaries):
                for path, result in measure(binary, folders[index]).items():
                    if path not in best[index] or result["rps"] > best[index][path]["rps"]:
                        best[index][path] = result
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
