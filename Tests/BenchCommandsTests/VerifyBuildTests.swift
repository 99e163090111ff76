import Testing

/// `bench verify --workload build` checks the builds, and only them: each
/// index builds over the points, counts them all, and a query of the whole
/// map finds each point once, as the linear scan does.
@Suite struct VerifyBuildTests {
  @Test func verifyingTheBuildChecksTheBuildsOnly() throws {
    try withTemporaryFolder { folder in
      let result = try runBench(
        ["verify", "--dataset", "duplicates", "--n", "300", "--steps", "3", "--index", "grid,kdtree",
         "--workload", "build"], in: folder.path)
      #expect(result.code == 0, "\(result.stderr)")
      let lines = result.stdout.split(separator: "\n").map(String.init)
      #expect(lines.last == "verify: every index agrees with the linear scan")
      let checks = lines.dropLast()
      #expect(checks.count == 2, "\(lines)")
      #expect(checks.allSatisfy { $0.hasPrefix("duplicates n=300 ") && $0.hasSuffix(" build: 300 points, each found once: ok") },
              "\(lines)")
      #expect(checks.first?.contains(" grid(") == true && checks.last?.contains(" kdtree(") == true)
    }
  }

  /// Without --workload, verify checks the default workloads, the build
  /// with them.
  @Test func theDefaultIncludesTheBuild() throws {
    try withTemporaryFolder { folder in
      let result = try runBench(
        ["verify", "--dataset", "uniform", "--n", "100", "--steps", "3", "--index", "grid"], in: folder.path)
      #expect(result.code == 0, "\(result.stderr)")
      #expect(result.stdout.contains(" build: 100 points, each found once: ok\n"))
      #expect(result.stdout.contains(" viewport: 3 steps ok\n"))
    }
  }
}
