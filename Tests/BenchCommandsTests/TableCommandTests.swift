import BenchHarness
import Testing

@testable import BenchCommands

/// `bench table` as a user runs it: the table on standard output, and the
/// errors that name the report, the line and the flag.
extension CLITests {
  @Suite struct TableCommandTests {
    /// A report of two indexes at two sizes, with one zoom band.
    static let rows = [
      reportRow(index: "kdtree", n: 1_000, workload: "viewport", median: 216),
      reportRow(index: "celltree", params: "leafSize=16", n: 1_000, workload: "viewport", median: 206),
      reportRow(index: "kdtree", n: 10_000, workload: "viewport", median: 1_490),
      reportRow(index: "celltree", params: "leafSize=16", n: 10_000, workload: "viewport", median: 133_000),
    ]

    /// Writes the report as `r.csv` in a fresh folder and runs `bench table r.csv` + `arguments` there.
    private func table(_ arguments: [String], rows: [ReportRow] = rows) throws -> BenchResult {
      try withTemporaryFolder { folder in
        try ReportFile.write(rows, to: folder.file("r.csv"))
        let before = bytes(folder.file("r.csv"))
        let result = try runBench(["table", "r.csv"] + arguments, in: folder.path)
        #expect(bytes(folder.file("r.csv")) == before, "the report is never written")
        #expect(folder.contents() == ["r.csv"])
        return result
      }
    }

    @Test func printsTheTable() throws {
      let result = try table(["--rows", "index", "--columns", "n", "--value", "median_ns", "--label", "n=10000:10k"])
      #expect(result.code == 0, "\(result.stderr)")
      #expect(result.stdout == """
        | index | 1000 | 10k |
        |---|---:|---:|
        | kdtree | 216 ns | 1.49 µs |
        | celltree | 206 ns | 133 µs |

        """)
      let ratio = try table(
        ["--rows", "index", "--columns", "n", "--value", "median_ns", "--ratio-to", "index=celltree", "--where", "index=kdtree"])
      #expect(ratio.stdout.contains("| kdtree | 1.05× | 0.0112× |"), "\(ratio.stdout)")
    }

    /// Two rows for one cell: exit 65 naming the report, the lines and the
    /// field to pin.
    @Test func twoRowsForOneCellExit65() throws {
      var band = Self.rows[0]
      band.key.zooms = "0-3"
      let result = try table(["--rows", "index", "--columns", "n", "--value", "median_ns"], rows: Self.rows + [band])
      #expect(result.code == 65)
      #expect(result.stdout.isEmpty)
      #expect(result.stderrLines.count == 1)
      let line = try #require(result.stderrLines.first)
      #expect(line.hasPrefix("bench: 2 rows match one cell (index=kdtree, n=1000, median_ns): r.csv:2 kdtree"))
      #expect(line.contains("; r.csv:6 kdtree") && line.hasSuffix("they differ in zooms: pick one with --where or make it a row or column"))
    }

    @Test func mistakesInTheRequestExit64() throws {
      let unknown = try table(["--rows", "index", "--value", "medain_ns"])
      #expect(unknown.code == 64)
      #expect(unknown.stderrLines.first == "bench: unknown report column \"medain_ns\" (did you mean median_ns?) (a parameter is params:NAME)")
      let twoValues = try table(["--rows", "index", "--columns", "n", "--value", "median_ns", "--value", "p99_ns"])
      #expect(twoValues.code == 64)
      #expect(twoValues.stderrLines.first?.hasPrefix("bench: --columns takes one --value") == true)
      let noRows = try table(["--value", "median_ns"])
      #expect(noRows.code == 64)
      #expect(noRows.stderrLines.first == "bench: --rows FIELD[,FIELD…] is required")
      let text = try table(["--rows", "index", "--value", "index"])
      #expect(text.code == 64)
      let label = try table(["--rows", "index", "--value", "median_ns", "--label", "index=kd:k-d tree"])
      #expect(label.code == 64)
      #expect(label.stderrLines.first == "bench: --label index=kd:k-d tree: the table shows no index=kd (it shows: celltree, kdtree)")
    }

    @Test func reportsThatDoNotFitExit65Or66() throws {
      let misspelt = try table(["--rows", "index", "--value", "median_ns", "--where", "workload=viewprot"])
      #expect(misspelt.code == 65)
      #expect(misspelt.stderrLines.first
        == "bench: --where workload=viewprot: no row of r.csv has workload=viewprot (it has: viewport)")
      try withTemporaryFolder { folder in
        let missing = try runBench(["table", "none.csv", "--rows", "index", "--value", "median_ns"], in: folder.path)
        #expect(missing.code == 66)
        #expect(missing.stderrLines.first == "bench: cannot read report 'none.csv': No such file or directory")
        try folder.write("bad.csv", "index,n\nkdtree,1\n")
        let bad = try runBench(["table", "bad.csv", "--rows", "index", "--value", "median_ns"], in: folder.path)
        #expect(bad.code == 65)
        #expect(bad.stderrLines.first?.hasPrefix("bench: bad report 'bad.csv': line 1: missing columns:") == true)
      }
    }
  }
}
