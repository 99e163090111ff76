import Foundation
import Testing

/// The libraries' tests stand on the libraries alone (issue 42): what they
/// check is what an app gets, not what the bench adds. Their targets, and
/// the test-support target they share, may depend on and import only the
/// libraries, the seeded generator's small module and the test support;
/// never a bench module (`BenchWorkloads`, `BenchHarness`…).
@Suite struct LibraryTestLayeringTests {
  /// The package root (three folders above this file).
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

  /// The targets the rule covers, with their folders.
  static let targets = [
    ("SpatialIndexesTests", "Tests/SpatialIndexesTests"),
    ("MapClusteringTests", "Tests/MapClusteringTests"),
    ("_SpatialTestSupport", "Tests/_SpatialTestSupport"),
  ]

  /// The package's modules they may use.
  static let allowed: Set<String> = [
    "SpatialIndexes", "MapClustering", "_SpatialIndexesShims", "_SeededRandom", "_SpatialTestSupport",
  ]

  /// The toolchain's modules they may import.
  static let toolchain: Set<String> = ["Testing", "Foundation", "FoundationXML", "Glibc", "Darwin"]

  @Test func theirTargetsDependOnlyOnTheLibraries() throws {
    let manifest = try String(contentsOfFile: Self.root + "/Package.swift", encoding: .utf8)
    for (target, _) in Self.targets {
      let dependencies = try #require(Self.dependencies(of: target, in: manifest), "\(target) in Package.swift")
      let others = dependencies.filter { !Self.allowed.contains($0) }
      #expect(others.isEmpty, "\(target) depends on \(others.sorted())")
    }
    // and the generator's module stands alone
    #expect(Self.dependencies(of: "_SeededRandom", in: manifest) == [])
  }

  @Test func theirFilesImportOnlyTheLibraries() throws {
    var files = 0
    for (_, folder) in Self.targets {
      let path = Self.root + "/" + folder
      for name in try FileManager.default.contentsOfDirectory(atPath: path) where name.hasSuffix(".swift") {
        files += 1
        let text = try String(contentsOfFile: path + "/" + name, encoding: .utf8)
        for module in Self.imports(in: text)
        where !Self.allowed.contains(module) && !Self.toolchain.contains(module) {
          Issue.record("\(folder)/\(name) imports \(module)")
        }
      }
    }
    #expect(files >= 30, "the rule read \(files) files: are the folders right?")
  }

  /// The rule's readers catch what they are for.
  @Test func theReadersSeeImportsAndDependencies() {
    #expect(Self.imports(in: "import A\n@testable import B\n  // import C\npackage import D\nlet x = 1\n")
      == ["A", "B", "D"])
    let manifest = """
      .target(name: "X", dependencies: ["A", "B"], path: "p"),
      .testTarget(
        name: "Y",
        dependencies: [
          "C", "D",
        ]),
      .target(name: "Z"),
      """
    #expect(Self.dependencies(of: "X", in: manifest) == ["A", "B"])
    #expect(Self.dependencies(of: "Y", in: manifest) == ["C", "D"])
    #expect(Self.dependencies(of: "Z", in: manifest) == [])
    #expect(Self.dependencies(of: "W", in: manifest) == nil)
  }

  /// The modules `text` imports: `import M`, with any attribute or access
  /// level before it, at the start of a line.
  static func imports(in text: String) -> [String] {
    text.split(separator: "\n").compactMap { line in
      let words = line.split(separator: " ")
      guard let at = words.firstIndex(of: "import"), at + 1 < words.count,
            words[..<at].allSatisfy({ $0.hasPrefix("@") || ["public", "package", "internal"].contains($0) })
      else { return nil }
      return String(words[at + 1])
    }
  }

  /// The names in the `dependencies:` list of the target called `name`, an
  /// empty list for a target without one, nil when there is no such target.
  static func dependencies(of name: String, in manifest: String) -> [String]? {
    guard let start = manifest.range(of: "name: \"\(name)\"") else { return nil }
    // the target's declaration ends where the next one begins
    let rest = manifest[start.upperBound...]
    let ends = [".target(", "Target("].compactMap { rest.range(of: $0)?.lowerBound }
    let declaration = rest[..<(ends.min() ?? rest.endIndex)]
    guard let list = declaration.range(of: "dependencies: [") else { return [] }
    let body = declaration[list.upperBound...].prefix { $0 != "]" }
    return body.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
  }
}
