import BenchHarness
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `bench docs [--check] [--figures] [--root DIR]`: remakes every generated
/// block of the guides (``Guides``) from its command, or with `--check`
/// names the stale ones and exits 1; with `--figures`, lists the figures
/// typed by hand into the guides and exits 1 if there is one.
///
/// Every block is made before any file is written: a block that fails
/// leaves every guide as it was. A guide is written through ``AtomicFile``
/// (never half a file), keeping its permissions, and only when it changed.
func docsCommand(_ arguments: [String]) throws -> Int32 {
  var o = DocsOptions()
  try DocsOptions.table.parse(arguments, into: &o)
  let root = o.root
  var code: Int32 = 0
  guard Guides.tableFiles(root: root).count + Guides.figureFiles(root: root).count > 0 else {
    throw ReportError(
      .noInput, path: root,
      detail: "holds no README.md, docs/, results/README.md or CONTRIBUTING.md: run bench docs at the"
        + " repository's root, or give it with --root")
  }
  if o.figures {
    let figures = try Guides.handTypedFigures(root: root)
    for figure in figures { output(figure.description) }
    output("\(figures.count) hand-typed figure\(figures.count == 1 ? "" : "s") in \(Guides.figureFiles(root: root).joined(separator: ", "))")
    if !figures.isEmpty { code = 1 }
    if !o.check { return code }
  }
  let guides = try Guides.read(root: root)
  let blocks = guides.flatMap(\.blocks)
  let stale = blocks.filter(\.isStale)
  if o.check {
    for block in stale { output("\(block.file):\(block.block.line): stale: \(block.block.command)") }
    output("\(blocks.count) generated block\(blocks.count == 1 ? "" : "s"), \(stale.count) stale")
    return stale.isEmpty ? code : 1
  }
  let changed = guides.filter { $0.blocks.contains(where: \.isStale) }
  let paths = changed.map { root + "/" + $0.file }
  try OutputCheck.check(paths.map { OutputTarget("docs", $0) }, inputs: [])
  for (guide, path) in zip(changed, paths) {
    var info = stat()
    let mode = stat(path, &info) == 0 ? mode_t(info.st_mode) & 0o7777 : 0o644
    try AtomicFile.write(Array(Guides.updated(guide).utf8), to: path, mode: mode)
    for block in guide.blocks where block.isStale { output("\(block.file):\(block.block.line): updated") }
  }
  output("\(blocks.count) generated block\(blocks.count == 1 ? "" : "s"), \(stale.count) updated")
  return code
}

/// What `bench docs` reads from the command line.
struct DocsOptions {
  var check = false
  var figures = false
  var root = "."

  static var table: FlagTable<DocsOptions> {
    FlagTable("docs", [
      .toggle("--check", \.check, help: "change nothing: name each stale block, exit 1 if there is one"),
      .toggle("--figures", \.figures, help: "list the figures typed by hand into the guides, exit 1 if there is one"),
      Flag("--root", "DIR", help: "the repository whose guides to read (default: the current folder)") {
        (o: inout DocsOptions, v: FlagValue) throws(UsageError) in
        guard !v.text.isEmpty else { throw v.error("--root needs a folder") }
        o.root = v.text.hasSuffix("/") && v.text.count > 1 ? String(v.text.dropLast()) : v.text
      },
    ])
  }
}
