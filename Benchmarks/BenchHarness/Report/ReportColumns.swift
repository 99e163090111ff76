import BenchFormats

extension ReportColumn {
  /// Every column of a report, in file order. To add one: append it here
  /// (never insert: older reports then still read, and `--append` refuses a
  /// file with another header), give ``ReportRow`` the field, and run
  /// `bench docs` to remake the column table of `docs/formats.md`.
  public static let all: [ReportColumn] = [
    .text("index", .key, "index name (`bench list --indexes`)", \.key.index),
    .text(
      "params", .key,
      "parameters in effect, `name=value` joined by `;` (defaults resolved against the data)",
      \.key.params),
    .text(
      "dataset", .key,
      "bundled name, generator name, or the points file's path as given (its base name before version 4)",
      \.key.dataset),
    .integer("n", .key, "points in the dataset", \.key.n),
    .text("workload", .key, "`build`, a workload of `bench list --workloads`, or a part of one's step timed on its own (`live.update`, `live.query`: no counters)", \.key.workload),
    .text(
      "strategy", .key, "the workload's variant (a cluster strategy), empty when it has none; `open` on the `build` row of a run over a saved index (`--index-file`): the open was timed, not a build",
      \.key.strategy),
    .text(
      "zooms", .key,
      "`all`, or a zoom band (`0-3`, `4-7`, …): the latencies of that band's steps, cut from the"
        + " same samples (results and checksum stay those of the whole pass)",
      \.key.zooms),

    .integer("samples", .timing, "timed samples: steps × repetitions (build: repetitions)", \.timing.samples),
    .number("min_ns", .timing, "fastest step, ns", \.timing.min),
    .number("median_ns", .timing, "median step latency, ns", \.timing.median),
    .number("p90_ns", .timing, "90th percentile of step latency, ns", \.timing.p90),
    .number("p99_ns", .timing, "99th percentile of step latency, ns", \.timing.p99),
    .number("max_ns", .timing, "slowest step, ns", \.timing.max),
    .number("mean_ns", .timing, "mean step latency, ns", \.timing.mean),
    .number("stddev_ns", .timing, "sample standard deviation of step latency, ns", \.timing.stddev),
    .number("ci_low_ns", .timing, "95% confidence interval of the median (order statistics): low end", \.timing.ciLow),
    .number("ci_high_ns", .timing, "the interval's high end", \.timing.ciHigh),
    .flag("noisy", .timing, "1 when the interval's half-width exceeds 5% of the median", \.timing.noisy),
    .integer(
      "batch", .timing,
      "identical repetitions per sample (steps shorter than 20 clock reads are timed in batches)",
      \.timing.batch),

    .number("build_ms", .build, "median build time of the index, ms", \.buildMilliseconds),
    .integer(
      "index_bytes", .build,
      "memory the index holds (array capacities); cluster rows add what the strategy keeps beside it",
      \.indexBytes),
    .derived("bytes_per_point", .number, .build, "`index_bytes / n` (0 when n = 0)") {
      CSVWriter.field($0.bytesPerPoint)
    },
    .integer("peak_rss_bytes", .build, "process peak resident memory when the row was measured", \.peakRSSBytes),

    .integer("results_total", .answers, "results over one pass (ids, markers or tap hits)", \.resultsTotal),
    .hex(
      "checksum", .answers,
      "hash of the answers, independent of the order an index reports ids in: equal across"
        + " indexes and strategies, or the run fails",
      \.checksum),
    .optionalInteger(
      "churn", .answers,
      "cluster rows: markers added plus removed over one pass (a marker is its zoom, cell and count)",
      \.churn),

    .optionalInteger("nodes_visited", .work, "with `--counters`: nodes or cells visited over one pass", \.counters.nodesVisited),
    .optionalInteger("points_tested", .work, "with `--counters`: points compared with a rectangle", \.counters.pointsTested),
    .optionalInteger("points_reported", .work, "with `--counters`: points handed to the caller", \.counters.pointsReported),

    .text("timestamp", .run, "when the run started, UTC, ISO 8601", \.run.timestamp),
    .text("git_commit", .run, "the checked-out commit, or `unknown`", \.run.gitCommit),
    .text("cpu_model", .run, "CPU model (`/proc/cpuinfo`)", \.run.machine.cpuModel),
    .integer("cores", .run, "active processors", \.run.machine.cores),
    .integer("memory_bytes", .run, "physical memory", \.run.machine.memoryBytes),
    .text("os", .run, "operating system", \.run.machine.os),
    .text("swift_version", .run, "the compiler that built `bench`", \.run.swiftVersion),
    .text("build_config", .run, "`release` or `debug`", \.run.buildConfig),
    .integer("seed", .run, "seed of every random choice", \.run.seed),

    // Added in version 2.
    .optionalInteger(
      "workload_bytes", .build,
      "memory the workload keeps beside the index (a cluster strategy's records and sums), empty for none",
      \.workloadBytes
    ).added(in: 2),
    .derived(
      "total_bytes_per_point", .number, .build,
      "`(index_bytes + workload_bytes) / n`: everything the row's work holds per point"
    ) { CSVWriter.field($0.totalBytesPerPoint) }.added(in: 2),

    // Added in version 3.
    .optionalInteger(
      "wrong_answers", .answers,
      "rows of a database engine (`bench peer`): steps whose answer differs from the linear scan's;"
        + " empty for the indexes, which `bench verify` checks",
      \.wrongAnswers
    ).added(in: 3),

    // Added in version 4.
    ReportColumn(
      "dataset_fingerprint", .text, .key,
      "a points file's `size:hash` (16 hex digits; the hash of every byte up to 2 MiB, else of the first"
        + " and last MiB), `not-a-regular-file` for a pipe; empty for a bundled dataset or a generator",
      format: { $0.datasetOrigin.columnText }
    ) { row, table, i throws(DataError) in
      guard let origin = DatasetOrigin(columnText: table.text(i)) else {
        throw table.bad(i, "\(table.shown(i)) is not a fingerprint (size:16 hex digits) or \(DatasetOrigin.notRegularText)")
      }
      row.datasetOrigin = origin
    }.added(in: 4),

    // Added in version 5.
    .text(
      "filter", .key,
      "the filter the row's steps applied (`--filter`, as given), then ` aggregate ` and the"
        + " `--aggregate` list on cluster rows that reported aggregates; empty for none",
      \.key.filter
    ).added(in: 5),

    // Added in version 6.
    .optionalInteger(
      "mapped_bytes", .build,
      "an index opened from `--index-file`: bytes of the file it reads through a memory mapping"
        + " (not in `index_bytes`); empty for an index in memory alone",
      \.mappedBytes
    ).added(in: 6),
    .optionalInteger(
      "resident_bytes", .build,
      "of `mapped_bytes`, those in the process's memory when the row was measured (the build row:"
        + " just after the open; the others: after every workload ran); empty without a mapping",
      \.residentBytes
    ).added(in: 6),
  ]

  /// The column called `name`.
  public static func named(_ name: String) -> ReportColumn? { all.first { $0.name == name } }
}

