#!/usr/bin/env python3
"""Writes a realistic share history as NDJSON: mixed-language file names with real extensions,
nested folders, sizes spread like real files, createdAt over five years. Deterministic (seeded).

Usage: generate.py COUNT > history.ndjson
"""
import datetime
import math
import random
import sys

WORDS = {
    "en": ["report", "invoice", "budget", "meeting", "notes", "contract", "design", "photo", "holiday", "draft",
           "final", "summary", "plan", "slides", "backup", "scan", "receipt", "resume", "proposal", "minutes"],
    "zh": ["年度报告", "会议纪要", "合同", "发票", "预算", "设计稿", "照片", "旅行", "总结", "计划"],
    "ja": ["議事録", "見積書", "請求書", "写真", "資料", "企画書"],
    "fr": ["résumé", "réunion", "facture", "été", "données", "présentation"],
    "de": ["Straße", "Übersicht", "Größe", "Änderung", "Bericht"],
}
EXTENSIONS = [("pdf", 18), ("docx", 10), ("xlsx", 8), ("pptx", 5), ("jpg", 20), ("png", 8), ("heic", 4), ("mp4", 4),
              ("mov", 2), ("mp3", 3), ("zip", 5), ("tar.gz", 2), ("txt", 5), ("md", 2), ("csv", 3), ("key", 1)]
FOLDERS = ["/"] + [f"/{top}" for top in ("reports", "projects", "photos", "invoices", "archive")] + [
    f"/projects/{name}" for name in ("alpha", "beta", "gamma", "报告", "été")] + [
    f"/photos/{year}" for year in range(2021, 2026)] + [f"/reports/{year}/q{q}" for year in range(2021, 2026) for q in range(1, 5)]
START = datetime.datetime(2021, 1, 1, tzinfo=datetime.timezone.utc).timestamp()
SPAN = 5 * 365 * 86400


def name(rng):
    language = rng.choices(list(WORDS), weights=[60, 20, 8, 7, 5])[0]
    parts = rng.sample(WORDS[language], k=rng.choice([1, 1, 2]))
    separator = "" if language in ("zh", "ja") else rng.choice([" ", "_", "-"])
    stem = separator.join(parts)
    if rng.random() < 0.5:
        stem += f"{separator}{rng.randint(1, 2025)}"
    if rng.random() < 0.3:
        stem = stem.capitalize()
    extension = rng.choices([e for e, _ in EXTENSIONS], weights=[w for _, w in EXTENSIONS])[0]
    return f"{stem}.{extension}"


def main():
    count = int(sys.argv[1])
    rng = random.Random(20261122)
    out = sys.stdout
    for _ in range(count):
        created = START + rng.random() * SPAN
        stamp = datetime.datetime.fromtimestamp(created, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
        size = int(math.exp(rng.gauss(12, 2.5)))
        folder = rng.choice(FOLDERS)
        record = '{"name":"%s","folder":"%s","size":%d,"createdAt":"%s"}\n' % (name(rng), folder, size, stamp)
        out.write(record)


if __name__ == "__main__":
    main()
