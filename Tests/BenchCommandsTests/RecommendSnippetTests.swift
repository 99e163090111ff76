@testable import BenchHarness
import Foundation
import MapClustering
import SpatialIndexes
import Testing

// The Swift `bench recommend` prints, in each form it takes, compiled here.
// Each block between `// recommend:` (the index, its report parameters,
// and the cluster and live strategies measured) and `// end` must be
// what the verdict prints for them, line for line; the tests below then
// run the blocks, so the values a snippet sets also build.

private let points = (0..<300).map { Point(x: Double($0 % 30) * 0.1, y: Double($0 / 30) * 0.1) }
private let viewport = Viewport(center: Point(x: 1.5, y: 0.5), zoom: 8)
private let visibleRect = Rect(minX: 0.5, minY: 0.2, maxX: 1.5, maxY: 0.8)
private let id: Int32 = 7
private let position = Point(x: 1.01, y: 0.42)

private func gridThatClusters() throws -> [ClusterMarker] {
  var markers: [ClusterMarker] = []
  // recommend: grid cellSize=0.43;pointsPerCell=8;storage=dense;threads=auto cluster=aggregate
  var parameters = GridHashIndex.Parameters()
  parameters.pointsPerCell = 8
  var clusterer = try Clusterer<GridHashIndex>(points: points, parameters: parameters)
  clusterer.cluster(viewport, strategy: .aggregate, into: &markers)
  // end
  return markers
}

private let query: PropertyQuery = {
  var properties = PointProperties()
  try! properties.addCategory("chain", values: (0..<300).map { ["a", "b", "c"][$0 % 3] })
  return try! PropertyQuery(filter: PointFilter(parsing: "chain in (a, c)"), aggregates: [], properties: properties)
}()

private func cellTreeThatFilters() throws -> [ClusterMarker] {
  var markers: [ClusterMarker] = []
  var values: [AggregateValue] = []
  // recommend: celltree leafSize=64;threads=auto cluster=aggregate filtered=single-pass
  var parameters = CellTree.Parameters()
  parameters.leafSize = 64
  var clusterer = try Clusterer<CellTree>(points: points, parameters: parameters)
  try clusterer.cluster(viewport, strategy: .singlePass, query: query, into: &markers, aggregates: &values)   // query: the map's filter, a PropertyQuery
  // end
  return markers
}

private func bufferedKDTreeThatMoves() throws -> [ClusterMarker] {
  var markers: [ClusterMarker] = []
  // recommend: kdtree nodeSize=128;threads=auto live=buffered
  var parameters = BufferedIndex<KDTreeIndex>.Parameters()
  parameters.base.nodeSize = 128
  var clusterer = try Clusterer<BufferedIndex<KDTreeIndex>>(points: points, parameters: parameters)
  clusterer.cluster(viewport, strategy: .singlePass, into: &markers)
  _ = try clusterer.move(id: id, to: position)   // as a point moves
  // end
  return markers
}

private func quadtreeThatOnlyQueries() throws -> [Int32] {
  var ids: [Int32] = []
  // recommend: quadtree capacity=32;maxDepth=12;bounds=data;build=inserts;threads=auto
  var parameters = BucketQuadtree.Parameters()
  parameters.capacity = 32
  parameters.maxDepth = 12
  parameters.build = .inserts
  let index = try BucketQuadtree(points: points, parameters: parameters)
  index.query(in: visibleRect, into: &ids)   // ids: [Int32], reused
  // end
  return ids
}

private func cellTreePerCell() throws -> [ClusterMarker] {
  var markers: [ClusterMarker] = []
  // recommend: celltree leafSize=64;threads=auto cluster=per-cell
  var parameters = CellTree.Parameters()
  parameters.leafSize = 64
  var clusterer = try Clusterer<CellTree>(points: points, parameters: parameters)
  clusterer.cluster(viewport, strategy: .perCell, into: &markers)
  // end
  return markers
}

private func gridThatMovesItsPoints() throws -> [ClusterMarker] {
  var markers: [ClusterMarker] = []
  // recommend: grid pointsPerCell=4;threads=auto cluster=single-pass live=move
  var clusterer = try Clusterer<GridHashIndex>(points: points)
  clusterer.cluster(viewport, strategy: .singlePass, into: &markers)
  _ = try clusterer.move(id: id, to: position)   // as a point moves
  // end
  return markers
}

private func rtreeWithDefaults() throws -> [ClusterMarker] {
  var markers: [ClusterMarker] = []
  // recommend: rtree nodeSize=16 cluster=single-pass live=rebuild
  var clusterer = try Clusterer<HilbertRTree>(points: points)
  clusterer.cluster(viewport, strategy: .singlePass, into: &markers)
  // end
  return markers
}

/// The parameters recommend leaves out (they derive from the data, or
/// recommend never varies them) still have a typed form; each line here is
/// what ``TextParameters/swiftAssignment(_:_:on:)`` gives for the
/// `// assignment:` above it.
private func everyOtherParameter() throws {
  var parameters = GridHashIndex.Parameters()
  // assignment: grid cellSize=0.5
  parameters.cellSize = 0.5
  // assignment: grid cellSize=auto
  parameters.cellSize = nil
  // assignment: grid storage=sparse
  parameters.storage = .sparse
  // assignment: grid storage=auto
  parameters.storage = .auto
  // assignment: grid threads=2
  parameters.threads = 2
  _ = try GridHashIndex(points: points, parameters: parameters)
  var tree = BucketQuadtree.Parameters()
  // assignment: quadtree bounds=-180:-90:180:90
  tree.bounds = .world
  // assignment: quadtree bounds=-1:-2:5.5:3
  tree.bounds = .fixed(Rect(minX: -1.0, minY: -2.0, maxX: 5.5, maxY: 3.0))
  // assignment: quadtree bounds=data
  tree.bounds = .data
  // assignment: quadtree threads=auto
  tree.threads = nil
  _ = try BucketQuadtree(points: points, parameters: tree)
  var buffered = BufferedIndex<CellTree>.Parameters()
  // assignment: celltree rebuildShare=0.25 buffered
  buffered.rebuildShare = 0.25
  _ = try BufferedIndex<CellTree>(points: points, parameters: buffered)
}

/// This file's lines, each trimmed of its indent.
private let source = try! String(contentsOfFile: #filePath, encoding: .utf8)
  .split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }

/// The text after `// name:` on each marker line, with the lines that follow
/// it up to `until` (exclusive).
private func blocks(_ name: String, until end: (Int, String) -> Bool) -> [(marker: String, lines: [String])] {
  source.indices.filter { source[$0].hasPrefix("// \(name): ") }.map { start in
    let marker = String(source[start].dropFirst("// \(name): ".count))
    let rest = source[(start + 1)...]
    let stop = rest.indices.first { end($0 - start - 1, source[$0]) } ?? source.endIndex
    return (marker, Array(source[(start + 1)..<stop]))
  }
}

@Suite struct RecommendSnippetTests {
  @Test func everySnippetHereIsWhatRecommendPrints() {
    let snippets = blocks("recommend") { _, line in line == "// end" }
    #expect(snippets.count == 7)
    for (marker, lines) in snippets {
      let words = marker.split(separator: " ").map(String.init)
      let options = Dictionary(words.dropFirst(2).map { w -> (String, String) in
        let kv = w.split(separator: "=", maxSplits: 1).map(String.init)
        return (kv[0], kv[1])
      }, uniquingKeysWith: { a, _ in a })
      let printed = Verdict.swift(
        index: words[0], params: words[1], cluster: options["cluster"], live: options["live"], filtered: options["filtered"])
      #expect(printed == lines, "\(marker)")
    }
  }

  @Test func everyAssignmentHereIsWhatTheParametersGive() throws {
    let assignments = blocks("assignment") { offset, _ in offset == 1 }
    #expect(assignments.count == 10)
    for (marker, lines) in assignments {
      let words = marker.split(separator: " ").map(String.init)
      let kv = words[1].split(separator: "=", maxSplits: 1).map(String.init)
      let type = try #require(indexType(named: words[0]))
      let variable = String(lines[0].prefix { $0 != "." })
      let buffered = words.count > 2
      #expect(Verdict.assignments(type, buffered: buffered, [ParameterValue(kv[0], kv[1])]) == lines.map {
        $0.replacingOccurrences(of: variable + ".", with: "parameters.", options: .anchored)
      }, "\(marker)")
    }
  }

  @Test func theSnippetsRunAndTheirParametersBuild() throws {
    #expect(try !gridThatClusters().isEmpty)
    #expect(try !bufferedKDTreeThatMoves().isEmpty)
    let inside = points.filter {
      $0.x >= visibleRect.minX && $0.x <= visibleRect.maxX && $0.y >= visibleRect.minY && $0.y <= visibleRect.maxY
    }
    #expect(try quadtreeThatOnlyQueries().count == inside.count && !inside.isEmpty)
    #expect(try !cellTreePerCell().isEmpty)
    #expect(try !cellTreeThatFilters().isEmpty)
    #expect(try !gridThatMovesItsPoints().isEmpty)
    #expect(try !rtreeWithDefaults().isEmpty)
    try everyOtherParameter()
  }

  @Test func aTypedAssignmentSetsWhatTheTextFormSets() throws {
    var typed = BucketQuadtree.Parameters()
    typed.capacity = 32
    typed.build = .inserts
    typed.bounds = .fixed(Rect(minX: -1.0, minY: -2.0, maxX: 5.5, maxY: 3.0))
    var text = BucketQuadtree.Parameters()
    try text.set("capacity", to: "32")
    try text.set("build", to: "inserts")
    try text.set("bounds", to: "-1:-2:5.5:3")
    #expect(typed == text)
  }
}
