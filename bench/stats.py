"""GET /share/stats shapes, one request at a time (median of 5): what the page's storage bar and `share stats` ask.

Imported by measure.py for bench/run's table; run alone against a serving `shared` to compare two builds:
    python3 bench/stats.py --port 8080
"""
import argparse
import urllib.parse

import grid

# (parameters, what it reads, goal in ms or None). Totals: the running totals per month, plus the days and quarter
# hours at each period's ends (and the records of a quarter hour an end cuts); records: every matching record (text
# and folders are not in the totals). The page's storage line asks with `by=none` and the browser's zone; `share
# stats` asks without `by` (the period that fits the span): the default view, ≤ 5 ms in any zone.
PAGE = [("by", "none")]
SHAPES = [
    (PAGE + [("tz", "UTC")], "totals", 5),
    (PAGE + [("tz", "America/New_York")], "totals", 5),
    (PAGE + [("tz", "Asia/Kathmandu")], "totals", 5),
    (PAGE + [("tz", "Asia/Kolkata"), ("type", "pdf")], "totals", 10),
    (PAGE + [("tz", "Asia/Kolkata"), ("type", "image,video,audio")], "totals", 10),
    (PAGE + [("tz", "Asia/Kolkata"), ("date", "2023-06-15")], "totals", 10),
    (PAGE + [("tz", "America/New_York"), ("from", "2022-01-01"), ("to", "2022-12-31")], "totals", 10),
    (PAGE + [("tz", "America/New_York"), ("from", "2022-01-01"), ("to", "2022-12-31"), ("type", "pdf,doc")], "totals", 10),
    (PAGE + [("trashed", "true")], "totals", 10),
    ([], "totals", 5),
    ([("tz", "America/New_York")], "totals", 5),
    ([("tz", "Asia/Kathmandu")], "totals", 5),
    ([("tz", "Asia/Kolkata")], "totals", 5),
    ([("tz", "Asia/Kolkata"), ("type", "pdf,doc")], "totals", 10),
    ([("tz", "Asia/Kathmandu"), ("from", "2022-01-01"), ("to", "2023-06-30")], "totals", 10),
    ([("by", "month"), ("tz", "Europe/Berlin")], "totals", None),
    ([("by", "day"), ("tz", "America/New_York")], "totals", None),
    ([("type", "pdf")], "totals", 10),
    ([("date", "2023-06-15"), ("tz", "Asia/Kolkata")], "totals", 10),
    ([("from", "2022-03-04T10:30:00Z"), ("to", "2024-07-01T18:45:00Z")], "totals", 10),
    ([("q", "report")], "records", None),
    ([("q", "zq")], "records", None),
    ([("folder", "/archive"), ("recursive", "true")], "records", None),
    ([("folder", "/photos"), ("type", "image")], "records", None),
]


def target(parameters):
    return "/share/stats" + ("?" + urllib.parse.urlencode(parameters) if parameters else "")


def timed(host, port):
    """(path, reads, goal, ms) for every shape."""
    return [(target(parameters), reads, goal, grid.median_ms(host, port, target(parameters)))
            for parameters, reads, goal in SHAPES]


def report(results):
    """The markdown table of `timed`'s results."""
    lines = ["| request | reads | ms | goal |", "|---|---|---|---|"]
    for path, reads, goal, elapsed in results:
        lines.append(f"| `{urllib.parse.unquote(path)}` | {reads} | {elapsed:.1f} | {f'≤ {goal}' if goal else '—'} |")
    return lines


def goals_met(results):
    """The slowest shape against its goal, as (worst ratio of ms to goal, path)."""
    return max((elapsed / goal, path) for path, _, goal, elapsed in results if goal)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    print("\n".join(report(timed(parser.parse_args().host, parser.parse_args().port))))
