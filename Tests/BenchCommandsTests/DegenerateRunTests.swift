@testable import BenchCommands
import Testing
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
  }
}
