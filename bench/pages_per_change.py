#!/usr/bin/env python3
"""Which pages of the database each change writes to the write-ahead log, table by table: on a copy of the
benchmark database, cycles of the soak's writers (create, rename to another type, trash), each change in its own
transaction with the statements the daemon runs for it; the first half warms the indexes up (the imported ones
are full, so the first inserts split their pages), the log is then truncated, and the frames the second half
writes are read back from the log and mapped to their tables with `dbstat`. Run once with FTS5's default merging
of the trigram index and once with merges of full levels only (migration 0010).

Usage: pages_per_change.py --base .build/bench/soak-base-1000000.db --work .build/bench [--cycles 1000]
"""
import argparse
import collections
import os
import random
import shutil
import sqlite3
import string
import struct

FTS_DEFAULT = [("automerge", 4), ("crisismerge", 16)]
FULL_LEVELS_ONLY = [("automerge", 0), ("crisismerge", 16)]


def change(connection, statements):
    connection.execute("BEGIN IMMEDIATE")
    for sql, arguments in statements:
        connection.execute(sql, arguments)
    connection.execute("UPDATE history_version SET version = version + 1")
    connection.execute("COMMIT")


def cycle(connection, number):
    name = "".join(random.choice(string.ascii_lowercase) for _ in range(12)) + ".pdf"
    share_id = "".join(random.choice("0123456789ABCDEFGHJKMNPQRSTVWXYZ") for _ in range(8))
    connection.execute("BEGIN IMMEDIATE")
    connection.execute("INSERT INTO share (id, name, name_key, folder, created_at, size, type) VALUES (?, ?, ?, '/', ?, 1000, 'pdf')",
                       (share_id, name, name, 1_700_000_000_000 + number * 1000))
    seq = connection.execute("SELECT last_insert_rowid()").fetchone()[0]
    connection.execute("INSERT INTO share_name_search (rowid, search_text) SELECT doc, search_text FROM share_search_text WHERE seq = ?", (seq,))
    connection.execute("INSERT INTO share_event (share_seq, at, action, by) VALUES (?, 1, 'created', 'bench')", (seq,))
    connection.execute("UPDATE history_version SET version = version + 1")
    connection.execute("COMMIT")
    renamed = name.replace(".pdf", " renamed.docx")
    change(connection, [("UPDATE share SET name = ?, name_key = ?, type = 'doc' WHERE seq = ?", (renamed, renamed, seq)),
                        ("INSERT INTO share_event (share_seq, at, action, from_value, to_value, by) VALUES (?, 1, 'renamed', ?, ?, 'bench')",
                         (seq, name, renamed))])
    change(connection, [("UPDATE share SET trashed_at = 1 WHERE seq = ?", (seq,)),
                        ("INSERT INTO share_event (share_seq, at, action, by) VALUES (?, 1, 'trashed', 'bench')", (seq,))])


def measure(args, settings):
    database = os.path.join(args.work, "pages-per-change.db")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(database + suffix):
            os.remove(database + suffix)
    shutil.copyfile(args.base, database)
    connection = sqlite3.connect(database, isolation_level=None)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA wal_autocheckpoint = 0")
    for key, value in settings:
        connection.execute("INSERT INTO share_name_search (share_name_search, rank) VALUES (?, ?)", (key, value))
    random.seed(1)
    half = args.cycles // 2
    for number in range(args.cycles):
        if number == half:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        cycle(connection, number)
    with open(database + "-wal", "rb") as log:
        data = log.read()
    page_size = struct.unpack(">I", data[8:12])[0]
    pages = [struct.unpack(">I", data[offset:offset + 4])[0] for offset in range(32, len(data) - 24, 24 + page_size)]
    owner = dict(connection.execute("SELECT pageno, name FROM dbstat"))
    counts = collections.Counter(owner.get(page, "(free list, file header)") for page in pages)
    changes = (args.cycles - half) * 3
    return len(pages) / changes, {table: count / changes for table, count in counts.items()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--cycles", type=int, default=1000)
    args = parser.parse_args()
    runs = {"FTS5's default merging": measure(args, FTS_DEFAULT), "merges of full levels only": measure(args, FULL_LEVELS_ONLY)}
    tables = sorted({table for _, counts in runs.values() for table in counts}, key=lambda t: -runs["FTS5's default merging"][1].get(t, 0))
    print("| pages a change | " + " | ".join(runs) + " |\n|---|" + "---|" * len(runs))
    print("| **all** | " + " | ".join(f"**{total:.1f}**" for total, _ in runs.values()) + " |")
    for table in tables:
        print(f"| {table} | " + " | ".join(f"{counts.get(table, 0):.2f}" for _, counts in runs.values()) + " |")


if __name__ == "__main__":
    main()
