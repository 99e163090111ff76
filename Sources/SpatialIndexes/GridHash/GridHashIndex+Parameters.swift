extension GridHashIndex {
  /// How the cells are stored.
  public enum Storage: String, Sendable, Equatable, CaseIterable {
    /// Dense when the grid has at most ``GridHashIndex/denseCellsPerPoint``
    /// cells per point (or at most ``GridHashIndex/denseMinimumCells``
    /// cells), sparse otherwise.
    case auto
    /// One entry per cell of the grid, addressed directly by cell key.
    case dense
    /// Only occupied cells, in an open-addressing hash table of cell keys.
    case sparse
  }

  /// The build parameters of ``GridHashIndex``.
  ///
  /// ```swift
  /// var p = GridHashIndex.Parameters()
  /// p.cellSize = 0.5
  /// let grid = try GridHashIndex(points: points, parameters: p)
  /// ```
  public struct Parameters: IndexParameters, TextParameters {
    /// Side of a square cell in degrees, finite and > 0; `nil` derives it from
    /// the number of points and their bounds (see ``pointsPerCell``).
    public var cellSize: Double?
    /// The average number of points per cell the automatic cell size aims at.
    public var pointsPerCell: Int
    /// Dense cell array, sparse hash of occupied cells, or chosen by size.
    public var storage: Storage
    /// Threads a dense build uses; `nil`, the default, for every core. The
    /// grid is the same whatever the threads.
    public var threads: Int?

    /// The default target of the automatic cell size, from a sweep of 1, 2,
    /// 4, 8 and 16 over 1M uniform and 1M clustered points (20 Gaussian
    /// blobs), queries of 1e-7, 1e-4 and 1e-2 of the world's area: uniform
    /// data and large queries favour 8–16, small queries in dense clusters
    /// favour 1–2. 4 is never more than 2.5× slower than the best setting of
    /// any of those cases (8 is up to 3.6×, 2 up to 2.6×), and takes 22 bytes
    /// per point.
    public static let defaultPointsPerCell = 4

    /// The defaults: the cell size derived for ``defaultPointsPerCell``
    /// points a cell, storage chosen by size, every core for the build.
    public init() {
      cellSize = nil
      pointsPerCell = Self.defaultPointsPerCell
      storage = .auto
      threads = nil
    }

    /// Each field as named (see each field); a value out of range throws
    /// at build time.
    public init(cellSize: Double? = nil, pointsPerCell: Int = defaultPointsPerCell,
                storage: Storage = .auto, threads: Int? = nil) {
      self.cellSize = cellSize
      self.pointsPerCell = pointsPerCell
      self.storage = storage
      self.threads = threads
    }

    /// The threads a build runs on: `threads`, or the cores online.
    var resolvedThreads: Int { BuildThreads.resolved(threads) }

    @usableFromInline package static var descriptions: [ParameterDescription] {
      [
        ParameterDescription(
          name: "cellSize", defaultValue: "auto",
          summary: "cell side in degrees (finite, > 0); auto aims at pointsPerCell"),
        ParameterDescription(
          name: "pointsPerCell", defaultValue: "\(defaultPointsPerCell)",
          summary: "average points per cell the automatic cell size aims at"),
        ParameterDescription(
          name: "storage", defaultValue: "auto",
          summary: "auto, dense (cell array) or sparse (hash of occupied cells)"),
        BuildThreads.description("a dense build", same: "grid"),
      ]
    }

    @usableFromInline package mutating func set(_ name: String, to value: String) throws(IndexError) {
      switch name.lowercased() {
      case "cellsize":
        if value.lowercased() == "auto" {
          cellSize = nil
        } else {
          let v = try Self.positiveNumber(name, value)
          try Self.checkCellSize(v, name: name, text: value)
          cellSize = v
        }
      case "pointspercell":
        pointsPerCell = try Self.positiveInteger(name, value, limit: Self.pointsPerCellLimit)
      case "storage":
        guard let s = Storage(rawValue: value.lowercased()) else {
          throw .invalidParameter(name: name, value: value, reason: "must be auto, dense or sparse")
        }
        storage = s
      case "threads":
        threads = try BuildThreads.parse(name, value)
      default:
        throw .unknownParameter(name: name, known: Self.descriptions.map(\.name))
      }
    }

    /// `storage = .auto` is a case, not a `nil` to derive.
    @usableFromInline package static func swiftAssignment(
      _ name: String, _ value: String, on variable: String
    ) -> String? {
      guard name.lowercased() == "storage" else { return defaultSwiftAssignment(name, value, on: variable) }
      return "\(variable).storage = .\(value.lowercased())"
    }

    static let pointsPerCellLimit = 1 << 20

    /// Throws unless `v` is usable as a cell size: finite, > 0, and with a
    /// finite reciprocal (a subnormal size would make every column index infinite).
    static func checkCellSize(_ v: Double, name: String, text: String) throws(IndexError) {
      guard v.isFinite, v > 0 else {
        throw .invalidParameter(name: name, value: text, reason: "must be finite and > 0")
      }
      guard (1 / v).isFinite else {
        throw .invalidParameter(name: name, value: text, reason: "too small: 1/cellSize overflows")
      }
    }

    /// The build-time check of values a library caller set without ``set(_:to:)``.
    func validate() throws(IndexError) {
      if let v = cellSize { try Self.checkCellSize(v, name: "cellSize", text: "\(v)") }
      guard pointsPerCell >= 1, pointsPerCell <= Self.pointsPerCellLimit else {
        throw .invalidParameter(
          name: "pointsPerCell", value: "\(pointsPerCell)",
          reason: "must be in 1...\(Self.pointsPerCellLimit)")
      }
      try BuildThreads.validate(threads)
    }
  }
}
