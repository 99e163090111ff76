import BenchFormats
import BenchHarness
import BenchWorkloads
import Foundation
import SpatialIndexes
import Testing

@testable import BenchCommands

/// `bench save` writes a saved index as every output is written; `run`,
/// `verify` and `query` open it with `--index-file` in place of an index
/// and its points, and answer as over a fresh build; a bad file is exit 65
/// naming it, a flag it replaces exit 64.
extension CLITests {
  @Suite struct SaveCommandTests {
    static let dataset = ["--dataset", "hotels", "--n", "3000"]

    @Test(arguments: ["kdtree", "rtree", "celltree"])
    func aSavedIndexAnswersAsAFreshBuild(index: String) throws {
      try withTemporaryFolder { folder in
        let saved = folder.file("\(index).sbi")
        #expect(benchMain(["save", "--index", index, "--out", saved, "--quiet"] + Self.dataset) == 0)
        #expect(try savedIndexKind(at: saved) == index)
        // verify: every workload against the linear scan over the file's points
        var code: Int32 = -1
        let verified = try captureStandardOutput {
          code = benchMain(["verify", "--index-file", saved, "--workload", "all", "--steps", "8", "--quiet"])
        }
        #expect(code == 0, "\(verified)")
        // query: the same answers as the index built over the same points
        let points = folder.file("points.csv"), queries = folder.file("queries.csv")
        #expect(benchMain(
          ["export", "--points-out", points, "--queries-out", queries, "--steps", "10", "--quiet"] + Self.dataset) == 0)
        let fromFile = folder.file("file.csv"), fromBuild = folder.file("build.csv")
        #expect(benchMain(["query", "--index-file", saved, "--queries", queries, "--out", fromFile]) == 0)
        #expect(benchMain(["query", "--index", index, "--points", points, "--queries", queries, "--out", fromBuild]) == 0)
        #expect(bytes(fromFile) != nil && bytes(fromFile) == bytes(fromBuild))
      }
    }

    /// A saved index holds no properties: a filter or aggregate over it is a
    /// usage error (exit 64) in query, run and verify, and verify's own
    /// filter checks are left out.
    @Test func aSavedIndexTakesNoFilter() throws {
      try withTemporaryFolder { folder in
        let saved = folder.file("kdtree.sbi"), queries = folder.file("queries.csv")
        #expect(benchMain(["save", "--index", "kdtree", "--out", saved, "--quiet"] + Self.dataset) == 0)
        #expect(benchMain(
          ["export", "--points-out", folder.file("points.csv"), "--queries-out", queries, "--steps", "3", "--quiet"]
            + Self.dataset) == 0)
        #expect(benchMain(["query", "--index-file", saved, "--queries", queries, "--filter", "stars >= 4"]) == 64)
        #expect(benchMain(["run", "--index-file", saved, "--workload", "cluster", "--filter", "stars >= 4",
                           "--quiet", "--out", folder.file("run.csv")]) == 64)
        #expect(benchMain(["verify", "--index-file", saved, "--workload", "cluster", "--aggregate", "sum:price",
                           "--quiet"]) == 64)
        #expect(benchMain(["verify", "--index-file", saved, "--workload", "cluster", "--steps", "4", "--quiet"]) == 0)
      }
    }

    /// docs/formats.md's worked example is the dump of what `bench save`
    /// writes for it, in `xxd`'s layout.
    @Test func theFormatsPageShowsWhatSaveWrites() throws {
      try withTemporaryFolder { folder in
        let tiny = folder.file("tiny.sbi")
        #expect(benchMain(["save", "--index", "kdtree", "--dataset", "uniform", "--n", "3", "--out", tiny, "--quiet"]) == 0)
        let file = bytes(tiny) ?? []
        var dump = ""
        for start in stride(from: 0, to: file.count, by: 16) {
          let line = file[start..<min(file.count, start + 16)]
          let hex = stride(from: line.startIndex, to: line.endIndex, by: 2).map { k in
            line[k..<min(line.endIndex, k + 2)].map { String(format: "%02x", $0) }.joined()
          }.joined(separator: " ")
          let text = String(line.map { (0x20...0x7E).contains($0) ? Character(UnicodeScalar($0)) : "." })
          dump += String(format: "%08x: ", start) + hex.padding(toLength: 39, withPad: " ", startingAt: 0) + "  " + text + "\n"
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
          .deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/formats.md"), encoding: .utf8)
        let marker = "shown by `xxd tiny.sbi`:\n\n```\n"
        guard let start = page.range(of: marker)?.upperBound, let end = page[start...].range(of: "```")?.lowerBound
        else { Issue.record("docs/formats.md has no xxd block"); return }
        #expect(String(page[start..<end]) == dump)
      }
    }

    /// The build row of a run over a saved index times the open; the run
    /// holds the file's index alone, over its points.
    @Test func aRunOverASavedIndexTimesTheOpen() throws {
      try withTemporaryFolder { folder in
        let saved = folder.file("k.sbi"), report = folder.file("r.csv")
        #expect(benchMain(["save", "--index", "kdtree", "--out", saved, "--quiet"] + Self.dataset) == 0)
        _ = try captureStandardOutput {
          #expect(benchMain(
            ["run", "--index-file", saved, "--steps", "5", "--repeat", "1", "--warmup", "0", "--quiet",
             "--out", report]) == 0)
        }
        let rows = try wholeRunRows(report)
        #expect(Set(rows.map(\.key.index)) == ["kdtree"])
        #expect(rows.contains { $0.key.workload == "build" })
        #expect(rows.allSatisfy { $0.key.n == 3000 && $0.key.dataset.contains("k.sbi") })
        // the build row says it timed an open; a built index's says nothing
        #expect(rows.filter { $0.key.workload == "build" }.map(\.key.strategy) == ["open"])
        let built = folder.file("built.csv")
        _ = try captureStandardOutput {
          #expect(benchMain(
            ["run", "--index", "kdtree", "--workload", "build", "--repeat", "1", "--warmup", "0", "--quiet",
             "--out", built] + Self.dataset) == 0)
        }
        #expect(try wholeRunRows(built).map { [$0.key.workload, $0.key.strategy] } == [["build", ""]])
      }
    }

    /// A cell tree opened from a file reads its coordinates through a
    /// mapping: every row of the run gives the mapped bytes (at least the
    /// 20 bytes a point of coordinates and rows) and, apart, those resident,
    /// never more; a built tree's rows leave both empty.
    @Test func aRunOverASavedCellTreeGivesItsMappedAndResidentBytes() throws {
      try withTemporaryFolder { folder in
        let saved = folder.file("c.sbi"), report = folder.file("r.csv"), built = folder.file("b.csv")
        #expect(benchMain(["save", "--index", "celltree", "--out", saved, "--quiet"] + Self.dataset) == 0)
        _ = try captureStandardOutput {
          #expect(benchMain(
            ["run", "--index-file", saved, "--workload", "build,viewport", "--steps", "5", "--repeat", "1",
             "--warmup", "0", "--quiet", "--out", report]) == 0)
          #expect(benchMain(
            ["run", "--index", "celltree", "--workload", "build,viewport", "--steps", "5", "--repeat", "1",
             "--warmup", "0", "--quiet", "--out", built] + Self.dataset) == 0)
        }
        let rows = try wholeRunRows(report)
        #expect(rows.count >= 2)
        for row in rows {
          let mapped = try #require(row.mappedBytes, "\(row.key)")
          #expect(mapped >= 20 * 3000 && mapped <= 24 * 3000 + 4096, "\(row.key)")
          #expect(try #require(row.residentBytes) <= mapped, "\(row.key)")
        }
        #expect(try wholeRunRows(built).allSatisfy { $0.mappedBytes == nil && $0.residentBytes == nil })
      }
    }

    /// A points file's own ids are saved with its index: `query
    /// --index-file` answers byte for byte as `query` over the points file
    /// (every workload that writes ids), and `verify` passes over them.
    @Test(arguments: ["kdtree", "celltree"])
    func aSavedIndexAnswersWithThePointsFileIDs(index: String) throws {
      try withTemporaryFolder { folder in
        let exported = folder.file("exported.csv"), queries = folder.file("queries.csv"), taps = folder.file("taps.csv")
        #expect(benchMain(
          ["export", "--points-out", exported, "--queries-out", queries, "--taps-out", taps, "--steps", "10",
           "--quiet"] + Self.dataset) == 0)
        // the same points, each with an id far from its position
        let lines = (text(exported) ?? "").split(separator: "\n")
        #expect(lines.first == "id,lat,lon")
        let renamed = lines.dropFirst().enumerated().map { k, line in
          "\(UInt64.max - 7 * UInt64(k)),\(line.split(separator: ",", maxSplits: 1)[1])"
        }
        let points = try folder.write("points.csv", (["id,lat,lon"] + renamed).joined(separator: "\n") + "\n")
        let saved = folder.file("saved.sbi")
        #expect(benchMain(["save", "--index", index, "--dataset", points, "--out", saved, "--quiet"]) == 0)
        for (workload, input) in [("viewport", queries), ("cluster", queries), ("tap", taps), ("nearest", taps)] {
          let fromFile = folder.file("file-\(workload).csv"), fromPoints = folder.file("points-\(workload).csv")
          #expect(benchMain(
            ["query", "--workload", workload, "--index-file", saved, "--queries", input, "--out", fromFile]) == 0)
          #expect(benchMain(
            ["query", "--workload", workload, "--index", index, "--points", points, "--queries", input,
             "--out", fromPoints]) == 0)
          #expect(bytes(fromFile) != nil && bytes(fromFile) == bytes(fromPoints), "\(workload)")
        }
        // the nearest answers name the file's ids, not positions
        #expect(text(folder.file("file-nearest.csv"))?.contains("1844674407370955") == true)
        var code: Int32 = -1
        let verified = try captureStandardOutput {
          code = benchMain(["verify", "--index-file", saved, "--workload", "all", "--steps", "8", "--quiet"])
        }
        #expect(code == 0, "\(verified)")
      }
    }

    /// A changed byte in the saved ids is refused as every section's is:
    /// exit 65, the message naming the file and the section.
    @Test func aCorruptIDsSectionIsRefused() throws {
      try withTemporaryFolder { folder in
        let points = try folder.write("points.csv", "id,lat,lon\n900,48.85,2.35\n901,40.71,-74.0\n77,-33.9,151.2\n")
        let saved = folder.file("saved.sbi")
        #expect(benchMain(["save", "--index", "kdtree", "--dataset", points, "--out", saved, "--quiet"]) == 0)
        #expect(try SavedIndexes.dataset(at: saved).ids == ExternalIDs([900, 901, 77]))
        var flipped = bytes(saved)!
        flipped[flipped.count - 3] ^= 1  // the ids are the last section
        let corrupt = folder.file("corrupt.sbi")
        try Data(flipped).write(to: URL(fileURLWithPath: corrupt))
        #expect(throws: SavedIndexError(file: corrupt, .checksumMismatch(section: "EXID"))) {
          try SavedIndexes.dataset(at: corrupt)
        }
        #expect(SavedIndexError(file: corrupt, .checksumMismatch(section: "EXID")).description
          == "\(corrupt): checksum mismatch in section EXID")
        let queries = try folder.write("q.csv", "min_lat,min_lon,max_lat,max_lon\n-90,-180,90,180\n")
        #expect(benchMain(["query", "--index-file", corrupt, "--queries", queries, "--out", folder.file("a.csv")]) == 65)
        #expect(benchMain(["verify", "--index-file", corrupt, "--quiet"]) == 65)
        #expect(benchMain(["run", "--index-file", corrupt, "--quiet", "--out", folder.file("r.csv")]) == 65)
        #expect(!exists(folder.file("a.csv")) && !exists(folder.file("r.csv")))
      }
    }

    @Test func saveNeverReplacesAFileAndRefusesADynamicIndex() throws {
      try withTemporaryFolder { folder in
        let taken = try folder.write("taken.sbi", "mine")
        #expect(benchMain(["save", "--index", "kdtree", "--out", taken, "--quiet"] + Self.dataset) == 73)
        #expect(text(taken) == "mine")
        #expect(benchMain(["save", "--index", "quadtree", "--out", folder.file("q.sbi")] + Self.dataset) == 64)
        #expect(benchMain(["save", "--index", "kdtree,rtree", "--out", folder.file("two.sbi")] + Self.dataset) == 64)
        #expect(benchMain(["save", "--index", "kdtree"] + Self.dataset) == 64)
        #expect(folder.contents() == ["taken.sbi"])
      }
    }

    /// `--index-file` holds the index, its parameters and its points.
    @Test(arguments: [
      ["run", "--index", "kdtree"], ["run", "--dataset", "hotels"], ["run", "--n", "10"],
      ["verify", "--param", "nodeSize=4"], ["query", "--index", "kdtree", "--queries", "q.csv"],
      ["query", "--points", "p.csv", "--queries", "q.csv"], ["export", "--points-out", "p.csv", "--queries-out", "q.csv"],
    ])
    func anIndexFileWithWhatItReplacesIsAUsageError(arguments: [String]) throws {
      try withTemporaryFolder { folder in
        let saved = folder.file("k.sbi")
        #expect(benchMain(["save", "--index", "kdtree", "--out", saved, "--quiet"] + Self.dataset) == 0)
        #expect(benchMain(arguments + ["--index-file", saved]) == 64)
      }
    }

    /// A file that is not a saved index, or one cut short, exits 65 naming
    /// it; a missing one 66.
    @Test func aBadIndexFileExits65() throws {
      try withTemporaryFolder { folder in
        let saved = folder.file("k.sbi")
        #expect(benchMain(["save", "--index", "kdtree", "--out", saved, "--quiet"] + Self.dataset) == 0)
        let whole = bytes(saved)!
        let cut = folder.file("cut.sbi")
        try Data(whole.prefix(whole.count / 2)).write(to: URL(fileURLWithPath: cut))
        var flipped = whole
        flipped[whole.count - 5] ^= 1
        let corrupt = folder.file("corrupt.sbi")
        try Data(flipped).write(to: URL(fileURLWithPath: corrupt))
        let text = try folder.write("text.sbi", "x,y\n1,2\n")
        for file in [cut, corrupt, text] {
          #expect(benchMain(["verify", "--index-file", file, "--quiet"]) == 65, "\(file)")
          #expect(benchMain(["run", "--index-file", file, "--quiet", "--out", folder.file("r.csv")]) == 65, "\(file)")
        }
        #expect(benchMain(["verify", "--index-file", folder.file("missing.sbi")]) == 66)
        #expect(!exists(folder.file("r.csv")))
      }
    }
  }
}
