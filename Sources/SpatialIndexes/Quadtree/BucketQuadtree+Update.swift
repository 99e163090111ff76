extension BucketQuadtree {
  /// Adds `point` under the id ``nextID``.
  ///
  /// Throws ``IndexError/nonFinitePoint(id:point:)``,
  /// ``IndexError/pointOutsideBounds(id:point:bounds:)`` when `point` is
  /// outside ``bounds`` (which, by default, are the bounding box of the points
  /// the tree was built from), or ``IndexError/tooManyPoints(count:limit:)``.
  ///
  /// - Complexity: O(depth), plus O(`capacity`) when the bucket moves in the
  ///   pool, plus an occasional O(*n*) compaction: O(depth + `capacity`) amortised.
  public mutating func insert(_ point: Point) throws(IndexError) -> Int32 {
    guard point.isFinite else { throw .nonFinitePoint(id: idCount, point: point) }
    guard idCount < maximumPointCount else {
      throw .tooManyPoints(count: idCount + 1, limit: maximumPointCount)
    }
    guard bounds.contains(point) else {
      throw .pointOutsideBounds(id: idCount, point: point, bounds: bounds)
    }
    let id = Int32(truncatingIfNeeded: idCount)
    place(point, id: id)
    packed = false
    idCount += 1
    liveCount += 1
    return id
  }

  /// Removes the point `id`, which was added at `point`.
  ///
  /// Follows `point`'s path from the root and looks for `id` in each bucket
  /// on it. Nodes are never merged: emptied buckets and subtrees stay, and a
  /// later insert refills a bucket with room before going further down.
  ///
  /// - Returns: `false` if `id` is not held at `point`.
  /// - Complexity: O(depth · `capacity`), or the size of a depth-cap leaf.
  @discardableResult
  public mutating func remove(id: Int32, at point: Point) -> Bool {
    guard let (node, _, i) = locate(id: id, at: point) else { return false }
    let r = node * Field.stride
    let start = Int(nodes[r + Field.bucketStart]), n = Int(nodes[r + Field.bucketCount])
    // order inside a bucket does not matter: move the last point into the gap
    markUnsorted(node)
    let last = start + n - 1
    ids[i] = ids[last]
    coords[2 * i] = coords[2 * last]
    coords[2 * i + 1] = coords[2 * last + 1]
    nodes[r + Field.bucketCount] = Int32(n - 1)
    liveCount -= 1
    packed = false
    return true
  }

  /// In place when `to` takes the same path as far as the node whose bucket
  /// holds the point (a bucket may hold any point of its node's region, and
  /// the packed layout stays valid); otherwise a removal and an insert of
  /// the same id.
  ///
  /// - Complexity: O(depth · `capacity`), as a removal and an insert.
  @discardableResult
  public mutating func move(id: Int32, from: Point, to: Point) throws(IndexError) -> Bool {
    guard let (node, level, slot) = locate(id: id, at: from) else { return false }
    guard to.isFinite else { throw .nonFinitePoint(id: Int(id), point: to) }
    guard bounds.contains(to) else { throw .pointOutsideBounds(id: Int(id), point: to, bounds: bounds) }
    if node == self.node(on: to, level: level) {
      markUnsorted(node)
      coords[2 * slot] = to.x
      coords[2 * slot + 1] = to.y
      return true
    }
    remove(id: id, at: from)
    place(to, id: id)
    liveCount += 1
    packed = false
    return true
  }

  /// The node whose bucket holds `id` at `point`, its level (the root is
  /// 1), and the point's pool slot.
  func locate(id: Int32, at point: Point) -> (node: Int, level: Int, slot: Int)? {
    guard point.isFinite, bounds.contains(point), id >= 0, Int(id) < idCount else { return nil }
    var node = 0, level = 1
    var box = bounds
    while true {
      let r = node * Field.stride
      let start = Int(nodes[r + Field.bucketStart]), n = Int(nodes[r + Field.bucketCount])
      for i in start..<(start + n) where ids[i] == id {
        guard coords[2 * i] == point.x, coords[2 * i + 1] == point.y else { return nil }
        return (node, level, i)
      }
      let firstChild = Int(nodes[r + Field.firstChild])
      if firstChild < 0 { return nil }
      node = firstChild + Self.descend(&box, toward: point)
      level += 1
    }
  }

  /// The node at `level` on the path of `p` from the root, or -1 when the
  /// path ends above it.
  func node(on p: Point, level: Int) -> Int {
    var node = 0
    var box = bounds
    for _ in 1..<level {
      let firstChild = Int(nodes[node * Field.stride + Field.firstChild])
      if firstChild < 0 { return -1 }
      node = firstChild + Self.descend(&box, toward: p)
    }
    return node
  }

  /// Puts a finite point inside ``bounds`` into the first bucket with room on
  /// its path, splitting a full leaf on the way, then compacts the pool if
  /// moved buckets left it more holes than points.
  mutating func place(_ p: Point, id: Int32) {
    // read-only descent to the first bucket with room or the full leaf to split
    let (capacity, maxDepth) = (Int32(self.capacity), self.maxDepth)
    let (stride, countField, childField) = (Field.stride, Field.bucketCount, Field.firstChild)
    var node = 0
    var box = bounds
    var mustSplit = false
    nodes.withUnsafeBufferPointer { nodes in
      let nodes = nodes.baseAddress!
      var level = 1
      while true {
        let r = node &* stride
        if nodes[r &+ countField] < capacity || level == maxDepth { return }
        let firstChild = Int(nodes[r &+ childField])
        if firstChild < 0 {
          mustSplit = true
          return
        }
        node = firstChild &+ Self.descend(&box, toward: p)
        level &+= 1
      }
    }
    if mustSplit {
      // the full leaf gets four empty children; the point goes to its quadrant's
      let firstChild = nodeCount
      nodes[node * Field.stride + Field.firstChild] = Int32(firstChild)
      nodes.append(contentsOf: Self.emptyChildren)
      node = firstChild + Self.quadrant(of: p, Self.center(of: box))
    }
    append(p, id: id, to: node)
    if holeSlots > ids.count - holeSlots {
      repack(tight: false)
    }
  }

  /// Four leaf records with no bucket.
  static let emptyChildren: [Int32] = [-1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0]

  /// Appends to the bucket of `node`, giving it more slots when it is full.
  private mutating func append(_ p: Point, id: Int32, to node: Int) {
    let r = node * Field.stride
    let n = Int(nodes[r + Field.bucketCount])
    markUnsorted(node)
    if n >= capacity { hasCrowdedLeaves = true }
    if n == Int(nodes[r + Field.bucketSlots]) {
      // up to `capacity`: a first bucket of at most 64 slots, doubled as it
      // fills, so a huge capacity costs nothing until the points come;
      // beyond (depth-cap leaves only): doubling, for O(1) amortised inserts
      let slots = n < capacity ? Swift.min(capacity, Swift.max(64, 2 * n)) : 2 * n
      resizeBucket(node, to: slots)
    }
    let i = Int(nodes[r + Field.bucketStart]) + n
    coords.withUnsafeMutableBufferPointer {
      $0[2 * i] = p.x
      $0[2 * i + 1] = p.y
    }
    ids[i] = id
    nodes[r + Field.bucketCount] = Int32(n + 1)
  }

  /// Gives the bucket of `node` `slots` slots (at least its count).
  ///
  /// The last bucket of the pool grows in place; any other moves to the end
  /// and leaves its old slots as a hole.
  private mutating func resizeBucket(_ node: Int, to slots: Int) {
    let r = node * Field.stride
    let start = Int(nodes[r + Field.bucketStart])
    let n = Int(nodes[r + Field.bucketCount])
    let old = Int(nodes[r + Field.bucketSlots])
    let end = ids.count
    precondition(end + slots <= Int(Int32.max), "quadtree pool exceeds 2^31 slots")
    if old > 0 && start + old == end {
      growPool(by: slots - old)
    } else {
      growPool(by: slots)
      for k in 0..<n {
        ids[end + k] = ids[start + k]
        coords[2 * (end + k)] = coords[2 * (start + k)]
        coords[2 * (end + k) + 1] = coords[2 * (start + k) + 1]
      }
      holeSlots += old
      nodes[r + Field.bucketStart] = Int32(end)
    }
    nodes[r + Field.bucketSlots] = Int32(slots)
  }

  private mutating func growPool(by slots: Int) {
    // contiguous sources take the bulk-copy path, even in a debug build
    coords.append(contentsOf: [Double](repeating: 0, count: 2 * slots))
    ids.append(contentsOf: [Int32](repeating: -1, count: slots))
  }

  /// Repacks the tree after inserts and removals: no holes or spare slots,
  /// arrays of exact size, and every subtree's points in one run of slots,
  /// which queries report without visiting the nodes below. Builds end with it.
  ///
  /// - Complexity: O(*n* + nodes).
  public mutating func compact() {
    repack(tight: true)
  }

  /// Rewrites nodes and pool in depth-first order (a node, then its children's
  /// subtrees in quadrant order), the order queries visit them, with no holes
  /// and arrays of exact capacity.
  ///
  /// With `tight`, each bucket gets exactly its points (the least memory, and
  /// the state ``packed`` names); otherwise it keeps its slots (compaction
  /// between inserts, which leaves room for the next ones).
  ///
  /// - Complexity: O(*n* + nodes).
  mutating func repack(tight: Bool) {
    let slotTotal = tight ? liveCount : ids.count - holeSlots
    var newNodes: [Int32] = []
    var newCoords: [Double] = []
    var newIds: [Int32] = []
    newNodes.reserveCapacity(nodes.count)
    newCoords.reserveCapacity(2 * slotTotal)
    newIds.reserveCapacity(slotTotal)
    newNodes.append(contentsOf: Self.emptyChildren[0..<Field.stride])
    var stack: [(old: Int, new: Int)] = [(0, 0)]
    while let (old, new) = stack.popLast() {
      let r = old * Field.stride, s = new * Field.stride
      let start = Int(nodes[r + Field.bucketStart])
      let n = Int(nodes[r + Field.bucketCount])
      let slots = tight ? n : Int(nodes[r + Field.bucketSlots])
      // empty buckets too start where their subtree starts: queries on a
      // packed tree read a subtree's end from the next sibling's start
      newNodes[s + Field.bucketStart] = Int32(newIds.count)
      newNodes[s + Field.bucketCount] = Int32(n)
      newNodes[s + Field.bucketSlots] = Int32(slots)
      newIds.append(contentsOf: ids[start..<(start + n)])
      newCoords.append(contentsOf: coords[(2 * start)..<(2 * (start + n))])
      newIds.append(contentsOf: repeatElement(-1, count: slots - n))
      newCoords.append(contentsOf: repeatElement(0, count: 2 * (slots - n)))
      let firstChild = Int(nodes[r + Field.firstChild])
      if firstChild >= 0 {
        let newFirst = newNodes.count / Field.stride
        newNodes[s + Field.firstChild] = Int32(newFirst)
        newNodes.append(contentsOf: Self.emptyChildren)
        for q in (0..<4).reversed() {  // popped in quadrant order
          stack.append((firstChild + q, newFirst + q))
        }
      }
    }
    nodes = newNodes
    coords = newCoords
    ids = newIds
    holeSlots = 0
    packed = tight
    sortCrowdedLeaves()
  }
}
