import SpatialIndexes
import Testing

/// The four indexes whose build runs on threads take the `threads`
/// parameter by one rule: `auto` in any letter case or a count in 1...256,
/// the same refusals from `set(_:to:)` and from a build given a count
/// directly, the same words in `bench list`, the same value in a report.
@Suite struct BuildThreadsTests {
  @Test func everyParallelBuildReadsThreadsAlike() throws {
    try check(KDTreeIndex.self, \.threads)
    try check(GridHashIndex.self, \.threads)
    try check(CellTree.self, \.threads)
    try check(BucketQuadtree.self, \.threads)
  }

  func check<I: DescribedIndex>(
    _ type: I.Type, _ threads: WritableKeyPath<I.Parameters, Int?>,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let points = [Point(x: 1, y: 2), Point(x: 3, y: 4)]
    var p = I.Parameters()
    #expect(p[keyPath: threads] == nil, "\(I.name): auto by default", sourceLocation: sourceLocation)
    for (text, count) in [("3", 3), ("1", 1), ("256", 256), ("auto", nil), ("AUTO", nil), ("Auto", nil)] {
      p[keyPath: threads] = 7
      try p.set("threads", to: text)
      #expect(p[keyPath: threads] == count, "\(I.name): threads=\(text)", sourceLocation: sourceLocation)
    }
    for (text, reason) in [("0", "must be in 1...256"), ("257", "must be in 1...256"), ("-1", "must be in 1...256"),
                           ("two", "not an integer"), ("", "not an integer")] {
      #expect(throws: IndexError.invalidParameter(name: "threads", value: text, reason: reason),
              "\(I.name): threads=\(text)", sourceLocation: sourceLocation) { try p.set("threads", to: text) }
    }
    // a library caller who sets the count directly gets the same refusal from the build
    for count in [0, 257, -4] {
      var direct = I.Parameters()
      direct[keyPath: threads] = count
      #expect(throws: IndexError.invalidParameter(name: "threads", value: "\(count)", reason: "must be in 1...256"),
              "\(I.name): threads \(count)", sourceLocation: sourceLocation) {
        try I(points: points, parameters: direct)
      }
    }
    let description = try #require(I.Parameters.descriptions.first { $0.name == "threads" })
    #expect(description.defaultValue == "auto", sourceLocation: sourceLocation)
    #expect(description.summary.hasPrefix("threads ")
              && description.summary.contains(" uses (1...256, auto: every core); the "),
            "\(I.name): \(description.summary)", sourceLocation: sourceLocation)
    #expect(try I(points: points).parameterValues.contains(ParameterValue("threads", "auto")),
            sourceLocation: sourceLocation)
    var two = I.Parameters()
    two[keyPath: threads] = 2
    #expect(try I(points: points, parameters: two).parameterValues.contains(ParameterValue("threads", "2")),
            sourceLocation: sourceLocation)
  }
}
