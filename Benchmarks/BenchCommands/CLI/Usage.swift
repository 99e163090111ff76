import BenchWorkloads
import MapClustering

/// The help text of every command; `bench help COMMAND` prints one. The
/// lists of workloads and strategies come from the catalogues.
enum Usage {
  static let commands = [
    "run", "recommend", "report", "peer", "list", "verify", "query", "export", "compare", "plot", "render", "speed",
    "help",
  ]

  /// One line per command, for error messages.
  static func line(for command: String) -> String {
    switch command {
    case "list": return "usage: bench list [--indexes|--workloads|--datasets|--columns] [--markdown]"
    case "verify": return "usage: bench verify [run options]"
    case "query":
      return "usage: bench query [--workload \(WorkloadCatalog.names.joined(separator: "|"))] --index NAME"
        + " --points FILE.csv --queries FILE.csv [--out FILE.csv] [--param K=V] [--strategy S] [--k K] [--screen WxH]"
        + " [--seed S] [--moving SHARE] [--fps HZ]"
    case "export":
      return "usage: bench export [run options] --points-out FILE.csv|FILE.f64 --queries-out FILE.csv [--taps-out FILE.csv]"
    case "compare": return "usage: bench compare BASELINE.csv CURRENT.csv [--threshold PCT] [--timing-info] [--markdown] [--allow-missing]"
    case "plot": return "usage: bench plot REPORT.csv [REPORT.csv…] [--out DIR]"
    case "render":
      return "usage: bench render [--dataset NAME|FILE.csv] --center LAT,LON --zoom Z [--size WxH]"
        + " [--grid] [--pan DX,DY] [--index NAME] [--out FILE.svg]"
    case "help": return "usage: bench help [COMMAND]"
    case "recommend":
      return "usage: bench recommend [--dataset NAME|FILE] [--n N] [--screen WxH] [--fps HZ] [--live]"
        + " [--memory-limit SIZE] [--workload LIST] [--steps S] [--repeat R] [--seed S] [--out FILE.csv] [--quiet]"
        + " [--peer postgis [--connection CONNINFO]]"
    case "report":
      return "usage: bench report REPORT.csv [REPORT.csv…] [--out FILE.html] [--fps HZ] [--live] [--memory-limit SIZE]"
        + " [--dataset NAME|FILE]"
    case "peer":
      return "usage: bench peer postgis [--connection CONNINFO] [--index gist,spgist,brin] [--dataset NAME|FILE] [--n N] [--workload LIST]"
        + " [--strategy LIST] [--steps S] [--queries FILE.csv] [--screen WxH] [--repeat R] [--warmup W] [--budget SECONDS]"
        + " [--seed S] [--out FILE.csv] [--quiet]"
    case "speed":
      return "usage: bench speed [--index NAMES] [--n N] [--queries Q] [--repeat R] [--seed S] [--param K=V,…] [--threads N] [--nearest] [--blobs B]"
    default: return "usage: bench [run] [--index NAMES] [--workload NAMES] [--dataset NAME|FILE] [options]  (bench help)"
    }
  }

  static var runOptions: String { """
      --index NAME[,NAME…]|all      indexes to run (default all; bench list --indexes)
      --workload NAME[,NAME…]|all   \(RunOptions.workloadNames.joined(separator: ", ")) (default \(RunOptions.defaultWorkloads.joined(separator: ",")))
      --dataset NAME|FILE           bundled name, generator name or a points file: .csv, .geojson,
                                .f64 (lon,lat float64 pairs) (default places)
      --n COUNT[,COUNT…]            points for a generator; for a file, a seeded sample (default all rows)
      --steps COUNT                 steps of the pan-and-zoom session (default 200)
      --queries FILE.csv            one step per row instead of the session (boxes, or centres with
                                    --screen); cluster and tap need a zoom column
      --param KEY=V[,V…]            an index parameter; several values make a sweep (one row each)
      --strategy NAME[,NAME…]|all   workload variants: \(RunOptions.strategyNames.joined(separator: ", "))
                                    (default all; a workload none of whose variants is named runs all)
      --threads N|auto              build threads of the indexes that build in parallel (the k-d tree,
                                    the grid, the cell tree, the quadtree's bulk load; default auto:
                                    every core; the index is the same), as
                                    --param threads=N
      --screen WxH                  screen size in points (default 390x844; at most 4096x4096)
      --moving SHARE                live: share of the points that move each frame (default 0.01)
      --fps HZ                      live: frames a second, for the distance moved and the buffered
                                    strategy's real-time frames (default 60)
      --rebuild-share SHARE         live: the buffered strategy rebuilds when this share of the points
                                    moved since its last build (default 0.05)
      --repeat R                    timed repetitions of each workload (default 5)
      --warmup W                    untimed repetitions first (default 1)
      --budget SECONDS              a row stops repeating after this long, one pass at least (default 2; 0 = no limit)
      --seed S                      seed of every random choice (default 42)
      --counters                    record nodes visited, points tested, points reported
      --out FILE.csv                the report (default results/<date>-<commit>-run.csv, never overwritten)
      --json FILE.json              run only: the report as JSON too (rows and run metadata)
      --append                      add rows to an existing report with the same header
      --quiet                       no progress on stderr
    """
  }

  static let overview = """
    bench: compare 2-D spatial indexes on the work a map app does.

    usage: bench [COMMAND] [options]

    commands:
      run       run workloads on indexes: a table, the verdict, a CSV report and its HTML page (the default)
      recommend measure every index on your data and say which to use, with an HTML page
      report    one self-contained HTML page of one or more reports: verdict, charts, table, map
      peer      the same workloads on PostGIS, timed in the server and from the client, answers checked
      list      list indexes, workloads or datasets with their parameters
      verify    check every index against the linear scan; exit 1 on any difference
      query     answer a query file with one index (query,count,id_sum)
      export    write a workload's points and viewport rectangles as CSV files
      compare   compare two reports; exit 1 on a regression
      plot      draw SVG charts of one or more reports
      render    draw the cluster workload's markers for a viewport (or before and after a pan)
      speed     the core micro-benchmark: uniform points, square queries of 1e-4, 1e-3, 1e-2 of the area
      help      this text, or one command's

    run options:
    \(runOptions)
    exit codes: 0 success; 1 a difference or regression (verify, compare), no choice meeting the
    budget (recommend); 64 usage error (also an
    output that is an input or another output); 65 bad data; 66 input missing or unreadable;
    69 a service is unavailable (PostgreSQL or PostGIS missing, a server that will not start, a
    refused connection); 70 internal error; 73 output cannot be created (not a regular file, a report that exists);
    74 I/O error (a full disk, a failed write to standard output).
    """

  static func text(for command: String) -> String {
    switch command {
    case "run": return line(for: "run") + "\n\nRuns workloads on indexes.\n\n" + runOptions
    case "recommend":
      return line(for: "recommend") + """


        Measures every index and cluster strategy on the data (a seeded 200-step session of the
        viewport, cluster, tap and nearest workloads, 3 repetitions, a row stopping after 1 s; with
        --live, one pass of a 100-frame live session too), then the two best indexes again with their first whole-number
        parameter at half and twice its default. Prints the verdict: the index and parameters, the
        strategies, each workload's p99 against its share of the frame, memory and build, the
        runner-up and why it lost, the confidence, and the Swift that builds the choice. Warnings
        about the data (duplicates, latitudes beyond ±85.0511°, a tiny or world-wide extent) go to
        stderr. Writes the rows (default results/<date>-<commit>-recommend.csv) and the HTML page
        beside them, never over earlier files. Exit 0 when a choice meets the budget, 1 with the
        closest when none does.

        How it decides (README, "How bench recommend decides"): a choice meets the budget when each
        workload's p99 fits its share of a frame (a quarter for the viewport, cluster, tap and
        nearest; half for a live frame) and it holds no more than --memory-limit. Of those, the ones
        whose worst share used is within 1.5× of the best's, or at most 25% of every share, are as
        fast; of them the least memory wins (within 10% counts as the same), then the fastest build.

          --dataset NAME|FILE       bundled name, generator name or a points file (default places)
          --n N                     points for a generator; for a file, a seeded sample
          --screen WxH              screen size in points (default 390x844)
          --fps HZ                  frame rate: 60 (default) or 120 (any 1...1000)
          --live                    the data changes: the live workload (move and buffered) counts
          --memory-limit SIZE       the most the index and clustering may hold: 512MB, 2GB, 1.5GiB
          --workload LIST           what the map does, of viewport,cluster,tap,nearest (default all):
                                    a map that always clusters leaves viewport out (at 10M points a
                                    world view holds millions, which no index lists in a frame)
          --steps S, --repeat R     session steps (default 200) and repetitions (default 3)
          --seed S                  seed of every random choice (default 42)
          --out FILE.csv            the rows; the page goes beside it as FILE.html
          --quiet                   no progress on stderr
          --peer postgis            PostGIS (GiST) on the same steps, each clock a candidate (as bench peer;
                                    exit 69 when PostgreSQL or PostGIS is missing)
          --connection CONNINFO     with --peer: that server, not one of its own
        """
    case "report":
      return line(for: "report") + """


        Writes one self-contained HTML page (inline SVG and CSS, no network resource) of the reports'
        rows: the verdict of each dataset by bench recommend's rules (--fps, --live, --memory-limit as
        there), each workload's p99 against its frame budget, the table of rows, the latency, build
        and memory charts, a cluster map of the data, the machine and run, and the commands that
        reproduce it. The map needs the points: a bundled dataset or a generator is made again from
        the rows' name, n and seed; for a points file give it with --dataset FILE. Default output:
        the first report's name with .html. Never replaces a file (exit 73).
        """
    case "peer":
      return line(for: "peer") + """


        Runs the workloads (default viewport, cluster, tap, nearest) on PostGIS, on the same points
        and steps as bench run, and checks every answer against the linear scan. By default it starts
        a PostgreSQL of its own in a temporary folder (initdb, pg_ctl; a Unix socket, no TCP port)
        and removes it on exit, error or Ctrl-C; --connection names another server instead (a psql
        connection string), where bench creates one schema of its own and drops only that. psql
        talks to the server (no driver is linked). Queries: viewport `geom && box` (bbox: not exact,
        float4 boxes) and `&&` with the bounds (exact); cluster GROUP BY the workload's own cells,
        computed in SQL by the same formulas (group-by); tap, the boxes around the tap and the screen
        distance (range); nearest, KNN `geog <-> position` then id (k=1, k=10, k=100). Each is timed
        inside the server (clock=server: PL/pgSQL around each step) and from psql, round trip
        included (clock=client); the load and GiST indexes are the build row. Rows count the steps
        whose answers differ in wrong_answers. Writes results/<date>-<commit>-peer-postgis.csv
        (or --out), never over an earlier file. Exit 1 when an exact query's answer differs, 69 when
        PostgreSQL or PostGIS is missing or the server does not start or answer.

          --connection CONNINFO     a server of yours: 'host=… dbname=…' or postgresql://…
          --index LIST              the index method of both spatial columns, each its own rows:
                                    gist (default), spgist, brin (postgis-gist, -spgist, -brin)
          run options as for bench run: --dataset, --n, --workload, --strategy, --steps, --queries,
          --screen, --repeat (default 5), --warmup, --budget (per row, default 2 s), --seed, --out,
          --quiet
        """
    case "list":
      return line(for: "list") + "\n\nOne line each: the name first, then its parameters and defaults."
    case "verify":
      return line(for: "verify")
        + "\n\nRuns the chosen workloads on every index and the linear scan and compares every answer."
        + " Exit 1 with the first differences on any mismatch.\n\n" + runOptions
    case "query":
      let answers = WorkloadCatalog.all.map { type in
        "  \(type.name.padding(toLength: 9, withPad: " ", startingAt: 0))query,"
          + type.answerColumns.joined(separator: ",")
      }.joined(separator: "\n")
      return line(for: "query") + """


        Answers each row of the queries file over the points file, with one index, in the chosen
        workload's format (default viewport; results/README.md documents each):
        \(answers)
        viewport and cluster read a queries file: min_lat,min_lon,max_lat,max_lon[,zoom] (min_lon >
        max_lon crosses the antimeridian), or center_lat,center_lon,zoom with --screen; cluster
        needs the zoom. tap reads a taps file: lat,lon,zoom. nearest reads positions: lat,lon
        (other columns ignored, so a taps file will do) and answers the --k (default 10) nearest
        by great-circle distance, rank 1 the nearest, distance_m in metres with 3 decimals. query
        is the 0-based row; ids come from the points file's id column, else its 0-based rows;
        id_sum is modulo 2^64. live reads a queries file with zooms and writes each frame's markers
        as cluster does, after the points moved (--moving share a frame, default 0.01, at --fps,
        default 60, seeded by --seed): through move on a dynamic index, buffered on a static one.
        """
    case "export":
      return line(for: "export") + """


        Writes the dataset's points (id,lat,lon), the session's viewport rectangles
        (min_lat,min_lon,max_lat,max_lon,zoom) and, with --taps-out, its taps (lat,lon,zoom), so
        another library can run the same work and bench query can answer it.

        """ + runOptions
    case "compare":
      return line(for: "compare") + """


        Joins rows by (index, params, dataset, n, workload, strategy). A timing regression is a median
        worse than the threshold (default 10) percent whose 95% intervals do not overlap; a counter
        regression is any increase of nodes_visited, points_tested or points_reported; changed answers
        (results_total, checksum) are a difference. Exit 1 on any of these, and when no row of one
        report matches the other or rows of the baseline are missing from the current report (an
        index or workload that vanished); --allow-missing accepts missing rows. With --timing-info,
        timings are printed but only counters and answers decide (for noisy CI machines). With
        --markdown, the same as a Markdown table for a pull-request comment.
        """
    case "plot":
      return line(for: "plot") + """


        Draws SVG charts (800×500) of the reports' rows into DIR (default results/plots from the
        package root, else plots; made if missing): median latency per index with p90 and p99
        whiskers per dataset, n, workload and strategy; median against n on log-log axes when an
        index has two or more n; median against a swept parameter when rows of an index differ in
        one numeric parameter; build time and bytes per point; median by zoom band. A chart whose
        data the reports lack is skipped with a note. Each index keeps one colour in every chart.
        """
    case "render":
      return line(for: "render") + """


        Draws, in Web Mercator, the markers the cluster workload computes for one viewport: a
        cluster as a circle whose side follows the original formula, labelled with its count; a
        single point as a dot; a faint graticule behind. The caption gives the zoom, the points in
        view, the markers and the cluster time (median of 5).

          --dataset NAME|FILE       bundled name, generator name or a points file (.csv, .geojson,
                                    .f64) (default places)
          --n COUNT                 points for a generator; for a file, a seeded sample
          --seed S                  seed of the generator or sample (default 42)
          --center LAT,LON          the screen's centre, lat in -90...90, lon in -180...180
          --zoom Z                  zoom level, 0...22
          --size WxH                screen size in points, each 16...4096 (default 390x844)
          --grid                    draw the clustering cells (world-aligned) faintly
          --pan DX,DY               also the view DX screens east and DY south (e.g. 0.5,0),
                                    side by side: markers kept, added and removed in three colours
          --index NAME              the index that answers the queries (default kdtree)
          --strategy NAME           per-cell, single-pass or aggregate (default single-pass; same markers)
          --out FILE.svg            the picture (default results/render/render-<dataset>-z<Z>.svg
                                    from the package root, else in the current folder)
        """
    case "speed":
      return line(for: "speed") + """


        Builds each index over N (default 1,000,000) uniform points in the world box and times
        batches of Q (default 1,000) square queries covering 1e-4, 1e-3 and 1e-2 of its area,
        every id visited through query(in:into:). Prints the build time, bytes per point and the
        median microseconds per query over R (default 5) runs.

          --nearest                 also time k-nearest searches (k = 1, 10, 100) from Q seeded
                                    positions anywhere and Q within 5° of a pole; for the trees,
                                    the same search with planar distance and the ratio
          --blobs B                 points in B Gaussian blobs (the clustered generator) instead
        """
    default: return overview
    }
  }
}
