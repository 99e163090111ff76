import SpatialIndexes

// Points that move (a fleet map): the clusterer's own per-point records
// follow each move, so its markers stay those of a clusterer built afresh
// over the new positions, bit for bit.

/// One point's new position.
public struct PointMove: Sendable, Equatable {
  /// The point's id: its position in the clusterer's points.
  public var id: Int32
  /// Where it is now (`x` = longitude, `y` = latitude).
  public var to: Point

  /// Point `id` moved to `to`.
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
    if moves.count >= Self._sideBySideMoves && _tableStorage != nil && _coresOnline() > 1
      && !_index.isWorkingInBackground && zip(moves, moves.dropFirst()).allSatisfy({ $0.id < $1.id }) {
      return try _moveSideBySide(moves)
    }
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

  /// Batches at least this long, in increasing id order, move in two parts
  /// side by side (``_moveSideBySide(_:)``).
  @inlinable static var _sideBySideMoves: Int { 1024 }

  /// Moves a batch in which each id comes once, in increasing order, as
  /// ``move(_:)`` one by one would, in two parts. First, side by side, the
  /// index moves the points on one thread (each point's old position is the
  /// one before the batch: no id comes twice) while another works out their
  /// new records, whose projections were a third of a serial move's time
  /// (`perf` on the live workload); then the records and the cell totals
  /// are written in order. A refused move stops the batch as it would one
  /// by one: the moves before it are done, in the index and in the records.
  @inlinable
  mutating func _moveSideBySide(_ moves: [PointMove]) throws(IndexError) -> Int {
    // the sums share the index's arrays: let go first, or the moves copy them
    _groupsStorage = nil
    let count = moves.count, families = _families
    var refusal: IndexError? = nil
    var refused = count
    let moved = withUnsafeTemporaryAllocation(of: _PointRecord.self, capacity: count) { records in
      withUnsafeTemporaryAllocation(of: Bool.self, capacity: count) { done in
        nonisolated(unsafe) let records = records, done = done
        _points.withUnsafeBufferPointer { points in
          withUnsafeMutablePointer(to: &_index) { index in
            nonisolated(unsafe) let index = index
            _forEach([0, 1], threads: 2) { part in
              guard part == 0 else {
                for j in 0..<count { records[j] = _PointTable.record(moves[j].to, families) }
                return
              }
              // the point and the index's storage 8 moves ahead, the slot 4 ahead
              let ahead = 8, near = 4
              func valid(_ id: Int32) -> Bool { id >= 0 && Int(id) < points.count }
              for j in 0..<Swift.min(ahead, count) where valid(moves[j].id) {
                index.pointee.prefetchMove(id: moves[j].id)
              }
              for j in 0..<count {
                if j + ahead < count, valid(moves[j + ahead].id) {
                  _prefetchLine(points.baseAddress! + Int(moves[j + ahead].id))
                  index.pointee.prefetchMove(id: moves[j + ahead].id)
                }
                if j + near < count, valid(moves[j + near].id) {
                  index.pointee.prefetchMoveTarget(id: moves[j + near].id)
                }
                let m = moves[j]
                guard valid(m.id) else { done[j] = false; continue }
                do throws(IndexError) {
                  done[j] = try index.pointee.move(id: m.id, from: points[Int(m.id)], to: m.to)
                } catch {
                  refusal = error
                  refused = j
                  break
                }
              }
            }
          }
        }
        return _writeRecords(moves[..<refused], records, done)
      }
    }
    if let refusal { throw refusal }
    return moved
  }

  /// The second part of ``_moveSideBySide(_:)``: each move the index made
  /// (`done`) writes its point, its record and its cell totals, in order,
  /// the records and totals of the moves a few ahead already loading.
  @inlinable
  mutating func _writeRecords(
    _ moves: ArraySlice<PointMove>, _ records: UnsafeMutableBufferPointer<_PointRecord>,
    _ done: UnsafeMutableBufferPointer<Bool>
  ) -> Int {
    if !isKnownUniquelyReferenced(&_tableStorage) { _tableStorage = _PointTable(copying: _tableStorage!) }
    if _pyramidStorage != nil && !isKnownUniquelyReferenced(&_pyramidStorage) {
      _pyramidStorage = _CellPyramid(copying: _pyramidStorage!)
    }
    let table = _tableStorage!, pyramid = _pyramidStorage
    let count = moves.count, first = moves.startIndex
    let ahead = 8, near = 4
    var moved = 0
    _points.withUnsafeMutableBufferPointer { points in
      for j in 0..<Swift.min(ahead, count) where done[j] { table.prefetch(Int(moves[first + j].id)) }
      for j in 0..<count {
        if j + ahead < count && done[j + ahead] {
          let id = Int(moves[first + j + ahead].id)
          table.prefetch(id)
          _prefetchLine(points.baseAddress! + id)
        }
        if j + near < count && done[j + near], let pyramid {
          pyramid.prefetchCells(of: table.records[Int(moves[first + j + near].id)])
        }
        guard done[j] else { continue }
        let m = moves[first + j], id = Int(m.id)
        points[id] = m.to
        let old = table.records[id]
        table.records[id] = records[j]
        pyramid?.move(id: m.id, from: old, to: records[j])
        moved += 1
      }
    }
    if moved > 0 { _moved = true }
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
