"""Every combination of the listing's filters and sorts, as requests against the generated history: each pair of
dimensions (date, type, folder, text) crossed in full, each in six sorts, first page and the next. The same grid
the store's test counts SQLite's work for, with values that fit bench/generate.py's data."""
import http.client
import time
import urllib.parse

DATES = [
    [], [("date", "2023-06-15")], [("date", "2023-06-15"), ("tz", "Asia/Shanghai")],
    [("from", "2022-03-01"), ("to", "2022-03-07")], [("from", "2024-02-01"), ("to", "2024-02-29")],
    [("from", "2022-01-01"), ("to", "2022-12-31")], [("from", "2025-06-01")], [("to", "2021-01-31")],
]
TYPES = [[], [("type", "pdf")], [("type", "pdf,doc")], [("type", "audio")], [("type", "image,video,audio")], [("type", "other")]]
FOLDERS = [
    [], [("folder", "/projects/alpha")], [("folder", "/reports"), ("recursive", "true")],
    [("folder", "/reports/2021"), ("recursive", "true")], [("folder", "/photos/2023")], [("folder", "/nothing")],
]
TEXTS = [
    [], [("q", "report")], [("q", "budget 1234")], [("q", "nomatchatall")], [("q", "e")], [("q", "zq")], [("q", "年度")],
    # Words in any order: two common ones, and three with a short one.
    [("q", "draft report")], [("q", "pdf 12 budget")],
]
SORTS = [("createdAt", "desc"), ("createdAt", "asc"), ("name", "asc"), ("name", "desc"), ("size", "desc"), ("size", "asc")]

# The requests the issue found slow before the planner (limit=100).
ONCE_SLOW = [
    [("type", "pdf,doc")], [("type", "image,video,audio")],
    [("from", "2022-01-01"), ("to", "2022-12-31"), ("sort", "size")],
    [("from", "2022-01-01"), ("to", "2022-12-31"), ("sort", "name"), ("order", "asc")],
    [("q", "report"), ("type", "pdf"), ("sort", "name")],
]


def combinations():
    """Query parameters of every filter combination in every sort (first pages)."""
    dimensions = [DATES, TYPES, FOLDERS, TEXTS]
    filters = []
    for first in range(len(dimensions)):
        for second in range(first + 1, len(dimensions)):
            for a in dimensions[first]:
                for b in dimensions[second]:
                    if (a or b or (first, second) == (0, 1)) and a + b not in filters:
                        filters.append(a + b)
    return [parameters + [("sort", sort), ("order", order)] for parameters in filters for sort, order in SORTS]


def path(base, parameters):
    return f"{base}/share?" + urllib.parse.urlencode(parameters)


class Client:
    """One kept-alive connection, so that each timing is the request's and not a TCP handshake's."""

    def __init__(self, host, port, headers=None):
        self.connection = http.client.HTTPConnection(host, port, timeout=600)
        self.headers = headers or {}

    def time(self, target):
        """Milliseconds for one request of `target` (a path), and the path of its next page, if any."""
        started = time.perf_counter()
        self.connection.request("GET", target, headers=self.headers)
        response = self.connection.getresponse()
        response.read()
        elapsed = (time.perf_counter() - started) * 1000
        if response.status != 200:
            raise SystemExit(f"{target}: {response.status}")
        link = response.getheader("Link")
        return elapsed, link[1:link.index(">")] if link else None


def timed_grid(host, port, base_path="", headers=None, next_as_first=False):
    """(ms, path) for every combination's first page and its second, slowest first; `headers` sign the requests in.
    With `next_as_first`, a second page is named by its first page's path and " (next)" rather than by its cursor,
    which holds ids: so that the grids of two histories of the same records, whose ids differ, can be compared."""
    client = Client(host, port, headers)
    timings = []
    for parameters in combinations():
        first_page = path(base_path, parameters)
        elapsed, next_page = client.time(first_page)
        timings.append((elapsed, first_page))
        if next_page:
            timings.append((client.time(next_page)[0], first_page + " (next)" if next_as_first else next_page))
    return sorted(timings, reverse=True)


def median_ms(host, port, target, runs=5):
    client = Client(host, port)
    return sorted(client.time(target)[0] for _ in range(runs))[runs // 2]


def drain(host, port):
    """Waits until a plain page is answered in under 20 ms again: the daemon has no backlog left."""
    client = Client(host, port)
    while client.time("/share?limit=1")[0] > 20:
        time.sleep(1)
