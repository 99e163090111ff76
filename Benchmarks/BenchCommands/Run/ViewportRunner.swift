import SpatialIndexes

/// The viewport workload: each step queries every point of one viewport
/// (one rectangle, or two where it crosses the antimeridian), through the
/// reused-buffer query a map would use.
struct ViewportRunner<I: SpatialIndex>: StepRunner {
  let index: I
  let steps: [[Rect]]
  var buffer: [Int32] = []

  init(index: I, steps: [[Rect]]) {
    self.index = index
    self.steps = steps
  }

  var stepCount: Int { steps.count }

  @inline(__always)
  mutating func run<C: QueryCounters>(step: Int, counters: inout C) -> StepResult {
    buffer.removeAll(keepingCapacity: true)
    for rect in steps[step] {
      index.query(in: rect, into: &buffer, counters: &counters)
    }
    var digest: UInt64 = 0
    for id in buffer { digest &+= mix64(UInt64(UInt32(bitPattern: id))) }
    return StepResult(digest: digest, count: buffer.count)
  }

  mutating func canonicalAnswer(step: Int) -> [Int64] {
    var none = NoCounters()
    _ = run(step: step, counters: &none)
    return buffer.map { Int64($0) }.sorted()
  }
}

/// Building the index, as a workload of one step per repetition.
struct BuildRunner<I: SpatialIndex>: StepRunner {
  let points: [Point]
  let parameters: I.Parameters
  var stepCount: Int { 1 }

  mutating func run<C: QueryCounters>(step: Int, counters: inout C) -> StepResult {
    // Parameters were checked when the first index was built for the run.
    let index = try! I(points: points, parameters: parameters)
    return StepResult(digest: UInt64(index.count), count: index.count)
  }

  mutating func canonicalAnswer(step: Int) -> [Int64] { [Int64(points.count)] }
}
