#!/usr/bin/env python3
"""Per-user histories at scale: one user with the whole benchmark history (1,000,000 records) and beside them
1,000 users with 1,000 records each, signed in by a trusted proxy's header. Measures, one request at a time:
every combination of the listing grid for three small users (each ≤ 5 ms) and for the big user, against the
same grid of the build before per-user histories (`--baseline`) on the same history; and the file sizes.

Called by bench/users, which builds what it needs."""
import argparse
import http.client
import os
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

import grid

SMALL_USERS_TIMED = ["user0001", "user0500", "user1000"]


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Daemon:
    """`shared` from `binary` on a free port with its database in `folder`; per-user histories when `per_user`; more
    settings from `environment` (`SHARE_…` variables)."""

    def __init__(self, binary, folder, per_user, environment=None):
        self.port = free_port()
        environment = {**os.environ, "LOG_LEVEL": "warning", **(environment or {})}
        if per_user:
            environment.update({"SHARE_AUTH_HISTORIES": "per-user", "SHARE_AUTH_PROXY_USER_HEADER": "X-Forwarded-User",
                                "SHARE_SERVER_TRUSTED_PROXIES": "127.0.0.1/32"})
        self.process = subprocess.Popen(
            [f"{binary}/shared", "--listen", f"127.0.0.1:{self.port}", "--db", f"{folder}/share.db"],
            stdout=open(f"{folder}/shared.log", "a"), stderr=subprocess.STDOUT, cwd=folder, env=environment)
        deadline = time.time() + 120
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=5).read()
                return
            except OSError:
                if time.time() > deadline or self.process.poll() is not None:
                    sys.exit("shared did not start")
                time.sleep(0.2)

    def import_lines(self, lines, user=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=3600)
        headers = {"Content-Type": "application/x-ndjson"}
        if user:
            headers["X-Forwarded-User"] = user
        connection.request("POST", "/share/import", body="".join(lines).encode(), headers=headers)
        response = connection.getresponse()
        body = response.read()
        if response.status != 200:
            sys.exit(f"import as {user}: {response.status} {body[:300]}")

    def stop(self, folder):
        """Stops, and returns the file's size with its write-ahead log folded back in."""
        self.process.terminate()
        self.process.wait()
        with sqlite3.connect(f"{folder}/share.db") as database:
            database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return os.path.getsize(f"{folder}/share.db")


def best_of_two(port, user=None):
    """Milliseconds per grid request (the better of two passes, so that one pause does not count), by path."""
    headers = {"X-Forwarded-User": user} if user else None
    passes = [dict((path, ms) for ms, path in grid.timed_grid("127.0.0.1", port, headers=headers, next_as_first=True)) for _ in range(2)]
    return {path: min(passes[0][path], passes[1].get(path, passes[0][path])) for path in passes[0]}


def summary(timings):
    values = sorted(timings.values())
    return {"requests": len(values), "total": sum(values), "median": statistics.median(values),
            "p90": values[int(len(values) * 0.9)], "max": values[-1]}


def main():
    parser = argparse.ArgumentParser()
    for option in ("bin", "baseline", "history"):
        parser.add_argument(f"--{option}", required=True)
    parser.add_argument("--small-users", type=int, default=1000)
    parser.add_argument("--small-records", type=int, default=1000)
    args = parser.parse_args()
    with open(args.history) as file:
        history = file.readlines()

    with tempfile.TemporaryDirectory(prefix="share-users-") as base_folder, \
            tempfile.TemporaryDirectory(prefix="share-users-") as folder:
        print("the build before: one shared history", file=sys.stderr)
        before = Daemon(args.baseline, base_folder, per_user=False)
        before.import_lines(history)
        before_grid = best_of_two(before.port)
        before_size = before.stop(base_folder)

        print("this build: the big user alone", file=sys.stderr)
        daemon = Daemon(args.bin, folder, per_user=True)
        daemon.import_lines(history, user="big")
        alone_size = daemon.stop(folder)

        print(f"this build: {args.small_users} users beside them", file=sys.stderr)
        daemon = Daemon(args.bin, folder, per_user=True)
        started = time.time()
        for index in range(args.small_users):
            start = (index * args.small_records) % max(1, len(history) - args.small_records)
            daemon.import_lines(history[start:start + args.small_records], user=f"user{index + 1:04d}")
        small_import_seconds = time.time() - started
        big_grid = best_of_two(daemon.port, "big")
        small_grids = {user: best_of_two(daemon.port, user) for user in SMALL_USERS_TIMED}
        everyone_size = daemon.stop(folder)

    ratios = sorted(big_grid[path] / before_grid[path] for path in before_grid if path in big_grid)
    lines = [
        f"One user with {len(history):,} records, and beside them {args.small_users:,} users with "
        f"{args.small_records:,} each ({small_import_seconds:.0f} s to import their {args.small_users:,} files), "
        "signed in by a trusted proxy's `X-Forwarded-User`; every combination of the listing grid, one request at a "
        "time, the better of two passes (ms).",
        "",
        "| whose grid | requests | total | median | p90 | slowest | goal |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for label, timings, goal in [("the build before, one shared history", before_grid, ""),
                                 ("the big user, beside the small ones", big_grid, "within 10% of the build before")] + [
            (f"small user {user}", small_grids[user], "every request ≤ 5 ms") for user in SMALL_USERS_TIMED]:
        numbers = summary(timings)
        lines.append(f"| {label} | {numbers['requests']:,} | {numbers['total']:,.0f} | {numbers['median']:.2f} | "
                     f"{numbers['p90']:.2f} | {numbers['max']:.1f} | {goal} |")
    slow = sum(1 for user in SMALL_USERS_TIMED for ms in small_grids[user].values() if ms > 5)
    lines += [
        "",
        f"Big user against the build before, request by request: median ratio {statistics.median(ratios):.2f}, "
        f"p90 {ratios[int(len(ratios) * 0.9)]:.2f}; total {sum(big_grid.values()) / sum(before_grid.values()):.2f}. "
        f"Small users' requests over 5 ms: {slow} of {sum(len(g) for g in small_grids.values()):,}.",
        "",
        "| file | bytes | against the build before |",
        "|---|---:|---:|",
        f"| the build before, {len(history):,} records | {before_size:,} | 1.00 |",
        f"| this build, the same records as one user's | {alone_size:,} | {alone_size / before_size:.3f} |",
        f"| this build, and the {args.small_users:,} users beside them | {everyone_size:,} | {everyone_size / before_size:.3f} |",
        "",
        "The slowest requests of the big user, and of the small users:",
        "",
    ]
    for ms, path in sorted(((ms, path) for path, ms in big_grid.items()), reverse=True)[:5]:
        lines.append(f"- big, {ms:.1f} ms (before: {before_grid.get(path, float('nan')):.1f} ms): `{path}`")
    worst_small = sorted(((ms, user, path) for user in SMALL_USERS_TIMED for path, ms in small_grids[user].items()), reverse=True)
    for ms, user, path in worst_small[:5]:
        lines.append(f"- {user}, {ms:.1f} ms: `{path}`")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
