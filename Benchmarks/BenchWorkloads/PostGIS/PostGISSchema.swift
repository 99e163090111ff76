import SpatialIndexes

/// The SQL that loads a dataset into PostGIS: one schema of bench's own
/// (`spatialbench_` and a random suffix: bench never touches a table it did
/// not create, and drops only that schema), a table of the points and its
/// indexes.
///
/// The table keeps what the package's clusterer keeps beside its index,
/// computed in SQL by the same formulas when a row is loaded (generated
/// columns): each point's map x and y at zoom 0 (``WebMercator``) and its
/// coordinates in 1e-7° units (``MapCells/units(_:)``, halves away from
/// zero). `id` is the point's place in the dataset (0 to n − 1), as the
/// indexes number points.
struct PostGISSchema {
  /// `spatialbench_1f2e3d4c`.
  let name: String

  init(suffix: UInt32 = UInt32.random(in: 0...UInt32.max)) {
    let hex = String(suffix, radix: 16)
    name = "spatialbench_" + String(repeating: "0", count: 8 - hex.count) + hex
  }

  var points: String { name + ".points" }

  /// The functions the table's columns and the cluster query use, each the
  /// SQL of one Swift formula, operation for operation, so that IEEE
  /// arithmetic and the same C library give the same bits.
  var functions: String {
    let maxLatitude = "\(WebMercator.maxLatitude)::float8"
    return """
      -- WebMercator.y(latitude:): map y at zoom 0, latitude clamped to the map
      CREATE FUNCTION \(name).map_y(lat float8) RETURNS float8
        LANGUAGE sql IMMUTABLE PARALLEL SAFE
        RETURN least(256::float8, greatest(0::float8,
          (1::float8 - ln(tan(pi() / 4::float8
            + (least(\(maxLatitude), greatest(-\(maxLatitude), lat)) * pi() / 180::float8) / 2::float8))
            / pi()) / 2::float8 * 256::float8));
      -- MapCells.units(_:): 1e-7 degree units, halves away from zero
      CREATE FUNCTION \(name).units(d float8) RETURNS int8
        LANGUAGE sql IMMUTABLE PARALLEL SAFE
        RETURN (trunc(least(180::float8, greatest(-180::float8, d)) * 10000000::float8)
          + CASE
              WHEN least(180::float8, greatest(-180::float8, d)) * 10000000::float8
                - trunc(least(180::float8, greatest(-180::float8, d)) * 10000000::float8) >= 0.5::float8 THEN 1
              WHEN least(180::float8, greatest(-180::float8, d)) * 10000000::float8
                - trunc(least(180::float8, greatest(-180::float8, d)) * 10000000::float8) <= -0.5::float8 THEN -1
              ELSE 0
            END)::int8;
      -- MapCells.index(_:scale:cellSize:inverse:): the exact floor of
      -- m * scale / size, the rounded quotient corrected by exact products
      CREATE FUNCTION \(name).cell(m float8, scale float8, size float8) RETURNS int8
        LANGUAGE sql IMMUTABLE PARALLEL SAFE
        RETURN (CASE
            WHEN floor(m * scale / size) * size > m * scale THEN floor(m * scale / size) - 1::float8
            WHEN (floor(m * scale / size) + 1::float8) * size <= m * scale THEN floor(m * scale / size) + 1::float8
            ELSE floor(m * scale / size)
          END)::int8;

      """
  }

  /// Creates the schema, its functions and the table, loads `csvFile`
  /// (`id,lon,lat` rows, then the property columns of `filter`) with
  /// `\copy`, then indexes and analyses it. `method` indexes both spatial
  /// columns: `gist`, `spgist` or `brin`.
  func load(csvFile: String, method: String = "gist", createExtension: Bool, filter: PostGISFilter? = nil) -> String {
    let columns = filter?.columns.map { ", " + $0.sql }.joined() ?? ""
    let maxLatitude = "\(WebMercator.maxLatitude)::float8"
    return (createExtension ? "CREATE EXTENSION IF NOT EXISTS postgis;\n" : "") + """
      CREATE SCHEMA \(name);
      \(functions)
      CREATE TABLE \(points) (
        id int4 PRIMARY KEY,
        lon float8 NOT NULL,
        lat float8 NOT NULL,
        geom geometry(Point, 4326) GENERATED ALWAYS AS (ST_SetSRID(ST_MakePoint(lon, lat), 4326)) STORED,
        geog geography(Point, 4326) GENERATED ALWAYS AS (ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography) STORED,
        mx float8 GENERATED ALWAYS AS ((lon + 180::float8) / 360::float8 * 256::float8) STORED,
        my float8 GENERATED ALWAYS AS (\(name).map_y(lat)) STORED,
        lon_e7 int8 GENERATED ALWAYS AS (\(name).units(lon)) STORED,
        lat_e7 int8 GENERATED ALWAYS AS (\(name).units(lat)) STORED,
        -- the points a map can show: Tap's candidates
        on_map bool GENERATED ALWAYS AS (lon >= -180::float8 AND lon <= 180::float8
          AND lat >= -\(maxLatitude) AND lat <= \(maxLatitude)) STORED\(filter?.columnDefinitions ?? "")
      );
      \\copy \(points) (id, lon, lat\(columns)) FROM '\(csvFile)' WITH (FORMAT csv)
      CREATE INDEX ON \(points) USING \(method) (geom);
      CREATE INDEX ON \(points) USING \(method) (geog);
      ANALYZE \(points);
      SELECT pg_total_relation_size('\(points)');

      """
  }

  /// Whether the database has PostGIS, for a server bench did not make
  /// (where it creates no extension).
  static let hasPostGIS = "SELECT count(*) FROM pg_extension WHERE extname = 'postgis';\n"

  var drop: String { "DROP SCHEMA IF EXISTS \(name) CASCADE;\n" }
}
