@testable import BenchHarness
import SpatialIndexes
import Testing

/// The rows of one candidate: a build row and one row per `p99s` entry
/// (`"cluster/aggregate": 2e6`), each holding `bytes` (index) plus
/// `workloadBytes` for cluster rows.
private func candidate(
  _ index: String, params: String = "", n: Int = 1_000_000, p99s: [String: Double],
  bytes: Int, clusterBytes: UInt64 = 0, buildMilliseconds: Double = 50
) -> [ReportRow] {
  var rows = [verdictRow(index, params, n, "build", "", p99: buildMilliseconds * 1e6, bytes: bytes, build: buildMilliseconds)]
  for (name, p99) in p99s.sorted(by: { $0.key < $1.key }) {
    let parts = name.split(separator: "/", maxSplits: 1).map(String.init)
    var row = verdictRow(index, params, n, parts[0], parts.count > 1 ? parts[1] : "", p99: p99, bytes: bytes, build: buildMilliseconds)
    if parts[0] == "cluster" { row.workloadBytes = clusterBytes }
    rows.append(row)
  }
  return rows
}

private func verdictRow(
  _ index: String, _ params: String, _ n: Int, _ workload: String, _ strategy: String, p99: Double,
  bytes: Int, build: Double
) -> ReportRow {
  ReportRow(
    key: ReportKey(index: index, params: params, dataset: "hotels", n: n, workload: workload, strategy: strategy),
    timing: TimingSummary(
      samples: 600, min: p99 / 4, median: p99 / 2, p90: p99 * 0.8, p99: p99, max: p99 * 1.2, mean: p99 / 2,
      stddev: p99 / 10, ciLow: p99 / 2.1, ciHigh: p99 / 1.9, noisy: false, batch: 1),
    buildMilliseconds: build, indexBytes: bytes, run: testRun())
}

/// 60 Hz: each workload's allowance is a quarter of 16.67 ms, 4.17 ms.
private let budget = FrameBudget()
private let ms = 1e6

@Suite struct VerdictTests {
  @Test func eachWorkloadGetsItsShareOfTheFrame() {
    #expect(abs(budget.allowance(for: "cluster")! - 16.666_666e6 / 4) < 1)
    #expect(abs(FrameBudget(framesPerSecond: 120).allowance(for: "viewport")! - 8.333_333e6 / 4) < 1)
    #expect(budget.allowance(for: "build") == nil)
    #expect(budget.allowance(for: "live") == nil, "live counts only for data that changes")
    #expect(FrameBudget(live: true).allowance(for: "live")! > budget.allowance(for: "cluster")!)
  }

  @Test func theGridWinsWhenItIsAsFastAndSmaller() {
    let rows = candidate("kdtree", p99s: ["viewport": 1 * ms, "cluster/aggregate": 1 * ms], bytes: 20_000_000,
                         clusterBytes: 80_000_000)
      + candidate("grid", p99s: ["viewport": 1.2 * ms, "cluster/single-pass": 1.3 * ms, "cluster/aggregate": 1.2 * ms],
                  bytes: 22_000_000, clusterBytes: 30_000_000)
    let v = Verdict.all(in: rows, budget: budget)[0]
    #expect(v.met)
    #expect(v.winner.index == "grid")
    #expect(v.winner.strategy(of: "cluster") == "aggregate", "the fastest way of clustering")
    #expect(v.decider == .memory)
    #expect(v.runnerUp?.index == "kdtree")
  }

  @Test func onlyTheClusteringIndexMeetsTheBudget() {
    let rows = candidate("kdtree", p99s: ["viewport": 1 * ms, "cluster/aggregate": 6 * ms], bytes: 20_000_000)
      + candidate("celltree", p99s: ["viewport": 1 * ms, "cluster/aggregate": 0.05 * ms], bytes: 38_000_000)
      + candidate("linear", p99s: ["viewport": 3 * ms, "cluster/single-pass": 9 * ms], bytes: 20_000_000)
    let v = Verdict.all(in: rows, budget: budget)[0]
    #expect(v.met && v.winner.index == "celltree")
    #expect(v.decider == .budget)
    #expect(v.lines.contains { $0.contains("runner-up: kdtree") && $0.contains("cluster p99 6 ms") })
  }

  @Test func nothingMeetsTheBudgetAndTheClosestIsShown() {
    let rows = candidate("kdtree", p99s: ["viewport": 5 * ms, "cluster/aggregate": 6 * ms], bytes: 20_000_000)
      + candidate("linear", p99s: ["viewport": 9 * ms, "cluster/single-pass": 20 * ms], bytes: 20_000_000)
    let v = Verdict.all(in: rows, budget: FrameBudget(framesPerSecond: 120))[0]
    #expect(!v.met)
    #expect(v.winner.index == "kdtree")
    #expect(v.lines[0].contains("nothing meets the budget; the closest is kdtree"))
    #expect(v.lines.contains { $0.contains("OVER") })
  }

  @Test func aMemoryLimitFlipsTheChoice() {
    let rows = candidate("kdtree", p99s: ["viewport": 0.1 * ms, "cluster/aggregate": 0.1 * ms], bytes: 20_000_000,
                         clusterBytes: 80_000_000)
      + candidate("celltree", p99s: ["viewport": 2 * ms, "cluster/aggregate": 0.02 * ms], bytes: 38_000_000)
    // Without a limit the k-d tree leaves far more of the frame (2.5% against 48%).
    #expect(Verdict.all(in: rows, budget: budget)[0].winner.index == "kdtree")
    let limited = Verdict.all(in: rows, budget: FrameBudget(memoryLimitBytes: 50_000_000))[0]
    #expect(limited.met && limited.winner.index == "celltree")
    #expect(limited.lines.contains { $0.contains("over the 50.0 MB limit") })
    // A limit nothing fits: the closest, and the verdict says it missed.
    let tiny = Verdict.all(in: rows, budget: FrameBudget(memoryLimitBytes: 1_000_000))[0]
    #expect(!tiny.met)
  }

  @Test func memoryWithinTenPercentIsTheSameAndTheBuildDecides() {
    let rows = candidate("kdtree", p99s: ["viewport": 1 * ms], bytes: 20_000_000, buildMilliseconds: 35)
      + candidate("rtree", p99s: ["viewport": 1 * ms], bytes: 21_000_000, buildMilliseconds: 60)
    let v = Verdict.all(in: rows, budget: budget)[0]
    #expect(v.winner.index == "kdtree" && v.decider == .build)
    let faster = candidate("kdtree", p99s: ["viewport": 1 * ms], bytes: 20_000_000, buildMilliseconds: 80)
      + candidate("rtree", p99s: ["viewport": 1 * ms], bytes: 21_000_000, buildMilliseconds: 60)
    #expect(Verdict.all(in: faster, budget: budget)[0].winner.index == "rtree")
  }

  @Test func aSmallerChoiceJustOutsideAsFastLowersTheConfidence() {
    // Both leave most of the frame; the linear scan holds less but takes 30%
    // of the nearest share, just past the 25% up to which any choice is as fast.
    let rows = candidate("kdtree", p99s: ["viewport": 0.2 * ms, "nearest/k=100": 0.1 * ms], bytes: 100_000_000)
      + candidate("rtree", p99s: ["viewport": 0.2 * ms, "nearest/k=100": 0.1 * ms], bytes: 101_000_000,
                  buildMilliseconds: 90)
      + candidate("linear", p99s: ["viewport": 0.3 * ms, "nearest/k=100": 1.25 * ms], bytes: 68_000_000)
    let v = Verdict.all(in: rows, budget: budget)[0]
    #expect(v.winner.index == "kdtree" && v.decider == .build)
    #expect(v.nearMiss?.candidate.index == "linear" && v.nearMiss?.over == true && v.nearMiss?.pick.index == "linear")
    #expect(v.confidence.hasPrefix(
      "medium: linear (68.0 B/pt) took 30% of its nearest share, just over the 25% bar; counted as fast, it would be the pick"),
      "\(v.confidence)")
    // Far outside (twice the bar), it is no threat.
    let far = candidate("kdtree", p99s: ["viewport": 0.2 * ms], bytes: 100_000_000)
      + candidate("rtree", p99s: ["viewport": 0.2 * ms], bytes: 101_000_000, buildMilliseconds: 90)
      + candidate("linear", p99s: ["viewport": 2.1 * ms], bytes: 68_000_000)
    #expect(Verdict.all(in: far, budget: budget)[0].nearMiss == nil)
  }

  @Test func aChoiceJustOutsideAsFastThatBuildsFasterLowersTheConfidence() {
    // The grid holds no less than the k-d tree (within a tenth) and builds
    // faster, but its viewport p99 takes 30% of the share: a rerun under the
    // 25% bar makes it the pick, though it is not the smaller.
    let rows = candidate("kdtree", p99s: ["viewport": 0.2 * ms], bytes: 100_000_000, buildMilliseconds: 35)
      + candidate("rtree", p99s: ["viewport": 0.2 * ms], bytes: 101_000_000, buildMilliseconds: 90)
      + candidate("grid", p99s: ["viewport": 1.25 * ms], bytes: 104_000_000, buildMilliseconds: 10)
    let v = Verdict.all(in: rows, budget: budget)[0]
    #expect(v.winner.index == "kdtree" && v.decider == .build)
    #expect(v.nearMiss?.candidate.index == "grid" && v.nearMiss?.over == true && v.nearMiss?.pick.index == "grid")
    #expect(v.confidence.hasPrefix("medium: grid (104.0 B/pt) took 30% of its viewport share, just over the 25% bar"),
            "\(v.confidence)")
  }

  @Test func aChoiceJustInsideAsFastThatSetsTheMemoryBarLowersTheConfidence() {
    // The quadtree is the smallest and sets what "as small" means, so the
    // grid, which builds fastest, is not; at 22% of the share, a rerun over
    // the 25% bar drops the quadtree, and then the grid is as small and wins.
    let rows = candidate("kdtree", p99s: ["viewport": 0.2 * ms], bytes: 100_000_000, buildMilliseconds: 35)
      + candidate("quadtree", p99s: ["viewport": 0.92 * ms], bytes: 92_000_000, buildMilliseconds: 60)
      + candidate("grid", p99s: ["viewport": 0.2 * ms], bytes: 103_000_000, buildMilliseconds: 10)
    let v = Verdict.all(in: rows, budget: budget)[0]
    #expect(v.winner.index == "kdtree" && v.decider == .build)
    #expect(v.nearMiss?.candidate.index == "quadtree" && v.nearMiss?.over == false && v.nearMiss?.pick.index == "grid")
    #expect(v.confidence.hasPrefix(
      "medium: quadtree (92.0 B/pt) took 22% of its viewport share, just under the 25% bar; over it, grid would be the pick"),
      "\(v.confidence)")
    // Well inside the bar (5% of the share), the pick stands.
    let inside = candidate("kdtree", p99s: ["viewport": 0.2 * ms], bytes: 100_000_000, buildMilliseconds: 35)
      + candidate("quadtree", p99s: ["viewport": 0.2 * ms], bytes: 92_000_000, buildMilliseconds: 60)
      + candidate("grid", p99s: ["viewport": 0.2 * ms], bytes: 103_000_000, buildMilliseconds: 10)
    #expect(Verdict.all(in: inside, budget: budget)[0].nearMiss == nil)
  }

  @Test func aChoiceTakesTheLeanestOfItsAsFastVariants() {
    // Both cluster strategies leave most of the share; the faster keeps 30 MB
    // beside the index, so the choice takes the leaner, whichever ran faster.
    func rows(aggregate: Double, perCell: Double) -> [ReportRow] {
      var rows = candidate("kdtree", p99s: ["viewport": 0.2 * ms, "cluster/aggregate": aggregate * ms,
                                            "cluster/per-cell": perCell * ms], bytes: 20_000_000)
      for k in rows.indices where rows[k].key.strategy == "aggregate" { rows[k].workloadBytes = 30_000_000 }
      return rows
    }
    for (aggregate, perCell) in [(0.1, 0.5), (0.5, 0.1)] {
      let c = Candidate.all(in: rows(aggregate: aggregate, perCell: perCell), budget: budget)[0]
      #expect(c.strategy(of: "cluster") == "per-cell" && c.bytes == 20_000_000, "\(aggregate) \(perCell)")
    }
    // Past a quarter of the share and 1.5 times the fastest, the leaner is
    // not as fast: the faster is taken, with its memory.
    let c = Candidate.all(in: rows(aggregate: 0.1, perCell: 2), budget: budget)[0]
    #expect(c.strategy(of: "cluster") == "aggregate" && c.bytes == 50_000_000)
  }

  @Test func theConfidenceWeighsOtherParametersOfTheWinnersIndex() {
    // The k-d tree at nodeSize=128 builds only a tenth faster than at its
    // default: the pick's parameters may change on a rerun, though the
    // R-tree, the runner-up, builds far slower.
    let rows = candidate("kdtree", params: "nodeSize=128", p99s: ["viewport": 0.2 * ms], bytes: 100_000_000,
                         buildMilliseconds: 30)
      + candidate("kdtree", params: "nodeSize=64", p99s: ["viewport": 0.2 * ms], bytes: 100_000_000,
                  buildMilliseconds: 33)
      + candidate("rtree", p99s: ["viewport": 0.2 * ms], bytes: 100_000_000, buildMilliseconds: 90)
    let v = Verdict.all(in: rows, budget: budget)[0]
    #expect(v.winner.params == "nodeSize=128" && v.runnerUp?.index == "rtree")
    #expect(v.confidence.hasPrefix("low: builds 1.10× faster than kdtree; "), "\(v.confidence)")
    // With the runner-up the next choice, it is the one weighed, unnamed.
    let alone = Array(rows.filter { $0.key.params != "nodeSize=64" })
    #expect(Verdict.all(in: alone, budget: budget)[0].confidence.hasPrefix("high: builds 3.00× faster; "))
  }

  @Test func nearestCountsItsSlowestK() {
    let rows = candidate("kdtree", p99s: ["nearest/k=1": 0.01 * ms, "nearest/k=100": 5 * ms], bytes: 1)
    let c = Candidate.all(in: rows, budget: budget)[0]
    #expect(c.strategy(of: "nearest") == "k=100")
    #expect(!Verdict.meets(c, budget))
  }

  /// An engine's inexact way (PostGIS's `bbox` viewport) is not evidence:
  /// the exact way, slower, is what the map gets.
  @Test func aWayThatGaveWrongAnswersIsNotEvidence() {
    var rows = candidate("postgis-gist", params: "clock=server", p99s: ["viewport/bbox": 1 * ms, "viewport/exact": 2 * ms], bytes: 1)
    for i in rows.indices where rows[i].key.workload == "viewport" { rows[i].wrongAnswers = 0 }
    #expect(Candidate.all(in: rows, budget: budget)[0].strategy(of: "viewport") == "bbox")
    rows[rows.firstIndex { $0.key.strategy == "bbox" }!].wrongAnswers = 4
    #expect(Candidate.all(in: rows, budget: budget)[0].strategy(of: "viewport") == "exact")
  }

  @Test func liveRowsJoinTheirIndexWhateverTheStrategyAdds() {
    var rows = candidate("kdtree", params: "nodeSize=64;threads=auto", p99s: ["viewport": 1 * ms], bytes: 20_000_000)
    rows.append(verdictRow("kdtree", "nodeSize=64;threads=auto;rebuildShare=0.05", 1_000_000, "live", "buffered",
                           p99: 4 * ms, bytes: 40_000_000, build: 50))
    rows.append(verdictRow("kdtree", "nodeSize=64;threads=auto", 1_000_000, "live.update", "buffered",
                           p99: 1 * ms, bytes: 40_000_000, build: 50))
    let live = Candidate.all(in: rows, budget: FrameBudget(live: true))
    #expect(live.count == 1)
    #expect(live[0].strategy(of: "live") == "buffered")
    #expect(live[0].bytes == 40_000_000, "the buffered copy counts")
    #expect(Candidate.all(in: rows, budget: budget)[0].strategy(of: "live") == nil, "static data: live left out")
    let v = Verdict.all(in: rows, budget: FrameBudget(live: true))[0]
    #expect(v.swift.contains { $0.contains("Clusterer<BufferedIndex<KDTreeIndex>>") })
    #expect(v.swift.contains { $0.contains("move(id:") })
  }

  @Test func theVerdictFitsInSixteenLinesAndSetsOnlyChangedParameters() {
    var rows = candidate(
      "kdtree", params: "nodeSize=128;threads=auto",
      p99s: ["viewport": 1 * ms, "cluster/aggregate": 1 * ms, "tap/range": 0.1 * ms, "nearest/k=100": 0.2 * ms],
      bytes: 20_000_000)
    rows.append(verdictRow("kdtree", "nodeSize=128;threads=auto;rebuildShare=0.05", 1_000_000, "live", "buffered",
                           p99: 4 * ms, bytes: 40_000_000, build: 50))
    rows += candidate("grid", params: "cellSize=0.43;pointsPerCell=4;storage=dense;cells=8x3;threads=auto",
                      p99s: ["viewport": 4 * ms, "cluster/aggregate": 3 * ms, "tap/range": 0.1 * ms, "nearest/k=100": 0.2 * ms],
                      bytes: 20_000_000)
    rows.append(verdictRow("grid", "cellSize=0.43;pointsPerCell=4;storage=dense;cells=8x3;threads=auto", 1_000_000,
                           "live", "move", p99: 5 * ms, bytes: 20_000_000, build: 50))
    let v = Verdict.all(in: rows, budget: FrameBudget(live: true))[0]
    #expect(v.lines.count <= 16, "\(v.lines.joined(separator: "\n"))")
    #expect(v.swift.contains("parameters.base.nodeSize = 128"), "a buffered index sets its base's")
    #expect(!v.swift.contains { $0.contains("threads") }, "defaults are not set")
    #expect(v.lines.contains { $0.hasPrefix("  runner-up: grid:") }, "data-derived grid parameters are not a choice")
  }

  /// On data with properties the filter session is weighed: its p99 joins
  /// the cluster line (the verdict stays within 16 lines with live data, a
  /// changed parameter and every workload), it can decide the pick, and the
  /// Swift clusters through the filter's query with the strategy that won
  /// there.
  @Test func theFilterSessionIsWeighedAndTheSwiftPassesTheFilter() {
    let all = ["viewport": 1 * ms, "cluster/aggregate": 0.2 * ms, "tap/range": 0.1 * ms, "nearest/k=100": 0.2 * ms]
    var rows = candidate(
      "kdtree", params: "nodeSize=128;threads=auto", p99s: all.merging(["filters/single-pass": 3.9 * ms]) { a, _ in a },
      bytes: 20_000_000)
    rows.append(verdictRow("kdtree", "nodeSize=128;threads=auto;rebuildShare=0.05", 1_000_000, "live", "buffered",
                           p99: 4 * ms, bytes: 40_000_000, build: 50))
    rows += candidate("celltree", p99s: all.merging(["filters/aggregate": 0.3 * ms]) { a, _ in a }, bytes: 20_000_000)
    rows.append(verdictRow("celltree", "", 1_000_000, "live", "buffered", p99: 4 * ms, bytes: 40_000_000, build: 50))
    let v = Verdict.all(in: rows, budget: FrameBudget(live: true))[0]
    #expect(v.lines.count <= 16, "\(v.lines.joined(separator: "\n"))")
    // without the filter session the kd-tree would win (same speed, built the same; it is first):
    // its filtered p99 takes 94% of the share, the cell tree's 7%
    #expect(v.winner.index == "celltree", "\(v.lines.joined(separator: "\n"))")
    let cluster = v.lines.first { $0.hasPrefix("  cluster ") } ?? ""
    #expect(cluster.hasSuffix("(aggregate); under filters 300 µs 7%"), "\(cluster)")
    #expect(!v.lines.contains { $0.hasPrefix("  filters ") }, "folded into the cluster line")
    #expect(v.lines.contains { $0.contains("runner-up: kdtree") && $0.contains("filters p99") })
    #expect(v.swift.contains {
      $0.hasPrefix("try clusterer.cluster(viewport, strategy: .aggregate, query: query, into: &markers, aggregates: &values)")
    }, "\(v.swift)")

    // its strategy named where it differs from the cluster's
    let kd = Verdict.all(in: rows.filter { $0.key.index == "kdtree" }, budget: FrameBudget())[0]
    #expect(kd.lines.contains { $0.hasSuffix("(aggregate); under filters 3.9 ms 94% (single-pass)") }, "\(kd.lines)")
    #expect(kd.swift.contains { $0.contains("strategy: .singlePass, query: query") })

    // a cluster row of a filtered run: the Swift passes the filter too
    var filtered = candidate("grid", p99s: ["cluster/per-cell": 1 * ms], bytes: 20_000_000)
    for k in filtered.indices where filtered[k].key.workload == "cluster" { filtered[k].key.filter = "stars >= 4" }
    let g = Verdict.all(in: filtered, budget: FrameBudget())[0]
    #expect(g.lines.contains { $0.hasSuffix("(per-cell, filtered)") }, "\(g.lines)")
    #expect(g.swift.contains { $0.contains("strategy: .perCell, query: query") })
    // and none without a filter
    let plain = Verdict.all(in: candidate("grid", p99s: ["cluster/per-cell": 1 * ms], bytes: 20_000_000), budget: FrameBudget())[0]
    #expect(!plain.swift.contains { $0.contains("query") } && !plain.lines.contains { $0.contains("filter") })
  }

  /// The issue's case: the grid wins at 23% of the cluster share because
  /// anything under 25% counts as fast enough, and it is smaller; the cell
  /// tree takes under 1%. A device 1/0.23 times slower makes the grid miss;
  /// one 0.25/0.23 times slower already picks the cell tree.
  @Test func theHeadroomSaysHowMuchSlowerADeviceMayBe() throws {
    let share = budget.allowance(for: "cluster")!
    let rows = candidate("grid", p99s: ["viewport": 0.10 * share, "cluster/aggregate": 0.23 * share], bytes: 20_000_000)
      + candidate("celltree", p99s: ["viewport": 0.12 * share, "cluster/aggregate": 0.008 * share], bytes: 24_000_000)
    let v = Verdict.all(in: rows, budget: budget)[0]
    #expect(v.winner.index == "grid" && v.decider == .memory)
    let h = v.headroom
    #expect(abs(try #require(h.untilMiss) - 1 / 0.23) < 1e-9)
    let change = try #require(h.change)
    #expect(abs(change.factor - 0.25 / 0.23) < 1e-9)
    #expect(change.choice.index == "celltree")
    // exact: just short of the factor the grid still wins, just past it not
    let before = Verdict(v.ranking.map { $0.slowed(by: change.factor * (1 - 1e-6)) }, budget: budget)!
    let after = Verdict(v.ranking.map { $0.slowed(by: change.factor * (1 + 1e-6)) }, budget: budget)!
    #expect(before.winner.index == "grid" && after.winner.index == "celltree")
    #expect(v.lines.contains("  headroom: meets the budget on a device up to 4.3× slower; from 1.09× slower the pick is celltree"),
            "\(v.lines.joined(separator: "\n"))")
  }

  /// A choice alone keeps the pick however slow the device; one that misses
  /// the budget here has no headroom to give.
  @Test func aChoiceAloneKeepsItsPickAndAMissHasNoHeadroom() throws {
    let share = budget.allowance(for: "cluster")!
    let alone = Verdict.all(in: candidate("kdtree", p99s: ["cluster/aggregate": 0.5 * share], bytes: 1), budget: budget)[0]
    #expect(alone.headroom.untilMiss == 2)
    #expect(alone.headroom.change == nil)
    #expect(alone.lines.contains("  headroom: meets the budget on a device up to 2.0× slower; no slower device changes the pick"))
    let over = Verdict.all(in: candidate("kdtree", p99s: ["cluster/aggregate": 1.5 * share], bytes: 1), budget: budget)[0]
    #expect(!over.met && over.headroom.untilMiss == nil)
    #expect(over.lines.contains { $0.hasPrefix("  headroom: misses the budget here") })
  }

  @Test func aMapThatDoesNotClusterGetsAViewportQueryInSwift() {
    let rows = candidate("grid", p99s: ["viewport": 1 * ms, "tap/range": 0.1 * ms], bytes: 20_000_000)
    let v = Verdict.all(in: rows, budget: budget)[0]
    #expect(v.swift == [
      "let index = try GridHashIndex(points: points)",
      "index.query(in: visibleRect, into: &ids)   // ids: [Int32], reused",
    ])
  }

  /// A workload the budget names is weighed from its rows with nothing
  /// else to change: here one that is no workload of the catalogue.
  @Test func aWorkloadWithAShareIsWeighed() {
    var rows = candidate("grid", p99s: ["viewport": 1 * ms], bytes: 20_000_000)
    rows.append(verdictRow("grid", "", 1_000_000, "filter", "", p99: 2 * ms, bytes: 20_000_000, build: 50))
    let budget = FrameBudget(workloads: [
      BudgetedWorkload(name: "viewport", share: 0.25), BudgetedWorkload(name: "filter", share: 0.1),
    ])
    let v = Verdict.all(in: rows, budget: budget)[0]
    #expect(v.lines.contains { $0.hasPrefix("  filter   p99") && $0.contains("of its 1.67 ms") }, "\(v.lines)")
  }

  @Test func theMainJobsVerdictSaysWhatItDidNotMeasure() {
    let rows = candidate("kdtree", p99s: ["viewport": 1 * ms, "cluster/aggregate": 1 * ms], bytes: 20_000_000)
    let v = Verdict.all(in: rows, budget: budget)[0]
    #expect(v.lines.contains { $0 == "  not measured, so not weighed: tap, nearest" })
  }
}

@Suite struct DataWarningsTests {
  @Test func cleanDataHasNoWarning() {
    let points = (0..<100).map { Point(x: Double($0) * 0.5, y: Double($0) * 0.3) }
    #expect(DataWarnings.check(points).isEmpty)
  }

  @Test func duplicatesPolesTinyAndWorldWideExtentsAreNamed() {
    let dup = DataWarnings.check([Point(x: 1, y: 1), Point(x: 1, y: 1), Point(x: 2, y: 2)])
    #expect(dup.count == 1 && dup[0].hasPrefix("1 points (33.3%) repeat an earlier point"))
    let pole = DataWarnings.check([Point(x: 1, y: 89), Point(x: 2, y: 2)])
    #expect(pole.contains { $0.contains("beyond the Web Mercator latitude") })
    let tiny = DataWarnings.check([Point(x: 2.35, y: 48.85), Point(x: 2.3501, y: 48.8501)])
    #expect(tiny.contains { $0.contains("span less than") })
    let world = DataWarnings.check([Point(x: -120, y: 0), Point(x: 0, y: 1), Point(x: 120, y: 2)])
    #expect(world.contains { $0.contains("span 240° of longitude: a world-wide map") }, "\(world)")
    #expect(DataWarnings.check([]) == ["no points: every answer is empty"])
  }

  /// Longitudes wrap: -180° and +180° are one meridian, and points either
  /// side of it are close. A set all on the antimeridian, or all at one
  /// pole (where every longitude meets), is one spot, not a world-wide map.
  @Test(arguments: [
    ("the antimeridian, both signs", [Point(x: -180, y: 60), Point(x: 180, y: 60), Point(x: 180, y: 60)]),
    ("the north pole", [Point(x: -170, y: 90), Point(x: 0, y: 90), Point(x: 170, y: 90), Point(x: 10, y: 90)]),
    ("the south pole", [Point(x: -180, y: -90), Point(x: 180, y: -90), Point(x: 45, y: -90)]),
  ])
  func oneSpotIsTinyWhateverItsLongitudes(_ place: String, _ points: [Point]) {
    let warnings = DataWarnings.check(points)
    #expect(!warnings.contains { $0.contains("world-wide") }, "\(place): \(warnings)")
    #expect(warnings.contains { $0.contains("span less than") }, "\(place): \(warnings)")
  }

  /// Points either side of the antimeridian span the gap between them.
  @Test func anExtentAcrossTheAntimeridianIsItsNarrowWay() {
    let pacific = DataWarnings.check([Point(x: 179, y: 0), Point(x: -179, y: 1), Point(x: 170, y: 2)])
    #expect(pacific.isEmpty, "\(pacific)")
    let wide = DataWarnings.check((0..<36).map { Point(x: Double($0) * 10 - 175, y: 0) })
    #expect(wide.contains { $0.contains("span 350° of longitude") }, "\(wide)")
  }

  /// A duplicate is a point equal to an earlier one, wherever it lies in
  /// the data; 0 and −0 are the same coordinate, as for the indexes.
  @Test func duplicatesAreCountedWhereverTheyLie() {
    let a = Point(x: 3, y: 1), b = Point(x: 1, y: 3), c = Point(x: 1, y: 1)
    let points = [a, b, c, a, Point(x: 0, y: 2), b, a, Point(x: -0.0, y: 2), Point(x: 3, y: 1.5)]
    let warnings = DataWarnings.check(points)
    #expect(warnings.count == 1 && warnings[0].hasPrefix("4 points (44.4%) repeat an earlier point"))
  }

  /// The count equals a set's on data with many duplicates (a lattice
  /// repeated, shuffled, enough points that the table's probes wrap and
  /// its slots collide), on data without any, and on one point repeated.
  @Test(arguments: [1, 3, 50])
  func theDuplicateCountIsASetsCount(repeats: Int) {
    var state = UInt64(repeats)  // a seeded shuffle
    func next(below n: Int) -> Int {
      state = state &* 6364136223846793005 &+ 1442695040888963407
      return Int((state >> 33) % UInt64(n))
    }
    var points: [Point] = []
    for r in 0..<repeats {
      for i in 0..<(3000 / repeats) { points.append(Point(x: Double(i % 97) * 0.5, y: Double(i / 97 + r % 2) * -0.25)) }
    }
    for i in stride(from: points.count - 1, to: 0, by: -1) { points.swapAt(i, next(below: i + 1)) }
    #expect(DuplicateCount.of(points) == points.count - Set(points).count)
    let same = [Point](repeating: Point(x: -0.0, y: 7), count: 1000) + [Point(x: 0, y: 7)]
    #expect(DuplicateCount.of(same) == 1000)
    #expect(DuplicateCount.of([Point(x: .nan, y: 0), Point(x: .nan, y: 0)]) == 0)
  }
}
