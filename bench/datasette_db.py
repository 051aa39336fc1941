#!/usr/bin/env python3
"""Builds the peer's database from `share export` (NDJSON on stdin): the same records, indexed as well as
Datasette can use them, with a trigram full-text index on the name (sqlite-utils' enable-fts).

Usage: share export | datasette_db.py OUT.db
"""
import datetime
import json
import sqlite3
import sys

import sqlite_utils


def rows():
    for line in sys.stdin:
        record = json.loads(line)
        created = datetime.datetime.strptime(record["createdAt"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
        record["created_ms"] = int(created.timestamp() * 1000)
        yield record


def main():
    database = sqlite_utils.Database(sqlite3.connect(sys.argv[1]))
    database["share"].insert_all(rows(), pk="id", batch_size=10_000)
    for columns in (["created_ms"], ["size"], ["type", "created_ms"], ["folder", "created_ms"]):
        database["share"].create_index(columns)
    database["share"].enable_fts(["name"], tokenize="trigram")
    database.execute("ANALYZE")


if __name__ == "__main__":
    main()
