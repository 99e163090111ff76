#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Part of a saved index file mapped into memory, read-only and private
/// (`mmap` with `PROT_READ`, `MAP_PRIVATE`), unmapped when the last array
/// viewing it (``_FlatArray``) goes. The system reads a page when it is
/// first touched and may drop it again under memory pressure, since it
/// can read it back from the file.
///
/// **Read in at the map, on Linux.** The open's checksums touch every
/// mapped page at once, so the mapping asks for them all up front
/// (`MAP_POPULATE`): from a file not in memory they then come in larger
/// reads than one fault at a time brings, and the open takes about the
/// time a read into memory takes instead of up to twice it. Nothing more
/// is resident than the checksums make so, and the pages stay the file's,
/// for the system to drop. Only while the mapping fits in half the free
/// memory: a larger one would lose its first pages before the checksums
/// reach them and read them twice, so it comes in as the checksums touch it.
///
/// **What a mapping assumes.** A private mapping is a copy only of the
/// pages this process writes, and it writes none: a page not yet read
/// shows the file as it is when it is read. So a file changed in place
/// after the open can show an opened index other values than those checked;
/// a file cut shorter makes the system stop the process (`SIGBUS`) when a
/// walk touches a page past the new end. Hence:
/// - only arrays whose values cannot lead a walk out of bounds are mapped
///   (coordinates, rows); the arrays a walk indexes with (ids, nodes) are
///   read into memory and checked there, so a change under a mapped index
///   changes answers, never the memory a walk reads;
/// - the file must not be cut while an index is open from it.
///   ``CellTree/save(to:)`` never does that: it writes a new file and
///   renames it over the old one, whose mapping keeps the old contents.
@usableFromInline
package final class SavedMapping: @unchecked Sendable {
  /// The mapped bytes.
  package let bytes: UnsafeRawBufferPointer
  /// Where in the file they start (a multiple of the page size).
  let fileOffset: Int

  /// Maps the bytes `range` of the open file `fd` (from the page that holds
  /// its start); nil where the platform has no `mmap`, for an empty range,
  /// or when the system refuses.
  init?(fd: Int32, range: Range<Int>) {
    #if canImport(Glibc) || canImport(Darwin)
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    guard page > 0, !range.isEmpty, range.lowerBound >= 0 else { return nil }
    let start = range.lowerBound / page * page, size = range.upperBound - start
    var flags = MAP_PRIVATE
    #if os(Linux)
    if size <= Int(sysconf(Int32(_SC_AVPHYS_PAGES))) / 2 * page { flags |= MAP_POPULATE }
    #endif
    guard let base = mmap(nil, size, PROT_READ, flags, fd, off_t(start)), base != MAP_FAILED else { return nil }
    bytes = UnsafeRawBufferPointer(start: base, count: size)
    fileOffset = start
    #else
    return nil
    #endif
  }

  /// The file's bytes `range` in the mapping; nil when it does not hold them.
  func view(_ range: Range<Int>) -> UnsafeRawBufferPointer? {
    guard range.lowerBound >= fileOffset, range.upperBound - fileOffset <= bytes.count else { return nil }
    return UnsafeRawBufferPointer(rebasing: bytes[(range.lowerBound - fileOffset)..<(range.upperBound - fileOffset)])
  }

  deinit {
    #if canImport(Glibc) || canImport(Darwin)
    munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    #endif
  }

  /// Whether `view` lies inside the mapping.
  func contains(_ view: UnsafeRawBufferPointer) -> Bool {
    guard let start = view.baseAddress, let base = bytes.baseAddress else { return view.isEmpty }
    return start >= base && view.count <= bytes.count && start - base <= bytes.count - view.count
  }

  /// The mapped bytes, and of those the bytes in this process's memory now
  /// (``residentBytes``): what an index that views the mapping reports as
  /// its ``DescribedIndex/mappedMemory``.
  package var memory: (mapped: Int, resident: Int?) { (bytes.count, residentBytes) }

  /// Bytes of the mapping in this process's memory now: on Linux the
  /// `Rss` that `/proc/self/smaps` gives the mapping (pages this process
  /// has touched and the system has not dropped since), elsewhere the
  /// pages `mincore` finds in memory; nil where neither tells.
  package var residentBytes: Int? {
    #if os(Linux)
    // whole pages: the last may hold bytes past the mapped ones
    if let rss = Self.smapsResidentBytes(of: bytes.baseAddress) { return min(bytes.count, rss) }
    #endif
    #if canImport(Glibc) || canImport(Darwin)
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    guard page > 0, let base = bytes.baseAddress else { return nil }
    let pages = (bytes.count + page - 1) / page
    #if canImport(Glibc)
    var vector = [UInt8](repeating: 0, count: pages)
    #else
    var vector = [CChar](repeating: 0, count: pages)
    #endif
    let status = vector.withUnsafeMutableBufferPointer {
      mincore(UnsafeMutableRawPointer(mutating: base), bytes.count, $0.baseAddress!)
    }
    guard status == 0 else { return nil }
    let resident = vector.reduce(0) { $0 + Int($1 & 1) }
    return min(bytes.count, resident * page)
    #else
    return nil
    #endif
  }

  #if os(Linux)
  /// The `Rss` line of the mapping that starts at `base` in
  /// `/proc/self/smaps`, in bytes.
  static func smapsResidentBytes(of base: UnsafeRawPointer?) -> Int? {
    guard let base, let file = fopen("/proc/self/smaps", "r") else { return nil }
    defer { fclose(file) }
    // the kernel writes an address as at least eight hex digits
    var start = String(UInt(bitPattern: base), radix: 16)
    if start.count < 8 { start = String(repeating: "0", count: 8 - start.count) + start }
    start += "-"
    var line: UnsafeMutablePointer<CChar>? = nil
    var capacity = 0
    defer { free(line) }
    var inside = false
    while getline(&line, &capacity, file) > 0, let line {
      let text = String(cString: line)
      if let first = text.first, first.isHexDigit, text.contains("-") {
        if inside { return nil }
        inside = text.hasPrefix(start)
      } else if inside && text.hasPrefix("Rss:") {
        let kilobytes = text.dropFirst(4).split(separator: " ").first.flatMap { Int($0) }
        return kilobytes.map { $0 * 1024 }
      }
    }
    return nil
  }
  #endif
}
