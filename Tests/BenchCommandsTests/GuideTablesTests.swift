import BenchHarness
import Foundation
import Testing

@testable import BenchCommands

/// The repository's own guides: every generated table is what its command
/// makes from the committed reports now, and the command reference is
/// `bench help`'s.
extension CLITests {
  @Suite struct GuideTablesTests {
    /// The package root (three folders above this file).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().path

    /// Issue 41: a test fails when a table differs from what its command
    /// makes now. `bench docs` remakes them.
    @Test func everyGeneratedBlockIsCurrent() throws {
      let blocks = try Guides.read(root: Self.root).flatMap(\.blocks)
      #expect(blocks.count >= 2, "results/README.md and docs/bench.md hold blocks")
      for block in blocks where block.isStale {
        Issue.record("\(block.file):\(block.block.line) differs from `\(block.block.command)`: run bench docs")
      }
    }

    /// Issue 41: no figure typed by hand into README.md, docs/ or
    /// CONTRIBUTING.md. On demand until the guides are rewritten: run it with
    /// `BENCH_CHECK_FIGURES=1 swift test --filter GuideTablesTests`, or
    /// `bench docs --figures`. To make it part of every run, delete the
    /// `.enabled(if:)` trait.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["BENCH_CHECK_FIGURES"] != nil))
    func theGuidesHoldNoHandTypedFigure() throws {
      let figures = try Guides.handTypedFigures(root: Self.root)
      #expect(figures.isEmpty, "\(figures.count) hand-typed figures:\n\(figures.map(\.description).joined(separator: "\n"))")
    }

    /// The Markdown reference has every command, and each command's every
    /// flag, from the same declarations as `bench help`.
    @Test func theMarkdownReferenceIsTheHelp() throws {
      let reference = try helpText(["--markdown"])
      for command in CommandCatalog.all {
        #expect(reference.contains("\n### bench \(command.name)\n\n"), "\(command.name)")
        #expect(reference.contains("```text\n\(Usage.synopsis(for: command.name))\n```"), "\(command.name)")
        for flag in command.usage.flags {
          let synopsis = flag.synopsis.replacingOccurrences(of: "|", with: "\\|")
          #expect(reference.contains("\n| `\(synopsis)` | "), "\(command.name) \(flag.name)")
        }
      }
      #expect(reference.contains("\n### bench help\n"))
      #expect(try helpText(["--markdown", "table"]) == Usage.markdown(for: "table"))
      #expect(throws: UsageError.self) { try helpText(["--markdown", "tabel"]) }
    }

    /// Plain text becomes Markdown that shows it as written.
    @Test func helpProseIsEscapedForMarkdown() {
      #expect(Usage.prose("results/<date>-<commit>.csv, `a <b>` *x* [y]") == #"results/\<date\>-\<commit\>.csv, `a <b>` \*x\* \[y\]"#)
      #expect(Usage.prose("- not a list\n1. nor this\n# nor a heading") == "\\- not a list\n1\\. nor this\n\\# nor a heading")
    }
  }
}
