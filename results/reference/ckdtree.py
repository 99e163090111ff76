"""SciPy's cKDTree beside SpatialBench's k-nearest, by hand (not part of CI).

Issue 44's comparison: 1,000,000 points uniform on the sphere (uniform in
area: z = sin(latitude) uniform in [-1, 1]) and 1,000 positions uniform in
area within ±80° of latitude, both from NumPy's seeded generator. The points
go to a `.f64` file and the positions to a queries file of `lat,lon` rows,
in decimals that read back to the same doubles, and both sides read those:

    python3 -m venv /tmp/scipy && /tmp/scipy/bin/pip install numpy scipy
    swift build -c release
    taskset -c 1 /tmp/scipy/bin/python results/reference/ckdtree.py /tmp/knn .build/release/bench

cKDTree holds the points as 3-D unit vectors, where the chord distance
orders points exactly as the great-circle distance does, so its k nearest
are the same points in the same order as bench's (ties aside). Its figure
is the best of five batched calls with one worker (`workers=1`), per
query. bench's is the `mean_ns` of its row for each k in `bench run
--workload nearest --queries` on every index over the same points and
positions. The two alternate, `--runs` rounds (default 3), and the table
shows each round's figures and ratio (bench's over cKDTree's: below 1,
bench is faster). Last, it checks that bench's k-d tree gives cKDTree's
ids in the same order.

Files are made in the folder given (first argument) when missing, and read
back when there: `sphere-N-S.f64`, `positions-Q-S.csv`. `--n`, `--positions`,
`--seed`, `--runs` and `--index` change the run.
"""
import argparse
import csv
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from scipy.spatial import cKDTree

KS = (1, 10, 100)


def unit_vectors(lat_deg, lon_deg):
    lat, lon = np.radians(lat_deg), np.radians(lon_deg)
    return np.column_stack([np.cos(lat) * np.cos(lon), np.cos(lat) * np.sin(lon), np.sin(lat)])


def uniform_in_area(rng, count, max_lat):
    """`count` (lat, lon) in degrees, uniform in area within ±max_lat."""
    top = np.sin(np.radians(max_lat))
    lat = np.degrees(np.arcsin(rng.uniform(-top, top, count)))
    lon = rng.uniform(-180, 180, count)
    return np.clip(lat, -max_lat, max_lat), lon


def decimal(x):
    """The shortest decimal that reads back to `x`, without an exponent
    (bench's CSV numbers are strict decimals)."""
    return np.format_float_positional(x, unique=True, trim="-")


def best_of(runs, f):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def run(command):
    r = subprocess.run(command, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({r.returncode}):\n{r.stderr}")
    return r.stdout


args = argparse.ArgumentParser(description="cKDTree beside bench's k-nearest")
args.add_argument("folder", help="where the points and positions are made, or read when there")
args.add_argument("bench", nargs="?", help="bench's path; without it, only cKDTree runs")
args.add_argument("--n", type=int, default=1_000_000)
args.add_argument("--positions", type=int, default=1000)
args.add_argument("--seed", type=int, default=44)
args.add_argument("--runs", type=int, default=3, help="rounds, each cKDTree then bench (default 3)")
args.add_argument("--index", default="kdtree,celltree,rtree,quadtree,grid",
                  help="bench's indexes (default the five)")
o = args.parse_args()

folder = Path(o.folder)
folder.mkdir(parents=True, exist_ok=True)
points_file = folder / f"sphere-{o.n}-{o.seed}.f64"
positions_file = folder / f"positions-{o.positions}-{o.seed}.csv"
if not points_file.exists() or not positions_file.exists():
    rng = np.random.default_rng(o.seed)
    lat, lon = uniform_in_area(rng, o.n, 90)
    np.column_stack([lon, lat]).astype("<f8").tofile(points_file)
    lat, lon = uniform_in_area(rng, o.positions, 80)
    with open(positions_file, "w") as f:
        f.write("lat,lon\n")
        f.writelines(f"{decimal(a)},{decimal(b)}\n" for a, b in zip(lat, lon))

points = np.fromfile(points_file, "<f8").reshape(-1, 2)  # lon, lat pairs
positions = np.array([[float(r["lat"]), float(r["lon"])] for r in csv.DictReader(open(positions_file))])
start = time.perf_counter()
tree = cKDTree(unit_vectors(points[:, 1], points[:, 0]))
print(f"{len(points):,} points uniform on the sphere, {len(positions):,} positions within ±80°; "
      f"cKDTree built in {(time.perf_counter() - start) * 1e3:.0f} ms (SciPy {__import__('scipy').__version__})")
xyz = unit_vectors(positions[:, 0], positions[:, 1])

def ckdtree_round():
    """cKDTree's time a query for each k, in ns: the best of five batched calls."""
    return {k: best_of(5, lambda: tree.query(xyz, k=k, workers=1)) / len(xyz) * 1e9 for k in KS}


def bench_round():
    """bench's mean_ns for each (index, k), from one `bench run`."""
    out = folder / f"bench-run-{time.time_ns()}.csv"
    run([o.bench, "run", "--dataset", str(points_file), "--workload", "nearest", "--index", o.index,
         "--queries", str(positions_file), "--quiet", "--out", str(out)])
    got = {(row["index"], int(row["strategy"].removeprefix("k="))): float(row["mean_ns"])
           for row in csv.DictReader(open(out))}
    out.unlink()
    out.with_suffix(".html").unlink(missing_ok=True)
    return got


# the two alternate, round by round, so that both see the same machine
theirs, ours = [], []
for r in range(o.runs if o.bench else 1):
    theirs.append(ckdtree_round())
    print(f"round {r + 1}: cKDTree " + ", ".join(f"k={k} {t / 1e3:.2f} µs" for k, t in theirs[-1].items())
          + " a query (best of 5 batched calls, one worker)")
    if o.bench:
        ours.append(bench_round())
if not o.bench:
    sys.exit(0)

indexes = o.index.split(",")
print(f"\nµs a query, round by round; bench's figure is the mean_ns of bench run --workload nearest "
      f"--queries; in brackets bench's over cKDTree's of the same round (below 1: bench is faster)")
for k in KS:
    print(f"k={k}")
    print(f"  {'cKDTree':<10}" + "".join(f"{t[k] / 1e3:>18.2f}" for t in theirs))
    for i in indexes:
        cells = [f"{b[(i, k)] / 1e3:.2f} ({b[(i, k)] / t[k]:.2f}×)" if (i, k) in b else "-"
                 for t, b in zip(theirs, ours)]
        print(f"  {i:<10}" + "".join(f"{c:>18}" for c in cells))

for k in KS:
    ids = tree.query(xyz, k=k, workers=1)[1].reshape(len(xyz), -1)
    out = folder / f"nearest-k{k}-{time.time_ns()}.csv"
    run([o.bench, "query", "--workload", "nearest", "--index", "kdtree", "--points", str(points_file),
         "--queries", str(positions_file), "--k", str(k), "--out", str(out)])
    got = {}
    for row in csv.DictReader(open(out)):
        got.setdefault(int(row["query"]), []).append(int(row["id"]))
    out.unlink()
    same = sum(got.get(q) == list(ids[q]) for q in range(len(xyz)))
    print(f"k={k}: bench's kdtree gives cKDTree's ids in the same order for {same} of {len(xyz)} positions")
