import BenchFormats
import Foundation

/// The public API of the two libraries as plain text, one declaration a
/// line, from the symbol graphs the compiler writes
/// (`swift package dump-symbol-graph --minimum-access-level public
/// --skip-synthesized-members`).
///
/// The listing is checked in under `api/`, so a change to the public surface
/// shows as a diff in review, and CI fails when the listing is stale. A line
/// is the declaration as the compiler prints it, after the path of the type
/// that holds it and, for a member of a constrained extension, its `where`
/// clause: `BufferedIndex: var isWorkingInBackground: Bool { get }`.
struct APIListing: Equatable {
  /// The libraries listed, in order: each gets `api/NAME.txt`.
  static let libraries = ["SpatialIndexes", "MapClustering"]

  var library: String
  /// Sorted, each once.
  var lines: [String]
  /// The declarations without a doc comment, as lines of ``lines``.
  var undocumented: [String]

  /// The file name under `api/`.
  var fileName: String { library + ".txt" }

  /// The text of `api/NAME.txt`: a header line, then the declarations.
  var text: String {
    (["// The public API of \(library), one declaration a line: made by `bench api`; do not edit."] + lines)
      .joined(separator: "\n") + "\n"
  }

  /// The listing of `library` from the symbol graphs in `folder`: the
  /// module's own file and those of its extensions to other modules
  /// (`MapClustering@SpatialIndexes.symbols.json`).
  static func read(library: String, folder: String) throws(DataError) -> APIListing {
    let own = folder + "/" + library + ".symbols.json"
    guard FileManager.default.fileExists(atPath: own) else {
      throw .unreadable(
        file: own, reason: "no such file: run swift package dump-symbol-graph --minimum-access-level public first")
    }
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
      .filter { $0.hasPrefix(library + "@") && $0.hasSuffix(".symbols.json") }.sorted()
    var lines = Set<String>(), undocumented = Set<String>()
    for path in [own] + names.map({ folder + "/" + $0 }) {
      for symbol in try symbols(in: path) {
        let line = symbol.line
        lines.insert(line)
        if !symbol.isDocumented { undocumented.insert(line) }
      }
    }
    return APIListing(library: library, lines: lines.sorted(), undocumented: undocumented.sorted())
  }

  /// The public symbols of one symbol graph file.
  static func symbols(in path: String) throws(DataError) -> [Symbol] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .unreadable(file: path, reason: "cannot be read")
    }
    do {
      return try JSONDecoder().decode(Graph.self, from: data).symbols.filter { $0.accessLevel == "public" }
    } catch {
      throw .badData(file: path, line: 1, field: nil, message: "not a symbol graph: \(error)")
    }
  }

  /// What the listing reads of a symbol graph.
  struct Graph: Decodable {
    var symbols: [Symbol]
  }

  struct Symbol: Decodable {
    struct Fragment: Decodable { var spelling: String }
    struct Constraint: Decodable { var kind: String; var lhs: String; var rhs: String }
    struct Extension: Decodable { var constraints: [Constraint]? }
    struct DocComment: Decodable { var lines: [Line] }
    struct Line: Decodable { var text: String }

    var pathComponents: [String]
    var declarationFragments: [Fragment]
    var accessLevel: String
    var swiftExtension: Extension?
    var docComment: DocComment?

    /// `Holder.Path: declaration where constraints`, spaces collapsed.
    var line: String {
      let declaration = declarationFragments.map(\.spelling).joined()
        .split(whereSeparator: \.isWhitespace).joined(separator: " ")
      let holder = pathComponents.dropLast().joined(separator: ".")
      var line = holder.isEmpty ? declaration : holder + ": " + declaration
      if let constraints = swiftExtension?.constraints, !constraints.isEmpty {
        line += " (in extension where "
          + constraints.map { "\($0.lhs) \($0.kind == "sameType" ? "==" : ":") \($0.rhs)" }.joined(separator: ", ")
          + ")"
      }
      return line
    }

    /// Whether the symbol has a doc comment of its own, not empty.
    var isDocumented: Bool {
      docComment?.lines.contains { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty } ?? false
    }
  }
}
