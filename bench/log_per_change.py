#!/usr/bin/env python3
"""Bytes of write-ahead log each kind of change writes, on a copy of the benchmark database: the log is
truncated (SQLite's own checkpoint, from here, with the daemon idle), 30 changes of one kind are made over HTTP,
one at a time, and the log's size is divided by 30 (well under SQLite's 1,000-page automatic checkpoint, so the
log only grows); an import of 1,000 lines likewise. The daemon's own checkpoints are put out of reach.

Usage: log_per_change.py --bin .build/release --base .build/bench/soak-base-1000000.db --work .build/bench
"""
import argparse
import http.client
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import time

CHANGES = 30


def main():
    parser = argparse.ArgumentParser()
    for option in ("bin", "base", "work"):
        parser.add_argument(f"--{option}", required=True)
    args = parser.parse_args()
    # The daemon runs in the work folder, so that no share.toml of the working directory is read.
    args.work = os.path.abspath(args.work)
    database = f"{args.work}/log-per-change.db"
    for suffix in ("", "-wal", "-shm", ".lock"):
        if os.path.exists(database + suffix):
            os.remove(database + suffix)
    shutil.copyfile(args.base, database)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    daemon = subprocess.Popen([f"{args.bin}/shared", "--listen", f"127.0.0.1:{port}", "--db", database],
                              cwd=args.work, env={**os.environ, "LOG_LEVEL": "warning", "SHARE_DATABASE_WAL_CHECKPOINT_BYTES": str(1 << 50)})
    connection = http.client.HTTPConnection("127.0.0.1", port)
    while True:
        try:
            connection.request("GET", "/healthz")
            connection.getresponse().read()
            break
        except OSError:
            connection = http.client.HTTPConnection("127.0.0.1", port)
            time.sleep(0.2)

    def send(method, path, body=None, content_type="application/json"):
        data = None if body is None else body if isinstance(body, str) else json.dumps(body)
        connection.request(method, path, body=data, headers={"Content-Type": content_type} if data is not None else {})
        response = connection.getresponse()
        return response.status, response.read()

    def log_after(changes):
        with sqlite3.connect(database) as checkpoint:
            busy, _, _ = checkpoint.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        assert busy == 0 and os.path.getsize(database + "-wal") == 0
        for index in range(CHANGES):
            changes(index)
        return os.path.getsize(database + "-wal") / CHANGES

    ids = []
    try:
        figures = [
            ("create", log_after(lambda i: ids.append(json.loads(send("POST", "/share", {"name": f"log {i}.pdf", "size": 100})[1])["id"]))),
            ("rename, another type", log_after(lambda i: send("PATCH", f"/share/{ids[i]}", {"name": f"log renamed {i}.docx"}))),
            ("rename, same type", log_after(lambda i: send("PATCH", f"/share/{ids[i]}", {"name": f"log again {i}.docx"}))),
            ("move", log_after(lambda i: send("PATCH", f"/share/{ids[i]}", {"folder": "/reports/2021"}))),
            ("trash", log_after(lambda i: send("DELETE", f"/share/{ids[i]}"))),
            ("restore", log_after(lambda i: send("POST", f"/share/{ids[i]}/restore"))),
        ]
        lines = "\n".join(json.dumps({"name": f"imported {i}.pdf", "size": 1}) for i in range(1000))
        figures.append(("import line (of 1,000)", log_after(lambda i: i or send("POST", "/share/import", lines, "application/x-ndjson")) * CHANGES / 1000))
    finally:
        daemon.terminate()
        daemon.wait()
    print("| change | log written (KiB) |\n|---|---|")
    for name, size in figures:
        print(f"| {name} | {size / 1024:.1f} |")


if __name__ == "__main__":
    main()
