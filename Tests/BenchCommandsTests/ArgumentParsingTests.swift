import MapClustering
import SpatialIndexes
import Testing

@testable import BenchCommands
import BenchWorkloads

/// `RunOptions.parse`, `ArgumentReader`, the "did you mean" guesses, and the
/// exit code 64 `benchMain` gives every mistake on the command line.
extension CLITests {
  @Suite struct ArgumentParsingTests {
    /// Parses `arguments` for `bench run`, expecting a usage error, and returns its message.
    private func usageError(
      _ arguments: [String], command: String = "run",
      sourceLocation: SourceLocation = #_sourceLocation
    ) -> String {
      let error = #expect(
        throws: UsageError.self, sourceLocation: sourceLocation
      ) { try RunOptions.parse(arguments, command: command) }
      #expect(error?.command == command, sourceLocation: sourceLocation)
      return error?.message ?? ""
    }

    // MARK: - Every flag into its field

    @Test func everyRunFlagLandsInItsField() throws {
      let o = try RunOptions.parse(
        [
          "--index", "KDTree,grid,kdtree", "--workload", "tap,viewport", "--dataset", "clustered",
          "--n", "1e3,0,2_000", "--steps", "7", "--queries", "q.csv", "--param", "nodeSize=8,32",
          "--param", "cellSize=2", "--strategy", "single-pass", "--screen", "390x844",
          "--repeat", "3", "--warmup", "0", "--seed", "18446744073709551615", "--counters",
          "--out", "r.csv", "--append", "--quiet",
        ], command: "run")
      #expect(o.indexes == ["kdtree", "grid"])  // any case, duplicates dropped, order kept
      #expect(o.workloads == ["tap", "viewport"])
      #expect(o.dataset == "clustered")
      #expect(o.n == [1_000, 0, 2_000])
      #expect(o.steps == 7)
      #expect(o.queriesFile == "q.csv")
      #expect(
        o.params == [
          ParameterSweep(key: "nodeSize", values: ["8", "32"]),
          ParameterSweep(key: "cellSize", values: ["2"]),
        ])
      #expect(o.strategies == ["single-pass"])
      #expect(o.screen.width == 390 && o.screen.height == 844)
      #expect(o.repeats == 3)
      #expect(o.warmup == 0)
      #expect(o.seed == UInt64.max)
      #expect(o.counters && o.append && o.quiet)
      #expect(o.out == "r.csv")
      #expect(o.pointsOut == nil && o.queriesOut == nil)
    }

    @Test func defaultsWithoutArguments() throws {
      let o = try RunOptions.parse([], command: "run")
      #expect(o.indexes == allIndexTypes.map { $0.name })
      #expect(o.workloads == ["build", "viewport", "cluster"])
      #expect(o.dataset == "places")
      #expect(o.n == nil)
      #expect(o.steps == 200)
      #expect(o.queriesFile == nil)
      #expect(o.params.isEmpty)
      #expect(o.strategies == [
        "per-cell", "single-pass", "aggregate", "range", "nearest", "k=1", "k=10", "k=100",
        "move", "buffered", "rebuild"])
      #expect(o.moving == 0.01 && o.framesPerSecond == 60)
      #expect(o.screen.width == 390 && o.screen.height == 844)
      #expect(o.repeats == 5 && o.warmup == 1 && o.seed == 42)
      #expect(!o.counters && !o.append && !o.quiet)
      #expect(o.out == nil)
    }

    /// `--threads` is the k-d tree's `threads` parameter, recorded in params,
    /// and takes what the indexes take: a count in 1...256 or auto in any case.
    @Test func threadsIsTheThreadsParameter() throws {
      let o = try RunOptions.parse(["--index", "kdtree", "--threads", "2"], command: "run")
      #expect(o.params == [ParameterSweep(key: "threads", values: ["2"])])
      for text in ["1", "256", "auto", "AUTO"] {
        let given = try RunOptions.parse(["--threads", text], command: "run")
        #expect(given.params == [ParameterSweep(key: "threads", values: [text])])
      }
      for text in ["0", "257", "-1", "two", ""] {
        #expect(usageError(["--threads", text]) == "--threads \"\(text)\" is not a count in 1...256 or auto")
      }
    }

    /// The live workload's motion: a share of the points and a frame rate,
    /// both in the steps every index runs.
    @Test func movingAndFramesPerSecondReachTheSteps() throws {
      let o = try RunOptions.parse(
        ["--moving", "0.25", "--fps", "120", "--seed", "7", "--rebuild-share", "0.1"], command: "run")
      let dataset = LoadedDataset(name: "x", points: [Point(x: 1, y: 1)], ids: [1])
      #expect(o.steps(for: dataset, queries: nil).live
        == LiveSettings(share: 0.25, framesPerSecond: 120, seed: 7, rebuildShare: 0.1))
      #expect(usageError(["--rebuild-share", "0"]).hasPrefix("--rebuild-share \"0\" is not a share"))
      #expect(usageError(["--moving", "1.5"]) == "--moving \"1.5\" is not a share of the points in 0...1 (e.g. 0.01)")
      #expect(usageError(["--moving", "nan"]) == "--moving \"nan\" is not a share of the points in 0...1 (e.g. 0.01)")
      #expect(usageError(["--fps", "0"]).hasPrefix("--fps"))
    }

    @Test func equalsFormAndAllNames() throws {
      let o = try RunOptions.parse(
        ["--n=300", "--index=all", "--workload=all", "--strategy=all", "--screen=1024X768"],
        command: "run")
      #expect(o.n == [300])
      #expect(o.indexes == allIndexTypes.map { $0.name })
      #expect(o.workloads == ["build"] + WorkloadCatalog.all.map { $0.name })
      #expect(o.strategies == [
        "per-cell", "single-pass", "aggregate", "range", "nearest", "k=1", "k=10", "k=100",
        "move", "buffered", "rebuild"])
      #expect(o.moving == 0.01 && o.framesPerSecond == 60)
      #expect(o.screen.width == 1024 && o.screen.height == 768)
    }

    /// `--strategy` narrows the workloads that have a variant of that name
    /// and leaves the others whole.
    @Test func aStrategyNarrowsOnlyItsWorkloads() throws {
      let o = try RunOptions.parse(["--workload", "cluster,tap,nearest", "--strategy", "aggregate,k=10"], command: "run")
      #expect(o.workloadChoices == [
        WorkloadChoice(name: "cluster", variants: ["aggregate"]),
        WorkloadChoice(name: "tap", variants: ["range", "nearest"]),
        WorkloadChoice(name: "nearest", variants: ["k=10"]),
      ])
    }

    @Test func exportFlagsOnlyForExport() throws {
      let o = try RunOptions.parse(
        ["--points-out", "p.csv", "--queries-out", "q.csv"], command: "export")
      #expect(o.pointsOut == "p.csv" && o.queriesOut == "q.csv")
      #expect(usageError(["--points-out", "p.csv"]).contains("unknown option \"--points-out\""))
      #expect(benchMain(["export"] + tinySession + ["--queries-out", "q.csv"]) == 64)
      let same = ["--points-out", "q.csv", "--queries-out", "q.csv"]
      #expect(benchMain(["export"] + tinySession + same) == 64)
    }

    // MARK: - Numbers

    @Test func wholeNumbers() throws {
      func n(_ text: String) throws -> Int {
        try ArgumentReader.integer(text, flag: "--n", in: 0...RunOptions.maximumN, command: "run")
      }
      #expect(try n("1e3") == 1_000)
      #expect(try n("1E6") == 1_000_000)
      #expect(try n("1_000") == 1_000)
      #expect(try n("0") == 0)
      #expect(try n("2147483647") == RunOptions.maximumN)
      #expect(try RunOptions.parse(["--n", "1e3"], command: "run").n == [1_000])

      #expect(usageError(["--n", "abc"]) == "--n \"abc\" is not a whole number")
      #expect(usageError(["--n", "1.5"]).contains("not a whole number"))
      #expect(usageError(["--n", "0x10"]).contains("not a whole number"))  // no hex
      #expect(usageError(["--n", "nan"]).contains("not a whole number"))
      #expect(usageError(["--n", "inf"]).contains("not a whole number"))
      #expect(usageError(["--n", ""]).contains("not a whole number"))
      #expect(usageError(["--n", "1e30"]).contains("too large"))
      #expect(usageError(["--n", "2147483648"]).contains("too large"))
      #expect(usageError(["--n", "-1"]).contains("must be at least 0"))
      #expect(usageError(["--n", "100,"]).contains("not a whole number"))
      #expect(usageError(["--steps", "-3"]) == "--steps -3 must be at least 1")
      #expect(usageError(["--steps", "0"]).contains("must be at least 1"))
      #expect(usageError(["--repeat", "0"]).contains("must be at least 1"))
      #expect(usageError(["--warmup", "-1"]).contains("must be at least 0"))
      #expect(usageError(["--seed", "-1"]).contains("not a non-negative whole number"))
      #expect(usageError(["--seed", "1e3"]).contains("not a non-negative whole number"))
    }

    @Test func missingValues() {
      #expect(usageError(["--n"]) == "--n needs a value")
      #expect(usageError(["--n", "--steps", "5"]) == "--n needs a value")
      #expect(usageError(["--index"]) == "--index needs a value")
      #expect(usageError(["--out"]) == "--out needs a value")
      #expect(usageError(["--param"]) == "--param needs a value")
      #expect(benchMain(["run", "--n"]) == 64)
      #expect(benchMain(["run", "--n", "--steps", "5"]) == 64)
    }

    @Test(arguments: [
      ["--n", "abc"], ["--n", "1e30"], ["--steps", "-3"], ["--steps", "0"], ["--repeat", "0"],
      ["--screen", "0x5"], ["--param", "nosuch=1"], ["--append"], ["--indx", "grid"],
      ["--index", "kdtre"], ["--workload", "viewprt"], ["--strategy", "per-cel"],
    ])
    func everyMistakeExits64(_ arguments: [String]) {
      #expect(benchMain(["run"] + arguments) == 64)
      #expect(benchMain(arguments) == 64)  // `bench --flag…` is `bench run --flag…`
    }

    // MARK: - Screen, parameters, append

    @Test func screenSize() throws {
      let o = try RunOptions.parse(["--screen", "390x844"], command: "run")
      #expect(o.screen.width == 390 && o.screen.height == 844)
      let largest = try RunOptions.parse(["--screen", "4096x4096"], command: "run")
      #expect(largest.screen.width == 4096)
      let bad = ["0x5", "5x0", "390", "390x", "x844", "390x844x2", "-390x844", "1.5x2", "4097x1", "1x4097"]
      for bad in bad {
        #expect(usageError(["--screen", bad]).contains("is not WIDTHxHEIGHT"), "\(bad)")
      }
    }

    @Test func parameterSweepMakesOneSetPerValue() throws {
      let o = try RunOptions.parse(
        ["--index", "quadtree", "--param", "capacity=4,16"], command: "run")
      let sets = try parameterSets(BucketQuadtree.self, o.params, command: "run")
      #expect(sets.map(\.capacity) == [4, 16])
      // Keys an index does not have leave it at its one default set.
      #expect(try parameterSets(KDTreeIndex.self, o.params, command: "run").count == 1)
      // Two keys multiply.
      let two = try RunOptions.parse(
        ["--index", "quadtree", "--param", "capacity=4,16", "--param", "maxDepth=8,12,20"],
        command: "run")
      #expect(try parameterSets(BucketQuadtree.self, two.params, command: "run").count == 6)
    }

    @Test func badParameters() throws {
      #expect(usageError(["--param", "nosuch=1"]).hasPrefix("unknown parameter \"nosuch\""))
      // A key of another index than the chosen one.
      #expect(
        usageError(["--index", "kdtree", "--param", "capacity=4"])
          == "unknown parameter \"capacity\" (valid: nodeSize, threads)")
      #expect(usageError(["--param", "capacity"]).contains("is not KEY=VALUE"))
      #expect(usageError(["--param", "=4"]).contains("is not KEY=VALUE"))
      #expect(usageError(["--param", "capacity=4,,8"]).contains("empty value"))
      // Values are checked as the options are parsed, before any work.
      let error = #expect(throws: UsageError.self) {
        try RunOptions.parse(["--index", "quadtree", "--param", "capacity=0"], command: "run")
      }
      #expect(error?.message.contains("capacity") == true)
      #expect(benchMain(["run", "--param", "nosuch=1"] + tinyRun + ["--index", "quadtree"]) == 64)
    }

    @Test func parameterZeroIsAUsageErrorAndWritesNothing() throws {
      try withTemporaryFolder { folder in
        let out = folder.file("r.csv")
        let code = benchMain(
          ["run"] + tinyRun + ["--index", "quadtree", "--param", "capacity=0", "--out", out])
        #expect(code == 64)
        #expect(folder.contents().isEmpty)
      }
    }

    @Test func appendNeedsOut() {
      #expect(usageError(["--append"]) == "--append needs --out FILE.csv")
      #expect(benchMain(["run", "--append"] + tinyRun) == 64)
    }

    // MARK: - Unknown names, with a guess

    @Test func closestNames() {
      #expect(closest(to: "runn", in: Usage.commands) == "run")
      #expect(closest(to: "--indx", in: ["--index", "--n", "--out"]) == "--index")
      #expect(closest(to: "kdtre", in: allIndexTypes.map { $0.name }) == "kdtree")
      #expect(closest(to: "unifrom", in: Datasets.validNames) == "uniform")
      #expect(closest(to: "VIEWPORT", in: RunOptions.workloadNames) == "viewport")
      #expect(closest(to: "zzzz", in: Usage.commands) == nil)
      #expect(closest(to: "x", in: []) == nil)
      #expect(editDistance("kitten", "sitting") == 3)
      #expect(editDistance("", "abc") == 3 && editDistance("abc", "") == 3)
      #expect(editDistance("same", "same") == 0)
    }

    @Test func unknownCommand() {
      #expect(benchMain(["runn"]) == 64)
      let error = #expect(throws: UsageError.self) { try dispatch(["runn"]) }
      #expect(error?.message == "unknown command \"runn\" (did you mean run?)")
      let far = #expect(throws: UsageError.self) { try dispatch(["frobnicate"]) }
      #expect(far?.message.contains("(valid: run, recommend, report, peer, list") == true)
    }

    @Test func unknownFlagIndexWorkloadDataset() throws {
      #expect(usageError(["--indx", "grid"]) == "unknown option \"--indx\" (did you mean --index?)")
      #expect(usageError(["--index", "kdtre"]) == "unknown index \"kdtre\" (did you mean kdtree?)")
      #expect(usageError(["--index", "grid,"]).contains("unknown index \"\""))
      #expect(usageError(["--workload", "viewprt"]).contains("did you mean viewport?"))
      #expect(usageError(["--workload", "nothing"]).contains("unknown workload \"nothing\""))
      #expect(usageError(["--strategy", "per-cel"]).contains("did you mean per-cell?"))
      #expect(usageError(["stray"]) == "unexpected argument \"stray\"")
      // Datasets are resolved when loaded.
      let options = try RunOptions.parse(["--dataset", "unifrom", "--n", "10"], command: "run")
      let error = #expect(throws: UsageError.self) {
        try loadDatasets(options, command: "run")
      }
      #expect(error?.message == "unknown dataset \"unifrom\" (did you mean uniform?)")
      #expect(benchMain(["run", "--dataset", "unifrom", "--n", "10", "--quiet"]) == 64)
    }

    @Test func otherCommandsRejectUnknownFlags() {
      #expect(benchMain(["list", "--indexs"]) == 64)
      #expect(benchMain(["compare", "--treshold", "5"]) == 64)
      #expect(benchMain(["compare", "a.csv"]) == 64)
      #expect(benchMain(["compare", "a.csv", "b.csv", "--threshold", "-1"]) == 64)
      #expect(benchMain(["query", "--indx", "grid"]) == 64)
      #expect(benchMain(["verify", "--indx", "grid"]) == 64)
      #expect(benchMain(["export", "--indx", "grid"]) == 64)
      #expect(benchMain(["help", "runn"]) == 64)
    }
  }
}
