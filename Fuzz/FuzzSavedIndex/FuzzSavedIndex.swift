// libFuzzer target for the saved-index opener (`init(contentsOf:)` of the
// k-d tree, the Hilbert R-tree and the cell tree). Build and run with
// `FUZZ_TARGET=FuzzSavedIndex bash Fuzz/run.sh`; its seed corpus is
// Fuzz/corpus-saved (small saved files, `bench save`).
//
// The first byte of an input says how to take the rest, the file. Random
// changes rarely survive the checksums, so when that byte is odd every
// checksum is made right before the file is opened: those inputs reach the
// structural checks, as a hostile file would. The seeds are saved files
// behind a byte 0 and a byte 1; kdtree-ids ends with the optional external
// ids section (EXID).
// Besides crashes and sanitizer reports, it checks:
// - an error names the file;
// - an index that opens answers queries (viewports over the world and a
//   corner, k-nearest, the cell tree's cell sums) with ids in 0..<count,
//   each once, and its points by id are its count.
import SpatialIndexes

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where each input is written for the opener: one file per process.
let path = "/tmp/fuzz-saved-index-\(getpid()).sbi"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSavedIndex(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  var bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
  if data[0] & 1 == 1 { repairChecksums(&bytes) }
  guard let file = fopen(path, "wb") else { return 0 }
  _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
  fclose(file)
  defer { unlink(path) }

  func checkError(_ error: SavedIndexError) {
    precondition(error.file == path && error.description.hasPrefix(path + ": "), "bad message: \(error)")
  }
  do { exercise(try KDTreeIndex(contentsOf: path)) } catch { checkError(error) }
  do { exercise(try HilbertRTree(contentsOf: path)) } catch { checkError(error) }
  do {
    let tree = try CellTree(contentsOf: path)
    exercise(tree)
    sumCells(tree)
  } catch { checkError(error) }
  return 0
}

/// Queries on an opened index: every id in range and reported once.
func exercise<I: SpatialIndex>(_ index: I) {
  let n = index.count
  for rect in [Rect(minX: -1e300, minY: -1e300, maxX: 1e300, maxY: 1e300), Rect(minX: -10, minY: -10, maxX: 30, maxY: 30)] {
    var seen = Set<Int32>()
    _ = index.forEach(in: rect) { id in
      precondition(id >= 0 && Int(id) < n, "id \(id) of \(n)")
      precondition(seen.insert(id).inserted, "id \(id) twice")
      return true
    }
  }
  var buffer = NearestBuffer()
  index.nearest(to: Point(x: 2, y: 48), k: 5, into: &buffer)
  for neighbor in buffer.neighbors { precondition(neighbor.id >= 0 && Int(neighbor.id) < n) }
}

/// The cell tree's clustering walk over a view of the world at zoom 1.
func sumCells(_ tree: CellTree) {
  let rect = Rect(minX: -180, minY: -85, maxX: 180, maxY: 85)
  let s = WebMercator.scale(zoom: 1)
  func cell(_ m: Double) -> Int { MapCells.index(m, scale: s, cellSize: 88, inverse: 1.0 / 88) }
  let colLo = cell(WebMercator.x(longitude: rect.minX)), colHi = cell(WebMercator.x(longitude: rect.maxX))
  let rowLo = cell(WebMercator.y(latitude: rect.maxY)), rowHi = cell(WebMercator.y(latitude: rect.minY))
  let w = CellWindow(
    zoom: 1, cellSize: 88, rowLo: rowLo, rowHi: rowHi, colLo: colLo, colHi: colHi,
    width: colHi - colLo + 1, base: -colLo, columnZero: -1)
  var cells = [CellTotals](repeating: CellTotals(), count: w.width * (rowHi - rowLo + 1))
  var none = NoCounters()
  cells.withUnsafeMutableBufferPointer { tree.sumCells(in: rect, window: w, into: $0, counters: &none) }
  precondition(cells.reduce(0) { $0 + Int($1.count) } <= tree.count)
}

/// Makes every section's checksum and the header's right, where the table
/// can be read (the format: docs/formats.md, "Saved index").
func repairChecksums(_ bytes: inout [UInt8]) {
  guard bytes.count >= 64 else { return }
  func u32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) } }
  func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) } }
  func put(_ v: UInt32, _ at: Int) { for k in 0..<4 { bytes[at + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(k))) } }
  let sections = Int(min(u32(56), 16))
  let tableEnd = 64 + 32 * sections
  guard bytes.count >= tableEnd else { return }
  for k in 0..<sections {
    let e = 64 + 32 * k
    let offset = u64(e + 8), length = u64(e + 16).multipliedReportingOverflow(by: UInt64(u32(e + 4)))
    guard !length.overflow, offset <= UInt64(bytes.count), length.partialValue <= UInt64(bytes.count) - offset
    else { continue }
    let range = Int(offset)..<Int(offset + length.partialValue)
    put(bytes.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[range])) }, e + 24)
  }
  var crc = CRC32C()
  bytes.withUnsafeBytes {
    crc.update(UnsafeRawBufferPointer(rebasing: $0[0..<60]))
    crc.update(UnsafeRawBufferPointer(rebasing: $0[64..<tableEnd]))
  }
  put(crc.value, 60)
}
