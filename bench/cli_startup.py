#!/usr/bin/env python3
"""Start-up of the CLI, two builds beside curl: one `shared` (this build's) serves 1,000 generated records, and
hyperfine (no shell, 5 warm-ups, 50 runs each, in turn) times `share ls --limit 100` and `share --version` of each
build and `curl` on the same URL. Prints a Markdown table for docs/benchmarks.md.

Usage: python3 bench/cli_startup.py BIN_FOLDER BASELINE_BIN_FOLDER
   (release binaries from scripts/build-release)
"""
import json
import os
import subprocess
import sys
import tempfile

from users import Daemon

RECORDS = 1000


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    binary, baseline = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    subprocess.run(["scripts/ensure-packages", "hyperfine"], check=True, stdout=subprocess.DEVNULL)
    with tempfile.TemporaryDirectory(prefix="share-cli-startup-") as folder:
        lines = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "generate.py"), str(RECORDS)],
                               check=True, capture_output=True, text=True).stdout.splitlines(keepends=True)
        daemon = Daemon(binary, folder, per_user=False)
        try:
            daemon.import_lines(lines)
            server = f"http://127.0.0.1:{daemon.port}"
            commands = [
                ("`share ls --limit 100`, build before", f"{baseline}/share --server {server} ls --limit 100"),
                ("`share ls --limit 100`, this build", f"{binary}/share --server {server} ls --limit 100"),
                ("`share --version`, build before", f"{baseline}/share --version"),
                ("`share --version`, this build", f"{binary}/share --version"),
                ("`curl` on the same URL", f"curl -s {server}/share?limit=100"),
            ]
            timing = os.path.join(folder, "timing.json")
            subprocess.run(["hyperfine", "-N", "--warmup", "5", "--runs", "50", "--export-json", timing, "--style", "none",
                            *[command for _, command in commands]], check=True, stdout=subprocess.DEVNULL)
            means = [result["mean"] * 1000 for result in json.load(open(timing))["results"]]
        finally:
            daemon.stop(folder)
    curl = means[-1]
    print("| command | mean ms | × curl |")
    print("|---|---:|---:|")
    for (label, _), mean in zip(commands, means):
        print(f"| {label} | {mean:.1f} | {mean / curl:.2f} |")


if __name__ == "__main__":
    main()
