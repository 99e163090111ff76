/// The build parameters of one index type: a value type whose `init()`
/// gives the defaults.
///
/// A parameter whose default depends on the data (the grid's cell size, the
/// quadtree's bounds) is optional here, `nil` meaning "derive it". Whether a
/// value makes sense (capacity 0, a NaN cell size) is checked at build time,
/// which throws ``IndexError``.
public protocol IndexParameters: Sendable, Equatable {
  /// The defaults.
  init()
}

/// Parameters settable by name from text, as the bench's command line does
/// (`--param pointsPerCell=8`); `package`: an app sets the typed fields.
@usableFromInline package protocol TextParameters: IndexParameters {
  /// Every parameter, with its meaning and default, for `bench list`.
  static var descriptions: [ParameterDescription] { get }

  /// Sets the parameter called `name` from its text form.
  ///
  /// Throws ``IndexError/unknownParameter(name:known:)`` or
  /// ``IndexError/invalidParameter(name:value:reason:)``; whether a value
  /// makes sense is checked here and again at build time.
  mutating func set(_ name: String, to value: String) throws(IndexError)

  /// The Swift statement that sets the parameter called `name` to its text
  /// form `value` on the variable `variable`, as `bench recommend` prints it
  /// (`parameters.pointsPerCell = 8`); nil for a name the type lacks. A
  /// snippet in the tests compiles each type's form.
  static func swiftAssignment(_ name: String, _ value: String, on variable: String) -> String?
}

/// What `bench list` prints about one parameter.
@usableFromInline package struct ParameterDescription: Sendable, Equatable {
  package var name: String
  package var defaultValue: String
  package var summary: String

  package init(name: String, defaultValue: String, summary: String) {
    self.name = name
    self.defaultValue = defaultValue
    self.summary = summary
  }
}

/// One parameter in effect, as text for a report.
@usableFromInline package struct ParameterValue: Sendable, Equatable {
  package var name: String
  package var value: String

  package init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}

/// For an index without parameters (the linear scan).
public struct NoParameters: IndexParameters, TextParameters {
  /// The only value: nothing to set.
  public init() {}
  @usableFromInline package static var descriptions: [ParameterDescription] { [] }
  @usableFromInline package mutating func set(_ name: String, to value: String) throws(IndexError) {
    throw .unknownParameter(name: name, known: [])
  }
}

extension TextParameters {
  /// The form most parameters take: a number is its own literal, `auto`
  /// is `nil` (derived from the data), and any other word names an enum
  /// case. A type whose parameter breaks that rule says so itself.
  @usableFromInline package static func swiftAssignment(
    _ name: String, _ value: String, on variable: String
  ) -> String? {
    defaultSwiftAssignment(name, value, on: variable)
  }

  /// The common form, for a type that overrides only some parameters.
  static func defaultSwiftAssignment(_ name: String, _ value: String, on variable: String) -> String? {
    guard let property = descriptions.first(where: { $0.name.lowercased() == name.lowercased() })?.name else {
      return nil
    }
    return "\(variable).\(property) = \(swiftLiteral(value))"
  }

  /// `8` → `8`, `0.05` → `0.05`, `auto` → `nil`, `dense` → `.dense`.
  static func swiftLiteral(_ text: String) -> String {
    let numeric = Double(text) != nil && text.allSatisfy { "0123456789.+-eE".contains($0) }
    if numeric { return text }
    return text.lowercased() == "auto" ? "nil" : "." + text.lowercased()
  }

  /// Parses a positive integer parameter no larger than `limit`.
  static func positiveInteger(
    _ name: String, _ text: String, limit: Int = 1 << 20
  ) throws(IndexError) -> Int {
    guard let v = Int(text) else {
      throw .invalidParameter(name: name, value: text, reason: "not an integer")
    }
    guard v >= 1, v <= limit else {
      throw .invalidParameter(name: name, value: text, reason: "must be in 1...\(limit)")
    }
    return v
  }

  /// Parses a finite, positive number parameter.
  static func positiveNumber(_ name: String, _ text: String) throws(IndexError) -> Double {
    guard let v = Double(text) else {
      throw .invalidParameter(name: name, value: text, reason: "not a number")
    }
    guard v.isFinite, v > 0 else {
      throw .invalidParameter(name: name, value: text, reason: "must be finite and > 0")
    }
    return v
  }
}
