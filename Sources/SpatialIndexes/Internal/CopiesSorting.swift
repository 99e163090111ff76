/// The order that lets a k-nearest search stop early among copies: the
/// points of a crowded leaf, cell or bucket sorted by position, then id.
/// Copies of one place then sit side by side in id order, so a search takes
/// each place's first ids and skips the rest instead of weighing every copy.
/// The grid, the quadtree and the cell tree share it.

/// Whether point `a` comes before point `b` in `coords` (x, y interleaved)
/// and `ids`: by x, then y, then id.
@inline(__always)
func _positionThenID(_ coords: [Double], _ ids: [Int32], _ a: Int, _ b: Int) -> Bool {
  let ax = coords[2 * a], bx = coords[2 * b]
  if ax != bx { return ax < bx }
  let ay = coords[2 * a + 1], by = coords[2 * b + 1]
  if ay != by { return ay < by }
  return ids[a] < ids[b]
}

/// Whether the points in `run` are already in position-then-id order: one
/// pass, so a run of copies built in id order costs no sort.
func _isSortedByPosition(_ run: Range<Int>, coords: [Double], ids: [Int32]) -> Bool {
  guard run.count > 1 else { return true }
  return (run.lowerBound + 1..<run.upperBound).allSatisfy { !_positionThenID(coords, ids, $0, $0 - 1) }
}

/// Sorts the points in `run` by position, then id, moving coordinates and
/// ids together. `order` is scratch the caller keeps between runs.
///
/// - Complexity: O(*m* log *m*) for a run of *m* points.
func _sortByPosition(_ run: Range<Int>, coords: inout [Double], ids: inout [Int32], order: inout [Int]) {
  order.removeAll(keepingCapacity: true)
  order.append(contentsOf: run)
  order.sort { _positionThenID(coords, ids, $0, $1) }
  let sortedXY = order.flatMap { [coords[2 * $0], coords[2 * $0 + 1]] }
  let sortedIDs = order.map { ids[$0] }
  coords.replaceSubrange((2 * run.lowerBound)..<(2 * run.upperBound), with: sortedXY)
  ids.replaceSubrange(run, with: sortedIDs)
}

/// The end of the run of copies that starts at `start`: the first position
/// in `start..<end` whose point (in `xy`, x and y interleaved) differs from
/// the one at `start`. The points must be sorted by position, so copies lie
/// together. Gallops, then halves: a run of `m` costs O(log `m`) reads.
@inlinable @inline(__always)
func _endOfCopies(_ xy: UnsafePointer<Double>, from start: Int, to end: Int) -> Int {
  let x = xy[2 &* start], y = xy[2 &* start &+ 1]
  @inline(__always) func same(_ j: Int) -> Bool { xy[2 &* j] == x && xy[2 &* j &+ 1] == y }
  var step = 1, low = start, high = start &+ 1
  while high < end && same(high) {
    low = high
    step &*= 2
    high = Swift.min(end, high &+ step)
  }
  while high &- low > 1 {
    let mid = low &+ (high &- low) / 2
    if same(mid) { low = mid } else { high = mid }
  }
  return high
}
