// supercluster beside SpatialBench's clustering, by hand (not part of CI).
//
// The map-app operation side by side: build a clusterer over hotel-like
// points, then answer each phone viewport with its markers. supercluster
// clusters by distance (radius 40 at extent 512, its defaults) into a
// hierarchy built once for zooms 0-16; SpatialBench clusters into a grid of
// cells at query time. So the markers differ; the work a map does per frame
// is the same. Both run the same viewports: the script writes them with a
// seeded SplitMix64 (bench's generator), as centres, and bench export turns
// them into the boxes both read.
//
// Each round builds supercluster (time, and the heap it adds after a full
// GC), times its getClusters on every viewport (a warm-up pass, then five
// timed passes, each call timed, as bench times steps), then runs
// `bench run --workload cluster` on the same points and boxes, so the two
// alternate in one run. bench builds on one thread, as node does, and times
// five passes whatever they take (`--budget 0`), as supercluster's are.
// Then each filter: supercluster's only way to change one is a `load` of
// the matching points (timed with the filtering), ours is the query with
// `--filter`.
//
// A supercluster 8.0.1 checkout with kdbush 4.1.0 in its node_modules:
//
//   git clone -b v8.0.1 https://github.com/mapbox/supercluster /tmp/sc
//   git clone -b v4.1.0 https://github.com/mourner/kdbush /tmp/sc/node_modules/kdbush
//   swift build -c release
//   taskset -c 1 node --expose-gc results/reference/supercluster.mjs /tmp/sc .build/release/bench
//
// Options after the two paths: --n POINTS (1000000), --views V (1000),
// --rounds R (3), --index NAME (celltree), --seed S (44), --no-filters.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const usage = "usage: node --expose-gc supercluster.mjs SUPERCLUSTER_DIR [BENCH] [--n N] [--views V] " +
  "[--rounds R] [--index NAME] [--seed S] [--no-filters]";
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const value = args[at + 1];
  args.splice(at, 2);
  return value;
};
const n = Number(option("--n", "1000000"));
const viewCount = Number(option("--views", "1000"));
const rounds = Number(option("--rounds", "3"));
const index = option("--index", "celltree");
const seed = BigInt(option("--seed", "44"));
const withFilters = !args.includes("--no-filters");
const [scDir, bench = ".build/release/bench"] = args.filter(a => a !== "--no-filters");
if (!scDir || !global.gc || !(n > 0) || !(viewCount > 0) || !(rounds > 0)) {
  console.error(global.gc ? usage : `${usage}\n(node needs --expose-gc: memory is read after a full GC)`);
  process.exit(64);
}
// the filters of issue 43, in bench's grammar
const filters = withFilters ? ["chain in (chain-7)", "stars >= 4", "price <= 100"] : [];

const versionOf = dir => JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version;
const versions = `supercluster ${versionOf(scDir)}, kdbush ${versionOf(join(scDir, "node_modules", "kdbush"))}`;
const { default: Supercluster } = await import(pathToFileURL(resolve(scDir, "index.js")).href);

// bench's SplitMix64 (Sources/_SeededRandom/SplitMix64.swift)
class SplitMix64 {
  constructor(s) { this.state = BigInt.asUintN(64, s); }
  next() {
    this.state = BigInt.asUintN(64, this.state + 0x9E3779B97F4A7C15n);
    let z = this.state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94D049BB133111EBn);
    return z ^ (z >> 31n);
  }
  // unbiased, by Lemire's multiply-and-reject, as nextInt(below:)
  below(bound) {
    const b = BigInt(bound);
    const threshold = BigInt.asUintN(64, -b) % b;
    for (;;) {
      const m = this.next() * b;
      if (BigInt.asUintN(64, m) >= threshold) return Number(m >> 64n);
    }
  }
}

const run = (command, commandArgs) => {
  const r = spawnSync(command, commandArgs, { encoding: "utf8", maxBuffer: 1 << 26 });
  if (r.status !== 0) {
    console.error(`${command} ${commandArgs.join(" ")} failed (${r.status ?? r.error}):\n${r.stderr}`);
    process.exit(70);
  }
  return r.stdout;
};
// the files here have no quoted fields but bench's filter column
const readCSV = text => {
  const lines = text.trimEnd().split("\n");
  const header = lines[0].split(",");
  return lines.slice(1).map(line => {
    const cells = line.split(",");
    return Object.fromEntries(header.map((h, i) => [h, cells[i]]));
  });
};

// 1. the points, with the properties the filters use
const work = mkdtempSync(join(tmpdir(), "supercluster-"));
const hotels = join(work, "hotels.csv");
run(bench, ["export", "--dataset", "hotels", "--n", String(n), "--properties", "stars:number,price:number,chain",
  "--points-out", hotels, "--queries-out", join(work, "session.csv"), "--quiet"]);
const features = readCSV(readFileSync(hotels, "utf8")).map(r => ({
  type: "Feature",
  properties: { stars: Number(r.stars), price: Number(r.price), chain: r.chain },
  geometry: { type: "Point", coordinates: [Number(r.lon), Number(r.lat)] },
}));

// 2. the viewports: a phone's screen (bench's default, 390x844) at a zoom
//    from 2 to 16, centred on a hotel picked at random, as a user who
//    searched for one sees it
const random = new SplitMix64(seed);
let centres = "center_lat,center_lon,zoom\n";
for (let v = 0; v < viewCount; v++) {
  const zoom = 2 + random.below(15);
  const [lon, lat] = features[random.below(features.length)].geometry.coordinates;
  centres += `${lat},${lon},${zoom}\n`;
}
writeFileSync(join(work, "centres.csv"), centres);
const viewsFile = join(work, "views.csv");
run(bench, ["export", "--dataset", "places", "--queries", join(work, "centres.csv"), "--queries-out", viewsFile,
  "--points-out", join(work, "places.csv"), "--quiet"]);
const views = readCSV(readFileSync(viewsFile, "utf8")).map(r => ({
  bbox: [Number(r.min_lon), Number(r.min_lat), Number(r.max_lon), Number(r.max_lat)], zoom: Number(r.zoom),
}));

// statistics as bench computes them: percentiles interpolated (type 7)
const percentile = (p, sorted) => {
  const h = (sorted.length - 1) * p, lower = Math.floor(h), fraction = h - lower;
  return lower + 1 < sorted.length && fraction > 0
    ? sorted[lower] + fraction * (sorted[lower + 1] - sorted[lower]) : sorted[lower];
};
const mean = xs => xs.reduce((a, b) => a + b, 0) / xs.length;
const heap = () => {
  global.gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

let sink = 0;
/// supercluster over `points`: its build (ms), the bytes it adds, and each
/// viewport's getClusters (ns) over five timed passes
function superclusterRound(points) {
  const before = heap();
  const start = process.hrtime.bigint();
  const sc = new Supercluster().load(points);
  const buildMs = Number(process.hrtime.bigint() - start) / 1e6;
  const bytes = heap() - before;
  const times = [];
  for (let pass = 0; pass < 6; pass++) {
    for (const { bbox, zoom } of views) {
      const t = process.hrtime.bigint();
      sink += sc.getClusters(bbox, zoom).length;
      if (pass > 0) times.push(Number(process.hrtime.bigint() - t));
    }
  }
  times.sort((a, b) => a - b);
  return { buildMs, bytesPerPoint: bytes / points.length, mean: mean(times), median: percentile(0.5, times), p99: percentile(0.99, times) };
}

/// bench run on the same points and boxes: its aggregate row over every step
function benchRound(filter) {
  const out = join(work, `bench-${Math.random().toString(36).slice(2)}.csv`);
  run(bench, ["run", "--workload", "cluster", "--dataset", hotels, "--index", index, "--strategy", "aggregate",
    "--threads", "1", "--budget", "0", "--queries", viewsFile, "--quiet", "--out", out, ...(filter ? ["--filter", filter] : [])]);
  const row = readCSV(readFileSync(out, "utf8")).find(r => r.workload === "cluster" && r.zooms === "all");
  return {
    buildMs: Number(row.build_ms), bytesPerPoint: Number(row.total_bytes_per_point),
    mean: Number(row.mean_ns), median: Number(row.median_ns), p99: Number(row.p99_ns),
  };
}

const us = ns => (ns / 1e3).toFixed(1);
const x = (a, b) => `${(a / b).toFixed(3)}x`;
console.log(`${features.length.toLocaleString("en")} hotels, ${views.length} phone viewports at zooms 2-16 ` +
  `(seed ${seed}); ${versions}, node ${process.version}; bench's ${index}, aggregate strategy`);
for (let round = 1; round <= rounds; round++) {
  const sc = superclusterRound(features);
  const ours = benchRound(null);
  console.log(`round ${round}: supercluster build ${sc.buildMs.toFixed(0)} ms, ${sc.bytesPerPoint.toFixed(1)} B/point, ` +
    `getClusters mean ${us(sc.mean)} µs, median ${us(sc.median)} µs, p99 ${us(sc.p99)} µs | ours build ` +
    `${ours.buildMs.toFixed(1)} ms, ${ours.bytesPerPoint.toFixed(1)} B/point, mean ${us(ours.mean)} µs, median ` +
    `${us(ours.median)} µs, p99 ${us(ours.p99)} µs | ours/supercluster: mean ${x(ours.mean, sc.mean)}, median ` +
    `${x(ours.median, sc.median)}, p99 ${x(ours.p99, sc.p99)}, build ${x(ours.buildMs, sc.buildMs)}`);
}

// 3. a filter change: supercluster filters the features and loads them
//    afresh; ours answers the next frame with the filter
const clause = /^\s*(\w+)\s*(>=|<=|=|in)\s*(.+?)\s*$/;
const predicate = filter => {
  const tests = filter.split(/\s+and\s+/).map(text => {
    const [, field, op, value] = text.match(clause);
    if (op === "in") {
      const set = new Set(value.replace(/^\(|\)$/g, "").split(",").map(v => v.trim()));
      return p => set.has(String(p[field]));
    }
    if (op === "=") return p => String(p[field]) === value;
    return op === ">=" ? p => p[field] >= Number(value) : p => p[field] <= Number(value);
  });
  return f => tests.every(t => t(f.properties));
};
for (const filter of filters) {
  const keep = predicate(filter);
  for (let round = 1; round <= rounds; round++) {
    const start = process.hrtime.bigint();
    const subset = features.filter(keep);
    const filterNs = Number(process.hrtime.bigint() - start);
    const sc = superclusterRound(subset);
    const ours = benchRound(filter);
    const changeNs = filterNs + sc.buildMs * 1e6 + sc.mean;
    console.log(`"${filter}" round ${round}: ${subset.length.toLocaleString("en")} points; supercluster's change ` +
      `(filter, load, first frame) ${(changeNs / 1e6).toFixed(0)} ms, then mean ${us(sc.mean)} µs | ours: mean ` +
      `${us(ours.mean)} µs, p99 ${us(ours.p99)} µs, no rebuild | a change ${(changeNs / ours.mean).toFixed(0)}x ` +
      `cheaper, ours a frame ${x(ours.mean, sc.mean)} supercluster's`);
  }
}
if (sink < 0) console.log(sink);
