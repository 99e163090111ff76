import BenchHarness
import Foundation

/// `bench api [--check] [--symbols DIR] [--root DIR]`: writes the public
/// API listing of each library (``APIListing``) to `api/NAME.txt` from the
/// compiler's symbol graphs, or with `--check` names what differs from the
/// committed listing and exits 1. CI runs the check, so a change to the
/// public surface is a reviewed diff of `api/`.
func apiCommand(_ arguments: [String]) throws -> Int32 {
  var o = APIOptions()
  try APIOptions.table.parse(arguments, into: &o)
  let symbols = o.symbols ?? APIOptions.newestSymbolGraphs(root: o.root)
  let listings = try APIListing.libraries.map { try APIListing.read(library: $0, folder: symbols) }
  let folder = o.root + "/api"
  var stale = 0
  var changed: [(APIListing, String)] = []
  for listing in listings {
    let path = folder + "/" + listing.fileName
    let old = FileManager.default.contents(atPath: path).flatMap { String(data: $0, encoding: .utf8) }
    output("\(listing.library): \(listing.lines.count) public declarations, \(listing.undocumented.count) without a doc comment")
    guard old != listing.text else { continue }
    stale += 1
    if o.check {
      let before = Set((old ?? "").split(separator: "\n").map(String.init).dropFirst())
      let after = Set(listing.lines)
      let gone = before.subtracting(after).sorted(), new = after.subtracting(before).sorted()
      output("\(path): stale: \(gone.count) declarations gone, \(new.count) new")
      for line in gone.prefix(20) { output("- " + line) }
      for line in new.prefix(20) { output("+ " + line) }
    } else {
      changed.append((listing, path))
    }
  }
  if o.check {
    if stale > 0 { output("run bench api, and review the diff of api/") }
    return stale == 0 ? 0 : 1
  }
  if !changed.isEmpty {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try OutputCheck.check(changed.map { OutputTarget("api", $0.1) }, inputs: [])
    for (listing, path) in changed {
      try AtomicFile.write(Array(listing.text.utf8), to: path, mode: 0o644)
      output("\(path): updated")
    }
  }
  return 0
}

/// What `bench api` reads from the command line.
struct APIOptions {
  var check = false
  /// `nil`: the newest `.build/*/symbolgraph`.
  var symbols: String?
  var root = "."

  static var table: FlagTable<APIOptions> {
    FlagTable("api", [
      .toggle("--check", \.check, help: "change nothing: name what differs from api/, exit 1 if anything does"),
      Flag("--symbols", "DIR", help: "the symbol graphs of swift package dump-symbol-graph (default: the newest .build/*/symbolgraph)") {
        (o: inout APIOptions, v: FlagValue) throws(UsageError) in
        guard !v.text.isEmpty else { throw v.error("--symbols needs a folder") }
        o.symbols = v.text
      },
      Flag("--root", "DIR", help: "the repository whose api/ to write or check (default: the current folder)") {
        (o: inout APIOptions, v: FlagValue) throws(UsageError) in
        guard !v.text.isEmpty else { throw v.error("--root needs a folder") }
        o.root = v.text
      },
    ])
  }

  /// The folder SwiftPM wrote the symbol graphs to last: it names it after
  /// the platform (`.build/x86_64-unknown-linux-gnu/symbolgraph`).
  static func newestSymbolGraphs(root: String) -> String {
    let build = root + "/.build"
    let folders = ((try? FileManager.default.contentsOfDirectory(atPath: build)) ?? [])
      .map { build + "/" + $0 + "/symbolgraph" }
      .filter { FileManager.default.fileExists(atPath: $0 + "/SpatialIndexes.symbols.json") }
    func modified(_ path: String) -> Date {
      ((try? FileManager.default.attributesOfItem(atPath: path + "/SpatialIndexes.symbols.json"))?[.modificationDate]
        as? Date) ?? .distantPast
    }
    return folders.max { modified($0) < modified($1) } ?? build + "/symbolgraph"
  }
}
