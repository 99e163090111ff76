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
      #expect(blocks.count >= 15, "README.md and docs/ hold the measured tables")
      for block in blocks where block.isStale {
        Issue.record("\(block.file):\(block.block.line) differs from `\(block.block.command)`: run bench docs")
      }
    }

    /// No figure typed by hand into README.md, docs/ or CONTRIBUTING.md: a
    /// number with a unit (ns, µs, ms, s, B/pt, ×) outside a generated block
    /// or fenced code (`bench docs --figures` lists them).
    @Test func theGuidesHoldNoHandTypedFigure() throws {
      let figures = try Guides.handTypedFigures(root: Self.root)
      #expect(figures.isEmpty, "\(figures.count) hand-typed figures:\n\(figures.map(\.description).joined(separator: "\n"))")
    }

    /// The README is a front door, not a notebook: at most 300 lines, no
    /// date, no UTC time, no commit hash; history lives in CHANGELOG.md.
    @Test func theReadmeIsShortAndUndated() throws {
      let readme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
      let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines.count <= 300, "README.md has \(lines.count) lines")
      for (i, line) in lines.enumerated() {
        let text = String(line)
        #expect(text.firstMatch(of: /\b20\d\d-[01]\d-[0-3]\d\b/) == nil, "README.md:\(i + 1): a date")
        #expect(!text.contains("UTC"), "README.md:\(i + 1): a time of day")
        #expect(text.firstMatch(of: /\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b/) == nil,
                "README.md:\(i + 1): a commit hash")
      }
    }

    /// The README's library example is the one CI compiles and runs,
    /// `Examples/MapExample/main.swift`, word for word.
    @Test func theReadmeShowsTheCompiledExample() throws {
      let readme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
      let example = try String(contentsOfFile: Self.root + "/Examples/MapExample/main.swift", encoding: .utf8)
      #expect(readme.contains("```swift\n" + example + "```\n"), "paste Examples/MapExample/main.swift into README.md")
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
