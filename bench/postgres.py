#!/usr/bin/env python3
"""The query shapes of bench/measure.py on PostgreSQL: the SQLite history bench/run imported is moved up with
`shared migrate` into a throwaway cluster (scripts/postgres-cluster), then served by one `shared` node and by two
behind an nginx upstream (deploy/nginx/share-nodes.conf), each shape measured with wrk beside SQLite's, in the same
run; then statistics (bench/stats.py) and the plain page beside heavy reads (bench/isolation.py) on SQLite and on one
node. Writes its section of docs/benchmarks.md (between the `postgresql` markers, below the notes bench/run keeps).
Called by `bench/run --backend postgresql`; imports the generated history into SQLite first when no run left one."""
import argparse
import os
import re
import subprocess
import sys
import time
import urllib.parse

import isolation
import stats
from measure import free_port, get, machine, shapes, start, wait_until_up, wrk

BEGIN, END = "<!-- postgresql -->", "<!-- /postgresql -->"


def cluster(command, *arguments):
    return subprocess.run(["scripts/postgres-cluster", command, *arguments], check=True, capture_output=True, text=True).stdout.strip()


def psql(folder, database, statement):
    subprocess.run(["psql", "--host", folder, "--username", "postgres", "--quiet", "--dbname", database, "--command", statement],
                   check=True, capture_output=True)


def node(args, environment, log):
    port = free_port()
    process = start([f"{args.bin}/shared", "--listen", f"127.0.0.1:{port}"], open(log, "w"),
                    {"LOG_LEVEL": "warning", **environment}, folder=args.work)
    url = f"http://127.0.0.1:{port}"
    wait_until_up(f"{url}/healthz", process)
    return process, url


def second_page(url):
    _, headers = get(f"{url}/share?limit=100")
    link = headers.get("Link") or headers.get("link")
    return url + link[1:link.index(">")]


def measure_all(url):
    return {name: wrk(address) for name, address, _ in shapes(url, "", second_page(url), "")}


# Reads that outgrow the quick budget on both stores: a common term sorted by size, a one-letter term sorted by
# name, and statistics of a common term (text is not in the running totals).
HEAVY = ["/share?q=report&sort=size", "/share?q=e&sort=name", "/share/stats?q=report"]


def measure_reads(url):
    """Statistics one request at a time, then the plain page alone and beside each heavy read."""
    port = int(url.rsplit(":", 1)[1])
    return {"stats": stats.timed("127.0.0.1", port), "isolation": isolation.measure("127.0.0.1", port, HEAVY)}


def sqlite_history(args, sqlite_file):
    """The SQLite history bench/run imports, imported here from the generated records when no run left one."""
    history = f"{args.work}/history-{args.records}.ndjson"
    if not os.path.exists(history):
        with open(history, "w") as out:
            subprocess.run(["python3", "bench/generate.py", str(args.records)], check=True, stdout=out)
    port = free_port()
    shared = start([f"{args.bin}/shared", "--listen", f"127.0.0.1:{port}", "--db", sqlite_file],
                   open(f"{args.work}/shared-import.log", "w"), {"LOG_LEVEL": "warning"}, folder=args.work)
    try:
        wait_until_up(f"http://127.0.0.1:{port}/healthz", shared)
        subprocess.run([f"{args.bin}/share", "--server", f"http://127.0.0.1:{port}", "import", history], check=True,
                       stdout=subprocess.DEVNULL)
    finally:
        shared.terminate()
        shared.wait()


def main():
    parser = argparse.ArgumentParser()
    for option in ("records", "work", "bin", "out"):
        parser.add_argument(f"--{option}", required=True)
    args = parser.parse_args()
    args.records = int(args.records)
    sqlite_file = f"{args.work}/share.db"
    if not os.path.exists(sqlite_file):
        sqlite_history(args, sqlite_file)
    folder = cluster("start")
    processes = []
    try:
        psql(folder, "postgres", "CREATE DATABASE share")
        url = f"postgresql://postgres@/share?host={folder}"
        started = time.time()
        subprocess.run([f"{args.bin}/shared", "migrate", "--to", url, "--db", sqlite_file], check=True, cwd=args.work,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        migrate_seconds = time.time() - started
        print(f"migrated {args.records} records in {migrate_seconds:.0f} s", file=sys.stderr)
        psql(folder, "share", "VACUUM ANALYZE")
        size = subprocess.run(["psql", "--host", folder, "--username", "postgres", "--dbname", "share", "--tuples-only", "--command",
                               "SELECT pg_size_pretty(pg_database_size('share'))"], check=True, capture_output=True, text=True).stdout.strip()

        sqlite, sqlite_url = node(args, {"SHARE_DATABASE_PATH": sqlite_file, "SHARE_DATABASE_TRASH_DAYS": "0"}, f"{args.work}/shared-sqlite.log")
        processes.append(sqlite)
        sqlite_results = measure_all(sqlite_url)
        sqlite_reads = measure_reads(sqlite_url)
        sqlite.terminate()
        sqlite.wait()

        postgres = {"SHARE_DATABASE_URL": url, "SHARE_DATABASE_TRASH_DAYS": "0"}
        first, first_url = node(args, postgres, f"{args.work}/shared-postgres-1.log")
        processes.append(first)
        one_node = measure_all(first_url)
        one_node_reads = measure_reads(first_url)
        second, second_url = node(args, postgres, f"{args.work}/shared-postgres-2.log")
        processes.append(second)
        port = free_port()
        site = open("deploy/nginx/share-nodes.conf").read()
        servers = "\n".join(f"    server {u[len('http://'):]} max_fails=1 fail_timeout=5s;" for u in (first_url, second_url))
        site = re.sub(r"(    server 10\.0\.0\.\d+:8080[^\n]*\n)+", servers + "\n", site).replace("listen 80;", f"listen 127.0.0.1:{port};")
        prefix = f"{args.work}/nginx-nodes"
        os.makedirs(f"{prefix}/logs", exist_ok=True)
        with open(f"{prefix}/nginx.conf", "w") as conf:
            conf.write(f"daemon off; worker_processes 1; pid {prefix}/nginx.pid; error_log {prefix}/logs/error.log;\n"
                       f"{'user root;' if os.getuid() == 0 else ''}\nevents {{ worker_connections 1024; }}\n"
                       f"http {{ access_log off; {site} }}\n")
        nginx = start(["/usr/sbin/nginx", "-p", prefix, "-c", f"{prefix}/nginx.conf"], open(f"{prefix}/nginx.log", "w"))
        processes.append(nginx)
        wait_until_up(f"http://127.0.0.1:{port}/healthz", nginx)
        two_nodes = measure_all(f"http://127.0.0.1:{port}")
    finally:
        for process in processes:
            process.terminate()
            process.wait()
        cluster("stop", folder)
    write(args, migrate_seconds, size, sqlite_results, one_node, two_nodes, sqlite_reads, one_node_reads)


def write(args, migrate_seconds, size, sqlite_results, one_node, two_nodes, sqlite_reads, one_node_reads):
    version = subprocess.run(["psql", "--version"], capture_output=True, text=True).stdout.strip()
    lines = [
        BEGIN, "## PostgreSQL", "",
        f"Measured on {time.strftime('%Y-%m-%d')} by `bench/run --backend postgresql {args.records}` (this section is its output).",
        "",
        f"- Machine: {machine()}; {version}, a throwaway cluster with its default settings on the same machine "
        "(unix socket, `fsync = off` as the test clusters run).",
        f"- Data: the {args.records:,} records of the SQLite benchmark, moved with `shared migrate` in {migrate_seconds:.0f} s; "
        f"the database then holds {size}.",
        "- The same shapes as above: SQLite served by one `shared` in the same run, PostgreSQL by one node, then by two behind "
        "nginx (deploy/nginx/share-nodes.conf); the database, the nodes, nginx and wrk all on this machine's two cores.",
        "",
        "| shape | SQLite req/s | p99 ms | PostgreSQL, 1 node req/s | p99 ms | 2 nodes + nginx req/s | p99 ms | 1 node / SQLite |",
        "|---|---|---|---|---|---|---|---|",
    ]
    errors = 0
    for name in sqlite_results:
        s, one, two = sqlite_results[name], one_node[name], two_nodes[name]
        errors += s["errors"] + one["errors"] + two["errors"]
        lines.append(f"| {name} | {s['rps']:,.0f} | {s['p99']:.1f} | {one['rps']:,.0f} | {one['p99']:.1f} | {two['rps']:,.0f} | "
                     f"{two['p99']:.1f} | {one['rps'] / s['rps']:.2f}× |")
    lines += ["", f"Every response was a 2xx within wrk's 30 s timeout: {'yes' if errors == 0 else f'no ({errors} were not)'}.", ""]
    lines += ["Statistics, one request at a time (median of 5 ms), on both stores: *totals* reads the running totals (months,",
              "and the days and quarter hours at each period's ends), *records* every matching record.", "",
              "| request | reads | SQLite ms | PostgreSQL ms | PostgreSQL / SQLite |", "|---|---|---:|---:|---:|"]
    for (path, reads, _, sqlite_ms), (_, _, _, postgres_ms) in zip(sqlite_reads["stats"], one_node_reads["stats"]):
        ratio = postgres_ms / sqlite_ms
        lines.append(f"| `{urllib.parse.unquote(path)}` | {reads} | {sqlite_ms:.1f} | {postgres_ms:.1f} | {ratio:.{2 if ratio < 1 else 1}f}× |")
    lines += ["", "The plain page (`/share?limit=100`, 32 clients) alone and while 16 clients ask a heavy read, on each store "
              "(one node, `heavy_reads` = 1 on these two cores):", "",
              "| heavy load (16 clients) | SQLite plain req/s | share of alone | PostgreSQL plain req/s | share of alone | "
              "PostgreSQL heavy requests | refused (503) |", "|---|---:|---:|---:|---:|---:|---:|"]
    sqlite_alone, postgres_alone = sqlite_reads["isolation"][0][1], one_node_reads["isolation"][0][1]
    for (target, sqlite_plain, _), (_, postgres_plain, heavy) in zip(sqlite_reads["isolation"], one_node_reads["isolation"]):
        requests, refused = (f"{heavy['requests']:,}", f"{heavy['refused']:,}") if heavy else ("", "")
        lines.append(f"| {f'`{target}`' if target else 'none'} | {sqlite_plain['rps']:,.0f} | {sqlite_plain['rps'] / sqlite_alone['rps']:.0%} | "
                     f"{postgres_plain['rps']:,.0f} | {postgres_plain['rps'] / postgres_alone['rps']:.0%} | {requests} | {refused} |")
    lines.append(END)
    text = open(args.out).read()
    section = "\n".join(lines) + "\n"
    if BEGIN in text:
        text = text[:text.index(BEGIN)] + section + text[text.index(END) + len(END) + 1:]
    else:
        text = text.rstrip("\n") + "\n\n" + section
    with open(args.out, "w") as out:
        out.write(text)


if __name__ == "__main__":
    main()
