#!/usr/bin/env bash
# The reference run committed in this folder: reports (CSV) with their HTML
# pages, their charts (SVG) and two rendered cluster maps, then the guides'
# tables made from the reports (bench docs). See
# results/README.md for the machine, the schema and what the run found. About
# 7 minutes on 2 cores (the committed run: 05:05:31 to 05:12:08 UTC); run it
# on a quiet machine (nothing else building or benchmarking).
#
#   bash results/reference/run.sh            # the full run
#   SCALE=small bash results/reference/run.sh /tmp/ref   # a rehearsal in seconds
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-results/reference}
mkdir -p "$out"
# bench never replaces a report: this run's reports start afresh
rm -f "$out"/{datasets,scaling,sweep,live,recommend}.{csv,html}
swift build -c release
bench=.build/release/bench

if [ "${SCALE:-full}" = small ]; then
  hotels=2000; scaling=1000,10000; sweep=20000; large=100000; live=20000; steps=(--steps 20 --repeat 1)
else
  hotels=87000; scaling=10000,100000,1000000,10000000; sweep=1000000; large=100000000; live=1000000; steps=()
fi
# every workload but live, which has its own section (its rebuild strategy
# builds the index every frame: minutes a pass at 10M)
static=build,viewport,cluster,tap,nearest

# 1. the default comparison (every index, workload and strategy) on every
#    bundled dataset and on hotels at 87,000
"$bench" run --dataset places --workload "$static" "${steps[@]}" --quiet --out "$out/datasets.csv"
for dataset in airports zipcodes; do
  "$bench" run --dataset "$dataset" --workload "$static" "${steps[@]}" --quiet \
    --out "$out/datasets.csv" --append
done
"$bench" run --dataset hotels --n "$hotels" --workload "$static" "${steps[@]}" --quiet \
  --out "$out/datasets.csv" --append

# 2. scaling: hotels from 10k to 10M points. The linear scan skips per-cell
#    clustering: one scan per cell would take minutes a pass at 10M.
"$bench" run --dataset hotels --n "$scaling" --index linear --workload "$static" \
  --strategy single-pass,aggregate "${steps[@]}" --quiet --out "$out/scaling.csv"
"$bench" run --dataset hotels --n "$scaling" --index quadtree,grid,kdtree,rtree,celltree --workload "$static" \
  "${steps[@]}" --quiet --out "$out/scaling.csv" --append
# 100M points: the static indexes and the quadtree's bulk load, one after
# the other in one process (each 4-8 GB at its peak, the points included),
# on the workloads that stay in reach (per-cell and single-pass clustering
# would take seconds a step)
"$bench" run --dataset hotels --n "$large" --index kdtree,celltree,rtree,grid,quadtree \
  --workload build,viewport,cluster --strategy aggregate "${steps[@]}" --quiet \
  --out "$out/scaling.csv" --append

# 3. parameter sweeps on hotels at 1M: bucket capacity, node size, cell size, leaf size
common=(--dataset hotels --n "$sweep" --workload build,viewport,cluster,tap
        --strategy single-pass,aggregate "${steps[@]}" --quiet --out "$out/sweep.csv")
"$bench" run --index quadtree --param capacity=4,8,16,32,64,128 "${common[@]}"
"$bench" run --index kdtree --param nodeSize=4,8,16,32,64,128,256 "${common[@]}" --append
"$bench" run --index grid --param cellSize=0.05,0.1,0.2,0.4,0.8,1.6,3.2 "${common[@]}" --append
"$bench" run --index celltree --param leafSize=4,8,16,32,64,128 "${common[@]}" --append

# 4. live data: hotels at 1M, 1% of the points moving a frame, every index
#    and strategy (the buffered rows run in real time, 60 frames a second)
"$bench" run --dataset hotels --n "$live" --workload live "${steps[@]}" --quiet --out "$out/live.csv"

# 5. the verdict on the bundled places, as bench recommend gives it; and
#    PostGIS beside the indexes on hotels at 1M, when PostgreSQL and PostGIS
#    are installed (Debian's postgresql-15-postgis-3)
"$bench" recommend --dataset places "${steps[@]}" --quiet --out "$out/recommend.csv" >/dev/null
if "$bench" peer postgis --dataset places --steps 2 --repeat 1 --quiet --out "$out/.peer-probe.csv" >/dev/null 2>&1; then
  rm -f "$out/.peer-probe.csv" "$out/.peer-probe.html" "$out/peer.csv" "$out/peer.html"
  "$bench" peer postgis --dataset hotels --n "$live" "${steps[@]}" --quiet --out "$out/peer.csv" >/dev/null
else
  rm -f "$out/.peer-probe.csv" "$out/.peer-probe.html"
  echo "PostgreSQL with PostGIS is not installed: peer.csv kept as it was"
fi

# 6. charts and maps
rm -rf "$out/charts"
for report in datasets scaling sweep live; do
  "$bench" plot "$out/$report.csv" --out "$out/charts/$report"
done
"$bench" render --dataset places --center 50,10 --zoom 3 --grid --out "$out/map-places-z3.svg"
"$bench" render --dataset places --center 48.8566,2.3522 --zoom 8 --grid --pan 0.5,0 \
  --out "$out/map-places-z8-pan.svg"

# 7. the guides' tables (README.md, docs/, results/README.md), remade from
#    these reports; a rehearsal into another folder leaves them as they are
if [ "$out" = results/reference ]; then
  "$bench" docs
else
  echo "the guides' tables read results/reference: bench docs skipped for $out"
fi
