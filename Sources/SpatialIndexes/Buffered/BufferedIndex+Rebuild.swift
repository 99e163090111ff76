#if canImport(Dispatch)
import Dispatch
#endif

extension BufferedIndex {
  /// The active buffer is full: install the build in flight (waiting for
  /// it if need be), freeze the active buffer and start the next build
  /// from it.
  @usableFromInline
  mutating func rebuildStep() {
    if let p = pending {
      pending = nil
      install(p.wait())
    }
    freeze()
    let snapshot = basePoints, moved = frozen, count = stale.count, parameters = parameters.base
    pending = _PendingBuild {
      var points = snapshot
      // an id added since the last build, then removed: a placeholder queries skip
      points.append(contentsOf: repeatElement(Point(x: 0, y: 0), count: count - points.count))
      for (i, id) in moved.ids.enumerated() where !moved.xs[i].isNaN {
        points[Int(id)] = Point(x: moved.xs[i], y: moved.ys[i])
      }
      do throws(IndexError) {
        return .success((try Base(points: points, parameters: parameters), points))
      } catch {
        return .failure(error)
      }
    }
  }

  /// A base is being built on another thread (or has been, and waits to be
  /// installed): a batch of moves leaves the other core to it.
  @inlinable
  public var isWorkingInBackground: Bool { pending != nil }

  /// Waits for the build in flight, if any, and installs it: what a caller
  /// does before it stops moving points, so queries stop scanning buffers.
  public mutating func finishRebuild() {
    if let p = pending {
      pending = nil
      install(p.wait())
    }
  }

  /// The active buffer becomes the frozen one (empty since the last install).
  private mutating func freeze() {
    swap(&active, &frozen)
    for id in frozen.ids {
      stale[Int(id)] = stale[Int(id)] & ~_Stale.active | _Stale.frozen
    }
  }

  /// The new base replaces the old; the frozen buffer is in it now.
  private mutating func install(_ built: Result<(Base, [Point]), IndexError>) {
    switch built {
    case let .success((newBase, points)):
      base = newBase
      basePoints = points
      for id in frozen.ids { stale[Int(id)] &= ~_Stale.frozen }
      frozen.removeAll()
      rebuilds += 1
    case .failure:
      // Not seen: the points are finite and the parameters were checked at
      // init. Keep the old base and move the frozen points back to the
      // active buffer, so the next trigger tries again.
      for (i, id) in frozen.ids.enumerated() where stale[Int(id)] & _Stale.active == 0 {
        active.set(id, Point(x: frozen.xs[i], y: frozen.ys[i]))
        stale[Int(id)] |= _Stale.active
      }
      for id in frozen.ids { stale[Int(id)] &= ~_Stale.frozen }
      frozen.removeAll()
    }
  }
}

/// A base being built on another thread (on a platform without Dispatch,
/// at once), its result read once it is done.
@usableFromInline
final class _PendingBuild<Base: SpatialIndex>: @unchecked Sendable {
  typealias Built = Result<(Base, [Point]), IndexError>
  // written once by the builder before `done` is signalled, read after
  private var result: Built? = nil
  #if canImport(Dispatch)
  private let done = DispatchSemaphore(value: 0)
  #endif

  init(_ work: @escaping @Sendable () -> Built) {
    #if canImport(Dispatch)
    DispatchQueue.global().async {
      self.result = work()
      self.done.signal()
    }
    #else
    result = work()
    #endif
  }

  /// The result, once the build is done.
  func wait() -> Built {
    #if canImport(Dispatch)
    done.wait()
    done.signal()  // a copy of the index holding this build may wait too
    #endif
    return result ?? .failure(.tooManyPoints(count: 0, limit: 0))
  }
}
