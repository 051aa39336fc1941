"""What the listing planner's work units cost on this machine: runs the kinds of read the planner races against
the benchmark's history with the sqlite3 shell, which reports each statement's virtual-machine steps, the pages
it fetched and its time, and fits time = steps x a + pages x b. The planner counts work as steps plus
`WorkBudget.pageWork` per page (b / a), and judges rows by `IndexRead`'s row work (work / rows read).

Usage: python3 bench/planner_costs.py [DATABASE]   (default .build/bench/share.db, made by bench/run)
"""
import re
import shutil
import subprocess
import sys

CACHE_KIB = 6144  # what each of shared's readers keeps (SQLiteStore)
RUNS = 5
LIVE = "owner = 0 AND trashed_at IS NULL"
REPORTS = "(folder = '/reports' OR (folder >= '/reports/' AND folder < '/reports0'))"
NAMED = "SELECT rowid AS value FROM share_name_search WHERE share_name_search MATCH '\"rep\" AND \"epo\" AND \"por\" AND \"ort\"'"

# (what the read is, rows it reads, SQL): one of each kind the planner races.
READS = [
    ("an index alone, in order, each row tested in place", "SELECT count(*) FROM share",
     f"SELECT count(*) FROM share INDEXED BY share_live_by_name WHERE {LIVE} AND instr(name_key, 'zzzz') > 0"),
    ("an index in order, each row looked up in the table", "SELECT count(*) FROM share",
     f"SELECT count(*) FROM share INDEXED BY share_live_by_name WHERE {LIVE} AND size < 0"),
    ("the rows the trigram index names, looked up", f"SELECT count(*) FROM ({NAMED})",
     f"SELECT count(*) FROM (SELECT seq FROM ({NAMED}) AS c CROSS JOIN share ON seq = c.value "
     f"WHERE {LIVE} AND instr(name_key, 'report') > 0 AND {REPORTS} ORDER BY name_key DESC, id DESC LIMIT 101)"),
    ("a folder's index, each row looked up for its name", "SELECT count(*) FROM share WHERE folder = '/photos/2023'",
     f"SELECT count(*) FROM (SELECT seq FROM share INDEXED BY share_live_by_folder WHERE {LIVE} AND folder = '/photos/2023' "
     "AND instr(name_key, 'report') > 0 ORDER BY size DESC, id DESC LIMIT 101)"),
    ("a folder's index among the names the trigram index holds", "SELECT count(*) FROM share WHERE folder = '/photos/2023'",
     f"SELECT count(*) FROM (SELECT seq FROM share INDEXED BY share_live_by_folder WHERE {LIVE} AND folder = '/photos/2023' "
     f"AND seq IN ({NAMED}) AND instr(name_key, 'report') > 0 ORDER BY size DESC, id DESC LIMIT 101)"),
    ("counting a folder tree's rows in its index", f"SELECT count(*) FROM share WHERE {REPORTS}",
     f"SELECT count(*) FROM (SELECT 1 FROM share INDEXED BY share_live_by_folder WHERE {LIVE} AND {REPORTS})"),
]


def measure(database, sql):
    """Steps, pages and milliseconds of `sql`: the fastest of RUNS runs, the first one warming the cache."""
    script = f"PRAGMA cache_size = -{CACHE_KIB};\n.stats on\n.timer on\n" + f"{sql};\n" * (RUNS + 1)
    out = subprocess.run(["sqlite3", database], input=script, capture_output=True, text=True, check=True).stdout
    steps = [int(n) for n in re.findall(r"Virtual Machine Steps:\s+(\d+)", out)]
    hits = [int(n) for n in re.findall(r"Page cache hits:\s+(\d+)", out)]
    misses = [int(n) for n in re.findall(r"Page cache misses:\s+(\d+)", out)]
    times = [float(t) * 1000 for t in re.findall(r"Run Time: real ([\d.]+)", out)]
    # The first timer line is the PRAGMA's; then one per run.
    runs = list(zip(steps, hits, misses, times[1:]))[1:]
    best = min(runs, key=lambda run: run[3])
    return best[0], best[1] + best[2], best[3]


def fit(samples):
    """Least squares of ms = steps x a + pages x b, in nanoseconds."""
    sxx = sum(s * s for s, p, t in samples)
    syy = sum(p * p for s, p, t in samples)
    sxy = sum(s * p for s, p, t in samples)
    sxt = sum(s * t for s, p, t in samples)
    syt = sum(p * t for s, p, t in samples)
    determinant = sxx * syy - sxy * sxy
    a = (sxt * syy - syt * sxy) / determinant
    b = (syt * sxx - sxt * sxy) / determinant
    return a * 1e6, b * 1e6


def main():
    database = sys.argv[1] if len(sys.argv) > 1 else ".build/bench/share.db"
    if not shutil.which("sqlite3"):
        raise SystemExit("needs the sqlite3 shell (Debian: sqlite3)")
    samples = []
    rows_read = []
    print("| read | rows | steps | pages | ms |")
    print("|---|---:|---:|---:|---:|")
    for label, rows_sql, sql in READS:
        rows = int(subprocess.run(["sqlite3", database, rows_sql], capture_output=True, text=True, check=True).stdout)
        steps, pages, ms = measure(database, sql)
        samples.append((steps, pages, ms))
        rows_read.append((label, rows, steps, pages))
        print(f"| {label} | {rows:,} | {steps:,} | {pages:,} | {ms:.1f} |")
    step_ns, page_ns = fit(samples)
    page_work = page_ns / step_ns
    print(f"\nA step {step_ns:.1f} ns, a page {page_ns:.0f} ns: a page weighs {page_work:.0f} steps (WorkBudget.pageWork 40).")
    print("\n| read | work per row read |")
    print("|---|---:|")
    for label, rows, steps, pages in rows_read:
        print(f"| {label} | {(steps + 40 * pages) / rows:.0f} |")


if __name__ == "__main__":
    main()
