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
  let chunks = Swift.max(1, Swift.min(parts, count / Swift.max(1, minimum)))
  if chunks == 1 { return body(0..<count) }
  #if canImport(Dispatch)
  let workers = Swift.min(chunks, Swift.max(1, threads))
  if workers > 1 {
    // Dispatch asks for a @Sendable closure; the ranges are disjoint, which is
    // what makes sharing `body` (and the buffers it writes) safe. Worker w
    // takes chunks w, w + workers, …: at most `threads` run at once.
    withoutActuallyEscaping(body) { body in
      nonisolated(unsafe) let work = body
      DispatchQueue.concurrentPerform(iterations: workers) { w in
        for c in stride(from: w, to: chunks, by: workers) {
          work((count * c / chunks)..<(count * (c + 1) / chunks))
        }
      }
    }
    return
  }
  for c in 0..<chunks { body((count * c / chunks)..<(count * (c + 1) / chunks)) }
  #else
  for c in 0..<chunks { body((count * c / chunks)..<(count * (c + 1) / chunks)) }
  #endif
}

/// Calls `body` with each of `items` on up to `threads` threads (in order
/// on one): for work split into independent parts, each writing only its
/// own outputs, so the result does not depend on the threads.
@inlinable
func _forEach<T>(_ items: [T], threads: Int, _ body: (T) -> Void) {
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
func _coresOnline() -> Int {
  #if canImport(Glibc) || canImport(Darwin)
  return Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
  #else
  return 1
  #endif
}
