#!/usr/bin/env python3
"""Compressed responses and the folders list: what gzip saves a browser and costs the daemon, and how fast a
folder's subfolders are added up. Starts `shared` (release) on a generated history (bench/generate.py), and
measures under wrk the plain page with and without `Accept-Encoding: gzip`, the bytes each answer takes, and
`GET /share/folders` at the top and one level down.

Usage: python3 bench/compression.py --bin .build/release [--records 1000000]; prints a Markdown section."""
import time
import urllib.request

from generated import arguments, serving
from measure import wrk

GZIP = "Accept-Encoding: gzip"


def answer_bytes(url, headers):
    """The body bytes of one answer, as sent, and the time it took in ms (median of 5)."""
    times = []
    for _ in range(5):
        started = time.perf_counter()
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=60) as response:
            body = response.read()
        times.append((time.perf_counter() - started) * 1000)
    return len(body), sorted(times)[2]


def main():
    args = arguments(__doc__)
    rows = []
    with serving(args.bin, args.records) as url:
        for label, path, headers in (
            ("the plain page, identity", "/share?limit=100", ()),
            ("the plain page, gzip", "/share?limit=100", (GZIP,)),
            ("the folders at the top, gzip", "/share/folders", (GZIP,)),
            ("the folders of /reports, gzip", "/share/folders?parent=%2Freports", (GZIP,)),
        ):
            size, one = answer_bytes(url + path, dict(header.split(": ") for header in headers))
            rows.append((label, path, size, one, wrk(url + path, headers)))
    print(f"## Compressed responses and the folders list\n\n`python3 bench/compression.py --bin .build/release --records {args.records}` "
          f"({time.strftime('%Y-%m-%d')}, {args.records:,} generated records; wrk as above):\n")
    print("| request | path | bytes sent | one request ms | req/s | p50 ms | p99 ms |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for label, path, size, one, result in rows:
        print(f"| {label} | `{path}` | {size:,} | {one:.2f} | {result['rps']:,.0f} | {result['p50']:.2f} | {result['p99']:.2f} |")


if __name__ == "__main__":
    main()
