#!/usr/bin/env python3
"""Batches by filter at scale: how long `POST /share/batch` takes to move, trash, restore and purge every share of
a folder's tree (the page's "Select all N matching", `share mv --in`), one transaction each, with every event and
running total. Starts `shared` (release) on a generated history (bench/generate.py).

Usage: python3 bench/batch.py --bin .build/release [--records 1000000]; prints a Markdown section."""
import json
import time

from generated import arguments, serving
from thumbnails import request


def main():
    args = arguments(__doc__)
    rows = []
    with serving(args.bin, args.records) as url:
        for action, body in (
            ("move the tree of /reports/2021 to /archive/2021", {"action": "move", "filter": "folder=/reports/2021&recursive=true", "folder": "/archive/2021"}),
            ("trash it", {"action": "trash", "filter": "folder=/archive/2021&recursive=true"}),
            ("restore it", {"action": "restore", "filter": "folder=/archive/2021&recursive=true"}),
            ("purge it", {"action": "purge", "filter": "folder=/archive/2021&recursive=true"}),
        ):
            started = time.perf_counter()
            report = json.loads(request("POST", f"{url}/share/batch", json.dumps(body).encode(), "application/json"))
            rows.append((action, report["count"], time.perf_counter() - started))
    print(f"## Batches by filter\n\n`python3 bench/batch.py --bin .build/release --records {args.records}` "
          f"({time.strftime('%Y-%m-%d')}, {args.records:,} generated records):\n")
    print("| batch | shares | seconds | shares/s |")
    print("|---|---:|---:|---:|")
    for action, count, seconds in rows:
        print(f"| {action} | {count:,} | {seconds:.2f} | {count / seconds:,.0f} |")


if __name__ == "__main__":
    main()
