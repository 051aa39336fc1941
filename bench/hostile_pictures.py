#!/usr/bin/env python3
"""Hostile pictures at once: the memory `shared` takes while many pictures that are small to send but large to decode
arrive together. Makes seven kinds, each under the pixel limit: progressive JPEGs of 10,000 × 10,000 and 7,000 × 7,000 (their decoder
keeps every coefficient of the whole picture), a run-length BMP of 7,000 × 7,000 whose few bytes unpack to the whole
picture (ImageMagick decodes it at 16 bits a channel), GIFs of 10,000 × 5,000 and 5,000 × 4,000 (decoded whole), a progressive JPEG whose frame header hides behind legal fill bytes
and a restart marker, and a 16-bit RGBA PNG 8,000 wide (libvips holds some two thousand of its lines); sends
`--pictures` of them at once (PUT /share/{id}/thumbnail), and reports each answer and the daemon's peak resident
memory (VmHWM), beside its resident memory before.

Usage: python3 bench/hostile_pictures.py --bin .build/release [--pictures 16]; prints a Markdown section. Pillow
(for the JPEG) is installed into .build/bench/pictures-venv when missing, and the script runs itself from there."""
import argparse
import concurrent.futures
import io
import os
import struct
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".build", "bench", "pictures-venv")

try:
    from PIL import Image
except ImportError:
    if not os.path.exists(os.path.join(VENV, "bin", "python")):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([os.path.join(VENV, "bin", "pip"), "install", "-q", "--disable-pip-version-check", "pillow"], check=True)
    os.execv(os.path.join(VENV, "bin", "python"), [os.path.join(VENV, "bin", "python")] + sys.argv)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure import free_port, wait_until_up  # noqa: E402


def progressive_jpeg(side):
    out = io.BytesIO()
    Image.new("RGB", (side, side), (120, 130, 140)).save(out, "JPEG", progressive=True, quality=90)
    return out.getvalue()


def hidden_progressive_jpeg(side):
    """Legal fill bytes and a restart marker between the start and the frame header, which libjpeg skips."""
    plain = progressive_jpeg(side)
    return plain[:2] + b"\xff\xff\xff\xd0" + plain[2:]


def png16(side=8_000):
    """RGBA, 16 bits a sample, every line the same: a few MB that libvips shrinks some two thousand lines at a time."""
    line = b"\x00" + bytes((index * 7) % 251 for index in range(side * 8))
    squeezer = zlib.compressobj(9)
    data = b"".join(squeezer.compress(line) for _ in range(side)) + squeezer.flush()

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 16, 6, 0, 0, 0)) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def rle_bmp(width=7_000, height=7_000):
    palette = b"".join(bytes((index, index, index, 0)) for index in range(256))
    pixels = b"\x00\x01"  # RLE8: end of bitmap at once; the decoder fills the whole picture all the same
    offset = 14 + 40 + len(palette)
    header = b"BM" + struct.pack("<IHHI", offset + len(pixels), 0, 0, offset)
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 8, 1, len(pixels), 2835, 2835, 256, 0)
    return header + info + palette + pixels


def gif(width=10_000, height=5_000):
    screen = b"GIF89a" + struct.pack("<HHBBB", width, height, 0x80, 0, 0) + b"\x00\x00\x00\xff\xff\xff"
    image = b"\x2c" + struct.pack("<HHHHB", 0, 0, width, height, 0)
    data = b"\x02\x02\x4c\x01\x00"  # LZW: minimum code size 2, one sub-block holding a clear code and the end code
    return screen + image + data + b"\x3b"


def peak_and_current_kib(pid):
    fields = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status").read().splitlines() if ":" in line)
    return int(fields["VmHWM"].split()[0]), int(fields["VmRSS"].split()[0])


def put(url, body):
    request = urllib.request.Request(url, data=body, method="PUT", headers={"Content-Type": "application/octet-stream"})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, ""
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--pictures", type=int, default=16)
    arguments = parser.parse_args()
    kinds = [("progressive JPEG 10,000 × 10,000", progressive_jpeg(10_000)), ("progressive JPEG 7,000 × 7,000", progressive_jpeg(7_000)),
             ("RLE BMP 7,000 × 7,000", rle_bmp()), ("GIF 10,000 × 5,000", gif()), ("GIF 5,000 × 4,000", gif(5_000, 4_000)),
             ("progressive JPEG 7,000 × 7,000, fill bytes and RST before its frame", hidden_progressive_jpeg(7_000)),
             ("16-bit RGBA PNG 8,000 × 8,000", png16())]
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        daemon = subprocess.Popen([f"{arguments.bin}/shared", "--listen", f"127.0.0.1:{port}", "--db", f"{folder}/share.db"],
                                  env={**os.environ, "LOG_LEVEL": "warning"}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(f"{base}/healthz", daemon)
            ids = []
            for index in range(arguments.pictures):
                body = f'{{"name": "picture {index}.jpg", "size": 1, "id": "PIC{index:04d}"}}'.encode()
                urllib.request.urlopen(urllib.request.Request(f"{base}/share", data=body, headers={"Content-Type": "application/json"}))
                ids.append(f"PIC{index:04d}")
            _, before = peak_and_current_kib(daemon.pid)
            sent = [(ids[index], *kinds[index % len(kinds)]) for index in range(arguments.pictures)]
            with concurrent.futures.ThreadPoolExecutor(arguments.pictures) as pool:
                answers = list(pool.map(lambda item: (item[1], len(item[2]), put(f"{base}/share/{item[0]}/thumbnail", item[2])), sent))
            peak, after = peak_and_current_kib(daemon.pid)
        finally:
            daemon.terminate()
            daemon.wait()
    print(f"{arguments.pictures} pictures sent at once, {len(kinds)} kinds in turn; `{arguments.bin}/shared`.\n")
    print("| picture | bytes sent | answers |\n|---|---:|---|")
    for kind, _ in kinds:
        statuses = sorted(f"{status}" for name, _, (status, _) in answers if name == kind)
        size = next(length for name, length, _ in answers if name == kind)
        print(f"| {kind} | {size:,} | {', '.join(statuses)} |")
    print(f"\nResident memory: {before / 1024:.0f} MiB before, peak {peak / 1024:.0f} MiB, {after / 1024:.0f} MiB after.")
    details = sorted({detail for _, _, (status, detail) in answers if status != 200})
    for detail in details:
        print(f"\n> {detail}")


if __name__ == "__main__":
    main()
