"""SciPy's cKDTree beside SpatialBench's k-nearest, by hand (not part of CI).

The points become 3-D unit vectors, where the chord distance orders points
exactly as the great-circle distance does, so cKDTree's k nearest are the
same points in the same order as `bench query --workload nearest`'s (ties
aside). Times a query batched and one call at a time, then checks the
answers against bench's:

    pip install scipy
    bench export --dataset uniform --n 1000000 --points-out u.f64 --queries-out q.csv
    taskset -c 1 python3 results/reference/ckdtree.py u.f64 .build/release/bench
"""
import csv
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from scipy.spatial import cKDTree


def unit_vectors(lat_deg, lon_deg):
    lat, lon = np.radians(lat_deg), np.radians(lon_deg)
    return np.column_stack([np.cos(lat) * np.cos(lon), np.cos(lat) * np.sin(lon), np.sin(lat)])


def best_of(runs, f):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


points = np.fromfile(sys.argv[1], "<f8").reshape(-1, 2)  # .f64: lon, lat pairs
bench = sys.argv[2] if len(sys.argv) > 2 else None
start = time.perf_counter()
tree = cKDTree(unit_vectors(points[:, 1], points[:, 0]))
print(f"{len(points):,} points, cKDTree built in {(time.perf_counter() - start) * 1e3:.0f} ms")

rng = random.Random(7)
positions = [(rng.uniform(-85, 85), rng.uniform(-180, 180)) for _ in range(1000)]
xyz = unit_vectors(np.array([p[0] for p in positions]), np.array([p[1] for p in positions]))
work = Path(tempfile.mkdtemp())
with open(work / "positions.csv", "w") as f:
    f.write("lat,lon\n")
    f.writelines(f"{lat!r},{lon!r}\n" for lat, lon in positions)

for k in (1, 10, 100):
    batched = best_of(5, lambda: tree.query(xyz, k=k, workers=1))
    one_by_one = best_of(3, lambda: [tree.query(v, k=k) for v in xyz])
    line = (f"k={k}: batched {batched / len(xyz) * 1e6:.2f} µs a query, "
            f"one call a query {one_by_one / len(xyz) * 1e6:.2f} µs")
    if bench:
        ids = tree.query(xyz, k=k, workers=1)[1].reshape(len(xyz), -1)
        out = work / f"nearest-k{k}.csv"
        subprocess.run([bench, "query", "--workload", "nearest", "--index", "kdtree", "--points", sys.argv[1],
                        "--queries", str(work / "positions.csv"), "--k", str(k), "--out", str(out)], check=True)
        ours = {}
        for row in csv.DictReader(open(out)):
            ours.setdefault(int(row["query"]), []).append(int(row["id"]))
        same = sum(ours.get(q) == list(ids[q]) for q in range(len(xyz)))
        line += f"; bench's kdtree gives the same ids in the same order for {same} of {len(xyz)}"
    print(line)
