"""The plain page while heavy searches run: its req/s and p99 alone, and while 16 clients ask each of the five
slowest combinations of the grid (the heavy lane's work); heavy requests refused with 503 are counted.

Imported by measure.py for bench/run's table; run alone against a serving `shared` to compare two builds on the
same heavy requests (without --target: the grid's five slowest on this server):
    python3 bench/isolation.py --port 8080 [--target '/share?q=re&sort=name&order=desc' ...]
"""
import argparse
import re
import subprocess
import time

import grid

PLAIN = "/share?limit=100"
HEAVY_CLIENTS = 16
SECONDS = 10
WARM_UP_SECONDS = 3


def wrk(url, connections, seconds):
    """Requests/s, p99 ms, and the answers that were not 2xx (503s when heavy reads are shed)."""
    output = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "30s", "--latency", url],
                            check=True, capture_output=True, text=True).stdout
    value, unit = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\s*$", output, re.M).groups()
    refused = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)),
            "p99": float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit],
            "refused": int(refused.group(1)) if refused else 0}


def measure(host, port, heavy_targets):
    """The plain page alone, then beside each heavy target; (target or None, plain, heavy) rows."""
    base = f"http://{host}:{port}"
    wrk(base + PLAIN, 32, WARM_UP_SECONDS)
    rows = [(None, wrk(base + PLAIN, 32, SECONDS), None)]
    for target in heavy_targets:
        # The heavy clients run from before the plain page's run to after it.
        heavy = subprocess.Popen(["wrk", "-t2", f"-c{HEAVY_CLIENTS}", f"-d{SECONDS + 2 * WARM_UP_SECONDS}s", "--timeout", "30s",
                                  "--latency", base + target], stdout=subprocess.PIPE, text=True)
        time.sleep(WARM_UP_SECONDS)
        plain = wrk(base + PLAIN, 32, SECONDS)
        output = heavy.communicate()[0]
        refused = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
        total = re.search(r"(\d+) requests in", output)
        rows.append((target, plain, {"requests": int(total.group(1)) if total else 0, "refused": int(refused.group(1)) if refused else 0}))
        grid.drain(host, port)
    return rows


def report(rows):
    alone = rows[0][1]
    lines = [f"| heavy load (16 clients) | plain page req/s | share of alone | p99 ms | heavy requests | refused (503) |",
             "|---|---:|---:|---:|---:|---:|",
             f"| none | {alone['rps']:,.0f} | 100% | {alone['p99']:.2f} | | |"]
    for target, plain, heavy in rows[1:]:
        lines.append(f"| `{target}` | {plain['rps']:,.0f} | {plain['rps'] / alone['rps']:.0%} | {plain['p99']:.2f} | "
                     f"{heavy['requests']:,} | {heavy['refused']:,} |")
    return lines


def goals_met(rows):
    """The worst share of the alone rate and the worst p99 under heavy load."""
    alone = rows[0][1]["rps"]
    return min(plain["rps"] / alone for _, plain, _ in rows[1:]), max(plain["p99"] for _, plain, _ in rows[1:])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--target", action="append", help="a heavy request's path; repeat for each")
    args = parser.parse_args()
    targets = args.target or [target for _, target in grid.timed_grid(args.host, args.port)[:5]]
    print("\n".join(report(measure(args.host, args.port, targets))))


if __name__ == "__main__":
    main()
