extension BucketQuadtree {
  /// The build parameters of ``BucketQuadtree``, settable by name from text.
  ///
  /// Every value is checked by ``set(_:to:)`` and again by the build, so a
  /// caller who fills the fields in directly still gets a thrown
  /// ``IndexError/invalidParameter(name:value:reason:)``, never a crash.
  public struct Parameters: IndexParameters, TextParameters, Hashable {
    /// Points per node bucket before the node splits (the original used 4).
    ///
    /// The default, 16, comes from a sweep of 4…128 over 1M uniform points
    /// in the world box (release build, cold queries of 1e-4, 1e-3 and 1e-2
    /// of the box): it was the fastest, or within the noise of the fastest,
    /// at all three sizes, at 21.5 bytes a point. Capacities 4 and 8 visit
    /// 1.5–2× more nodes and take 25–28 bytes a point; 64 and 128 build about
    /// 1.5× faster and take 20.3, but test 2.5–4× more points per query.
    public var capacity: Int = 16
    /// Levels at most, the root being level 1: a node at this level never
    /// splits and holds any number of points. In `1...maxDepthLimit`.
    public var maxDepth: Int = BucketQuadtree.maxDepthLimit
    /// The box of the root.
    public var bounds: Bounds = .data
    /// How the build makes the tree (the same tree either way).
    public var build: Build = .bulk
    /// Threads the bulk load uses; `nil`, the default, for every core. The
    /// tree is the same on any number.
    public var threads: Int?

    /// How a quadtree is built from its points.
    public enum Build: String, Hashable, Sendable, CaseIterable {
      /// One top-down pass a level over the points (``BucketQuadtree/bulkLoad(_:threads:)``).
      case bulk
      /// One insert per point, in id order, then a repack: the original design.
      case inserts
    }

    /// The root box of a quadtree.
    public enum Bounds: Hashable, Sendable {
      /// The bounding box of the points the index is built from, or the world
      /// box when there are none. Inserts outside it throw.
      case data
      /// A fixed box, with finite bounds and `min <= max` on both axes.
      case fixed(Rect)

      /// Longitude -180...180, latitude -90...90.
      package static var world: Bounds { .fixed(.world) }

      /// `data`, `world` or `minX:minY:maxX:maxY` (colons, because a `--param`
      /// sweep separates its values with commas).
      package var description: String {
        switch self {
        case .data: return "data"
        case .fixed(let r) where r == .world: return "world"
        case .fixed(let r): return "\(r.minX):\(r.minY):\(r.maxX):\(r.maxY)"
        }
      }

      /// Parses ``description``'s forms.
      package init(parsing text: String) throws(IndexError) {
        switch text.lowercased() {
        case "data": self = .data
        case "world": self = .world
        default:
          let parts = text.split(separator: ":", omittingEmptySubsequences: false)
          let numbers = parts.compactMap { Double($0) }
          guard parts.count == 4, numbers.count == 4 else {
            throw .invalidParameter(
              name: "bounds", value: text,
              reason: "expected data, world or minX:minY:maxX:maxY")
          }
          self = .fixed(
            Rect(minX: numbers[0], minY: numbers[1], maxX: numbers[2], maxY: numbers[3]))
          try validate()
        }
      }

      func validate() throws(IndexError) {
        guard case .fixed(let r) = self else { return }
        guard r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite else {
          throw .invalidParameter(name: "bounds", value: description, reason: "must be finite")
        }
        guard r.isValid else {
          throw .invalidParameter(
            name: "bounds", value: description, reason: "min must not exceed max")
        }
      }
    }

    /// The defaults: 16 points a bucket, depth up to ``BucketQuadtree/maxDepthLimit``,
    /// the data's bounds, a bulk build on every core.
    public init() {}

    /// Each field as named (see each field); a value out of range throws
    /// at build time.
    public init(
      capacity: Int = 16, maxDepth: Int = BucketQuadtree.maxDepthLimit, bounds: Bounds = .data,
      build: Build = .bulk, threads: Int? = nil
    ) {
      self.capacity = capacity
      self.maxDepth = maxDepth
      self.bounds = bounds
      self.build = build
      self.threads = threads
    }

    /// The threads a bulk load runs on: `threads`, or the cores online.
    var resolvedThreads: Int { BuildThreads.resolved(threads) }

    /// The largest capacity accepted (bucket counts are `Int32`; beyond this
    /// the tree is a linear scan anyway).
    package static let capacityLimit = 1 << 20

    @usableFromInline package static var descriptions: [ParameterDescription] {
      [
        ParameterDescription(
          name: "capacity", defaultValue: "16",
          summary: "points per node before it splits, 1...\(capacityLimit)"),
        ParameterDescription(
          name: "maxDepth", defaultValue: String(BucketQuadtree.maxDepthLimit),
          summary: "levels at most (root = 1); leaves at the cap take any number of points"),
        ParameterDescription(
          name: "bounds", defaultValue: "data",
          summary: "root box: data (the build's bounding box; world if empty), world, "
            + "or minX:minY:maxX:maxY; points outside throw"),
        ParameterDescription(
          name: "build", defaultValue: "bulk",
          summary: "bulk (one pass a level) or inserts (one insert a point, the original); the same tree"),
        BuildThreads.description("the bulk load", same: "tree"),
      ]
    }

    /// `bounds` is ``Bounds``: `.data`, `.world` or `.fixed(Rect(…))`.
    @usableFromInline package static func swiftAssignment(
      _ name: String, _ value: String, on variable: String
    ) -> String? {
      guard name.lowercased() == "bounds" else { return defaultSwiftAssignment(name, value, on: variable) }
      guard let bounds = try? Bounds(parsing: value) else { return nil }
      switch bounds {
      case .data: return "\(variable).bounds = .data"
      case .fixed(let r) where r == .world: return "\(variable).bounds = .world"
      case .fixed(let r):
        return "\(variable).bounds = .fixed(Rect(minX: \(r.minX), minY: \(r.minY), maxX: \(r.maxX), maxY: \(r.maxY)))"
      }
    }

    /// Sets `capacity`, `maxDepth` (any letter case), `bounds`, `build` or `threads`.
    @usableFromInline package mutating func set(_ name: String, to value: String) throws(IndexError) {
      switch name.lowercased() {
      case "capacity":
        capacity = try Self.positiveInteger(name, value, limit: Self.capacityLimit)
      case "maxdepth":
        maxDepth = try Self.positiveInteger(name, value, limit: BucketQuadtree.maxDepthLimit)
      case "bounds":
        bounds = try Bounds(parsing: value)
      case "build":
        guard let b = Build(rawValue: value.lowercased()) else {
          throw .invalidParameter(name: name, value: value, reason: "expected bulk or inserts")
        }
        build = b
      case "threads":
        threads = try BuildThreads.parse(name, value)
      default:
        throw .unknownParameter(name: name, known: Self.descriptions.map(\.name))
      }
    }

    /// Throws for a value ``set(_:to:)`` would have refused.
    package func validate() throws(IndexError) {
      guard (1...Self.capacityLimit).contains(capacity) else {
        throw .invalidParameter(
          name: "capacity", value: String(capacity), reason: "must be in 1...\(Self.capacityLimit)")
      }
      guard (1...BucketQuadtree.maxDepthLimit).contains(maxDepth) else {
        throw .invalidParameter(
          name: "maxDepth", value: String(maxDepth),
          reason: "must be in 1...\(BucketQuadtree.maxDepthLimit)")
      }
      try BuildThreads.validate(threads)
      try bounds.validate()
    }
  }
}
