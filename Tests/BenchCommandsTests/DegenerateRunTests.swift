@testable import BenchCommands
import Testing
import Foundation
import BenchWorkloads

/// Degenerate datasets through every workload, and the memory guard.
/// Inside the serialized CLI suite: these print to stdout, which another
/// test of the suite captures.
extension CLITests {
  @Suite struct DegenerateRunTests {
    /// One point, and points all on one line, run through every workload on
    /// every index and agree with the linear scan (`verify` exits 1 otherwise).
    @Test(arguments: [["uniform", "1"], ["meridian", "500"], ["diagonal", "500"], ["duplicates", "300"]])
    func degenerateDatasetsVerify(dataset: [String]) {
      let code = benchMain([
        "verify", "--dataset", dataset[0], "--n", dataset[1], "--workload", "all",
        "--steps", "20", "--quiet",
      ])
      #expect(code == 0)
    }

    /// A queries file with a header and no row measures and verifies
    /// nothing: exit 65, where `run` wrote a row of 0 samples and 0 ns.
    @Test func aQueriesFileOfNoQueryIsBadData() throws {
      try withTemporaryFolder { folder in
        let queries = try folder.write("empty.csv", "min_lat,min_lon,max_lat,max_lon,zoom\n")
        for command in ["run", "verify"] {
          let result = try runBench(
            [command, "--dataset", "uniform", "--n", "50", "--queries", queries, "--quiet", "--out", "r.csv"]
              .filter { command == "run" || ($0 != "--out" && $0 != "r.csv") }, in: folder.path)
          expectOneError(result, code: 65, "\(queries):1: has a header and no query: nothing to measure")
        }
        #expect(!exists(folder.file("r.csv")))
      }
    }

    /// A run whose N would not fit in memory stops with a usage error before
    /// it allocates anything (the points alone would take 32 GB).
    @Test func hugeNStopsBeforeAllocating() {
      #expect(benchMain(["run", "--dataset", "uniform", "--n", "2000000000", "--quiet"]) == 64)
      #expect(benchMain(["speed", "--n", "2000000000"]) == 64)
      let error = #expect(throws: DatasetError.self) {
        try Datasets.checkMemory([2_000_000_000])
      }
      #expect(error?.description.contains("needs about") == true, "\(String(describing: error))")
      #expect(error?.description.contains("GiB") == true)
      #expect(throws: Never.self) { try Datasets.checkMemory([1_000_000]) }
    }

    /// A points file too large for memory is refused before it is read:
    /// its count is exact for the binary format; a text file whose bytes
    /// alone do not fit is refused unread (sparse files here: nothing is
    /// written to disk).
    @Test func aHugePointsFileStopsBeforeItIsRead() throws {
      try withTemporaryFolder { folder in
        let have = Int(ProcessInfo.processInfo.physicalMemory)
        let binary = folder.file("huge.f64"), text = folder.file("huge.csv")
        #expect(FileManager.default.createFile(atPath: binary, contents: nil))
        #expect(truncate(binary, off_t(have / 8 * 16)) == 0)  // have/8 points: their 160 bytes each alone are 20× memory
        var rows = "lat,lon\n"
        while rows.utf8.count < 1 << 21 { rows += "1.5,2.5\n" }
        try rows.write(toFile: text, atomically: false, encoding: .utf8)
        #expect(truncate(text, off_t(have)) == 0)  // as many bytes as memory
        let estimate = try #require(Datasets.estimatedPoints(inFile: binary))
        #expect(estimate.points == have / 8 && estimate.bytes == have / 8 * 16)
        for (file, start) in [(binary, "\(binary): about \(have / 8) points"), (text, "\(text): ")] {
          let error = #expect(throws: DatasetError.self) { try Datasets.checkMemory(ofFile: file) }
          #expect(error?.description.hasPrefix(start) == true, "\(String(describing: error))")
          #expect(benchMain(["run", "--dataset", file, "--quiet"]) == 64)
        }
        let unread = #expect(throws: DatasetError.self) { try Datasets.checkMemory(ofFile: text) }
        #expect(unread?.description.contains(" GiB of data, more than this machine's ") == true)
        // a sample of a file that fits while it is read passes: only the sample is kept
        let big = folder.file("big.f64")
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        #expect(truncate(big, off_t(have / 100 * 16)) == 0)  // have/100 points: 1.6× memory at 160 bytes each
        #expect(throws: DatasetError.self) { try Datasets.checkMemory(ofFile: big) }
        #expect(throws: Never.self) { try Datasets.checkMemory(ofFile: big, counts: [1000]) }
        // a FIFO is not opened (its writer would be lost), and goes unmeasured
        let fifo = folder.file("fifo.csv")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(Datasets.estimatedPoints(inFile: fifo) == nil)
        // a small one: exact counts, and it passes
        let small = folder.file("small.csv")
        try "lat,lon\n1,2\n3,4\n".write(toFile: small, atomically: false, encoding: .utf8)
        #expect(Datasets.estimatedPoints(inFile: small)?.points == 3)  // the header counts: an upper bound
        #expect(throws: Never.self) { try Datasets.checkMemory(ofFile: small) }
        #expect(Datasets.estimatedPoints(inFile: folder.file("missing.csv")) == nil)
      }
    }

    /// The count came from the first MiB, scaled to the file's size: a file
    /// whose first rows are short (a header, then `0,0` rows) and whose other
    /// rows carry a long name was taken for three times its rows, and a
    /// 700 MB file that fits was refused. The rows are counted to the end.
    @Test func theCountReadsPastTheFirstMiB() throws {
      try withTemporaryFolder { folder in
        let file = folder.file("mixed.csv")
        var text = "lat,lon,name\n"
        var rows = 0
        while text.utf8.count < 1 << 20 { text += "0,0,\n"; rows += 1 }
        let long = "1.5,2.5," + String(repeating: "x", count: 191) + "\n"  // 200 bytes
        for _ in 0..<10_000 { text += long }
        rows += 10_000
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        let counted = try #require(Datasets.estimatedPoints(inFile: file))
        #expect(counted.bytes == text.utf8.count)
        #expect(counted.points == rows + 1, "\(counted.points) for \(rows) rows")  // the header counts: an upper bound
        // a last row without its line feed counts too
        try (text + "3,4").write(toFile: file, atomically: false, encoding: .utf8)
        #expect(Datasets.estimatedPoints(inFile: file)?.points == rows + 2)
        // GeoJSON: its points' `"coordinates"`, also across the reads' seams
        let geo = folder.file("mixed.geojson")
        var json = "{\"type\":\"FeatureCollection\",\"features\":[\n"
        let padding = String(repeating: " ", count: 1000)
        for k in 0..<3_000 {
          json += (k == 0 ? "" : ",") + "{\"type\":\"Feature\",\"properties\":{\"note\":\"\(k < 2_000 ? "" : padding)\"},"
            + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}\n"
        }
        json += "]}\n"
        try json.write(toFile: geo, atomically: false, encoding: .utf8)
        #expect(Datasets.estimatedPoints(inFile: geo)?.points == 3_000)
        // What fits now passes: 219,714 points need about 43 MB with the
        // file's 3 MB, where three times as many (the old count) needed 115.
        #expect(throws: Never.self) { try Datasets.checkMemory(ofFile: file, memory: 100e6) }
        let error = #expect(throws: DatasetError.self) { try Datasets.checkMemory(ofFile: file, memory: 40e6) }
        #expect(error?.description.hasPrefix("\(file): more than ") == true, "\(String(describing: error))")
        // the count stopped once it was too many: past the first MiB's
        // 209,716 lines, never all 219,715
        if case .fileTooLarge(_, let points, _, _, let counted)? = error {
          #expect(!counted && points > 200_000 && points < rows + 2)
        }
      }
    }

    /// The live workload keeps a second index and a snapshot: a count that
    /// fits the static workloads is refused with it.
    @Test func theLiveWorkloadNeedsMoreMemoryAPoint() throws {
      let have = Double(ProcessInfo.processInfo.physicalMemory)
      let n = Int(have * 0.8 / 300)  // 160 bytes a point fit, 480 do not
      #expect(throws: Never.self) { try Datasets.checkMemory([n]) }
      let error = #expect(throws: DatasetError.self) {
        try Datasets.checkMemory([n], bytesPerPoint: Datasets.liveBytesPerPointEstimate)
      }
      #expect(error?.description.contains("(480 bytes a point)") == true)
      // Through the command line, before anything is made: exit 64.
      #expect(benchMain(["run", "--dataset", "uniform", "--n", "\(n)", "--workload", "live", "--quiet"]) == 64)
    }
  }
}
