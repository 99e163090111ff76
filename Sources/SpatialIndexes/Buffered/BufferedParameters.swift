/// The parameters of a ``BufferedIndex``: its base's, and when to rebuild.
public struct BufferedParameters<Base: IndexParameters>: IndexParameters {
  /// The parameters each build of the base index takes.
  public var base: Base
  /// The share of the points in the active buffer that starts a rebuild,
  /// in (0, 1]. Smaller: shorter scans of the buffers, more frequent builds.
  public var rebuildShare: Double

  /// The base's defaults, and a rebuild at 5% of the points.
  public init() {
    base = Base()
    rebuildShare = 0.05
  }

  /// `base` for the base index's builds, and a rebuild once `rebuildShare`
  /// of the points sit in the buffer; a share outside (0, 1] throws at
  /// build time.
  public init(base: Base, rebuildShare: Double = 0.05) {
    self.base = base
    self.rebuildShare = rebuildShare
  }

  /// Throws unless the share is in (0, 1].
  func check() throws(IndexError) {
    guard rebuildShare > 0, rebuildShare <= 1 else {
      throw .invalidParameter(name: "rebuildShare", value: Self.text(rebuildShare), reason: "must be in (0, 1]")
    }
  }

  static func text(_ v: Double) -> String { String(v) }
}

extension BufferedParameters: TextParameters where Base: TextParameters {
  @usableFromInline package static var descriptions: [ParameterDescription] {
    Base.descriptions + [ParameterDescription(
      name: "rebuildShare", defaultValue: "0.05",
      summary: "share of the points buffered since the last build that starts a background rebuild")]
  }

  /// `rebuildShare` is its own; any other parameter is the base's, on `.base`.
  @usableFromInline package static func swiftAssignment(
    _ name: String, _ value: String, on variable: String
  ) -> String? {
    guard name == "rebuildShare" else { return Base.swiftAssignment(name, value, on: variable + ".base") }
    return defaultSwiftAssignment(name, value, on: variable)
  }

  @usableFromInline package mutating func set(_ name: String, to value: String) throws(IndexError) {
    guard name == "rebuildShare" else { return try base.set(name, to: value) }
    let share = try Self.positiveNumber(name, value)
    guard share <= 1 else { throw .invalidParameter(name: name, value: value, reason: "must be in (0, 1]") }
    rebuildShare = share
  }
}
