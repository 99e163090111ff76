extension CellTree {
  /// The sections of a saved cell tree: the on-map points (coordinates,
  /// zoom-26 rows, ids) in code order, the nodes, and the off-map points'
  /// k-d tree (its coordinates and positions) with their ids.
  static let savedLayouts = [
    SavedSectionLayout("XY  ", elementSize: 8), SavedSectionLayout("ROWS", elementSize: 4),
    SavedSectionLayout("IDS ", elementSize: 4), SavedSectionLayout("NODE", elementSize: savedNodeSize),
    SavedSectionLayout("OXY ", elementSize: 8), SavedSectionLayout("OPOS", elementSize: 4),
    SavedSectionLayout("OIDS", elementSize: 4),
  ]

  /// Bytes of a saved node: sums (two Int64), start, count, link (Int32),
  /// the box (four Float), the child mask, three zero bytes.
  static let savedNodeSize = 48

  /// Writes the tree, with its points, to `path` (docs/formats.md, "Saved
  /// index"); a file already there is replaced once the new one is complete.
  ///
  /// - Complexity: O(*n*): the arrays as they are, and their checksums.
  public func save(to path: String) throws(SavedIndexError) {
    try _savedFile.write(to: path)
  }

  /// The file ``save(to:)`` writes, ready to write.
  package var _savedFile: SavedFileWriter {
    var nodeBytes = [UInt8](repeating: 0, count: nodes.count * Self.savedNodeSize)
    nodeBytes.withUnsafeMutableBytes { out in
      for (k, node) in nodes.enumerated() {
        let o = k * Self.savedNodeSize
        out.storeBytes(of: node.sumLon.littleEndian, toByteOffset: o, as: Int64.self)
        out.storeBytes(of: node.sumLat.littleEndian, toByteOffset: o + 8, as: Int64.self)
        out.storeBytes(of: node.start.littleEndian, toByteOffset: o + 16, as: Int32.self)
        out.storeBytes(of: node.count.littleEndian, toByteOffset: o + 20, as: Int32.self)
        out.storeBytes(of: node.link.littleEndian, toByteOffset: o + 24, as: Int32.self)
        out.storeBytes(of: node.minLon.bitPattern.littleEndian, toByteOffset: o + 28, as: UInt32.self)
        out.storeBytes(of: node.minLat.bitPattern.littleEndian, toByteOffset: o + 32, as: UInt32.self)
        out.storeBytes(of: node.maxLon.bitPattern.littleEndian, toByteOffset: o + 36, as: UInt32.self)
        out.storeBytes(of: node.maxLat.bitPattern.littleEndian, toByteOffset: o + 40, as: UInt32.self)
        out[o + 44] = node.childMask
      }
    }
    let l = Self.savedLayouts
    return SavedFileWriter(
      kind: Self.name, pointCount: count,
      parameters: [UInt32(parameters.leafSize), UInt32(offMap.parameters.nodeSize)],
      sections: [
        (l[0], .doubles(coords.array)), (l[1], .uint32s(rows.array)), (l[2], .int32s(ids)), (l[3], .bytes(nodeBytes)),
        (l[4], .doubles(offMap.coords.array)), (l[5], .int32s(offMap.ids)), (l[6], .int32s(offMapIDs)),
      ])
  }

  /// Opens a tree saved by ``save(to:)``: it answers every query and sums
  /// every cell as the tree that was saved. Nothing in the file is trusted:
  /// a file that is truncated, corrupt, of another kind or version, or
  /// checksummed but not a tree a walk can take safely, throws an error
  /// naming it.
  ///
  /// - Complexity: O(*n*): one read of each array, its checksum, and the
  ///   structural checks (ids a permutation, points on the map, every node
  ///   reached once, its children side by side inside it, no deeper than
  ///   the deepest level).
  public init(contentsOf path: String) throws(SavedIndexError) {
    try self.init(_mappedContentsOf: path)
  }

  /// ``init(contentsOf:)``, the coordinates and rows mapped from the file
  /// with `map` where the system can map it (``SavedMapping``), read into
  /// memory without. The ids and nodes are read either way: a walk indexes
  /// memory with them, so they are checked where nothing can change them.
  package init(
    contentsOf path: String, map: Bool, timings: inout SavedOpenTimings, externalIDs: inout [UInt64]?
  ) throws(SavedIndexError) {
    self = try Self._open(
      path, layouts: Self.savedLayouts, map: map ? 0..<2 : nil, timings: &timings, externalIDs: &externalIDs,
      read: { file throws(SavedIndexError) in
        (
          coords: try file.mapped(0, as: Double.self), rows: try file.mapped(1, as: UInt32.self),
          ids: try file.read(2, as: Int32.self), nodes: try Self.readNodes(&file),
          offCoords: try file.read(4, as: Double.self), offPositions: try file.read(5, as: Int32.self),
          offIDs: try file.read(6, as: Int32.self)
        )
      },
      make: { sections, parameters, pointCount throws(SavedStructureProblem) in
        let (coords, rows, ids, nodes, offCoords, offPositions, offIDs) = sections
        try SavedStructure.checkUnusedParameters(parameters, used: 2)
        let leafSize = Int(parameters[0])
        guard (1...65536).contains(leafSize) else { throw .init("leafSize \(leafSize) is not in 1...65536") }
        let n = ids.count
        guard coords.count == 2 * n, rows.count == n else {
          throw .init("\(coords.count) coordinates and \(rows.count) rows for \(n) points")
        }
        guard n + offIDs.count == pointCount else {
          throw .init("\(n) points on the map and \(offIDs.count) off it, of \(pointCount)")
        }
        // The three largest checks read different arrays, so they share the
        // cores: the ids' permutation on one, the points on the map and the
        // nodes on the other. Their problems are reported in this order.
        var problems: [String?] = [nil, nil, nil]
        problems.withUnsafeMutableBufferPointer { problems in
          _forEach([0, 1], threads: _coresOnline()) { task in
            if task == 0 {
              do throws(SavedStructureProblem) {
                try SavedStructure.checkPermutation([ids, offIDs], of: pointCount, "ids")
              } catch { problems[0] = error.reason }
            } else {
              problems[1] = Self.firstOffTheMap(coords, count: n).map { "point \($0) in the tree lies off the map" }
              do throws(SavedStructureProblem) { try Self.checkNodes(nodes.nodes, ids: ids) } catch {
                problems[2] = error.reason
              }
            }
          }
        }
        if let p = problems[0] { throw .init(p) }
        let offMap = try KDTreeIndex(
          savedCoords: _FlatArray(offCoords), ids: offPositions, nodeSize: Int(parameters[1]), pointCount: offIDs.count)
        let offMapPoints = offMap._pointsByID()
        if let p = offMapPoints.firstIndex(where: Self.isOnMap) { throw .init("off-map point \(p) lies on the map") }
        if let p = problems[1] { throw .init(p) }
        if let k = nodes.padding { throw .init("node \(k)'s padding is not zero") }
        if let p = problems[2] { throw .init(p) }
        var tree = CellTree(empty: Parameters(leafSize: leafSize))
        tree.coords = coords
        tree.rows = rows
        tree.ids = ids
        tree.nodes = nodes.nodes
        tree.offMap = offMap
        tree.offMapIDs = offIDs
        tree.offMapPoints = offMapPoints
        return tree
      })
  }

  /// The first of the `n` points of `coords` off the map, if any. The
  /// bounds are read once and every point is compared without a branch
  /// (the comparisons of a NaN are false, so it is off the map); the slow
  /// search runs only when one is off.
  static func firstOffTheMap(_ coords: _FlatArray<Double>, count n: Int) -> Int? {
    let lo = WebMercator.latitudeRange.lowerBound, hi = WebMercator.latitudeRange.upperBound
    return coords.withUnsafeBufferPointer { xy -> Int? in
      var off = 0
      for i in 0..<n {
        let x = xy[2 &* i], y = xy[2 &* i &+ 1]
        let on = (x >= -180) && (x <= 180) && (y >= lo) && (y <= hi)
        off &+= on ? 0 : 1
      }
      guard off > 0 else { return nil }
      return (0..<n).first { !isOnMap(Point(x: xy[2 &* $0], y: xy[2 &* $0 &+ 1])) }
    }
  }

  /// Whether ``_CellNode`` lies in memory as a saved node does, so that a
  /// read fills the nodes straight from the file (the offsets of the
  /// saved layout, little-endian; Swift lays out a struct's stored
  /// properties in order, but does not promise it, hence the check).
  static let nodesReadAsSaved: Bool = {
    typealias N = _CellNode
    let offsets = [\N.sumLon, \N.sumLat].map { MemoryLayout<N>.offset(of: $0) }
      + [\N.start, \N.count, \N.link].map { MemoryLayout<N>.offset(of: $0) }
      + [\N.minLon, \N.minLat, \N.maxLon, \N.maxLat].map { MemoryLayout<N>.offset(of: $0) }
      + [MemoryLayout<N>.offset(of: \N.childMask)]
    return 1.littleEndian == 1 && MemoryLayout<N>.stride == savedNodeSize
      && offsets == [0, 8, 16, 20, 24, 28, 32, 36, 40, 44]
  }()

  /// The nodes of section `NODE`, read straight into place where the
  /// layouts agree (``nodesReadAsSaved``), decoded from their bytes
  /// otherwise, and the first node whose three padding bytes are not zero.
  static func readNodes(_ file: inout SavedFileReader) throws(SavedIndexError) -> (nodes: [_CellNode], padding: Int?) {
    if nodesReadAsSaved {
      let nodes = try file.read(3, as: _CellNode.self)
      let padding: Int? = nodes.withUnsafeBytes { b in
        for k in 0..<nodes.count {
          let o = k &* savedNodeSize
          if b[o &+ 45] | b[o &+ 46] | b[o &+ 47] != 0 { return k }
        }
        return nil
      }
      return (nodes, padding)
    }
    let bytes = try file.read(3, as: UInt8.self)
    let count = bytes.count / savedNodeSize
    var nodes = [_CellNode](repeating: _CellNode(start: 0, count: 0), count: count)
    let padding: Int? = bytes.withUnsafeBytes { b in
      for k in 0..<count {
        let o = k * savedNodeSize
        guard b[o + 45] == 0, b[o + 46] == 0, b[o + 47] == 0 else { return k }
        func i32(_ at: Int) -> Int32 { Int32(littleEndian: b.loadUnaligned(fromByteOffset: o + at, as: Int32.self)) }
        func f32(_ at: Int) -> Float {
          Float(bitPattern: UInt32(littleEndian: b.loadUnaligned(fromByteOffset: o + at, as: UInt32.self)))
        }
        var node = _CellNode(start: i32(16), count: i32(20))
        node.sumLon = Int64(littleEndian: b.loadUnaligned(fromByteOffset: o, as: Int64.self))
        node.sumLat = Int64(littleEndian: b.loadUnaligned(fromByteOffset: o + 8, as: Int64.self))
        node.link = i32(24)
        node.minLon = f32(28); node.minLat = f32(32); node.maxLon = f32(36); node.maxLat = f32(40)
        node.childMask = b[o + 44]
        nodes[k] = node
      }
      return nil
    }
    return (nodes, padding)
  }

  /// Throws unless every walk over `nodes` stays in bounds: every node
  /// reached once from the root, none empty, each one's points inside the
  /// points, an inner node's children after it, side by side and covering
  /// its points, no inner node at the deepest level (the walks' stacks are
  /// sized by it), a leaf's first id its first point's.
  static func checkNodes(_ nodes: [_CellNode], ids: [Int32]) throws(SavedStructureProblem) {
    let count = nodes.count, n = ids.count
    guard n > 0 else {
      if count > 0 { throw .init("\(count) nodes without points") }
      return
    }
    guard count > 0 else { throw .init("no nodes for \(n) points") }
    guard nodes[0].start == 0, Int(nodes[0].count) == n else { throw .init("the root does not hold every point") }
    // Children come after their parent, so in one pass in order every node
    // is reached (its depth set) before its turn: one not yet reached then
    // never is.
    let unreached = UInt8.max
    var depths = [UInt8](repeating: unreached, count: count)
    depths[0] = 0
    let problem: String? = nodes.withUnsafeBufferPointer { nodes in
      ids.withUnsafeBufferPointer { ids in
        depths.withUnsafeMutableBufferPointer { depths in
          for i in 0..<count {
            let node = nodes[i], depth = depths[i]
            guard depth != unreached else { return "node \(i) is unreachable" }
            let start = Int(node.start), end = start &+ Int(node.count)
            guard node.count > 0, node.start >= 0, end <= n else { return "node \(i) holds points \(start)..<\(end) of \(n)" }
            if node.isLeaf {
              guard node.firstID == ids[start] else { return "leaf \(i)'s first id is not its first point's" }
              continue
            }
            guard node.childMask < 16 else { return "node \(i) has child mask \(node.childMask)" }
            guard Int(depth) < maxDepth else { return "node \(i) has children below the deepest level" }
            let first = Int(node.firstChild), children = node.childMask.nonzeroBitCount
            guard first > i, first &+ children <= count else {
              return "node \(i)'s children \(first)..<\(first &+ children) are out of place"
            }
            var next = start
            for child in first..<(first &+ children) {
              guard depths[child] == unreached else { return "node \(child) is reached twice" }
              guard Int(nodes[child].start) == next else { return "node \(i)'s children are not side by side" }
              depths[child] = depth &+ 1
              next &+= Swift.max(0, Int(nodes[child].count))
            }
            guard next == end else { return "node \(i)'s children do not cover its points" }
          }
          return nil
        }
      }
    }
    if let problem { throw .init(problem) }
  }

  /// A tree with no points, its arrays to be filled.
  private init(empty parameters: Parameters) {
    self.parameters = parameters
    coords = _FlatArray()
    rows = _FlatArray()
    ids = []
    nodes = []
    offMap = try! KDTreeIndex(points: [])
    offMapIDs = []
    offMapPoints = []
  }

  /// The points by id, as the tree was built from them.
  package func _pointsByID() -> [Point] {
    var points = [Point](repeating: Point(x: 0, y: 0), count: count)
    for (k, id) in ids.enumerated() { points[Int(id)] = Point(x: coords[2 * k], y: coords[2 * k + 1]) }
    for (k, id) in offMapIDs.enumerated() { points[Int(id)] = offMapPoints[k] }
    return points
  }
}
