#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Array where Element: BitwiseCopyable {
  /// `count` elements, left uninitialised, in memory the kernel is asked to
  /// back with 2 MB pages: a build writes each of its large arrays once,
  /// fresh, and on the VM measured here first touching 4 KB pages cost about
  /// 0.4 ms a megabyte, 2 MB pages about 0.06 ms (Linux only; elsewhere an
  /// ordinary array). The caller writes every element before reading it.
  @inlinable
  init(_uninitializedLarge count: Int) {
    self.init(unsafeUninitializedCapacity: count) { buffer, initialized in
      _adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
      initialized = count
    }
  }
}

/// Asks for 2 MB pages over the whole 4 KB pages of `buffer`, when it spans
/// at least 4 MB (smaller arrays gain nothing). Advice only: it changes no
/// contents and a refusal is harmless, so its result is ignored.
@usableFromInline
func _adviseHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
  #if os(Linux) && canImport(Glibc)
  guard let base = buffer.baseAddress, buffer.count >= 4 << 20 else { return }
  let page = 4096
  let start = (Int(bitPattern: base) + page - 1) & ~(page - 1)
  let end = (Int(bitPattern: base) + buffer.count) & ~(page - 1)
  guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
  _ = madvise(pointer, end - start, MADV_HUGEPAGE)
  #endif
}
