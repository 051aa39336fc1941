#!/usr/bin/env python3
"""Events going out, measured. Two numbers:

1. What an event costs a write: creates a second (`POST /share`, wrk with 4 connections, 10 s after a warm-up) on a
   new SQLite history, this build beside the build before events went out (BEFORE), four times each in turns
   (before, this, this, before, twice) after a run not counted, each on a database of its own; and this build again
   with a webhook taking every event from a local receiver meanwhile.
2. Deliveries a second: N records made while one hook (then eight) to nginx answering 204 on loopback is stopped,
   then the hooks started: timed from the start to the last event's delivery recorded.

Usage: python3 bench/events.py BIN_FOLDER BEFORE_BIN_FOLDER [--records 2000]; run from the repository's folder; needs
wrk and nginx; prints Markdown."""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from measure import free_port, start, wait_until_up

LUA = """
counter = 0
request = function()
  counter = counter + 1
  local body = '{"name": "bench-' .. counter .. '-' .. math.random(1, 1000000000) .. '.pdf", "size": 1234}'
  return wrk.format("POST", "/share", {["Content-Type"] = "application/json"}, body)
end
"""


def call(method, url, body=None):
    request = urllib.request.Request(url, data=json.dumps(body).encode() if body is not None else None, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read() or b"null")


def daemon(binary, work, name, processes):
    """`shared` of `binary` on a new history in `work/name`, hooks allowed to loopback: its URL."""
    folder = os.path.join(work, name)
    os.makedirs(folder)
    port = free_port()
    log = open(os.path.join(folder, "shared.log"), "w")
    process = start([f"{binary}/shared", "--listen", f"127.0.0.1:{port}", "--db", f"{folder}/share.db"], log,
                    {"LOG_LEVEL": "warning", "SHARE_HOOKS_ALLOW_PRIVATE_ADDRESSES": "true"}, folder=folder)
    processes.append(process)
    url = f"http://127.0.0.1:{port}"
    wait_until_up(f"{url}/healthz", process)
    return url, process


def creates_per_second(url, work):
    script = os.path.join(work, "create.lua")
    with open(script, "w") as file:
        file.write(LUA)
    arguments = ["wrk", "-t1", "-c4", "--timeout", "30s", "-s", script, url]
    subprocess.run(arguments[:1] + ["-d3s"] + arguments[1:], check=True, capture_output=True)
    output = subprocess.run(arguments[:1] + ["-d10s"] + arguments[1:], check=True, capture_output=True, text=True).stdout
    if re.search(r"Non-2xx or 3xx responses: (\d+)", output):
        sys.exit(f"creates refused:\n{output}")
    return float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))


def receiver(work, processes):
    """nginx answering every POST with 204 on loopback: its URL."""
    folder = os.path.join(work, "nginx")
    os.makedirs(f"{folder}/logs")
    port = free_port()
    with open(f"{folder}/nginx.conf", "w") as conf:
        conf.write(f"""daemon off; {"user root;" if os.getuid() == 0 else ""} worker_processes 1; pid {folder}/nginx.pid;
error_log {folder}/logs/error.log; events {{}}
http {{ access_log off; client_body_temp_path {folder}/body;
  server {{ listen 127.0.0.1:{port}; location / {{ return 204; }} }} }}
""")
    processes.append(subprocess.Popen(["/usr/sbin/nginx", "-p", folder, "-c", f"{folder}/nginx.conf"]))
    url = f"http://127.0.0.1:{port}/hook"
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            urllib.request.urlopen(urllib.request.Request(url, data=b"{}", method="POST"), timeout=5)
        except urllib.error.HTTPError:
            pass
        except OSError:
            time.sleep(0.1)
            continue
        return url
    sys.exit("nginx did not start")


def deliveries_per_second(binary, work, hooks, records, target, processes, name):
    url, process = daemon(binary, work, name, processes)
    ids = [call("POST", f"{url}/hooks", {"url": target})["id"] for _ in range(hooks)]
    # The events made while the hooks are stopped; started, they send them all, in order.
    for hook in ids:
        call("PATCH", f"{url}/hooks/{hook}", {"enabled": False})
    for number in range(records):
        call("POST", f"{url}/share", {"name": f"delivered-{number}.pdf", "size": 1})
    started = time.monotonic()
    for hook in ids:
        call("PATCH", f"{url}/hooks/{hook}", {"enabled": True})
    last = str(records)
    while True:
        done = all((call("GET", f"{url}/hooks/{hook}/deliveries?limit=1") or [{}])[0].get("eventId") == last for hook in ids)
        if done:
            break
        time.sleep(0.05)
    seconds = time.monotonic() - started
    process.terminate()
    process.wait()
    return records * hooks / seconds, seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bin")
    parser.add_argument("before")
    parser.add_argument("--records", type=int, default=2000)
    args = parser.parse_args()
    args.bin, args.before = os.path.abspath(args.bin), os.path.abspath(args.before)
    work = tempfile.mkdtemp(prefix="share-events-")
    processes = []
    try:
        target = receiver(work, processes)
        rates = {"this": [], "before": []}
        # A first run warms the machine and is not counted; then each build four times, in turns.
        for round, build in enumerate(["warm-up"] + ["before", "this", "this", "before"] * 2):
            url, process = daemon(args.bin if build != "before" else args.before, work, f"writes-{round}", processes)
            rate = creates_per_second(url, work)
            if build != "warm-up":
                rates[build].append(rate)
            process.terminate()
            process.wait()
        url, process = daemon(args.bin, work, "writes-hooked", processes)
        call("POST", f"{url}/hooks", {"url": target})
        hooked = creates_per_second(url, work)
        process.terminate()
        process.wait()
        this, before = statistics.mean(rates["this"]), statistics.mean(rates["before"])
        print("| writes (POST /share, 4 connections) | creates/s | ÷ before |\n|---|---:|---:|")
        print(f"| the build before (no events out) | {before:.0f} | 1.00 |")
        print(f"| this build (each change's event in the outbox) | {this:.0f} | {this / before:.2f} |")
        print(f"| this build, a webhook taking every event meanwhile | {hooked:.0f} | {hooked / before:.2f} |")
        print(f"\nEach build four times, in turns ({', '.join(f'{rate:.0f}' for rate in rates['before'])} before; "
              f"{', '.join(f'{rate:.0f}' for rate in rates['this'])} this).\n")
        print("| deliveries to nginx (204) on loopback | events each | deliveries/s | seconds |\n|---|---:|---:|---:|")
        for hooks in (1, 8):
            rate, seconds = deliveries_per_second(args.bin, work, hooks, args.records, target, processes, f"deliveries-{hooks}")
            print(f"| {hooks} hook{'s' if hooks > 1 else ''} | {args.records} | {rate:.0f} | {seconds:.1f} |")
    finally:
        for process in processes:
            process.terminate()
            process.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
