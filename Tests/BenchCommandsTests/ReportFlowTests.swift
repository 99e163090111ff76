import Testing

/// The README's flow: a run writes `r.csv` and its page `r.html`; `bench
/// report r.csv` then failed, because `r.html` was taken, and its message
/// suggested `--append`, which `report` refuses. Now a default name that is
/// taken gives way to the next free one, and a refusal says what works.
@Suite struct ReportFlowTests {
  static let run = ["run", "--dataset", "uniform", "--n", "200", "--index", "grid", "--workload", "viewport",
                    "--steps", "3", "--repeat", "1", "--warmup", "0", "--quiet", "--out", "r.csv"]

  @Test func aReportOfARunTakesTheNextFreeName() throws {
    try withTemporaryFolder { folder in
      #expect(try runBench(Self.run, in: folder.path).code == 0)
      let page = text(folder.file("r.html"))
      let report = try runBench(["report", "r.csv"], in: folder.path)
      #expect(report.code == 0, "\(report.stderr)")
      #expect(report.stdout == "wrote r-2.html\n")
      let again = try runBench(["report", "r.csv"], in: folder.path)
      #expect(again.code == 0 && again.stdout == "wrote r-3.html\n", "\(again.stderr)")
      #expect(text(folder.file("r.html")) == page, "the run's page is kept")
      #expect(folder.contents() == ["r-2.html", "r-3.html", "r.csv", "r.html"])
    }
  }

  /// A name given with --out is never replaced, and the message names what
  /// the command takes: no `--append` where there is none.
  @Test func aRefusalSuggestsWhatTheCommandTakes() throws {
    try withTemporaryFolder { folder in
      #expect(try runBench(Self.run, in: folder.path).code == 0)
      let report = try runBench(["report", "r.csv", "--out", "r.html"], in: folder.path)
      expectOneError(
        report, code: 73, "'r.html' already exists: bench never replaces a report (name a new file with --out FILE.html)")
      let run = try runBench(Self.run, in: folder.path)
      #expect(run.code == 73)
      #expect(run.stderrLines.first
        == "bench: 'r.csv' already exists: bench never replaces a report (add --append to add rows to it, or name a new file with --out)")
      try folder.write("only.html", "a page\n")
      let page = try runBench(Array(Self.run.dropLast()) + ["only.csv"], in: folder.path)
      #expect(page.stderrLines.first
        == "bench: 'only.html' already exists: bench never replaces a report (name a new file with --out: its page goes beside it)")
      let recommend = try runBench(
        ["recommend", "--dataset", "uniform", "--n", "100", "--steps", "10", "--quiet", "--out", "r.csv"], in: folder.path)
      #expect(recommend.code == 73)
      #expect(recommend.stderrLines.first
        == "bench: 'r.csv' already exists: bench never replaces a report (name a new file with --out)")
    }
  }
}
