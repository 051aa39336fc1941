#!/usr/bin/env python3
"""Transfers of a share's bytes beside nginx on the same machine, in the same run: one file of SIZE (1 GiB by
default) downloaded from `shared` (`GET /s/{token}/file`) and from nginx serving the same file statically; uploaded to
`shared` (tus: one POST, one PATCH with the whole body, the share made on its last byte) and to nginx storing the same
body (`PUT` through its DAV module, `client_body_in_file_only`); then eight downloads and eight uploads at once,
sampling `shared`'s resident memory. Each server's file is read once first; then each single transfer runs ROUNDS
times, the servers taking turns in an order that moves on each round, and the median counts. curl is the client of
both. Last, the recipient's page of the link under wrk, beside `/healthz`.

With `--s3`, the bytes live in a SeaweedFS store (scripts/s3-store), and the other server is the store itself, read and
written by curl signing its own requests; its downloads are measured twice, on the machine's cores as they come and
with the store on a core of its own (as on its own machine: `shared` and curl on the others). Beside uploads, the disk's own durable write (`dd conv=fsync`), which bounds
any server that acknowledges only bytes on the disk.

With `--before BIN`, an earlier build's `shared` is measured in the same rounds, on its own database (and prefix), so
that a change is shown beside the build before it on the same machine at the same time.

Usage: python3 bench/transfers.py --bin .build/release [--before BIN] [--size-mib 1024] [--rounds 3] [--work DIR] [--s3];
run from the repository's folder; prints Markdown."""
import argparse
import base64
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from measure import free_port, wrk

MIB = 1_048_576


def curl(*arguments):
    """Runs curl; returns its output (the -w format's)."""
    return subprocess.run(["curl", "-sS", "--fail", *arguments], check=True, capture_output=True, text=True).stdout


def timed(action):
    start = time.monotonic()
    action()
    return time.monotonic() - start


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+) kB", status.read()).group(1)) / 1024


class PeakMemory:
    """The largest resident memory of a process while the block runs, sampled every 20 ms."""

    def __init__(self, pid):
        self.pid, self.peak, self.done = pid, 0.0, threading.Event()

    def __enter__(self):
        def sample():
            while not self.done.is_set():
                self.peak = max(self.peak, rss_mb(self.pid))
                time.sleep(0.02)

        self.thread = threading.Thread(target=sample)
        self.thread.start()
        return self

    def __exit__(self, *_):
        self.done.set()
        self.thread.join()


def upload_to_shared(url, path, size, name):
    """A tus upload of the whole file in one PATCH: the share's record comes back with the last byte."""
    created = curl("-i", "-X", "POST", "-H", "Tus-Resumable: 1.0.0", "-H", f"Upload-Length: {size}",
                   "-H", "Upload-Metadata: filename " + base64.b64encode(name.encode()).decode(), f"{url}/share/uploads")
    location = re.search(r"^location: (\S+)", created, re.I | re.M).group(1)
    curl("-o", "/dev/null", "-X", "PATCH", "-H", "Tus-Resumable: 1.0.0", "-H", "Upload-Offset: 0",
         "-H", "Content-Type: application/offset+octet-stream", "-T", path, f"{url}{location}")
    return location.rsplit("/", 1)[1]


def wait_until_up(url, process, accept_error=False, seconds=60):
    """Until `url` answers (any HTTP status, with `accept_error`)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"{process.args[0]} exited while starting")
        answered = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", url], capture_output=True, text=True).stdout
        if answered.startswith("2") or (accept_error and answered not in ("", "000")):
            return
        time.sleep(0.1)
    raise SystemExit(f"{url} did not answer")


def nginx_beside(work, source, processes):
    """nginx serving `source` statically and storing a `PUT` in a file: (name, download, upload(name), remove(name))."""
    os.makedirs(f"{work}/nginx/logs")
    os.makedirs(f"{work}/nginx/root/put")
    shutil.copy(source, f"{work}/nginx/root/file.bin")
    nginx_port = free_port()
    with open(f"{work}/nginx/nginx.conf", "w") as conf:
        conf.write(f"""daemon off; {"user root;" if os.getuid() == 0 else ""} worker_processes auto; pid {work}/nginx/nginx.pid; error_log {work}/nginx/logs/error.log;
events {{}}
http {{ access_log off; sendfile on; client_body_temp_path {work}/nginx/body; client_max_body_size 0;
  server {{ listen 127.0.0.1:{nginx_port}; root {work}/nginx/root;
    location /put/ {{ dav_methods PUT; client_body_in_file_only on; create_full_put_path on; }} }} }}
""")
    nginx = subprocess.Popen(["/usr/sbin/nginx", "-p", f"{work}/nginx", "-c", f"{work}/nginx/nginx.conf"])
    processes.append(nginx)
    url = f"http://127.0.0.1:{nginx_port}"
    wait_until_up(f"{url}/put/", nginx, accept_error=True)
    return ("nginx", lambda: curl("-o", "/dev/null", f"{url}/file.bin"),
            lambda name: curl("-o", "/dev/null", "-T", source, f"{url}/put/{name}"),
            lambda name: os.remove(f"{work}/nginx/root/put/{name}"))


def pin(pid, cpus):
    """Keeps every thread of process `pid` to `cpus`."""
    for thread in os.listdir(f"/proc/{pid}/task"):
        os.sched_setaffinity(int(thread), cpus)


class StoreApart:
    """While the block runs, the store's process on the first core and `shared` with this script (and so curl) on the
    others: the store as if on a machine of its own, which it is where a node reads a bucket over the network."""

    def __init__(self, store_pid, shared_pid):
        self.store_pid, self.shared_pid, self.all = store_pid, shared_pid, os.sched_getaffinity(0)

    def __enter__(self):
        first = min(self.all)
        pin(self.store_pid, {first})
        for pid in (self.shared_pid, os.getpid()):
            pin(pid, self.all - {first})

    def __exit__(self, *_):
        for pid in (self.store_pid, self.shared_pid, os.getpid()):
            pin(pid, self.all)


def rotated(contenders, round):
    """The contenders in an order that moves on by one each round, so that none always follows the same one: on this
    disk a writer is slowed by the blocks the one before freed (discarded) or the dirty pages it left."""
    shift = round % len(contenders)
    return contenders[shift:] + contenders[:shift]


S3_KEY, S3_SECRET, S3_BUCKET = "share-test-key", "share-test-secret", "share-test"


def s3_store():
    """A SeaweedFS store (scripts/s3-store): its folder and endpoint."""
    folder = subprocess.run(["scripts/s3-store", "start"], check=True, capture_output=True, text=True).stdout.strip()
    with open(f"{folder}/endpoint") as endpoint:
        return folder, endpoint.read().strip()


def s3_beside(endpoint, source, object_key):
    """curl signing its own requests (SigV4) to the same bucket: (name, download of `object_key`, upload(name),
    remove(name))."""
    signed = ["--aws-sigv4", "aws:amz:us-east-1:s3", "--user", f"{S3_KEY}:{S3_SECRET}"]
    return ("S3 direct", lambda: curl(*signed, "-o", "/dev/null", f"{endpoint}/{S3_BUCKET}/{object_key}"),
            lambda name: curl(*signed, "-o", "/dev/null", "-T", source, f"{endpoint}/{S3_BUCKET}/direct/{name}"),
            lambda name: curl(*signed, "-o", "/dev/null", "-X", "DELETE", f"{endpoint}/{S3_BUCKET}/direct/{name}"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--before", default=None, help="an earlier build's folder, measured in the same rounds")
    parser.add_argument("--size-mib", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--work", default=None)
    parser.add_argument("--s3", action="store_true", help="the bytes in SeaweedFS, beside curl reading the bucket itself")
    args = parser.parse_args()
    subprocess.run(["scripts/ensure-packages", "wrk", "nginx-light"], check=True, stdout=subprocess.DEVNULL)
    size = args.size_mib * MIB
    work = tempfile.mkdtemp(prefix="share-transfers-", dir=args.work)
    processes = []
    store = None
    try:
        source = f"{work}/file.bin"
        with open("/dev/urandom", "rb") as random, open(source, "wb") as file:
            for _ in range(args.size_mib):
                file.write(random.read(MIB))
        # Eight uploads at once from one user: a quarter of max_uploads each.
        environment = {**os.environ, "LOG_LEVEL": "warning", "SHARE_SERVER_MAX_UPLOADS": "32"}
        if args.s3:
            store, endpoint = s3_store()
            environment.update({"SHARE_FILES_STORE": "s3", "SHARE_FILES_S3_ENDPOINT": endpoint, "SHARE_FILES_S3_BUCKET": S3_BUCKET,
                                "SHARE_FILES_S3_PATH_STYLE": "true", "SHARE_FILES_S3_PREFIX": "bench/",
                                "AWS_ACCESS_KEY_ID": S3_KEY, "AWS_SECRET_ACCESS_KEY": S3_SECRET})
        def start(folder, name):
            """A daemon of the build in `folder` on a database (and prefix) of its own: (process, url, its file's link, upload id)."""
            port = free_port()
            log = open(f"{work}/{name}.log", "w")
            daemon = subprocess.Popen([f"{folder}/shared", "--listen", f"127.0.0.1:{port}", "--db", f"{work}/{name}.db"],
                                      env={**environment, "SHARE_FILES_S3_PREFIX": f"{name}/"}, stdout=log, stderr=subprocess.STDOUT)
            processes.append(daemon)
            address = f"http://127.0.0.1:{port}"
            wait_until_up(f"{address}/healthz", daemon)
            upload = upload_to_shared(address, source, size, "file.bin")
            record = json.loads(curl(f"{address}/share?limit=1"))[0]
            return daemon, address, f"{address}{record['link']}", upload

        shared, url, page_link, upload = start(args.bin, "shared")
        link = f"{page_link}/file"
        before = start(args.before, "before") if args.before else None
        other, other_download, other_upload, other_remove = s3_beside(endpoint, source, f"shared/blobs/{upload}") if args.s3 \
            else nginx_beside(work, source, processes)

        downloads = {"shared": [], "other": [], "before": []}
        apart = {"shared": [], "other": [], "before": []}
        uploads = {"shared": [], "other": [], "durable": [], "before": []}
        def before_download():
            curl("-o", "/dev/null", f"{before[2]}/file")

        readers = [("shared", lambda: curl("-o", "/dev/null", link)), ("other", other_download)]
        if before:
            readers.append(("before", before_download))
        # Each file read once first, so that every server's is in the page cache: `shared` writes uploads around it.
        for _, action in readers:
            action()
        for round in range(args.rounds):
            for key, action in rotated(readers, round):
                downloads[key].append(timed(action))
            if args.s3:
                with open(f"{store}/pid") as pid:
                    store_pid = int(pid.read())
                # The store on a core of its own; the daemon that reads it (curl alone for the other) on the rest.
                daemons = {"shared": shared.pid, "other": shared.pid, "before": before[0].pid if before else None}
                for key, action in rotated(readers, round):
                    with StoreApart(store_pid, daemons[key]):
                        apart[key].append(timed(action))
            writers = [("shared", lambda: upload_to_shared(url, source, size, f"upload {round}.bin")),
                       ("other", lambda: other_upload(f"upload-{round}.bin")),
                       # What any server that answers only once the bytes are on the disk is bound by.
                       ("durable", lambda: subprocess.run(["dd", f"if={source}", f"of={work}/durable.bin", "bs=1M", "conv=fsync"],
                                                          check=True, capture_output=True))]
            if before:
                writers.append(("before", lambda: upload_to_shared(before[1], source, size, f"upload {round}.bin")))
            for key, action in rotated(writers, round):
                uploads[key].append(timed(action))
            # As `shared` keeps the same bytes once, the other keeps no copy of them either.
            other_remove(f"upload-{round}.bin")

        def at_once(action):
            failures = []

            def run(index):
                try:
                    action(index)
                except Exception as failure:
                    failures.append(failure)

            threads = [threading.Thread(target=run, args=(index,)) for index in range(8)]
            with PeakMemory(shared.pid) as memory:
                started = time.monotonic()
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
                seconds = time.monotonic() - started
            if failures:
                raise SystemExit(f"{len(failures)} of 8 transfers at once failed: {failures[0]}")
            return memory.peak, seconds

        # The recipient's page of the link, beside the same daemon's fixed cost, under wrk.
        page = wrk(page_link)
        healthz = wrk(f"{url}/healthz")
        idle = rss_mb(shared.pid)
        download_peak, download_seconds = at_once(lambda index: curl("-o", "/dev/null", link))
        upload_peak, upload_seconds = at_once(lambda index: upload_to_shared(url, source, size, f"eight {index}.bin"))

        def rate(seconds):
            return size / MIB / statistics.median(seconds)

        def row(name, runs):
            ours, theirs = rate(runs["shared"]), rate(runs["other"])
            earlier = f" {rate(runs['before']):.0f} | {ours / rate(runs['before']):.2f} |" if before else ""
            print(f"| {name} | {ours:.0f} | {theirs:.0f} | {ours / theirs:.2f} |{earlier}")

        print(f"### Transfers of {args.size_mib} MiB beside {other}\n")
        print(f"| transfer | shared MiB/s | {other} MiB/s | shared ÷ {other} |" + (" before MiB/s | ÷ before |" if before else ""))
        print("|---|---:|---:|---:|" + ("---:|---:|" if before else ""))
        row("download (GET, whole file)", downloads)
        row(f"upload (tus PATCH / {other} PUT)", uploads)
        if args.s3:
            row("download, the store on a core of its own", apart)
        else:
            row("the disk's durable write (`dd conv=fsync`)", {**uploads, "other": uploads["durable"]})
        print(f"\nMedian of {args.rounds} rounds, the servers taking turns in an order that moves on each round; curl on loopback is the client of both.\n")
        print("| eight at once | shared's peak RSS | seconds |\n|---|---:|---:|")
        print(f"| idle | {idle:.0f} MB | |")
        print(f"| 8 downloads of the same file | {download_peak:.0f} MB | {download_seconds:.1f} |")
        print(f"| 8 uploads of the same bytes | {upload_peak:.0f} MB | {upload_seconds:.1f} |")
        print("\n| under wrk | req/s | p99 ms | not 2xx |\n|---|---:|---:|---:|")
        for name, result in (("the recipient's page `GET /s/{token}`", page), ("`/healthz` (the fixed cost)", healthz)):
            print(f"| {name} | {result['rps']:.0f} | {result['p99']:.1f} | {result['errors']} |")
    except Exception:
        if os.path.exists(f"{work}/shared.log"):
            with open(f"{work}/shared.log") as log:
                print("shared said:\n" + "".join(log.readlines()[-20:]), file=sys.stderr)
        raise
    finally:
        for process in processes:
            process.terminate()
            process.wait()
        if store:
            subprocess.run(["scripts/s3-store", "stop", store], check=False)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
