#!/usr/bin/env python3
"""A share of several files downloaded as one ZIP (`GET /s/{token}/zip`), beside the same bytes as one file's download
(`/s/{token}/file`, which the kernel sends), sampling `shared`'s resident memory: FILES files of SIZE each (4 × 1 GiB by
default), shared with `share add --together`; the first ZIP (which reads the CRC-32s from the bytes first), then ROUNDS
of each download alternating (medians count), then four ZIPs at once. Each ZIP is checked whole by `unzip -t` once.

Usage: python3 bench/zip.py --bin .build/release [--files 4] [--size-mib 1024] [--rounds 3] [--work DIR]; run from the
repository's folder; prints Markdown."""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import threading

from measure import free_port
from transfers import MIB, PeakMemory, curl, rss_mb, timed, wait_until_up


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--files", type=int, default=4)
    parser.add_argument("--size-mib", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--work", default=None)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="share-zip-", dir=args.work)
    paths = [f"{work}/part {index + 1}.bin" for index in range(args.files)]
    with open("/dev/urandom", "rb") as random:
        for path in paths:
            with open(path, "wb") as file:
                for _ in range(args.size_mib):
                    file.write(random.read(MIB))
    whole = f"{work}/whole.bin"
    subprocess.run(f"cat {' '.join(repr(path) for path in paths)} > {whole!r}", shell=True, check=True)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = open(f"{work}/shared.log", "w")
    shared = subprocess.Popen([f"{args.bin}/shared", "--listen", f"127.0.0.1:{port}", "--db", f"{work}/share.db"],
                              env={**os.environ, "LOG_LEVEL": "warning"}, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_until_up(f"{url}/healthz", shared)
        share = [f"{args.bin}/share", "--server", url, "--json", "add"]
        bundle = json.loads(subprocess.run(share + paths + ["--together"], check=True, capture_output=True, text=True).stdout)
        single = json.loads(subprocess.run(share + [whole], check=True, capture_output=True, text=True).stdout)
        zip_url, file_url = f"{url}{bundle['link']}/zip", f"{url}{single['link']}/file"
        total = args.files * args.size_mib * MIB

        before = rss_mb(shared.pid)
        with PeakMemory(shared.pid) as first:
            first_seconds = timed(lambda: curl("-o", f"{work}/saved.zip", zip_url))
        subprocess.run(["unzip", "-tqq", f"{work}/saved.zip"], check=True)
        os.remove(f"{work}/saved.zip")
        times = {"zip": [], "file": []}
        with PeakMemory(shared.pid) as rounds:
            for _ in range(args.rounds):
                times["zip"].append(timed(lambda: curl("-o", "/dev/null", zip_url)))
                times["file"].append(timed(lambda: curl("-o", "/dev/null", file_url)))
        with PeakMemory(shared.pid) as together:
            threads = [threading.Thread(target=lambda: curl("-o", "/dev/null", zip_url)) for _ in range(4)]
            seconds = timed(lambda: [thread.start() for thread in threads] and [thread.join() for thread in threads])

        rate = lambda s: total / s / 1e6
        zip_rate, file_rate = rate(statistics.median(times["zip"])), rate(statistics.median(times["file"]))
        print(f"{args.files} files of {args.size_mib} MiB, {args.rounds} rounds (medians), on {os.cpu_count()} cores;"
              f" shared's resident memory after the uploads, before the first ZIP: {before:.0f} MB\n")
        print("| download | MB/s | ratio | peak RSS of shared |")
        print("|---|---:|---:|---:|")
        print(f"| the same bytes as one file (`/file`, sendfile) | {file_rate:.0f} | 1.00 | {rounds.peak:.0f} MB |")
        print(f"| the ZIP (`/zip`) | {zip_rate:.0f} | {zip_rate / file_rate:.2f} | |")
        print(f"| the first ZIP, its CRC-32s read first | {rate(first_seconds):.0f} | {rate(first_seconds) / file_rate:.2f} | {first.peak:.0f} MB |")
        print(f"| four ZIPs at once | {4 * total / seconds / 1e6:.0f} in all | | {together.peak:.0f} MB |")
    finally:
        shared.terminate()
        shared.wait()
        subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
