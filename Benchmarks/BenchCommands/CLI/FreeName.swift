import Foundation

/// `path`, or when a file (or a link) has that name, the first of
/// `stem-2.ext`, `stem-3.ext`… that none has: a default output name gives
/// way instead of replacing a file (as report names are chosen).
///
/// Another process may take the name before it is written; the write then
/// fails without replacing anything (``AtomicFile``, `.keep`).
func freeName(_ path: String) -> String {
  let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
  let dot = path[slash...].lastIndex(of: ".").flatMap { $0 == slash ? nil : $0 } ?? path.endIndex
  let (stem, ext) = (path[..<dot], path[dot...])
  var candidate = path
  var suffix = 2
  var info = stat()
  while lstat(candidate, &info) == 0 {
    candidate = "\(stem)-\(suffix)\(ext)"
    suffix += 1
  }
  return candidate
}
