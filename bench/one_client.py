#!/usr/bin/env python3
"""Two builds side by side on one history, one client at a time: each build's `shared` serves the history (the same
PostgreSQL database, or its own copy of a SQLite file), and `wrk -t1 -c1` asks each shape of each build in turn,
ROUNDS times; the best of each is kept: the mean latency, and the CPU time per request of the node and of the
PostgreSQL server (from /proc, so that a machine whose speed drifts between runs still shows where each request's
work went). Prints a Markdown table for docs/benchmarks.md.

Usage: python3 bench/one_client.py [--shape PATH]... BIN_FOLDER BASELINE_BIN_FOLDER DATABASE [BASELINE_DATABASE]
   (DATABASE: a SQLite file such as .build/bench/share.db, or a PostgreSQL URL such as the one `bench/postgres.py`
   migrated into, `postgresql://postgres@/share?host=FOLDER`; BASELINE_DATABASE, when the build measured migrates
   DATABASE to a schema the baseline does not know: a copy of it, such as `CREATE DATABASE … TEMPLATE` makes;
   release binaries from scripts/build-release; each --shape, such as `/share/stats?tz=Asia/Kolkata`, in place of
   the shapes below)
"""
import os
import shutil
import re
import subprocess
import sys
import tempfile
import urllib.request

from measure import free_port, wait_until_up
from measure import start as measure_start

SHAPES = [
    "/share?limit=1",
    "/share",
    "/share/stats?by=none&tz=UTC",
    "/share/stats?tz=America/New_York",
    "/share/stats?tz=Asia/Kathmandu",
    "/share/stats?tz=Asia/Kolkata&type=pdf,doc",
]
ROUNDS = 4
SECONDS = 5
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_ticks(pids):
    total = 0
    for pid in pids:
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass  # a server process that ended meanwhile
    return total


def postgres_pids():
    return [int(pid) for pid in subprocess.run(["pgrep", "-u", "postgres", "postgres"], capture_output=True, text=True).stdout.split()]


def measure(pid, url):
    """Mean latency (ms), and CPU ms per request of the node and of the server."""
    urllib.request.urlopen(url).read()
    node, server = cpu_ticks([pid]), cpu_ticks(postgres_pids())
    output = subprocess.run(["wrk", "-t1", "-c1", f"-d{SECONDS}s", url], check=True, capture_output=True, text=True).stdout
    node, server = cpu_ticks([pid]) - node, cpu_ticks(postgres_pids()) - server
    count = int(re.search(r"(\d+) requests in", output).group(1))
    value, unit = re.search(r"Latency\s+([\d.]+)(us|ms|s)", output).groups()
    latency = float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    return latency, node * 1000 / TICKS / count, server * 1000 / TICKS / count


def start(binary, folder, database):
    port = free_port()
    environment = {"LOG_LEVEL": "warning", "SHARE_DATABASE_TRASH_DAYS": "0"}
    if database.startswith("postgres"):
        environment["SHARE_DATABASE_URL"] = database
    else:
        environment["SHARE_DATABASE_PATH"] = shutil.copy(database, f"{folder}/share-{port}.db")
    process = measure_start([f"{binary}/shared", "--listen", f"127.0.0.1:{port}"], open(f"{folder}/shared-{port}.log", "w"),
                            environment, folder=folder)
    url = f"http://127.0.0.1:{port}"
    wait_until_up(f"{url}/healthz", process)
    return process, url


def main():
    arguments, shapes = sys.argv[1:], []
    while len(arguments) > 1 and arguments[0] == "--shape":
        shapes.append(arguments[1])
        arguments = arguments[2:]
    if len(arguments) < 3:
        raise SystemExit(__doc__)
    shapes = shapes or SHAPES
    binaries = [os.path.abspath(arguments[1]), os.path.abspath(arguments[0])]
    with tempfile.TemporaryDirectory(prefix="share-one-client-") as folder:
        databases = [arguments[3] if len(arguments) > 3 else arguments[2], arguments[2]]
        nodes = [start(binary, folder, database) for binary, database in zip(binaries, databases)]
        best = [{}, {}]
        try:
            for _ in range(ROUNDS):
                for shape in shapes:
                    for index, (process, url) in enumerate(nodes):
                        found = measure(process.pid, url + shape)
                        kept = best[index].get(shape, found)
                        best[index][shape] = tuple(min(a, b) for a, b in zip(kept, found))
        finally:
            for process, _ in nodes:
                process.terminate()
                process.wait()
    print("| shape | before ms | node CPU ms | server CPU ms | now ms | node CPU ms | server CPU ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for shape in shapes:
        before, now = best[0][shape], best[1][shape]
        print(f"| `{shape}` | " + " | ".join(f"{value:.3f}" for value in before + now) + " |")


if __name__ == "__main__":
    main()
