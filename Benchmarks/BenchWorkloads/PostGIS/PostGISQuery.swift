import BenchFormats
import MapClustering
import SpatialIndexes

/// One workload variant as SQL over ``PostGISSchema``'s table: the rows of
/// its steps table, and the PL/pgSQL body that answers one step (`st`, a row
/// of that table) with `RETURN QUERY`, each answer row as
/// `(pass, step, NULL, a, b, c, d, e, f)`.
///
/// | query | strategy | answer rows `a, b, c, d, e, f` |
/// |---|---|---|
/// | viewport, `geom && box` | `bbox` | count, sum of ids, sum of `id² mod 4294967291` |
/// | viewport, `&&` then the bounds on `lon`, `lat` | `exact` | the same |
/// | cluster, cells by ``MapCells`` in SQL (map x 256, +180°, as 0, −180°), `GROUP BY` | `group-by` | column, row, count, sums of `lon_e7`, `lat_e7`, the smallest id |
/// | tap, `&&` over the tap's boxes, screen distance in SQL | `range` | the id found |
/// | tap, KNN `geog <-> tap` (sphere) until no point can be nearer on screen | `nearest` | the id found |
/// | nearest, KNN `geog <-> position` (sphere), ties by id | `k=K` | the ids, nearest first |
///
/// The viewport answers with digests, not ids: a world view at 10M points
/// would send millions of ids through `psql`. Its `bbox` row is not exact by
/// design (`&&` compares `float4` boxes rounded outward, so points just
/// outside come too): its differing answers are reported, never a failure.
enum PostGISQuery: Equatable {
  case viewport(exact: Bool)
  case cluster
  case tap(throughNearest: Bool)
  case nearest(k: Int)

  /// Every query a run of `workloads` asks, with `variants` for nearest's k.
  static func all(for choices: [WorkloadChoice]) -> [PostGISQuery] {
    var queries: [PostGISQuery] = []
    for choice in choices {
      switch choice.name {
      case ViewportWorkload.name: queries += [.viewport(exact: false), .viewport(exact: true)]
      case ClusterWorkload.name: queries.append(.cluster)
      case TapWorkload.name: queries += choice.variants.map { .tap(throughNearest: $0 == "nearest") }
      case NearestWorkload.name: queries += choice.variants.compactMap { NearestWorkload.k(of: $0) }.map { .nearest(k: $0) }
      default: break
      }
    }
    return queries
  }

  /// The workload it answers, as the catalogue names it.
  var workload: String {
    switch self {
    case .viewport: ViewportWorkload.name
    case .cluster: ClusterWorkload.name
    case .tap: TapWorkload.name
    case .nearest: NearestWorkload.name
    }
  }

  /// The report's `strategy`.
  var strategy: String {
    switch self {
    case .viewport(let exact): exact ? "exact" : "bbox"
    case .cluster: "group-by"
    case .tap(let throughNearest): throughNearest ? "nearest" : "range"
    case .nearest(let k): "k=\(k)"
    }
  }

  /// Whether its answers should equal the linear scan's: a difference in
  /// one that is fails the run.
  var isExact: Bool { self != .viewport(exact: false) }

  /// Whether it reads the points in KNN order (`ORDER BY geog <-> p`
  /// with no `LIMIT`). Its function turns sequential scans off: on a small
  /// table (42k zipcodes) the planner, costing the whole ordered read,
  /// chose a scan and a sort of every row, 21-24 ms a query against
  /// under 1 ms through the index.
  var readsKNNOrder: Bool {
    switch self {
    case .nearest, .tap(throughNearest: true): true
    default: false
    }
  }

  /// `viewport_bbox`, `nearest_k10`: for function and table names.
  var sqlName: String {
    "\(workload)_" + strategy.replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "-", with: "_")
  }

  // MARK: - Steps

  /// The steps table's columns: a step has up to three boxes (`parts`), the
  /// zoom's cell grid, a tap's map position and radius, a position.
  static let stepColumns = ["step", "parts"]
    + (1...3).flatMap { j in ["x0_\(j)", "y0_\(j)", "x1_\(j)", "y1_\(j)"] }
    + ["zoom", "scale", "size", "tx", "ty", "world", "r2", "lon", "lat"]

  /// `CREATE TABLE` of the steps table `table`.
  static func stepsTable(_ table: String) -> String {
    let columns = stepColumns.map { c in
      c == "step" ? "step int4 PRIMARY KEY" : ["parts", "zoom"].contains(c) ? "\(c) int4" : "\(c) float8"
    }
    return "CREATE TABLE \(table) (\(columns.joined(separator: ", ")));\n"
  }

  /// One row of the steps table per step (`stepColumns` order); nil when
  /// the steps lack what the query needs.
  func stepRows(_ steps: MapSteps, cells: ClusterCellTable) -> [[String]]? {
    var rows: [[String]] = []
    for step in 0..<steps.count {
      var boxes: [Rect] = []
      var zoom = 0, scale = 1.0, size = 1.0
      var tap = (x: 0.0, y: 0.0, world: 0.0, r2: 0.0), position = Point(x: 0, y: 0)
      switch self {
      case .viewport:
        guard let rects = steps.rects else { return nil }
        boxes = rects[step]
      case .cluster:
        guard let areas = steps.areas else { return nil }
        let area = areas[step]
        boxes = area.count == 2 && area.second.isValid && area.first != area.second
          ? [area.first, area.second] : [area.first]
        zoom = min(WebMercator.zoomRange.upperBound, max(0, area.zoom))
        scale = WebMercator.scale(zoom: zoom)
        size = cells.cellSize(zoom: zoom)
      case .tap:
        guard let taps = steps.taps else { return nil }
        let t = taps[step], m = t.mapPosition
        t.forEachQueryRect { boxes.append($0) }
        zoom = t.zoom
        scale = m.scale
        tap = (m.x, m.y, m.worldSize, t.radius * t.radius)
        position = t.coordinate
      case .nearest:
        guard let positions = steps.positions else { return nil }
        position = positions[step]
      }
      boxes = boxes.filter(\.isValid)
      var row = [String(step), String(boxes.count)]
      for j in 0..<3 {
        let b = j < boxes.count ? boxes[j] : Rect(minX: 0, minY: 0, maxX: 0, maxY: 0)
        row += [b.minX, b.minY, b.maxX, b.maxY].map(Self.float)
      }
      row += [String(zoom)] + [scale, size, tap.x, tap.y, tap.world, tap.r2, position.x, position.y].map(Self.float)
      rows.append(row)
    }
    return rows
  }

  /// A `Double` as SQL reads it back, bit for bit (Swift's shortest
  /// round-trip digits; `strtod` rounds correctly).
  static func float(_ x: Double) -> String { "\(x)" }

  // MARK: - SQL

  /// The PL/pgSQL that answers step `st` into the function's result, given
  /// the points table `points`, the schema's `cell` function and the loop's
  /// `pass` variable. With `filter`, the viewport, cluster and tap read only
  /// the points that pass it, and a cluster row ends with the aggregates
  /// (every other row with as many `NULL`s).
  func body(points: String, schema: String, filter: PostGISFilter? = nil) -> String {
    let head = "RETURN QUERY SELECT pass, st.step, NULL::int8"
    let passes = filter.map { " AND (\($0.condition))" } ?? ""
    let pad = String(repeating: ", NULL::int8", count: filter?.aggregates.count ?? 0)
    switch self {
    case .viewport(let exact):
      func query(_ parts: Int) -> String {
        let predicate = (1...parts).map { "(\(Self.inBox($0, exact: exact)))" }.joined(separator: " OR ")
        return """
          \(head), count(*)::int8, coalesce(sum(id), 0)::int8,
              coalesce(sum((id::int8 * id) % 4294967291), 0)::int8, NULL::int8, NULL::int8, NULL::int8\(pad)
            FROM \(points) WHERE (\(predicate))\(passes);
          """
      }
      return Self.byParts(2, query)
    case .cluster:
      let selected = filter?.aggregates.map { ", " + $0.select }.joined() ?? ""
      let grouped = filter?.aggregates.map { ", " + $0.group }.joined() ?? ""
      func query(_ parts: Int) -> String {
        // map x 256 (+180°) is map x 0 (−180°): MapCells.isAntimeridian
        let selects = (1...parts).map { j in
          """
          SELECT \(schema).cell(CASE WHEN mx = 256::float8 THEN 0::float8 ELSE mx END, st.scale, st.size) AS cx,
                  \(schema).cell(my, st.scale, st.size) AS cy,
                  CASE WHEN mx = 256::float8 THEN -1800000000::int8 ELSE lon_e7 END AS lon_e7, lat_e7, id\(selected)
                FROM \(points) WHERE \(Self.inBox(j, exact: true))\(passes)
          """
        }.joined(separator: "\n    UNION ALL ")
        return """
          \(head), c.cx, c.cy, count(*)::int8, sum(c.lon_e7)::int8, sum(c.lat_e7)::int8, min(c.id)::int8\(grouped)
            FROM (\(selects)) c GROUP BY c.cx, c.cy;
          """
      }
      return Self.byParts(2, query)
    case .tap(throughNearest: false):
      // Tap.distanceSquared(to:at:): the wrapped screen distance at the tap's zoom
      func query(_ parts: Int) -> String {
        let predicate = (1...parts).map { "(\(Self.inBox($0, exact: true)))" }.joined(separator: " OR ")
        return """
          \(head), t.id::int8, NULL::int8, NULL::int8, NULL::int8, NULL::int8, NULL::int8\(pad) FROM (
              SELECT id, least(dx, st.world - dx) * least(dx, st.world - dx) + dy * dy AS d2 FROM (
                SELECT id, abs(mx * st.scale - st.tx) AS dx, my * st.scale - st.ty AS dy FROM \(points)
                WHERE on_map AND (\(predicate))\(passes)) c) t
            WHERE t.d2 <= st.r2 ORDER BY t.d2, t.id LIMIT 1;
          """
      }
      return Self.byParts(3, query)
    case .tap(throughNearest: true):
      // Tap+Nearest.swift's argument: Web Mercator stretches every length
      // by sec(latitude) ≥ 1, so a point `d` metres away on the sphere is at
      // least `d · ppm` screen points away; read the KNN order until that
      // bound passes the best screen distance found, or the radius. The
      // slack (1e-6) covers PostGIS's radius, 5e-9 smaller than ours.
      func scan(_ order: String) -> String {
        """
        best := NULL; best2 := 'Infinity';
            FOR nb IN SELECT id, mx, my, on_map, (\(filter?.condition ?? "TRUE")) AS pass, \(Self.sphereDistance) AS d
                FROM \(points) ORDER BY \(order) LOOP
              bound := nb.d * ppm * (1 - 1e-6);
              EXIT WHEN nb.d > reach OR bound * bound > best2;
              CONTINUE WHEN NOT nb.on_map OR nb.pass IS NOT TRUE;
              dx := abs(nb.mx * st.scale - st.tx); dx := least(dx, st.world - dx); dy := nb.my * st.scale - st.ty;
              d2 := dx * dx + dy * dy;
              IF d2 <= st.r2 AND (d2 < best2 OR (d2 = best2 AND nb.id < best)) THEN best := nb.id; best2 := d2; END IF;
            END LOOP;
        """
      }
      return """
        DECLARE nb record; best int8; best2 float8; dx float8; dy float8; d2 float8;
          ppm float8 := st.world / (2 * pi() * \(GreatCircle.earthRadius));
          reach float8 := sqrt(st.r2) / ppm * (1 + 1e-6); bound float8;
        BEGIN
          \(Self.knnOrUnindexed(scan))
          IF best IS NOT NULL THEN
            \(head), best, NULL::int8, NULL::int8, NULL::int8, NULL::int8, NULL::int8\(pad);
          END IF;
        END;
        """
    case .nearest(let k):
      // `ORDER BY geog <-> p, id LIMIT k` would sort the whole table (a
      // second key defeats the KNN index scan): read the index's order
      // instead, past the k-th until the distance grows, so every tie at
      // the k-th distance is seen, then break ties by id
      func scan(_ order: String) -> String {
        """
        ids := '{}'; ds := '{}'; seen := 0;
            FOR nb IN SELECT id, \(Self.sphereDistance) AS d FROM \(points) ORDER BY \(order) LOOP
              EXIT WHEN seen >= \(k) AND nb.d > last;
              ids := ids || nb.id::int8; ds := ds || nb.d; last := nb.d; seen := seen + 1;
            END LOOP;
        """
      }
      return """
        DECLARE nb record; ids int8[]; ds float8[]; last float8; seen int4;
        BEGIN
          \(Self.knnOrUnindexed(scan))
          \(head), u.id, NULL::int8, NULL::int8, NULL::int8, NULL::int8, NULL::int8\(pad)
            FROM unnest(ids, ds) AS u(id, d) ORDER BY u.d, u.id LIMIT \(k);
        END;
        """
    }
  }

  /// The sphere distance from the step's position: the KNN operator on the
  /// GiST index when it stands alone in `ORDER BY`.
  static let sphereDistance = "geog <-> ST_SetSRID(ST_MakePoint(st.lon, st.lat), 4326)::geography"

  /// `scan` in the GiST index's KNN order, and, should PostGIS refuse that
  /// order, again in a sort of the whole table. PostGIS 3.3's geography
  /// KNN raises "index returned tuples in wrong order" for a position on
  /// the antimeridian beside a point on its other side (+180° against
  /// −180°, both at distance 0): its index bound exceeds the true distance.
  /// `+ 0` keeps the operator off the index, so the second scan sorts.
  static func knnOrUnindexed(_ scan: (String) -> String) -> String {
    """
    BEGIN
            \(scan("d"))
          EXCEPTION WHEN internal_error THEN
            IF SQLERRM <> 'index returned tuples in wrong order' THEN RAISE; END IF;
            \(scan("(\(sphereDistance)) + 0"))
          END;
    """
  }

  /// Box `j` of the step: `&&` on the GiST index, then, when `exact`, the
  /// inclusive bounds on the coordinates the linear scan compares.
  static func inBox(_ j: Int, exact: Bool) -> String {
    let box = "geom && ST_MakeEnvelope(st.x0_\(j), st.y0_\(j), st.x1_\(j), st.y1_\(j), 4326)"
    guard exact else { return box }
    return box + " AND lon BETWEEN st.x0_\(j) AND st.x1_\(j) AND lat BETWEEN st.y0_\(j) AND st.y1_\(j)"
  }

  /// One static query per number of boxes, chosen by `st.parts` (each gets
  /// its own cached plan; a step with no box answers nothing).
  static func byParts(_ most: Int, _ query: (Int) -> String) -> String {
    var text = ""
    for parts in 1...most {
      text += (parts == 1 ? "IF" : "ELSIF") + " st.parts = \(parts) THEN\n  " + query(parts) + "\n"
    }
    return text + "END IF;"
  }

  /// The one-step function `step_NAME(s)` over the steps table
  /// `steps_NAME`: step `s`'s answer rows, then a time row
  /// `(0, s, ns, NULL…)`, `ns` from `clock_timestamp()` around the query
  /// (microseconds); with `filter`, a column `o_gK` an aggregate.
  func functions(schema: String, filter: PostGISFilter? = nil) -> String {
    let points = schema + ".points", steps = "\(schema).steps_\(sqlName)"
    let columns = "o_pass int4, o_step int4, o_ns int8, o_a int8, o_b int8, o_c int8, o_d int8, o_e int8, o_f int8"
      + (0..<(filter?.aggregates.count ?? 0)).map { ", o_g\($0) int8" }.joined()
    return Self.stepsTable(steps) + """
      CREATE FUNCTION \(schema).step_\(sqlName)(s int4) RETURNS TABLE (\(columns))
      LANGUAGE plpgsql\(readsKNNOrder ? " SET enable_seqscan = off" : "") AS $fn$
      DECLARE st record; pass int4 := 0; t0 timestamptz;
      BEGIN
        SELECT * INTO st FROM \(steps) WHERE step = s;
        t0 := clock_timestamp();
        \(body(points: points, schema: schema, filter: filter))
        o_pass := 0; o_step := s;
        o_ns := (extract(epoch FROM clock_timestamp() - t0) * 1000000000)::int8;
        RETURN NEXT;
      END $fn$;

      """
  }
}
