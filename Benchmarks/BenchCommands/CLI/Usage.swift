import BenchWorkloads
import MapClustering

/// The help text of every command; `bench help COMMAND` prints one. The
/// usage lines and option lists are made from each command's flag table
/// (``CommandCatalog``), the lists of workloads and strategies from the
/// catalogues; only the prose that explains a command is written here.
enum Usage {
  static var commands: [String] { CommandCatalog.all.map(\.name) + ["help"] }

  /// The one line an error message ends with: the whole synopsis when it is
  /// short, else its operands and required flags and a pointer to the help.
  static func line(for command: String) -> String {
    guard let spec = CommandCatalog.named(command)?.usage else {
      return command == "help" ? "usage: bench help [--markdown] [COMMAND]" : line(for: "run")
    }
    let words = synopsisWords(command, spec)
    let whole = words.joined(separator: " ")
    if whole.count <= 160 { return whole }
    let required = spec.flags.filter(\.required).map(\.synopsis)
    return (words.prefix(2) + (spec.operands.map { [$0] } ?? []) + required + ["[options]"])
      .joined(separator: " ") + "  (bench help \(command) lists them)"
  }

  /// `usage: bench CMD OPERANDS --required V [--flag V]…`, wrapped at 100
  /// columns.
  static func synopsis(for command: String) -> String {
    guard let spec = CommandCatalog.named(command)?.usage else { return line(for: command) }
    var lines: [String] = []
    var current = ""
    for word in synopsisWords(command, spec) {
      if current.isEmpty {
        current = word
      } else if current.count + 1 + word.count > 100 {
        lines.append(current)
        current = "    " + word
      } else {
        current += " " + word
      }
    }
    lines.append(current)
    return lines.joined(separator: "\n")
  }

  private static func synopsisWords(_ command: String, _ spec: CommandSpec.Usage) -> [String] {
    var words = ["usage:", command == "run" ? "bench [run]" : "bench \(command)"]
    if let operands = spec.operands { words.append(operands) }
    words += spec.flags.filter(\.required).map(\.synopsis)
    words += spec.flags.filter { !$0.required }.map { "[\($0.synopsis)]" + ($0.repeatable ? "…" : "") }
    return words
  }

  /// One flag a line (more for a long explanation): the flag and its value,
  /// then what it does from column 32.
  static func options(_ flags: [FlagSpec]) -> String {
    let column = 30
    var lines: [String] = []
    for flag in flags {
      var first = flag.synopsis
      first += first.count + 2 <= column ? String(repeating: " ", count: column - first.count) : "  "
      var help = flag.help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      if flag.required { help[help.count - 1] += " (required)" }
      let wrapped = help.flatMap { wrap($0, width: 100 - column - 2) }
      lines.append("  " + first + wrapped[0])
      for more in wrapped.dropFirst() { lines.append(String(repeating: " ", count: column + 2) + more) }
    }
    return lines.joined(separator: "\n")
  }

  /// `text` in lines of at most `width` characters, broken between words.
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ") {
      if !current.isEmpty && current.count + 1 + word.count > width {
        lines.append(current)
        current = ""
      }
      current += (current.isEmpty ? "" : " ") + word
    }
    return lines + [current]
  }

  /// The options of `command`, listed.
  static func options(for command: String) -> String {
    options(CommandCatalog.named(command)?.usage.flags ?? [])
  }

  /// `bench run`'s options, which the overview lists.
  static var runOptions: String { options(for: "run") }

  static var overview: String {
    let commands = CommandCatalog.all.map { "  " + $0.name.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.summary }
      + ["  help      " + helpSummary]
    return """
      bench: compare 2-D spatial indexes on the work a map app does.

      usage: bench [COMMAND] [options]

      commands:
      \(commands.joined(separator: "\n"))

      query answers, one file a workload (bench help query):
      \(queryAnswers)

      run options:
      \(runOptions)

      \(flagRule)

      exit codes: \(exitCodes)
      """
  }

  /// The rule of every command's flags.
  static let flagRule = """
    A flag is given once (--param, which adds a parameter, may be repeated); a flag a command has
    no use for is refused.
    """

  /// What each exit code means, for every command.
  static let exitCodes = """
    0 success; 1 a difference or regression (verify, fuzz, compare), no choice meeting the
    budget (recommend), a stale table (docs --check); 64 usage error (also an
    output that is an input or another output); 65 bad data; 66 input missing or unreadable;
    69 a service is unavailable (PostgreSQL or PostGIS missing, a server that will not start, a
    refused connection); 70 internal error; 73 output cannot be created (not a regular file, a report that exists);
    74 I/O error (a full disk, a failed write to standard output). A reader that closes the pipe
    (bench list | head -1) is no error: bench stops writing to it and ends with its own code.
    """

  /// Each workload's answer columns, from the registry: `  viewport  query,count,id_sum`.
  static var queryAnswers: String {
    WorkloadCatalog.all.map { type in
      "  \(type.name.padding(toLength: 10, withPad: " ", startingAt: 0))query,"
        + type.answerColumns.joined(separator: ",")
    }.joined(separator: "\n")
  }

  /// The synopsis, what the command does, and its options.
  static func text(for command: String) -> String {
    guard command != "help" else { return overview }
    let list = options(for: command)
    return synopsis(for: command) + "\n\n" + about(command) + (list.isEmpty ? "" : "\n\n" + list)
  }

  /// What a command does, in prose.
  static func about(_ command: String) -> String {
    switch command {
    case "run":
      return """
        Runs workloads on indexes. The filters workload is the filter session: the session's views
        clustered under filters the user changes step by step (chips toggled, a slider moved; see
        docs/workloads.md). It runs on hotels, places, airports and zipcodes: named on other data it
        exits 64, and --workload all leaves it out there with a note on stderr.
        """
    case "recommend":
      return """
        Measures every index and cluster strategy on the data (a seeded 200-step session of the
        viewport, cluster, tap and nearest workloads, 3 repetitions, a row stopping after 1 s; with
        --live, one pass of a 100-frame live session too; on data with properties, the filter session:
        hotels, places, airports, zipcodes), then each index as fast as the best (at least the two best)
        again with its first whole-number parameter at half and twice its default. Prints the verdict: the index and parameters, the
        strategies, each workload's p99 against its share of the frame, memory and build, the
        runner-up and why it lost, the confidence, and the Swift that builds the choice. Warnings
        about the data (duplicates, latitudes beyond ±85.0511°, a tiny or world-wide extent) go to
        stderr. Writes the rows (default results/<date>-<commit>-recommend.csv) and the HTML page
        beside them, never over earlier files. Exit 0 when a choice meets the budget, 1 with the
        closest when none does; data without a point is refused before any work (65 for a file
        without a point, 64 for --n 0).

        How it decides (README, "How bench recommend decides"): a choice meets the budget when each
        workload's p99 fits its share of a frame (a quarter for the viewport, cluster, tap and
        nearest; half for a live frame) and it holds no more than --memory-limit. Of those, the ones
        whose worst share used is within 1.5× of the best's, or at most 25% of every share, are as
        fast; of them the least memory wins (within 10% counts as the same), then the fastest build.
        The filter session is weighed with a quarter of the frame, its p99 on the cluster line; when
        the pick was made on filtered work, the Swift clusters through the filter's PropertyQuery.
        """
    case "report":
      return """
        Writes one self-contained HTML page (inline SVG and CSS, no network resource) of the reports'
        rows: the verdict of each dataset by bench recommend's rules (--fps, --live, --memory-limit as
        there), each workload's p99 against its frame budget, the table of rows, the latency, build
        and memory charts, a cluster map of the data, the machine and run, and the commands that
        reproduce it. The map shows the rows' own points: a bundled dataset or a generator made again
        from the rows' name, n and seed; a points file read again at the path the rows name, when its
        fingerprint (size and hash, in the report) still matches, else no map and a warning. --dataset
        NAME|FILE draws the rows it stands for (a file by its fingerprint, at any path); naming data
        no row measured is refused (exit 64). Rows of one dataset name that measured different files
        are warned about. Default output: the first report's name with .html, or when that is taken
        (bench run writes its page there) with -2.html, -3.html…; a name given with --out is never
        replaced (exit 73).
        """
    case "peer":
      return """
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
        whose answers differ in wrong_answers. --filter and --aggregate (viewport, cluster, tap) load
        the properties as columns and add a WHERE, and SUM, MIN, MAX per cell, checked against the
        filtered linear scan. Writes results/<date>-<commit>-peer-postgis.csv
        (or --out), never over an earlier file. Exit 1 when an exact query's answer differs, 69 when
        PostgreSQL or PostGIS is missing or the server does not start or answer.
        """
    case "list":
      return "One line each: the name first, then its parameters and defaults."
    case "verify":
      return """
        Runs the chosen workloads on every index and the linear scan and compares every answer, over
        two sessions of --steps steps each: the map session (the seeded pan-and-zoom session, or the
        rows of --queries), then the adversarial session, made from the dataset to land where maps
        go wrong: boxes whose edges pass through points, boxes across and up to the antimeridian,
        over a pole, of zero width; taps and nearest positions on points, on duplicates, at
        ±179.9999999° beside points at ±180°, at the poles, on cell edges; searches that stop exactly
        at a point's distance; live moves across the antimeridian, to the poles, off the map and out
        of the data's box. Each line names its session; --session picks one. The build workload
        checks each build: the index counts every point, and a query and a count of the whole map
        find each point once. On hotels and the bundled datasets, each session's viewport, cluster
        and tap steps run again with the dataset's filter checks (hotels: chain in (chain-7) with
        sum, min and max of price; stars >= 4 and price <= 150 with max of price; places, airports
        and zipcodes one each), each index against the linear scan with the same filter; the line
        names the filter in braces. --filter and --aggregate check that filter instead. The filters
        workload (the filter session) is checked step by step, each step with its own filter. Exit 1
        with the first differences on any mismatch.
        """
    case "fuzz":
      return """
        Draws random cases from the seed, small and hostile on purpose (up to 3,000 points:
        duplicates by the thousand, points on ±180°, at the poles, off the map, on cell edges;
        random index parameters), each with steps of every workload (boxes through points and
        across the antimeridian at zooms 0-30, taps and nearest positions on hostile spots, k from
        0 to n + 1, limits exactly at a point's distance, live moves across the antimeridian and
        off the map). Two cases in three carry properties (numbers and categories from small pools,
        so ties abound: missing values, negatives, sums beyond 64 bits, copies of a place with
        different values, values that need quoting) and draw a filter of up to 3 clauses (in, =,
        >=, <=; bounds equal to values, -0.00, beyond every value) for the viewport, cluster and
        tap steps, one for each step of the filter session, and sum, min and max aggregates; the
        markers and the aggregates must match bit for bit. It checks every index, workload and
        strategy against the linear scan, and
        the linear scan against the rules docs/formats.md documents ("Answer files"), worked out
        by brute force. First it counts the work of a search over identical points at two sizes:
        growth beyond O(k + log n) is a failure. Each new kind of failure is shrunk to a small case
        and printed as a Swift Testing test, and as a bench query line where the command can ask
        it. Prints how many cases it ran; exit 1 on any failure. Case I of a seed is the same on
        every machine (whose maths library rounds alike), whatever ran before it.
        """
    case "query":
      return """
        Answers each row of the queries file over the points file, with one index, in the chosen
        workload's format (default viewport; docs/formats.md documents each):
        \(queryAnswers)
        viewport and cluster read a queries file: min_lat,min_lon,max_lat,max_lon[,zoom] (min_lon >
        max_lon crosses the antimeridian), or center_lat,center_lon,zoom with --screen; cluster
        needs the zoom. tap reads a taps file: lat,lon,zoom. nearest reads positions: lat,lon
        (other columns ignored, so a taps file will do) and answers the --k (default 10) nearest
        by great-circle distance, rank 1 the nearest, distance_m in metres with 3 decimals. query
        is the 0-based row; ids come from the points file's id column, else its 0-based rows;
        id_sum is modulo 2^64. live reads a queries file with zooms and writes each frame's markers
        as cluster does, after the points moved (--moving share a frame, default 0.01, at --fps,
        default 60, seeded by --seed): through move on a dynamic index, buffered on a static one.
        With --filter EXPR only the points that pass it count (viewport, cluster, tap): clauses
        joined by and, each F in (v1, v2, …), F = v, F >= x or F <= x. A queries or taps file may have a
        filter column (quoted where it holds a comma); a non-empty one replaces --filter for its
        row. --aggregate sum:F,min:F,max:F adds a column per aggregate to cluster's answers, in
        order (sum_F, min_F, max_F), with the property's scale, empty when no point of the marker
        has a value. Only the properties named are read; a name the points file lacks (its CSV
        header, its GeoJSON features) exits 64 before the points load, a bad row's filter 65.
        """
    case "export":
      return """
        Writes the dataset's points, the session's viewport rectangles
        (min_lat,min_lon,max_lat,max_lon,zoom) and, with --taps-out, its taps (lat,lon,zoom), so
        another library can run the same work and bench query can answer it. The points' format
        is told by --points-out's name, as bench reads it back: .csv (id,lat,lon), .geojson or
        .json (a FeatureCollection of Points, each with its id as the feature's id), .f64
        (longitude, latitude float64 pairs); GeoJSON and .f64 number the points by position when
        read, so a file's own ids do not survive them. Any other name is refused (exit 64).
        With --properties, the properties named are written with the points (CSV columns after
        lon, GeoJSON properties; not .f64): each as its text, or with :number as an exact decimal
        at its column's scale. A name the file or generator lacks, or a bad number, is an error
        naming the file, the line and the field.
        """
    case "compare":
      return """
        Joins rows by (index, params, dataset, n, workload, strategy, zooms); rows of a points file
        whose fingerprint differs between the reports (the file changed) measured other data and are not
        joined, with a warning. A timing regression is a median worse than the threshold (default 10)
        percent whose 95% intervals do not overlap; a counter regression is any increase of
        nodes_visited, points_tested or points_reported; changed answers (results_total, checksum) are a
        difference. Exit 1 on any of these, and when no row of one report matches the other, rows of the
        baseline are missing from the current report (an index or workload that vanished), or the
        baseline's work counters are missing from its rows (a current run without --counters);
        --allow-missing accepts missing rows and counters. A report with two rows for one key (appended
        to twice) is refused, exit 65: compare needs one row per key. With --timing-info, timings are
        printed but only counters and answers decide (for noisy CI machines). With --markdown, the same
        as a Markdown table for a pull-request comment.
        """
    case "plot":
      return """
        Draws SVG charts (800×500) of the reports' rows into DIR (default results/plots from the
        package root, else plots; made if missing): median latency per index with p90 and p99
        whiskers per dataset, n, workload and strategy; median against n on log-log axes when an
        index has two or more n; median against a swept parameter when rows of an index differ in
        one numeric parameter; build time and bytes per point; median by zoom band. A chart whose
        data the reports lack is skipped with a note. Each index keeps one colour in every chart.
        """
    case "render":
      return """
        Draws, in Web Mercator, the markers the cluster workload computes for one viewport: a
        cluster as a circle whose side follows the original formula, labelled with its count; a
        single point as a dot; behind them the world's coastlines (Natural Earth 1:110m, bundled
        as datasets/coastlines_110m.txt, simplified to the zoom) and a faint graticule. The
        caption gives the zoom, the points in view, the markers and the cluster time (median
        of 5). Without the outline file, or with a damaged one, the map is drawn without
        coastlines and a warning says why.
        """
    case "table":
      return """
        Prints a GitHub Markdown table of the reports' figures: a small pivot, so that each measured
        table of the guides is made by one command from the committed reports (bench docs keeps it
        so). A FIELD is a report column (bench list --columns), its values as the CSV spells them, or
        one parameter of params: params:NAME (params:nodeSize reads 64 from nodeSize=64;threads=auto,
        and nothing from a row without it).

        --where keeps the rows whose FIELD is one of the values (strategy= is a row without a
        strategy); on a row or column field it also orders the field's values. --rows makes a row
        per value (or tuple) of its fields, ordered by the first field, then the next, each in the
        order its values first appear in the reports (or the order of its --where). With
        --columns, a column per value of its fields, each cell the one --value figure; without it,
        each --value is a column: [TITLE=]FIGURE[@FIELD=V[,V…]]…, the figure of the rows that also
        meet its @ conditions (one on a field replaces the --where on it), headed TITLE (else the
        conditions' values and the figure's name).

        A cell is the figure of the one row that matches it, in its unit: times (the _ns columns
        and build_ms) to three digits in ns, µs, ms or s, bytes per point to one decimal, counts as
        written; a dash when no row matches or the figure was not recorded. Two rows matching one
        cell is an error (exit 65) naming the report, their lines and the fields in which they
        differ: narrow the table with --where. --ratio-to FIELD=VALUE divides each cell by the
        figure of the row with that value instead and the same row and column values (a --where on
        FIELD set aside), written with ×. --label FIELD=VALUE:TEXT writes a row or column value as
        TEXT. A value of --where, @ or --ratio-to that no row has, or a label for a value the table
        does not show, is an error too.
        """
    case "show":
      return """
        Prints the reports' rows as bench run prints them after a run (the table of medians,
        percentiles, intervals, bytes a point and results), then the verdict of each dataset by
        bench recommend's rules over the workloads the rows hold; with --verdict, the verdict
        alone, as bench recommend prints it. Nothing is measured: every figure is the report's.
        --where narrows the rows (the guides show the main job and a verdict this way, from the
        reference reports); a filter no row meets is a usage error.
        """
    case "api":
      return """
        Writes api/SpatialIndexes.txt and api/MapClustering.txt: the public declarations of each
        library, one a line, sorted, each after the path of the type that holds it, from the
        compiler's symbol graphs. Make them first:
          swift package dump-symbol-graph --minimum-access-level public --skip-synthesized-members
        SwiftPM writes them under .build/, in the folder of the build's platform
        (.build/x86_64-unknown-linux-gnu/symbolgraph); bench api reads the newest such folder, or
        the one given with --symbols. It prints each
        library's count of public declarations and of those without a doc comment. --check changes
        nothing: it lists the declarations gone and new, and exits 1 if a listing differs. CI runs
        the check, so a change to the public surface is a diff of api/ in review. A missing symbol
        graph exits 66, one that is not JSON 65.
        """
    case "docs":
      return """
        Rewrites the generated tables of the guides: README.md, every .md under docs/ and
        results/README.md. A block is the line <!-- generated: COMMAND --> (the comment may close
        on a later line), then exactly what COMMAND prints, then the line <!-- end generated -->.
        COMMAND is bench table (its reports named from the repository's root), bench help
        --markdown [COMMAND], or bench list --workloads|--columns --markdown; markers in fenced
        code are text. A block whose command is another or fails, or a marker out of place, is an
        error naming the file and line (exit 65, or the command's own: 66 for a missing report),
        and then no file is written. A guide is rewritten whole, through a temporary file, and only
        when a block changed.

        --check changes nothing: it names each stale block (file and line) and exits 1 if there is
        one. --figures lists the figures typed by hand into README.md, docs/ and CONTRIBUTING.md (a
        number with ns, µs, us, ms, s, B/pt or ×, or a multiplier x, outside generated blocks and
        fenced code) and exits 1 if there is one.
        """
    case "help":
      return """
        Prints the overview, or one command's synopsis, what it does and its options. With
        --markdown, the same as Markdown: the command reference, which docs/bench.md holds in a
        generated block (bench docs).
        """
    case "speed":
      return """
        Builds each index over N (default 1,000,000) uniform points in the world box and times
        batches of Q (default 1,000) square queries covering 1e-4, 1e-3 and 1e-2 of its area,
        every id visited through query(in:into:). Prints the build time, bytes per point and the
        median microseconds per query over R (default 5) runs.
        """
    default: return ""
    }
  }
}
