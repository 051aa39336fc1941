#!/usr/bin/env python3
"""Starts shared, Datasette and nginx on loopback, measures every query shape with wrk, and writes the
report. Called by bench/run, which builds and installs what this needs."""
import argparse
import datetime
import json
import os
import platform
import re
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.parse
import urllib.request

import grid
import isolation
import stats

WRK_SECONDS = 10
WARM_UP_SECONDS = 3
CONNECTIONS = 32
SHANGHAI = datetime.timezone(datetime.timedelta(hours=8))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(url):
    with urllib.request.urlopen(url, timeout=60) as response:
        return response.read(), dict(response.headers)


def wait_until_up(url, process, seconds=120):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            sys.exit(f"{process.args[0]} exited while starting")
        try:
            get(url)
            return
        except OSError:
            time.sleep(0.2)
    sys.exit(f"{url} did not answer")


def wrk(url, headers=()):
    """Requests/s, p50 and p99 in ms, and how many answers were not 2xx; after a warm-up run, so that both
    servers are measured with their caches (pages, statements, statistics) filled. `headers`: `Name: value`s."""
    sent = [argument for header in headers for argument in ("-H", header)]
    subprocess.run(["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{WARM_UP_SECONDS}s", "--timeout", "30s", *sent, url],
                   check=True, capture_output=True)
    output = subprocess.run(
        ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{WRK_SECONDS}s", "--timeout", "30s", "--latency", *sent, url],
        check=True, capture_output=True, text=True).stdout

    def latency(percent):
        value, unit = re.search(rf"^\s+{percent}%\s+([\d.]+)(us|ms|s)\s*$", output, re.M).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    timeouts = re.search(r"timeout (\d+)", output)
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    return {
        "rps": rps, "p50": latency(50) if rps else float("nan"), "p99": latency(99) if rps else float("nan"),
        "errors": (int(errors.group(1)) if errors else 0) + (int(timeouts.group(1)) if timeouts else 0),
    }


def peak_rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        return int(re.search(r"VmHWM:\s+(\d+) kB", status.read()).group(1)) / 1024


def day_bounds_ms(day, zone):
    start = datetime.datetime.combine(day, datetime.time(), zone)
    return int(start.timestamp() * 1000), int((start + datetime.timedelta(days=1)).timestamp() * 1000)


def shapes(shared, peer, shared_first_page, peer_first_page):
    """(name, shared URL, Datasette URL) for every query shape."""
    day = datetime.date(2023, 6, 15)
    utc_from, utc_to = day_bounds_ms(day, datetime.timezone.utc)
    cn_from, cn_to = day_bounds_ms(day, SHANGHAI)
    common = "&_sort_desc=created_ms&_size=100&_shape=array&_nocount=1&_nofacet=1"
    return [
        ("100 newest (no filter)", f"{shared}/share?limit=100", f"{peer}?{common}"),
        ("date", f"{shared}/share?date=2023-06-15", f"{peer}?created_ms__gte={utc_from}&created_ms__lt={utc_to}{common}"),
        ("date + tz", f"{shared}/share?date=2023-06-15&tz=Asia/Shanghai",
         f"{peer}?created_ms__gte={cn_from}&created_ms__lt={cn_to}{common}"),
        ("q, common term (report)", f"{shared}/share?q=report", f"{peer}?_search=report{common}"),
        ("q, rare term (budget 1234)", f"{shared}/share?q=budget+1234", f"{peer}?_search=budget+1234{common}"),
        ("type=pdf", f"{shared}/share?type=pdf", f"{peer}?type=pdf{common}"),
        ("folder=/projects/alpha", f"{shared}/share?folder=/projects/alpha", f"{peer}?folder=/projects/alpha{common}"),
        ("sort=size", f"{shared}/share?sort=size", f"{peer}?_sort_desc=size&_size=100&_shape=array&_nocount=1&_nofacet=1"),
        ("second page (cursor)", shared_first_page, peer_first_page),
    ]


def start(command, log, environment=None, folder=None):
    """A process of the benchmark, in `folder` when given (shared there reads no share.toml of the working directory)."""
    return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=folder, env={**os.environ, **(environment or {})})


def main():
    parser = argparse.ArgumentParser()
    for option in ("records", "work", "bin", "datasette", "python", "out"):
        parser.add_argument(f"--{option}", required=True)
    args = parser.parse_args()
    args.records = int(args.records)
    work = args.work
    history = f"{work}/history-{args.records}.ndjson"
    for suffix in ("", "-wal", "-shm"):
        for name in ("share.db", "peer.db"):
            if os.path.exists(f"{work}/{name}{suffix}"):
                os.remove(f"{work}/{name}{suffix}")
    processes = []
    try:
        # shared, release build; request logs off (warnings only), as for the peer's defaults below.
        shared_port = free_port()
        shared_log = open(f"{work}/shared.log", "w")
        shared = start([f"{args.bin}/shared", "--listen", f"127.0.0.1:{shared_port}", "--db", f"{work}/share.db"],
                       shared_log, {"LOG_LEVEL": "warning"}, folder=work)
        processes.append(shared)
        shared_url = f"http://127.0.0.1:{shared_port}"
        wait_until_up(f"{shared_url}/healthz", shared)

        started = time.time()
        subprocess.run([f"{args.bin}/share", "--server", shared_url, "import", history], check=True, stdout=subprocess.DEVNULL)
        import_seconds = time.time() - started
        print(f"imported {args.records} records in {import_seconds:.1f} s", file=sys.stderr)
        import_rss = peak_rss_mb(shared.pid)

        export = subprocess.Popen([f"{args.bin}/share", "--server", shared_url, "export"], stdout=subprocess.PIPE)
        subprocess.run([args.python, "bench/datasette_db.py", f"{work}/peer.db"], stdin=export.stdout, check=True)
        export.wait()

        peer_port = free_port()
        peer = start([args.datasette, "serve", "-i", f"{work}/peer.db", "--port", str(peer_port),
                      "--setting", "sql_time_limit_ms", "20000", "--setting", "default_page_size", "100"],
                     open(f"{work}/datasette.log", "w"))
        processes.append(peer)
        peer_table = f"http://127.0.0.1:{peer_port}/peer/share.json"
        wait_until_up(f"{peer_table}?_size=1", peer)

        page, headers = get(f"{shared_url}/share?limit=100")
        link = headers.get("Link") or headers.get("link")
        shared_second = shared_url + link[1:link.index(">")]
        peer_first = json.loads(get(f"{peer_table}?_sort_desc=created_ms&_size=100&_nocount=1&_nofacet=1")[0])
        peer_second = (f"{peer_table}?_sort_desc=created_ms&_size=100&_shape=array&_nocount=1&_nofacet=1"
                       f"&_next={urllib.parse.quote(peer_first['next'])}")

        # nginx serving a static file the size of a 100-row page: what this machine can do at all.
        static_port = free_port()
        os.makedirs(f"{work}/nginx/logs", exist_ok=True)
        with open(f"{work}/nginx/page.json", "wb") as file:
            file.write(page)
        with open(f"{work}/nginx/nginx.conf", "w") as conf:
            conf.write(f"""daemon off; worker_processes auto; pid {work}/nginx/nginx.pid; error_log {work}/nginx/logs/error.log;
{"user root;" if os.getuid() == 0 else ""}
events {{ worker_connections 1024; }}
http {{ access_log off; server {{ listen 127.0.0.1:{static_port}; root {work}/nginx; default_type application/json; }} }}
""")
        nginx = start(["/usr/sbin/nginx", "-p", f"{work}/nginx", "-c", f"{work}/nginx/nginx.conf"], open(f"{work}/nginx.log", "w"))
        processes.append(nginx)
        wait_until_up(f"http://127.0.0.1:{static_port}/page.json", nginx)

        # Everything of ours first, Datasette last: a slow peer keeps working through the requests wrk left in
        # flight when its run ended, which would take the CPU from whatever is measured next.
        measured = shapes(shared_url, peer_table, shared_second, peer_second)
        ours = {}
        for name, url, _ in measured:
            print(f"measuring {name}", file=sys.stderr)
            ours[name] = (len(json.loads(get(url)[0])), wrk(url))
        static = wrk(f"http://127.0.0.1:{static_port}/page.json")
        print("timing every combination", file=sys.stderr)
        # wrk leaves requests in flight that the daemon still answers: each wrk below is followed by a drain, so
        # that what is timed next (one request at a time) does not wait behind them.
        grid.drain("127.0.0.1", shared_port)
        once_slow = []
        for parameters in grid.ONCE_SLOW:
            target = grid.path("", parameters)
            once_slow.append((target, grid.median_ms("127.0.0.1", shared_port, target), wrk(shared_url + target)))
            grid.drain("127.0.0.1", shared_port)
        combinations = grid.timed_grid("127.0.0.1", shared_port)
        # One sample is at the mercy of the machine's noise: the ten slowest again, median of 5.
        retimed = {target: grid.median_ms("127.0.0.1", shared_port, target) for _, target in combinations[:10]}
        print("timing statistics", file=sys.stderr)
        statistics = stats.timed("127.0.0.1", shared_port)
        slowest = []
        for elapsed, target in combinations[:5]:
            slowest.append((target, elapsed, wrk(shared_url + target)))
            grid.drain("127.0.0.1", shared_port)
        print("timing the plain page beside heavy searches", file=sys.stderr)
        isolated = isolation.measure("127.0.0.1", shared_port, [target for target, _, _ in slowest])
        # The file itself, its write-ahead log (which the import filled) folded back in first.
        with sqlite3.connect(f"{work}/share.db") as checkpoint:
            checkpoint.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        database_mib = os.path.getsize(f"{work}/share.db") / 1024 / 1024
        under_load_rss = peak_rss_mb(shared.pid)

        timing = f"{work}/cli.json"
        # -N: no shell around either command (hyperfine sends their output to /dev/null).
        subprocess.run(["hyperfine", "-N", "--warmup", "5", "--runs", "50", "--export-json", timing, "--style", "none",
                        f"{args.bin}/share --server {shared_url} ls --limit 100",
                        f"curl -s {shared_url}/share?limit=100"], check=True, stdout=subprocess.DEVNULL)
        cli, curl = [entry["mean"] * 1000 for entry in json.load(open(timing))["results"]]

        results = []
        for name, _, url in measured:
            print(f"measuring {name} on Datasette", file=sys.stderr)
            rows, result = ours[name]
            results.append((name, rows, len(json.loads(get(url)[0])), result, wrk(url)))

        write_report(args, results, static, import_seconds, import_rss, under_load_rss, cli, curl, len(page),
                     (combinations, retimed, slowest, once_slow, database_mib), statistics, isolated)
    finally:
        for process in processes:
            process.terminate()
            process.wait()


def machine():
    cpu = re.search(r"model name\s*:\s*(.*)", open("/proc/cpuinfo").read()).group(1)
    memory = int(re.search(r"MemTotal:\s+(\d+)", open("/proc/meminfo").read()).group(1)) / 1024 / 1024
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    sqlite = subprocess.run(["python3", "-c", "import sqlite3; print(sqlite3.sqlite_version)"], capture_output=True, text=True).stdout.strip()
    return (f"{os.cpu_count()} × {cpu}, {memory:.0f} GiB, Linux {platform.release()}; {swift}; SQLite {sqlite} (system); "
            f"wrk -t2 -c{CONNECTIONS} -d{WRK_SECONDS}s after a {WARM_UP_SECONDS} s warm-up, on the same machine")


def ratio(ours, theirs):
    return f"{ours['rps'] / theirs['rps']:.0f}×" if theirs["rps"] else "∞ (no answer in the run)"


def verdict(met):
    return "met" if met else "**not met**"


def grid_report(combinations, retimed, slowest, once_slow):
    """The worst of the grid (the ten slowest timed again), wrk on its five slowest requests, and the requests once
    found slow."""
    quick = sum(1 for elapsed, _ in combinations if elapsed <= 20)
    lines = [
        "## Every combination",
        "",
        f"Every filter combination (each pair of date, type, folder and text crossed, in each of the six sorts, "
        f"first page and the next: {len(combinations):,} requests, one at a time over one connection) timed once: "
        f"{quick:,} within 20 ms, slowest {combinations[0][0]:.1f} ms. The ten slowest, and the same again "
        f"(median of 5):",
        "",
        "| request | ms | median of 5 ms |",
        "|---|---|---|",
    ]
    lines += [f"| `{target}` | {elapsed:.1f} | {retimed[target]:.1f} |" for elapsed, target in combinations[:10]]
    lines += ["", "The five slowest under wrk:", "", "| request | one request ms | req/s | p50 ms | p99 ms |", "|---|---|---|---|---|"]
    lines += [f"| `{target}` | {elapsed:.1f} | {result['rps']:,.0f} | {result['p50']:.2f} | {result['p99']:.2f} |"
              for target, elapsed, result in slowest]
    lines += ["", "The requests that were slow before the listing chose its reads (one request: median of 5):", "",
              "| request | one request ms | req/s | p50 ms | p99 ms |", "|---|---|---|---|---|"]
    lines += [f"| `{target}` | {elapsed:.1f} | {result['rps']:,.0f} | {result['p50']:.2f} | {result['p99']:.2f} |"
              for target, elapsed, result in once_slow]
    return lines + [""]


def write_report(args, results, static, import_seconds, import_rss, under_load_rss, cli, curl, page_bytes, grid_results,
                 statistics, isolated):
    combinations, retimed, slowest, once_slow, database_mib = grid_results
    rate = args.records / import_seconds
    lines = [
        "# Benchmarks",
        "",
        "One current table per benchmark, each with the command that makes it; the runs before are in this file's git "
        "history. Rates on this 2-core machine move by 10–25% between runs of one build, so builds are compared only "
        "beside each other, as ratios.",
        "",
        f"This part: `bench/run {args.records}` on {datetime.date.today()}. Below the notes, each section says "
        "which script writes it.",
        "",
        f"- Machine: {machine()}.",
        f"- Data: {args.records:,} generated share records (mixed-language names, real extensions, 26 folders, "
        "five years of createdAt), imported into `shared` (release build, request logs off) and, from its "
        "export, into Datasette "
        + subprocess.run([args.datasette, "--version"], capture_output=True, text=True).stdout.strip().split()[-1]
        + " with indexes on every filtered column and a trigram FTS on the name (`-i`, immutable).",
        f"- Ceiling: nginx serving a static file of the same size as a 100-row page ({page_bytes:,} bytes).",
        "",
        "## Query shapes",
        "",
        "| shape | rows | shared req/s | p50 ms | p99 ms | Datasette req/s | p50 ms | p99 ms | ratio |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, ours_rows, theirs_rows, ours, theirs in results:
        rows = str(ours_rows) if ours_rows == theirs_rows else f"{ours_rows} / {theirs_rows}"
        lines.append(
            f"| {name} | {rows} | {ours['rps']:,.0f} | {ours['p50']:.2f} | {ours['p99']:.2f} | {theirs['rps']:,.0f} | "
            f"{theirs['p50']:.1f} | {theirs['p99']:.1f} | {ratio(ours, theirs)} |")
    lines += [
        f"| static file, nginx | 100 | {static['rps']:,.0f} | {static['p50']:.2f} | {static['p99']:.2f} | | | | |",
        "",
        "`rows` is what each server returned for the shape (one number when both agree). Every response was a 2xx "
        "within wrk's 30 s timeout: " + ("yes." if all(r[3]["errors"] == 0 and r[4]["errors"] == 0 for r in results) else
        "**no**: " + ", ".join(f"{r[0]}: shared {r[3]['errors']}, Datasette {r[4]['errors']}" for r in results
                               if r[3]["errors"] or r[4]["errors"]) + "."),
        "",
    ]
    lines += grid_report(combinations, retimed, slowest, once_slow)
    lines += ["## Statistics", "",
              "`GET /share/stats`, one request at a time (median of 5). `totals`: added up from the running totals "
              "(months, and the days and quarter hours at each period's ends); `records`: every matching record "
              "read (text and folders are not in the totals).", ""]
    lines += stats.report(statistics) + [""]
    lines += ["## Heavy searches beside the plain page", "",
              f"`/share?limit=100` under wrk (32 connections, {isolation.SECONDS} s) alone, and while {isolation.HEAVY_CLIENTS} "
              "more clients ask one of the five slowest combinations without pause; heavy requests refused with 503 "
              "(`heavy_wait_seconds` passed) are counted.", ""]
    lines += isolation.report(isolated) + [""]
    worst_share, worst_isolated_p99 = isolation.goals_met(isolated)
    worst_stats, worst_stats_path = stats.goals_met(statistics)
    lines += ["## Targets", ""]
    page = results[0][3]
    slowest_ratio = min(ours["rps"] / max(theirs["rps"], 0.001) for _, _, _, ours, theirs in results)
    worst_p99 = max(ours["p99"] for _, _, _, ours, _ in results)
    lines += [
        f"- Every shape ≥ 50× Datasette: slowest ratio {slowest_ratio:.0f}× — {verdict(slowest_ratio >= 50)}.",
        f"- A 100-row page ≥ 10k req/s and ≥ half of the static file: {page['rps']:,.0f} req/s, "
        f"{page['rps'] / static['rps']:.0%} of nginx — {verdict(page['rps'] >= 10_000 and page['rps'] >= static['rps'] / 2)}.",
        f"- p99 ≤ 20 ms at {CONNECTIONS} connections: worst {worst_p99:.1f} ms — {verdict(worst_p99 <= 20)}.",
        f"- Import ≥ 50k records/s: {rate:,.0f} records/s ({import_seconds:.0f} s for {args.records:,}) — {verdict(rate >= 50_000)}.",
        f"- `shared` RSS ≤ 100 MB: peak {max(import_rss, under_load_rss):.0f} MB (import {import_rss:.0f} MB, queries "
        f"{under_load_rss:.0f} MB) — {verdict(max(import_rss, under_load_rss) <= 100)}.",
        f"- `share ls` ≤ 1.5× `curl` on the same URL: {cli:.1f} ms vs {curl:.1f} ms, {cli / curl:.2f}× — {verdict(cli <= 1.5 * curl)}.",
        f"- Every combination ≤ 20 ms for one request: slowest {combinations[0][0]:.1f} ms — {verdict(combinations[0][0] <= 20)}.",
        f"- Every combination ≤ 50 ms for one request (the ten slowest, median of 5): slowest {max(retimed.values()):.1f} ms — "
        f"{verdict(max(retimed.values()) <= 50)}.",
        f"- p99 ≤ 20 ms under wrk for the five slowest combinations: worst {max(r['p99'] for _, _, r in slowest):.1f} ms — "
        f"{verdict(max(r['p99'] for _, _, r in slowest) <= 20)}.",
        f"- The plain page beside heavy searches keeps ≥ 50% of its rate alone, p99 ≤ 20 ms: worst {worst_share:.0%}, "
        f"{worst_isolated_p99:.1f} ms — {verdict(worst_share >= 0.5 and worst_isolated_p99 <= 20)}.",
        f"- The requests once found slow ≤ 20 ms: slowest {max(e for _, e, _ in once_slow):.1f} ms — "
        f"{verdict(max(e for _, e, _ in once_slow) <= 20)}.",
        f"- Database file ≤ 460 MiB at {args.records:,} records: {database_mib:.0f} MiB — {verdict(database_mib <= 460)}.",
        f"- Statistics within their goals (no filter in any zone ≤ 5 ms, types and dates ≤ 10 ms): worst "
        f"`{urllib.parse.unquote(worst_stats_path)}` at {worst_stats:.0%} of its goal — {verdict(worst_stats <= 1)}.",
        "",
    ]
    # The notes below the marker are written by hand and kept from run to run.
    notes = open(args.out).read().split("<!-- notes -->", 1) if os.path.exists(args.out) else []
    lines.append("<!-- notes -->" + (notes[1] if len(notes) == 2 else "\n"))
    with open(args.out, "w") as out:
        out.write("\n".join(lines))


if __name__ == "__main__":
    main()
