#!/usr/bin/env python3
"""Thumbnails: what they cost to keep and to serve. Starts `shared` (release) on a history of generated records,
measures the plain page under wrk, sends a photo for every tenth record (PUT /share/{id}/thumbnail, the daemon
decodes and keeps a thumbnail), and measures again: the page (its rows now say which have a thumbnail), one
thumbnail under wrk, the bytes each thumbnail adds to the database, and how long making one takes.

With `--baseline`, the plain page is measured on the same records served by that build too (one before
thumbnails, say), so that what the `thumbnail` column costs a listing shows beside it.

Usage: python3 bench/thumbnails.py --bin .build/release [--baseline BIN_FOLDER] [--records 100000]; prints a
Markdown section."""
import argparse
import os
import sqlite3
import statistics
import subprocess
import tempfile
import time
import urllib.request

from measure import free_port, get, wait_until_up, wrk

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHOTO = os.path.join(ROOT, "Tests", "Fixtures", "pictures", "photo.jpg")


def request(method, url, body, content_type):
    request = urllib.request.Request(url, data=body, method=method, headers={"Content-Type": content_type})
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.read()


def database_bytes(path):
    """The bytes of the database's pages in use, as committed (its write-ahead log's pages included)."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as database:
        pages, free, size = (database.execute(f"PRAGMA {name}").fetchone()[0] for name in ("page_count", "freelist_count", "page_size"))
    return (pages - free) * size


def start(binary, folder):
    """`shared` from `binary` on a free port over a new database in `folder`, holding the benchmark's records."""
    port = free_port()
    daemon = subprocess.Popen([f"{binary}/shared", "--listen", f"127.0.0.1:{port}", "--db", f"{folder}/share.db"],
                              env={**os.environ, "LOG_LEVEL": "warning"}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_until_up(f"http://127.0.0.1:{port}/healthz", daemon)
    return daemon, f"http://127.0.0.1:{port}"


def records(count):
    return "".join(f'{{"id":"B{index:07d}","name":"photo {index}.jpg","size":4662,"createdAt":"2024-01-01T00:00:00Z"}}\n'
                   for index in range(count)).encode()


def baseline_page(binary, count):
    with tempfile.TemporaryDirectory(prefix="share-thumbnails-") as folder:
        daemon, url = start(binary, folder)
        try:
            request("POST", f"{url}/share/import", records(count), "application/x-ndjson")
            return wrk(f"{url}/share?limit=100")
        finally:
            daemon.terminate()
            daemon.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--baseline")
    parser.add_argument("--records", type=int, default=100_000)
    args = parser.parse_args()
    page_baseline = baseline_page(args.baseline, args.records) if args.baseline else None
    with tempfile.TemporaryDirectory(prefix="share-thumbnails-") as folder:
        daemon, url = start(args.bin, folder)
        database = f"{folder}/share.db"
        try:
            request("POST", f"{url}/share/import", records(args.records), "application/x-ndjson")
            page_before = wrk(f"{url}/share?limit=100")
            bytes_before = database_bytes(database)
            with open(PHOTO, "rb") as file:
                photo = file.read()
            made = []
            for index in range(0, args.records, 10):
                started = time.perf_counter()
                request("PUT", f"{url}/share/B{index:07d}/thumbnail", photo, "image/jpeg")
                made.append((time.perf_counter() - started) * 1000)
            thumbnails = len(made)
            thumbnail_bytes = len(get(f"{url}/share/B0000000/thumbnail")[0])
            growth = database_bytes(database) - bytes_before
            page_after = wrk(f"{url}/share?limit=100")
            served = wrk(f"{url}/share/B0000000/thumbnail")
        finally:
            daemon.terminate()
            daemon.wait()
    print("\n".join([
        f"{args.records:,} records; a {len(photo):,}-byte photo (320 × 240 JPEG with EXIF) sent for every tenth, "
        f"{thumbnails:,} thumbnails; wrk -t2 -c32 after a warm-up, on this machine.",
        "",
        "| what | number | goal |",
        "|---|---:|---|",
    ] + ([f"| `GET /share?limit=100` on the baseline build, req/s | {page_baseline['rps']:,.0f} (p99 {page_baseline['p99']:.2f} ms) | |"]
         if page_baseline else []) + [
        f"| `GET /share?limit=100` before the thumbnails, req/s | {page_before['rps']:,.0f} (p99 {page_before['p99']:.2f} ms) | |",
        f"| `GET /share?limit=100` with them, req/s | {page_after['rps']:,.0f} (p99 {page_after['p99']:.2f} ms) | unchanged |",
        f"| `GET /share/{{id}}/thumbnail`, req/s | {served['rps']:,.0f} (p99 {served['p99']:.2f} ms) | ≥ 5,000 |",
        f"| one thumbnail (WebP, 144 × 192), bytes | {thumbnail_bytes:,} | |",
        f"| the database's growth per thumbnail, bytes | {growth / thumbnails:,.0f} | the thumbnail alone |",
        f"| `PUT` of the photo, one at a time: median ms | {statistics.median(made):.1f} (p90 {sorted(made)[int(len(made) * 0.9)]:.1f}) | |",
    ]))


if __name__ == "__main__":
    main()
