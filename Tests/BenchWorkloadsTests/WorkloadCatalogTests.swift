import BenchFormats
import BenchHarness
import MapClustering
import SpatialIndexes
import Testing
import _SpatialTestSupport

@testable import BenchWorkloads

/// The registry is the one place a workload is declared: every command reads
/// it, so a workload missing a part fails here, not in a user's run.
@Suite struct WorkloadCatalogTests {
  static let names = WorkloadCatalog.names

  /// The steps of a small session with points in view at every zoom.
  static let data: WorkloadData = {
    let points = Fixtures.clustered(3000, seed: 5) + Fixtures.uniform(500, seed: 6)
    let session = ViewportSession(points: points, parameters: SessionParameters(steps: 60, seed: 7))
    return WorkloadData(points: points, steps: MapSteps(session: session))
  }()

  /// The data with the filter session's filters on made-up properties (a
  /// category chip, a slider), for the `filters` workload.
  static let filteredData: WorkloadData = {
    var data = Self.data
    let n = data.points.count
    let properties = PropertyTable(columns: [
      .category(CategoryColumn(name: "kind", values: (0..<n).map { "k\($0 % 5)" as String? })),
      .decimal(DecimalColumn(name: "value", scale: 1, units: (0..<n).map { Int64($0 % 97) })),
    ])
    let controls = FilterSession(chips: ["kind"], slider: ("value", true), aggregates: [])
    data.sessionFilter = try! controls.compiled(properties, steps: data.steps.count, seed: 7)
    return data
  }()

  /// recommend and the HTML report weigh what each workload declares: a
  /// quarter of a frame for each map operation, half for a live frame,
  /// which counts only for data that change; nearest's k are questions.
  @Test func theFrameBudgetIsWhatTheWorkloadsDeclare() {
    let budgeted = WorkloadCatalog.budgeted
    #expect(budgeted.map(\.name) == WorkloadCatalog.all.filter { $0.frameShare != nil }.map { $0.name })
    #expect(budgeted.map(\.share) == [0.25, 0.25, 0.25, 0.25, 0.25, 0.5])
    #expect(budgeted.filter(\.onlyWhenLive).map(\.name) == [LiveWorkload.name])
    #expect(budgeted.filter(\.variantsAreQuestions).map(\.name) == [NearestWorkload.name])
    #expect(budgeted.filter(\.onlyWithProperties).map(\.name) == [FilterSessionWorkload.name])
    #expect(FrameBudget().counted.map(\.name) == budgeted.filter { !$0.onlyWhenLive }.map(\.name))
    #expect(FrameBudget(live: true).allowance(for: LiveWorkload.name) == 0.5 * 1e9 / 60)
  }

  @Test func everyWorkloadIsFoundByItsNameInAnyCase() throws {
    struct Name: WorkloadTypeOperation {
      func run<W: Workload>(_ type: W.Type) throws -> String { W.name }
    }
    var op = Name()
    for name in Self.names {
      #expect(try withWorkloadType(named: name, &op) == name)
      #expect(try withWorkloadType(named: name.uppercased(), &op) == name)
    }
    #expect(try withWorkloadType(named: "nothing", &op) == nil)
    #expect(Set(Self.names).count == Self.names.count, "names are unique")
    #expect(!Self.names.contains(WorkloadCatalog.buildName))
  }

  @Test(arguments: names)
  func everyWorkloadDeclaresEveryPart(name: String) throws {
    let type = try #require(WorkloadCatalog.type(named: name))
    #expect(!type.summary.isEmpty)
    #expect(!type.answerColumns.isEmpty)
    #expect(!type.variants.isEmpty)
    #expect(type.variants.contains(type.referenceVariant))
    #expect(!type.answerColumns.contains("query"), "query is the first column of every answer file")
  }

  /// Each variant's runner answers every step, its answers write rows of the
  /// declared columns numbered by step, and the verify rule tells two
  /// different answers apart in words.
  @Test(arguments: names)
  func runnersWritersAndVerifyRulesWork(name: String) throws {
    let type = try #require(WorkloadCatalog.type(named: name))
    let data = name == FilterSessionWorkload.name ? Self.filteredData : Self.data
    let index = try KDTreeIndex(points: data.points)
    var bind = BindWorkload(
      index: index, data: data, variants: type.variants,
      visitor: Probe(ids: (0..<UInt64(Self.data.points.count)).map { $0 }))
    _ = try withWorkloadType(named: name, &bind)
    let probe = bind.visitor
    #expect(probe.visited == type.variants.filter { type.runs($0, on: KDTreeIndex.self) }, "one runner per variant that runs, in order")
    #expect(probe.steps == Self.data.steps.count)
    #expect(probe.rows > 0, "\(name) wrote no answer row")
    #expect(probe.badRows.isEmpty, "\(probe.badRows.prefix(3))")
    #expect(probe.differences > 0, "\(name): no two steps differ, or the rule says nothing")
  }

  /// Runs each runner it is given and checks what the workload writes.
  struct Probe: WorkloadVisitor {
    let ids: [UInt64]
    var visited: [String] = []
    var steps = 0
    var rows = 0
    var badRows: [String] = []
    var differences = 0

    mutating func visit<W: Workload, R: StepRunner>(
      _ workload: W.Type, variant: String, _ runner: inout R
    ) throws where R.Answer == W.Answer {
      visited.append(variant)
      steps = runner.stepCount
      let answers = (0..<runner.stepCount).map { runner.answer(step: $0) }
      for (step, answer) in answers.enumerated() {
        var csv = CSVWriter()
        W.writeAnswer(answer, query: step, ids: ExternalIDs(ids), to: &csv)
        for line in csv.text.split(separator: "\n") {
          rows += 1
          let fields = line.split(separator: ",", omittingEmptySubsequences: false)
          if fields.count != W.answerColumns.count + 1 || fields[0] != "\(step)" { badRows.append(String(line)) }
        }
      }
      for (a, b) in zip(answers, answers.dropFirst()) where a != b {
        if !W.difference(expected: a, got: b).isEmpty { differences += 1 }
      }
    }
  }
}
