import BenchHarness
import Foundation

/// The guides of the repository and their generated blocks: what `bench
/// docs` rewrites and checks, and what the tests hold equal to the
/// commands' output now.
enum Guides {
  /// The guides whose blocks are kept: README.md, every .md under docs/, and
  /// results/README.md, relative to `root`, those that exist.
  static func tableFiles(root: String) -> [String] {
    existing(["README.md"] + markdownFiles(under: "docs", root: root) + ["results/README.md"], root: root)
  }

  /// The guides where no figure may be typed by hand: README.md, every .md
  /// under docs/, and CONTRIBUTING.md.
  static func figureFiles(root: String) -> [String] {
    existing(["README.md"] + markdownFiles(under: "docs", root: root) + ["CONTRIBUTING.md"], root: root)
  }

  /// One block with what its command prints now.
  struct Block {
    var file: String
    var block: GeneratedBlock
    var output: String
    var isStale: Bool { block.text != output }
  }

  /// One guide and its blocks.
  struct Guide {
    var file: String
    var guide: MarkdownGuide
    var blocks: [Block]
  }

  /// Every guide of ``tableFiles(root:)`` with each block's command run.
  ///
  /// - Throws: ``DocsFailures`` listing every marker out of place and every
  ///   block whose command is refused or fails, each with its file and line.
  static func read(root: String) throws -> [Guide] {
    var guides: [Guide] = []
    var failures: [DocsError] = []
    for file in tableFiles(root: root) {
      let text = try readText(root + "/" + file, name: file)
      let guide: MarkdownGuide
      do {
        guide = try MarkdownGuide(parsing: text, file: file)
      } catch {
        failures.append(error)
        continue
      }
      var blocks: [Block] = []
      for block in guide.blocks {
        do {
          blocks.append(Block(file: file, block: block, output: try BlockCommand.output(of: block.command, root: root)))
        } catch {
          failures.append(DocsError(file: file, line: block.line, error))
        }
      }
      guides.append(Guide(file: file, guide: guide, blocks: blocks))
    }
    if !failures.isEmpty { throw DocsFailures(errors: failures) }
    return guides
  }

  /// The hand-typed figures of ``figureFiles(root:)``.
  ///
  /// - Throws: ``DocsFailures`` for a guide whose markers are out of place.
  static func handTypedFigures(root: String) throws -> [HandTypedFigures.Figure] {
    var figures: [HandTypedFigures.Figure] = []
    var failures: [DocsError] = []
    for file in figureFiles(root: root) {
      do {
        let guide = try MarkdownGuide(parsing: try readText(root + "/" + file, name: file), file: file)
        figures += HandTypedFigures.find(in: guide, file: file)
      } catch let error as DocsError {
        failures.append(error)
      }
    }
    if !failures.isEmpty { throw DocsFailures(errors: failures) }
    return figures
  }

  /// The guide's text with every block's content replaced by its output.
  static func updated(_ guide: Guide) -> String {
    guide.guide.replacing(guide.blocks.map(\.output))
  }

  // MARK: - Files

  /// The .md files under `folder` (relative to `root`), at any depth, sorted.
  private static func markdownFiles(under folder: String, root: String) -> [String] {
    let path = root + "/" + folder
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
      let names = try? FileManager.default.subpathsOfDirectory(atPath: path)
    else { return [] }
    return names.filter { $0.hasSuffix(".md") }.sorted().map { folder + "/" + $0 }
  }

  private static func existing(_ files: [String], root: String) -> [String] {
    files.filter { FileManager.default.fileExists(atPath: root + "/" + $0) }
  }

  /// The whole file as UTF-8 text.
  private static func readText(_ path: String, name: String) throws(ReportError) -> String {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ReportError(.noInput, path: name, detail: "cannot read the guide")
    }
    return String(decoding: data, as: UTF8.self)
  }
}

/// Every guide error found, so one run names them all.
struct DocsFailures: Error, CustomStringConvertible {
  var errors: [DocsError]

  /// The first error's code (65 for a misplaced marker or a refused command).
  var exitCode: Int32 { errors.first?.exitCode ?? 65 }

  var description: String { errors.map(\.description).joined(separator: "\nbench: ") }
}
