import SpatialIndexes
import Testing
import _SeededRandom
import _SpatialTestSupport

/// The one model check for every ``DynamicSpatialIndex`` in the catalogue:
/// seeded inserts (duplicates, points inside the data, points far outside),
/// removals (valid, repeated, at the wrong place, of ids never issued) and
/// moves (a step away, across the data, from the wrong place)
/// run on the index and on a plain array model (``IndexChecker``), with the
/// index's invariants and every query form checked after each batch. A new
/// dynamic index is covered by adding it to `allIndexTypes`.
@Suite struct DynamicModelTests {
  /// The dynamic indexes of the catalogue.
  static let dynamicNames = allIndexTypes.filter { $0 is any DynamicSpatialIndex.Type }.map { $0.name }

  /// Parameters besides the defaults that stress an index's update paths
  /// (`name=value;…`); an index not listed runs with its defaults only.
  static let variants: [String: [String]] = [
    "quadtree": ["capacity=1", "capacity=4;maxDepth=6"],
    "grid": ["cellSize=0.5;storage=sparse", "cellSize=3;storage=dense"],
  ]

  /// The starting data: random, clustered, none, one place, a small box
  /// that later points fall outside of.
  static func starts() -> [(String, [Point])] {
    [("uniform 1000", Fixtures.uniform(1000, seed: 21)),
     ("clustered 300", Fixtures.clustered(300, blobs: 5, seed: 23)),
     ("empty", []),
     ("identical 500", Fixtures.identical(500)),
     ("small box 500", Fixtures.uniform(500, seed: 22, in: Rect(minX: 2, minY: 48, maxX: 3, maxY: 49)))]
  }

  @Test func theCatalogueHasDynamicIndexes() {
    #expect(Self.dynamicNames.count >= 3, "\(Self.dynamicNames)")
  }

  @Test(arguments: dynamicNames)
  func updatesMatchTheModel(indexName: String) throws {
    let dynamic = indexType(named: indexName) as? any (DynamicSpatialIndex & DescribedIndex).Type
    let type = try #require(dynamic)
    try run(type, indexName)
  }

  /// A move is a removal plus an insert that keeps the id: moves that stay
  /// in their node or cell (the in-place paths) and moves across the data,
  /// done on one copy of the index, and as `remove` then `insert` on
  /// another, leave both answering every query alike, the inserted id read
  /// as the moved one, and each index's invariants hold.
  @Test(arguments: dynamicNames)
  func aMoveIsARemovalAndAnInsert(indexName: String) throws {
    let dynamic = indexType(named: indexName) as? any (DynamicSpatialIndex & DescribedIndex).Type
    let type = try #require(dynamic)
    try compareMoves(type)
  }

  private func compareMoves<I: DynamicSpatialIndex & DescribedIndex>(_ type: I.Type) throws {
    for (s, (label, start)) in Self.starts().enumerated() where !start.isEmpty {
      var g = SplitMix64(seed: 0x40E ^ UInt64(s))
      var moved = try I(points: start), replaced = try I(points: start)
      var now = start  // where each of the original ids is
      var original: [Int32: Int32] = [:]  // an id `replaced` gave → the original id
      var current = Array(0..<Int32(start.count))  // the original id's id in `replaced`
      let box = Rect(bounding: start)!
      for step in 1...600 {
        let id = Int32(g.nextInt(below: start.count))
        let from = now[Int(id)]
        let near = g.nextInt(below: 3) > 0
        let to = near
          ? Point(x: min(box.maxX, max(box.minX, from.x + g.nextDouble(in: -1e-4, 1e-4))),
                  y: min(box.maxY, max(box.minY, from.y + g.nextDouble(in: -1e-4, 1e-4))))
          : Point(x: g.nextDouble(in: box.minX, box.maxX), y: g.nextDouble(in: box.minY, box.maxY))
        let didMove = try moved.move(id: id, from: from, to: to)
        let didRemove = replaced.remove(id: current[Int(id)], at: from)
        #expect(didMove && didRemove, "\(I.name) \(label), step \(step)")
        let newID = try replaced.insert(to)
        original[newID] = id
        current[Int(id)] = newID
        now[Int(id)] = to
        guard step % 150 == 0 else { continue }
        for index in [moved, replaced] as [I] {
          let checkable = try #require(index as? any InvariantChecking)
          #expect(checkable._invariantViolations().isEmpty, "\(I.name) \(label), step \(step)")
        }
        for rect in QueryFixtures.queries(for: now, count: 40, seed: UInt64(step)) + [.world] {
          var a: [Int32] = [], b: [Int32] = []
          moved.query(in: rect, into: &a)
          replaced.query(in: rect, into: &b)
          let mapped = b.map { original[$0] ?? $0 }.sorted()
          #expect(a.sorted() == mapped, "\(I.name) \(label), step \(step), \(rect)")
          #expect(moved.count(in: rect) == a.count)
        }
      }
    }
  }

  /// A static index behind ``BufferedIndex`` passes the same model check,
  /// with a share small enough that the churn triggers dozens of rebuilds
  /// (each installed while later changes pile up), and with the default.
  @Test(arguments: ["kdtree", "rtree", "celltree", "linear"], [0.01, 0.05])
  func bufferedIndexesMatchTheModel(base: String, share: Double) throws {
    struct Churn: IndexTypeOperation {
      let test: DynamicModelTests
      let share: Double
      func run<I: DescribedIndex>(_ type: I.Type) throws {
        let parameters = BufferedParameters(base: I.Parameters(), rebuildShare: share)
        for (s, (label, start)) in DynamicModelTests.starts().enumerated() {
          try test.churn(
            BufferedIndex<I>.self, start, parameters, seed: UInt64(s), "buffered \(I.name) \(share) on \(label)")
        }
      }
    }
    var churn = Churn(test: self, share: share)
    _ = try withIndexType(named: base, &churn)
  }

  private func run<I: DynamicSpatialIndex & DescribedIndex>(_ type: I.Type, _ name: String) throws {
    var parameterSets = [I.Parameters()]
    for text in Self.variants[name] ?? [] {
      var p = I.Parameters()
      for pair in text.split(separator: ";") {
        let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
        try p.set(kv[0], to: kv[1])
      }
      parameterSets.append(p)
    }
    for (k, parameters) in parameterSets.enumerated() {
      for (s, (label, start)) in Self.starts().enumerated() {
        try churn(I.self, start, parameters, seed: UInt64(100 * k + s), "\(name) #\(k) on \(label)")
      }
    }
  }

  fileprivate func churn<I: DynamicSpatialIndex & DescribedIndex>(
    _ type: I.Type, _ start: [Point], _ parameters: I.Parameters, seed: UInt64, _ what: String
  ) throws {
    var g = SplitMix64(seed: 0xD1A ^ seed)
    var index = try I(points: start, parameters: parameters)
    var model = IndexChecker(points: start)
    var live = Array(0..<Int32(start.count))
    let box = start.isEmpty ? Rect.world : Rect(
      minX: start.map(\.x).min()!, minY: start.map(\.y).min()!,
      maxX: start.map(\.x).max()!, maxY: start.map(\.y).max()!)
    var insideInserts = 0
    for step in 1...1200 {
      let roll = g.nextInt(below: 20)
      if live.isEmpty || roll < 11 {
        // inside the data's box (every index takes these), a duplicate, or far outside
        let far = roll == 0
        let p: Point
        if far {
          p = Point(x: g.nextDouble(in: -180, 180), y: g.nextDouble(in: -90, 90))
        } else if roll == 1, !model.points.isEmpty {
          p = model.points[g.nextInt(below: model.points.count)]
        } else {
          p = Point(x: g.nextDouble(in: box.minX, box.maxX), y: g.nextDouble(in: box.minY, box.maxY))
        }
        let before = (index.count, index.nextID)
        do {
          let id = try index.insert(p)
          #expect(id == model.insert(p), "\(what), step \(step)")
          live.append(id)
          if !far { insideInserts += 1 }
        } catch {
          // an index with fixed bounds may refuse a point outside them, and
          // then holds what it held
          #expect(far, "\(what), step \(step): refused \(p) inside the data: \(error)")
          #expect(index.count == before.0 && index.nextID == before.1, "\(what): a refused insert changed the index")
        }
      } else if roll < 12 {
        // bogus removals: a live id at the wrong place, an id never issued
        let id = live[g.nextInt(below: live.count)]
        let p = model.points[Int(id)]
        let wrongPlace = index.remove(id: id, at: Point(x: p.x + 0.001, y: p.y))
        let neverIssued = index.remove(id: index.nextID &+ 5, at: p)
        let negative = index.remove(id: -1, at: p)
        #expect(!wrongPlace && !neverIssued && !negative, "\(what), step \(step)")
      } else if roll < 16 {
        // a move: a few metres (most stay in their node or cell), across the
        // data, or far; from the wrong place it is refused
        let id = live[g.nextInt(below: live.count)]
        let from = model.points[Int(id)]
        let to: Point
        switch g.nextInt(below: 4) {
        case 0: to = Point(x: g.nextDouble(in: box.minX, box.maxX), y: g.nextDouble(in: box.minY, box.maxY))
        case 1: to = Point(x: g.nextDouble(in: -180, 180), y: g.nextDouble(in: -90, 90))
        default:
          to = Point(x: min(box.maxX, max(box.minX, from.x + g.nextDouble(in: -1e-4, 1e-4))),
                     y: min(box.maxY, max(box.minY, from.y + g.nextDouble(in: -1e-4, 1e-4))))
        }
        let wrong = try index.move(id: id, from: Point(x: from.x + 0.001, y: from.y), to: to)
        #expect(!wrong, "\(what), step \(step): a move from the wrong place")
        let inside = box.contains(to)
        do {
          let moved = try index.move(id: id, from: from, to: to)
          #expect(moved && model.move(id: id, to: to), "\(what), step \(step): move \(id)")
        } catch {
          #expect(!inside, "\(what), step \(step): refused a move to \(to) inside the data: \(error)")
        }
      } else {
        let k = g.nextInt(below: live.count)
        let id = live[k]
        live.swapAt(k, live.count - 1)
        live.removeLast()
        let p = model.points[Int(id)]
        let removed = index.remove(id: id, at: p), again = index.remove(id: id, at: p)
        #expect(model.remove(id: id) && removed && !again, "\(what), step \(step): remove \(id)")
      }
      if step % 300 == 0 {
        let checkable = try #require(index as? any InvariantChecking, "\(I.name) has no invariant checker")
        let broken = checkable._invariantViolations()
        #expect(broken.isEmpty, "\(what), step \(step): \(broken)")
        let queries = QueryFixtures.queries(for: model.points, count: 30, seed: UInt64(step))
          + [.world, Rect(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)]
        let problems = model.differences(index, queries: queries)
        #expect(problems.isEmpty, "\(what), step \(step): \(problems.joined(separator: "; "))")
      }
    }
    #expect(index.count == live.count && index.nextID == Int32(model.points.count), "\(what)")
    #expect(insideInserts > 400, "\(what): only \(insideInserts) inserts")
  }
}
