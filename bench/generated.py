"""`shared` (release) serving a generated history (bench/generate.py), for the benchmarks that need a realistic one."""
import argparse
import contextlib
import os
import subprocess
import tempfile

from thumbnails import request, start

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def arguments(description):
    """`--bin` (the release binaries' folder) and `--records` (how many to generate, a million by default)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--records", type=int, default=1_000_000)
    return parser.parse_args()


@contextlib.contextmanager
def serving(binary, records):
    """The URL of `shared` from `binary` holding `records` generated records, stopped on leaving."""
    history = subprocess.run(["python3", os.path.join(ROOT, "bench", "generate.py"), str(records)],
                             check=True, capture_output=True).stdout
    with tempfile.TemporaryDirectory(prefix="share-generated-") as folder:
        daemon, url = start(binary, folder)
        try:
            request("POST", f"{url}/share/import", history, "application/x-ndjson")
            yield url
        finally:
            daemon.terminate()
            daemon.wait()
