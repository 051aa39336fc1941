#!/usr/bin/env python3
"""Sustained mixed traffic against shared on a large history: readers going round the usual shapes and writers
creating, renaming and trashing records, for minutes. Samples every 10 s the write-ahead log's size, the
daemon's RSS, read latencies per shape, writes per second and errors; at the end, checks that every write the
daemon acknowledged is in the database. Runs twice on copies of one database: as shipped, and as a baseline
with the log's checkpoints left to SQLite alone (wal_checkpoint_bytes out of reach, as before they existed).
Writes a section of docs/benchmarks.md and an SVG plot beside it.

Usage: soak.py --bin DIR --base DB --work DIR --seconds N --out docs/benchmarks.md --svg docs/soak.svg [--shipped-only]
"""
import argparse
import http.client
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import threading
import time

READERS = 8
WRITERS = 4
SAMPLE_SECONDS = 10
SHAPES = [
    ("first page", "/share?limit=100"),
    ("text", "/share?q=report"),
    ("two types", "/share?type=pdf,doc"),
    ("a day", "/share?date=2023-06-15"),
    ("size order", "/share?sort=size"),
    ("a folder", "/share?folder=/projects/alpha"),
    ("stats by type", "/share/stats?type=pdf&by=none"),
]
BEGIN, END = "<!-- soak -->", "<!-- /soak -->"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Traffic:
    """What the clients did, shared between their threads and the sampler."""

    def __init__(self):
        self.lock = threading.Lock()
        self.latencies = {name: [] for name, _ in SHAPES}
        self.writes = 0
        self.errors = 0
        self.acknowledged = []
        self.stopping = threading.Event()

    def take_window(self):
        with self.lock:
            window = (self.latencies, self.writes, self.errors)
            self.latencies = {name: [] for name, _ in SHAPES}
            self.writes = 0
            return window


def request(connection, method, path, body=None):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    response = connection.getresponse()
    return response.status, response.read()


def reader(port, offset, traffic):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    turn = offset
    while not traffic.stopping.is_set():
        name, path = SHAPES[turn % len(SHAPES)]
        turn += 1
        started = time.perf_counter()
        try:
            status, _ = request(connection, "GET", path)
        except OSError:
            status = 0
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        elapsed = (time.perf_counter() - started) * 1000
        with traffic.lock:
            if status == 200:
                traffic.latencies[name].append(elapsed)
            else:
                traffic.errors += 1


def writer(port, number, traffic):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    cycle = 0
    while not traffic.stopping.is_set():
        cycle += 1
        try:
            status, body = request(connection, "POST", "/share", {"name": f"soak {number}-{cycle}.pdf", "size": 1000 + cycle})
            steps = [status == 201]
            if status == 201:
                record = json.loads(body)
                with traffic.lock:
                    traffic.acknowledged.append(record["id"])
                status, _ = request(connection, "PATCH", f"/share/{record['id']}", {"name": f"soak {number}-{cycle} renamed.docx"})
                steps.append(status == 200)
                status, _ = request(connection, "DELETE", f"/share/{record['id']}")
                steps.append(status == 204)
        except OSError:
            steps = [False]
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        with traffic.lock:
            traffic.writes += sum(steps)
            traffic.errors += len(steps) - sum(steps)


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+) kB", status.read()).group(1)) / 1024


def soak(args, label, environment):
    """One run on a fresh copy of the base database: its samples and its end."""
    database = f"{args.work}/soak-{label}.db"
    for suffix in ("", "-wal", "-shm", ".lock"):
        if os.path.exists(database + suffix):
            os.remove(database + suffix)
    shutil.copyfile(args.base, database)
    # The copy's pages on disk before the daemon starts: its first checkpoint syncs the file, and would otherwise
    # wait for the whole copy to be written out, which is the benchmark's doing, not the daemon's.
    with open(database, "rb+") as copy:
        os.fsync(copy.fileno())
    port = free_port()
    log = open(f"{args.work}/soak-{label}.log", "w")
    daemon = subprocess.Popen([f"{args.bin}/shared", "--listen", f"127.0.0.1:{port}", "--db", database],
                              stdout=log, stderr=subprocess.STDOUT, cwd=args.work,
                              env={**os.environ, "LOG_LEVEL": "warning", **environment})
    deadline = time.time() + 120
    while True:
        try:
            request(http.client.HTTPConnection("127.0.0.1", port, timeout=5), "GET", "/healthz")
            break
        except OSError:
            if time.time() > deadline or daemon.poll() is not None:
                raise SystemExit(f"shared did not start: see {args.work}/soak-{label}.log")
            time.sleep(0.2)
    traffic = Traffic()
    threads = [threading.Thread(target=reader, args=(port, index, traffic)) for index in range(READERS)]
    threads += [threading.Thread(target=writer, args=(port, index, traffic)) for index in range(WRITERS)]
    for thread in threads:
        thread.start()
    samples = []
    started = time.time()
    while time.time() - started < args.seconds:
        time.sleep(SAMPLE_SECONDS)
        latencies, writes, errors = traffic.take_window()
        every = [value for values in latencies.values() for value in values]
        samples.append({
            "t": round(time.time() - started), "wal_mb": os.path.getsize(database + "-wal") / 1e6 if os.path.exists(database + "-wal") else 0,
            "rss_mb": rss_mb(daemon.pid), "writes": writes / SAMPLE_SECONDS, "reads": len(every) / SAMPLE_SECONDS,
            "errors": errors, "p50": percentile(every, 0.5), "p99": percentile(every, 0.99),
            "shapes": {name: percentile(values, 0.99) for name, values in latencies.items()},
        })
        print(f"{label} {samples[-1]['t']:>4} s: log {samples[-1]['wal_mb']:.1f} MB, RSS {samples[-1]['rss_mb']:.0f} MB, "
              f"{samples[-1]['writes']:.0f} writes/s, {samples[-1]['reads']:.0f} reads/s, p99 {samples[-1]['p99']:.1f} ms, "
              f"{errors} errors", flush=True)
    traffic.stopping.set()
    for thread in threads:
        thread.join()
    time.sleep(3)
    after = os.path.getsize(database + "-wal") / 1e6 if os.path.exists(database + "-wal") else 0
    daemon.terminate()
    daemon.wait()
    with sqlite3.connect(database) as check:
        check.execute("CREATE TEMP TABLE acknowledged (id TEXT)")
        check.executemany("INSERT INTO acknowledged VALUES (?)", [(id,) for id in traffic.acknowledged])
        kept = check.execute("SELECT count(*) FROM acknowledged JOIN share USING (id)").fetchone()[0]
    return {"samples": samples, "wal_after_mb": after, "acknowledged": len(traffic.acknowledged), "kept": kept}


def minute_p99(run, shape, first):
    """The p99 of `shape` over the first or last minute of samples (the worst of its windows)."""
    window = run["samples"][:6] if first else run["samples"][-6:]
    values = [sample["shapes"][shape] for sample in window if sample["shapes"][shape] == sample["shapes"][shape]]
    return max(values) if values else float("nan")


def svg(runs, path):
    """Log size, RSS and p99 over time, for each run: one panel a measure, no browser needed."""
    width, height, margin = 720, 170, 40
    panels = [("write-ahead log (MB)", "wal_mb"), ("RSS (MB)", "rss_mb"), ("read p99 (ms)", "p99")]
    colours = {"shipped": "#1f6feb", "baseline": "#d1242f"}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height * len(panels)}" font-family="sans-serif" font-size="11">']
    for index, (title, key) in enumerate(panels):
        top = index * height
        values = [sample[key] for run in runs.values() for sample in run["samples"] if sample[key] == sample[key]]
        highest = max(values + [1e-9])
        last = max(sample["t"] for run in runs.values() for sample in run["samples"])
        parts.append(f'<text x="{margin}" y="{top + 14}">{title}, 0 to {highest:.0f}</text>')
        parts.append(f'<rect x="{margin}" y="{top + 20}" width="{width - 2 * margin}" height="{height - 50}" fill="none" stroke="#999"/>')
        for label, run in runs.items():
            points = " ".join(
                f"{margin + (sample['t'] / last) * (width - 2 * margin):.1f},"
                f"{top + 20 + (height - 50) * (1 - sample[key] / highest):.1f}"
                for sample in run["samples"] if sample[key] == sample[key])
            parts.append(f'<polyline fill="none" stroke="{colours[label]}" stroke-width="1.5" points="{points}"/>')
        parts.append(f'<text x="{margin}" y="{top + height - 16}">0 s</text><text x="{width - margin - 40}" y="{top + height - 16}">{last} s</text>')
    parts.append(f'<text x="{width - 200}" y="14" fill="{colours["shipped"]}">as shipped</text>')
    parts.append(f'<text x="{width - 120}" y="14" fill="{colours["baseline"]}">baseline</text></svg>')
    with open(path, "w") as out:
        out.write("\n".join(parts) + "\n")


def section(runs, args):
    lines = [BEGIN, "## Sustained load", "",
             f"`bench/soak {args.seconds}` ({args.seconds} s, {READERS} readers going round {len(SHAPES)} shapes, {WRITERS} writers each creating, "
             "renaming and trashing a record in a loop), on a copy of the benchmark database, release build, this machine. "
             "*Baseline*: the same binary with `wal_checkpoint_bytes` out of reach, so that only SQLite's own checkpoints run, "
             "as before the daemon checkpointed its log.", "",
             f"![log, RSS and p99 over time]({os.path.basename(args.svg)})", "",
             "| run | log max / after (MB) | RSS first / last (MB) | writes/s | reads/s | errors | acknowledged writes kept |",
             "|---|---|---|---|---|---|---|"]
    for label, run in runs.items():
        samples = run["samples"]
        lines.append(
            f"| {label} | {max(s['wal_mb'] for s in samples):.1f} / {run['wal_after_mb']:.1f} | {samples[0]['rss_mb']:.0f} / "
            f"{samples[-1]['rss_mb']:.0f} | {sum(s['writes'] for s in samples) / len(samples):.0f} | "
            f"{sum(s['reads'] for s in samples) / len(samples):.0f} | {sum(s['errors'] for s in samples)} | "
            f"{run['kept']} of {run['acknowledged']} |")
    lines += ["", "p99 per shape (ms), the worst 10 s window of the first and of the last minute:", "",
              "| shape | " + " | ".join(f"{label} first | {label} last" for label in runs) + " |",
              "|---|" + "---|" * (2 * len(runs))]
    for shape, _ in SHAPES:
        cells = [f"{minute_p99(run, shape, True):.1f} | {minute_p99(run, shape, False):.1f}" for run in runs.values()]
        lines.append(f"| {shape} | " + " | ".join(cells) + " |")
    lines += ["", "Samples of the run as shipped:", "", "| t (s) | log (MB) | RSS (MB) | writes/s | reads/s | p50 (ms) | p99 (ms) | errors |",
              "|---|---|---|---|---|---|---|---|"]
    for sample in runs["shipped"]["samples"]:
        lines.append(f"| {sample['t']} | {sample['wal_mb']:.1f} | {sample['rss_mb']:.0f} | {sample['writes']:.0f} | {sample['reads']:.0f} | "
                     f"{sample['p50']:.1f} | {sample['p99']:.1f} | {sample['errors']} |")
    lines.append(END)
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser()
    for option in ("bin", "base", "work", "out", "svg"):
        parser.add_argument(f"--{option}", required=True)
    parser.add_argument("--seconds", type=int, default=600)
    parser.add_argument("--shipped-only", action="store_true", help="no baseline run, and nothing written: a quick look")
    args = parser.parse_args()
    # The daemon runs in the work folder, so that no share.toml of the working directory is read.
    args.work = os.path.abspath(args.work)
    runs = {"shipped": soak(args, "shipped", {})}
    if args.shipped_only:
        return
    runs["baseline"] = soak(args, "baseline", {"SHARE_DATABASE_WAL_CHECKPOINT_BYTES": str(1 << 50)})
    svg(runs, args.svg)
    text = open(args.out).read() if os.path.exists(args.out) else "# Benchmarks\n"
    new = section(runs, args)
    text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: new, text, flags=re.S) if BEGIN in text else text.rstrip() + "\n\n" + new + "\n"
    with open(args.out, "w") as out:
        out.write(text)


if __name__ == "__main__":
    main()
