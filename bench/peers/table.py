"""The table of scripts/peers.sh from its JSON lines (stdin): milliseconds for each program and
tool, then each tool's time over cnf's on one thread (above 1: cnf is faster). Exits 1 if any
tool's results differ from cnf's."""
import json
import sys

size = int(sys.argv[1])
rows, cols, versions, bad = {}, [], {}, []


def put(prog, col, secs):
    rows.setdefault(prog, {})[col] = secs
    if col not in cols:
        cols.append(col)


for line in sys.stdin:
    r = json.loads(line)
    if "versions" in r:
        versions.update(r["versions"])
    elif "bench" in r:
        b = r["bench"]
        opt = next(c for c in b["clusterings"] if c["name"] == "optimal")
        t = b["threads"]
        put(r["program"], f"cnf {t}T", opt["seconds"])
        put(r["program"], f"copy {t}T", b["copy"]["seconds"])
        rows[r["program"]]["size"] = b["size"]
    else:
        col = r["peer"] + (f" {r['threads']}T" if "threads" in r else "")
        put(r["program"], col, r["seconds"])
        if not r["agree"]:
            bad.append(f"{r['program']}: {col} differs from cnf in {', '.join(r['differ'])}")

order = ["cnf 1T", "cnf 2T", "hand C", "NumPy", "Numba loop", "Numba NumPy", "DuckDB 1T", "DuckDB 2T",
         "Polars 1T", "Polars 2T", "copy 1T", "copy 2T"]
cols = [c for c in order if c in cols] + [c for c in cols if c not in order]
print(f"milliseconds, median; {' '.join(f'{k} {v}' for k, v in sorted(versions.items()))}")
print("| program | elements | " + " | ".join(cols) + " |")
print("|---|---|" + "---|" * len(cols))
for prog, r in rows.items():
    print(f"| {prog} | {r.get('size', size):.0e} | " + " | ".join(f"{1e3 * r[c]:.2f}" if c in r else "–" for c in cols) + " |")
print()
print("each tool's time over cnf's on one thread (above 1: cnf is faster)")
peers = [c for c in cols if c not in ("cnf 1T",) and not c.startswith("copy")]
print("| program | " + " | ".join(peers) + " |")
print("|---|" + "---|" * len(peers))
for prog, r in rows.items():
    print(f"| {prog} | " + " | ".join(f"{r[c] / r['cnf 1T']:.2f}×" if c in r else "–" for c in peers) + " |")
for b in bad:
    print("DIFFERS:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
