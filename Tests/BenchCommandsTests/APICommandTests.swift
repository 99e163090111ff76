import Foundation
import Testing

@testable import BenchCommands

/// `bench api`: the public API listing of each library, from symbol graphs
/// of the compiler's JSON form, and `--check` against the committed one.
extension CLITests {
  @Suite struct APICommandTests {
    /// A symbol of a symbol graph: `path` is its holder's path and its name.
    static func symbol(
      _ path: [String], _ declaration: String, access: String = "public", doc: String? = "Why it exists.",
      constraints: [(String, String, String)] = []
    ) -> String {
      let fragments = "[{\"kind\": \"text\", \"spelling\": \(json(declaration))}]"
      var text = "{\"pathComponents\": [\(path.map(json).joined(separator: ", "))], "
        + "\"declarationFragments\": \(fragments), \"accessLevel\": \"\(access)\""
      if let doc { text += ", \"docComment\": {\"lines\": [{\"text\": \(json(doc))}]}" }
      if !constraints.isEmpty {
        let list = constraints.map { "{\"kind\": \"\($0.0)\", \"lhs\": \"\($0.1)\", \"rhs\": \"\($0.2)\"}" }
        text += ", \"swiftExtension\": {\"constraints\": [\(list.joined(separator: ", "))]}"
      }
      return text + "}"
    }

    static func json(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\\\"") + "\"" }

    static func graph(_ symbols: [String]) -> String {
      "{\"metadata\": {}, \"module\": {\"name\": \"M\"}, \"symbols\": [\(symbols.joined(separator: ", "))], \"relationships\": []}"
    }

    /// A repository with the symbol graphs of both libraries under
    /// `.build/x86_64-unknown-linux-gnu/symbolgraph`.
    private func repository(_ body: (TemporaryFolder) throws -> Void) throws {
      try withTemporaryFolder { folder in
        let graphs = ".build/x86_64-unknown-linux-gnu/symbolgraph"
        try FileManager.default.createDirectory(atPath: folder.file(graphs), withIntermediateDirectories: true)
        try folder.write(graphs + "/SpatialIndexes.symbols.json", Self.graph([
          Self.symbol(["Rect"], "struct Rect"),
          Self.symbol(["Rect", "minX"], "var minX:   Double"),
          Self.symbol(["Rect", "hidden"], "var hidden: Int", access: "internal"),
          Self.symbol(["Point"], "struct Point", doc: nil),
        ]))
        try folder.write(graphs + "/MapClustering.symbols.json", Self.graph([
          Self.symbol(["Clusterer"], "struct Clusterer<Index>"),
        ]))
        try folder.write(graphs + "/MapClustering@SpatialIndexes.symbols.json", Self.graph([
          Self.symbol(["Rect", "cells"], "func cells() -> Int", constraints: [("conformance", "Self", "Sendable")]),
        ]))
        try body(folder)
      }
    }

    @Test func theListingIsEachPublicDeclarationALineUnderItsHolder() throws {
      try repository { folder in
        let run = try runBench(["api"], in: folder.path)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("""
          SpatialIndexes: 3 public declarations, 1 without a doc comment
          MapClustering: 2 public declarations, 0 without a doc comment

          """))
        #expect(try String(contentsOfFile: folder.file("api/SpatialIndexes.txt"), encoding: .utf8) == """
          // The public API of SpatialIndexes, one declaration a line: made by `bench api`; do not edit.
          Rect: var minX: Double
          struct Point
          struct Rect

          """)
        // an extension of another module's type is listed with the module that declares it
        #expect(try String(contentsOfFile: folder.file("api/MapClustering.txt"), encoding: .utf8) == """
          // The public API of MapClustering, one declaration a line: made by `bench api`; do not edit.
          Rect: func cells() -> Int (in extension where Self : Sendable)
          struct Clusterer<Index>

          """)
      }
    }

    @Test func checkListsWhatChangedAndExits1() throws {
      try repository { folder in
        #expect(try runBench(["api"], in: folder.path).code == 0)
        #expect(try runBench(["api", "--check"], in: folder.path).code == 0)
        let listing = try String(contentsOfFile: folder.file("api/SpatialIndexes.txt"), encoding: .utf8)
        try folder.write("api/SpatialIndexes.txt", listing.replacingOccurrences(of: "struct Point\n", with: "struct Pt\n"))
        let check = try runBench(["api", "--check"], in: folder.path)
        #expect(check.code == 1)
        #expect(check.stdout.contains("./api/SpatialIndexes.txt: stale: 1 declarations gone, 1 new\n- struct Pt\n+ struct Point\n"))
        // the check changes nothing
        #expect(try String(contentsOfFile: folder.file("api/SpatialIndexes.txt"), encoding: .utf8).contains("struct Pt\n"))
      }
    }

    @Test func aMissingOrBadSymbolGraphIsNamed() throws {
      try withTemporaryFolder { folder in
        let missing = try runBench(["api", "--symbols", "graphs"], in: folder.path)
        #expect(missing.code == 66)
        #expect(missing.stderrLines.first?.hasPrefix("bench: graphs/SpatialIndexes.symbols.json: no such file") == true)
        try FileManager.default.createDirectory(atPath: folder.file("graphs"), withIntermediateDirectories: true)
        try folder.write("graphs/SpatialIndexes.symbols.json", "{\"symbols\": 3}")
        let bad = try runBench(["api", "--symbols", "graphs"], in: folder.path)
        #expect(bad.code == 65)
        #expect(bad.stderrLines.first?.hasPrefix("bench: graphs/SpatialIndexes.symbols.json:1: not a symbol graph") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.file("api")))
      }
    }
  }
}
