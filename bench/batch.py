#!/usr/bin/env python3
"""Batches by filter at scale: how long `POST /share/batch` takes to move, trash, restore and purge every share of
a folder's tree (the page's "Select all N matching", `share mv --in`), one transaction each, with every event and
running total. Starts `shared` (release) on a generated history (bench/generate.py).

Usage: python3 bench/batch.py --bin .build/release [--records 1000000]; prints a Markdown section."""
import argparse
import json
import os
import subprocess
import tempfile
import time

from thumbnails import request, start

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--records", type=int, default=1_000_000)
    args = parser.parse_args()
    history = subprocess.run(["python3", os.path.join(ROOT, "bench", "generate.py"), str(args.records)],
                             check=True, capture_output=True).stdout
    rows = []
    with tempfile.TemporaryDirectory(prefix="share-batch-") as folder:
        daemon, url = start(args.bin, folder)
        try:
            request("POST", f"{url}/share/import", history, "application/x-ndjson")
            for action, body in (
                ("move the tree of /reports/2021 to /archive/2021", {"action": "move", "filter": "folder=/reports/2021&recursive=true", "folder": "/archive/2021"}),
                ("trash it", {"action": "trash", "filter": "folder=/archive/2021&recursive=true"}),
                ("restore it", {"action": "restore", "filter": "folder=/archive/2021&recursive=true"}),
                ("purge it", {"action": "purge", "filter": "folder=/archive/2021&recursive=true"}),
            ):
                started = time.perf_counter()
                report = json.loads(request("POST", f"{url}/share/batch", json.dumps(body).encode(), "application/json"))
                rows.append((action, report["count"], time.perf_counter() - started))
        finally:
            daemon.terminate()
            daemon.wait()
    print(f"## Batches by filter\n\n`python3 bench/batch.py --bin .build/release --records {args.records}` "
          f"({time.strftime('%Y-%m-%d')}, {args.records:,} generated records):\n")
    print("| batch | shares | seconds | shares/s |")
    print("|---|---:|---:|---:|")
    for action, count, seconds in rows:
        print(f"| {action} | {count:,} | {seconds:.2f} | {count / seconds:,.0f} |")


if __name__ == "__main__":
    main()
