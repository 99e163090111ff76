import SpatialIndexes

// Points that move (a fleet map): the clusterer's own per-point records
// follow each move, so its markers stay those of a clusterer built afresh
// over the new positions, bit for bit.

/// One point's new position.
public struct PointMove: Sendable, Equatable {
  public var id: Int32
  public var to: Point

  public init(id: Int32, to: Point) {
    self.id = id
    self.to = to
  }
}

extension Clusterer where Index: DynamicSpatialIndex {
  /// Moves point `id` to `point`, in the index (``DynamicSpatialIndex/move(id:from:to:)``)
  /// and in the clusterer's records.
  ///
  /// - Returns: `false`, changing nothing, when there is no point `id`.
  /// - Throws: as the index's move does (a non-finite `point`, one outside a
  ///   quadtree's fixed bounds); nothing changes then.
  @inlinable @discardableResult
  public mutating func move(id: Int32, to point: Point) throws(IndexError) -> Bool {
    guard id >= 0, Int(id) < points.count else { return false }
    // the sums share the index's arrays: let go first, or the move copies them
    _groupsStorage = nil
    guard try _index.move(id: id, from: _points[Int(id)], to: point) else { return false }
    _record(id, at: point)
    return true
  }
}

extension Clusterer where Index: DynamicSpatialIndex {
  /// Moves a batch of points, in order (a frame's position reports), as
  /// ``move(id:to:)`` one by one would, while the records of the points a
  /// few moves ahead are already loading: a batch in id order then costs
  /// the memory's bandwidth more than its latency.
  ///
  /// - Returns: how many moved (an id no point has is skipped).
  /// - Throws: as ``move(id:to:)``; the moves before the refused one are done.
  @inlinable @discardableResult
  public mutating func move(_ moves: [PointMove]) throws(IndexError) -> Int {
    var moved = 0
    // the records 8 moves ahead, then 4 ahead what they point to: the index's
    // slot of the point, the totals of the cell the record says it is in
    let ahead = 8, near = 4
    for i in 0..<min(ahead, moves.count) { _prefetchMove(moves[i].id) }
    for i in moves.indices {
      if i + ahead < moves.count { _prefetchMove(moves[i + ahead].id) }
      if i + near < moves.count {
        let id = moves[i + near].id
        _index.prefetchMoveTarget(id: id)
        if let p = _pyramidStorage, let t = _tableStorage, id >= 0, Int(id) < t.count {
          p.prefetchCells(of: t.records[Int(id)])
        }
      }
      if try move(id: moves[i].id, to: moves[i].to) { moved += 1 }
    }
    return moved
  }

  /// Starts loading what moving `id` will touch: the index's storage and
  /// the clusterer's records.
  @inlinable
  mutating func _prefetchMove(_ id: Int32) {
    guard id >= 0, Int(id) < points.count else { return }
    // no load here: a load of the point would wait for the line this starts
    _points.withUnsafeBufferPointer { _prefetchLine($0.baseAddress! + Int(id)) }
    _index.prefetchMove(id: id)
    _tableStorage?.prefetch(Int(id))
  }
}

extension Clusterer {
  /// Applies `moves` in order (a later move of the same id wins), then
  /// builds the index anew over the new positions: how a static index
  /// follows moving points.
  ///
  /// - Throws: ``IndexError/nonFinitePoint(id:point:)`` for a non-finite
  ///   position, or what the build throws; all moves are checked first, so
  ///   nothing changes when one is refused. An id outside the points is
  ///   refused the same way (as point `id`).
  public mutating func move(
    _ moves: some Collection<PointMove>, rebuildingWith parameters: Index.Parameters
  ) throws(IndexError) {
    for m in moves {
      guard m.id >= 0, Int(m.id) < points.count else {
        throw .invalidParameter(name: "id", value: String(m.id), reason: "no point has this id")
      }
      guard m.to.isFinite else { throw .nonFinitePoint(id: Int(m.id), point: m.to) }
    }
    // in place (no copy of every point a frame), undone if the build fails
    let before = moves.map { _points[Int($0.id)] }
    for m in moves { _points[Int(m.id)] = m.to }
    do {
      _index = try Index(points: _points, parameters: parameters)
    } catch {
      for (m, p) in zip(moves, before).reversed() { _points[Int(m.id)] = p }
      throw error
    }
    for m in moves { _writeRecord(m.id, at: m.to) }
    _groupsStorage = nil
    _moved = true
  }

  /// Records point `id` at `point` (the index has moved it already).
  @inlinable
  mutating func _record(_ id: Int32, at point: Point) {
    _points[Int(id)] = point
    _writeRecord(id, at: point)
    // prefix sums over the index's storage order are stale once a point moves
    _groupsStorage = nil
    _moved = true
  }

  /// Rewrites the per-point record of `id`, copying a shared table first.
  @inlinable
  mutating func _writeRecord(_ id: Int32, at point: Point) {
    guard _tableStorage != nil else { return }  // made from `points` on first use
    if !isKnownUniquelyReferenced(&_tableStorage) {
      _tableStorage = _PointTable(copying: _tableStorage!)
    }
    let table = _tableStorage!, old = table.records[Int(id)]
    table.set(Int(id), point)
    guard _pyramidStorage != nil else { return }
    if !isKnownUniquelyReferenced(&_pyramidStorage) {
      _pyramidStorage = _CellPyramid(copying: _pyramidStorage!)
    }
    _pyramidStorage!.move(id: id, from: old, to: table.records[Int(id)])
  }
}
