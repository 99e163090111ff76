#if canImport(Dispatch)
import Dispatch
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls `body` on consecutive ranges that together cover `0..<count`, at
/// most `parts` of them and none shorter than `minimum` (so small inputs run
/// in one call), on up to `threads` threads where Dispatch exists (in order
/// on one).
///
/// The ranges depend only on `count`, so a `body` that writes only the
/// outputs of its own range gives the same result on any number of threads.
/// Used by builds whose passes are independent per element (a projection,
/// a gather): on this project's 2-core machine they take about half as long.
@inlinable
func _forEachChunk(
  of count: Int, parts: Int = 16, minimum: Int = 1 << 16, threads: Int = _coresOnline(),
  _ body: (Range<Int>) -> Void
) {
  _forEachNumberedChunk(of: count, parts: parts, minimum: minimum, threads: threads) { body($1) }
}

/// ``_forEachChunk(of:parts:minimum:threads:_:)`` for a `body` that
/// returns a result of its own range (a pass's bounds): the results in
/// chunk order, whatever the threads.
@inlinable
func _mapChunks<T>(
  of count: Int, parts: Int = 16, minimum: Int = 1 << 16, threads: Int = _coresOnline(),
  _ body: (Range<Int>) -> T
) -> [T] {
  let chunks = _chunkCount(count, parts: parts, minimum: minimum)
  var results = [T?](repeating: nil, count: chunks)
  results.withUnsafeMutableBufferPointer { results in
    _forEachNumberedChunk(of: count, parts: parts, minimum: minimum, threads: threads) { c, range in
      results[c] = body(range)
    }
  }
  return results.map { $0! }
}

@inlinable
func _chunkCount(_ count: Int, parts: Int, minimum: Int) -> Int {
  Swift.max(1, Swift.min(parts, count / Swift.max(1, minimum)))
}

@inlinable
func _forEachNumberedChunk(
  of count: Int, parts: Int, minimum: Int, threads: Int, _ body: (Int, Range<Int>) -> Void
) {
  let chunks = _chunkCount(count, parts: parts, minimum: minimum)
  @Sendable func range(_ c: Int) -> Range<Int> { (count * c / chunks)..<(count * (c + 1) / chunks) }
  if chunks == 1 { return body(0, 0..<count) }
  #if canImport(Dispatch)
  let workers = Swift.min(chunks, Swift.max(1, threads))
  if workers > 1 {
    // Dispatch asks for a @Sendable closure; the ranges are disjoint, which is
    // what makes sharing `body` (and the buffers it writes) safe. Worker w
    // takes chunks w, w + workers, …: at most `threads` run at once.
    withoutActuallyEscaping(body) { body in
      nonisolated(unsafe) let work = body
      DispatchQueue.concurrentPerform(iterations: workers) { w in
        for c in stride(from: w, to: chunks, by: workers) { work(c, range(c)) }
      }
    }
    return
  }
  #endif
  for c in 0..<chunks { body(c, range(c)) }
}

/// Calls `body` with each of `items` on up to `threads` threads (in order
/// on one): for work split into independent parts, each writing only its
/// own outputs, so the result does not depend on the threads.
@inlinable
package func _forEach<T>(_ items: [T], threads: Int, _ body: (T) -> Void) {
  #if canImport(Dispatch)
  if threads > 1 && items.count > 1 {
    withoutActuallyEscaping(body) { body in
      nonisolated(unsafe) let work = body
      nonisolated(unsafe) let all = items
      DispatchQueue.concurrentPerform(iterations: all.count) { work(all[$0]) }
    }
    return
  }
  #endif
  for item in items { body(item) }
}

/// The cores online (at least 1).
@usableFromInline
package func _coresOnline() -> Int {
  #if canImport(Glibc) || canImport(Darwin)
  return Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
  #else
  return 1
  #endif
}

/// `sizes`' indexes shared out among `threads` for ``_forEach(_:threads:_:)``:
/// largest first, each to the share with the least so far, so parts of
/// uneven size keep every thread busy (the results must not depend on it).
func _sharesBySize(_ sizes: [Int], threads: Int) -> [[Int]] {
  let count = Swift.max(1, Swift.min(threads, sizes.count))
  var shares = [[Int]](repeating: [], count: count)
  var loads = [Int](repeating: 0, count: count)
  for s in sizes.indices.sorted(by: { (sizes[$0], $1) > (sizes[$1], $0) }) {
    let w = loads.indices.min { loads[$0] < loads[$1] }!
    shares[w].append(s)
    loads[w] += sizes[s]
  }
  return shares
}
