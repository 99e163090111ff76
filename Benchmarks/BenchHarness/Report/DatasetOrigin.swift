import BenchFormats

/// What a row's `dataset` names: points bench makes again from the name, or
/// a points file, named by its path as given and known by the fingerprint
/// of its bytes. A file is never taken for the bundled dataset or the
/// generator whose name it shares: its name is its path, and it carries a
/// fingerprint they lack. The report's `dataset_fingerprint` column.
public enum DatasetOrigin: Hashable, Sendable {
  /// A bundled dataset or a generator: its name, n and seed make the same
  /// points again.
  case named
  /// A points file, with its fingerprint; `nil` when it was not a regular
  /// file (a pipe, `/dev/stdin`), whose bytes cannot be read twice.
  case file(FileFingerprint?)
  /// A report written before the column (schema 3 or older) does not say.
  /// It named a points file by its base name (`hotels` for
  /// `hotels.geojson`), which a generator's or bundled dataset's name can
  /// equal.
  case unrecorded

  /// The column's text for a file that is not a regular one.
  public static let notRegularText = "not-a-regular-file"

  /// As the `dataset_fingerprint` column spells it: empty for a bundled
  /// dataset or a generator (and for a row that did not say),
  /// `size:hash` for a file (``FileFingerprint``), ``notRegularText`` for a
  /// file that is not a regular one.
  public var columnText: String {
    switch self {
    case .named, .unrecorded: ""
    case .file(let fingerprint?): fingerprint.description
    case .file(nil): Self.notRegularText
    }
  }

  /// The origin the column's `text` spells; `nil` when it spells none.
  public init?(columnText text: String) {
    if text.isEmpty {
      self = .named
    } else if text == Self.notRegularText {
      self = .file(nil)
    } else if let fingerprint = FileFingerprint(text) {
      self = .file(fingerprint)
    } else {
      return nil
    }
  }

  /// Whether rows of this origin and of `other`, under one dataset name,
  /// measured the same points: `nil` when that cannot be told (a row of an
  /// older report; a file that was not a regular one).
  public func sameData(as other: DatasetOrigin) -> Bool? {
    switch (self, other) {
    case (.unrecorded, _), (_, .unrecorded), (.file(nil), .file), (.file, .file(nil)): nil
    case (.named, .named): true
    case let (.file(a?), .file(b?)): a == b
    default: false
    }
  }

  /// `the points file hotels.geojson (81234 bytes, fingerprint 81234:9f3c…)`,
  /// `the bundled dataset or generator hotels`, for messages about the rows
  /// named `name`.
  public func describe(_ name: String) -> String {
    switch self {
    case .named: "the bundled dataset or generator \(name)"
    case .file(let f?): "the points file \(name) (\(f.size) bytes, fingerprint \(f))"
    case .file(nil): "the points file \(name) (not a regular file: no fingerprint)"
    case .unrecorded: "\(name) (a report of schema 3 or older: a bundled dataset, a generator or a points file's base name)"
    }
  }

  /// One line per dataset name whose rows in `rows` measured different
  /// files (two reports of one path, the file changed in between): their
  /// figures are not of one dataset. Empty when none does.
  public static func conflicts(in rows: [ReportRow]) -> [String] {
    var origins: [String: [DatasetOrigin]] = [:]
    var order: [String] = []
    for row in rows where row.datasetOrigin != .unrecorded {
      if origins[row.key.dataset] == nil { order.append(row.key.dataset) }
      if !(origins[row.key.dataset]?.contains(row.datasetOrigin) ?? false) {
        origins[row.key.dataset, default: []].append(row.datasetOrigin)
      }
    }
    return order.compactMap { name in
      let seen = origins[name]!
      guard seen.count > 1 else { return nil }
      let spelled = seen.map { $0.columnText.isEmpty ? "no file" : $0.columnText }.joined(separator: ", ")
      return "rows naming dataset \(name) measured \(seen.count) different sources (\(spelled)): their figures are not of one dataset"
    }
  }
}
