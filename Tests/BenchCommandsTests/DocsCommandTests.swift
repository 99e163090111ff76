import BenchHarness
import Foundation
import Testing

@testable import BenchCommands

/// `bench docs` on a small repository: it remakes each generated block from
/// its command, `--check` names the stale ones, and a block it cannot make
/// leaves every guide as it was.
extension CLITests {
  @Suite struct DocsCommandTests {
    static let command = "bench table results/r.csv --where n=1000 --rows index --value median_ns"

    /// What `command` prints over `TableCommandTests.rows`.
    static let table = """
      | index | median |
      |---|---:|
      | kdtree | 216 ns |
      | celltree | 206 ns |

      """

    /// A repository with a report, a README with one stale block and a
    /// docs page with a current one.
    private func repository(_ body: (TemporaryFolder) throws -> Void) throws {
      try withTemporaryFolder { folder in
        try FileManager.default.createDirectory(atPath: folder.file("results"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.file("docs"), withIntermediateDirectories: true)
        try ReportFile.write(TableCommandTests.rows, to: folder.file("results/r.csv"))
        try folder.write("README.md", "# R\n\n<!-- generated: \(Self.command) -->\n| old |\n<!-- end generated -->\n\nEnd.\n")
        try folder.write("docs/page.md", "Page.\n<!-- generated: \(Self.command) -->\n\(Self.table)<!-- end generated -->\n")
        try body(folder)
      }
    }

    @Test func checkNamesTheStaleBlockAndDocsRemakesIt() throws {
      try repository { folder in
        let check = try runBench(["docs", "--check"], in: folder.path)
        #expect(check.code == 1)
        #expect(check.stdout == "README.md:3: stale: \(Self.command)\n2 generated blocks, 1 stale\n")
        #expect(text(folder.file("README.md"))?.contains("| old |") == true, "--check changes nothing")

        let page = bytes(folder.file("docs/page.md"))
        chmod(folder.file("README.md"), 0o600)
        let docs = try runBench(["docs"], in: folder.path)
        #expect(docs.code == 0, "\(docs.stderr)")
        #expect(docs.stdout == "README.md:3: updated\n2 generated blocks, 1 updated\n")
        #expect(text(folder.file("README.md"))
          == "# R\n\n<!-- generated: \(Self.command) -->\n\(Self.table)<!-- end generated -->\n\nEnd.\n")
        #expect(bytes(folder.file("docs/page.md")) == page, "a current guide is not rewritten")
        var info = stat()
        #expect(stat(folder.file("README.md"), &info) == 0 && info.st_mode & 0o777 == 0o600, "its permissions kept")
        #expect(!folder.contents().contains { $0.hasPrefix(".") }, "no temporary file left")

        let again = try runBench(["docs", "--check", "--root", folder.path], in: "/")
        #expect(again.code == 0)
        #expect(again.stdout == "2 generated blocks, 0 stale\n")
      }
    }

    /// A block that is no table command, or whose command fails, is an
    /// error naming the file and line, and no guide is written.
    @Test func aBlockThatCannotBeMadeWritesNothing() throws {
      let cases: [(String, Int32, String)] = [
        ("bench run --dataset places", 65, "docs/bad.md:2: bench run makes no block"),
        ("ls -l", 65, "docs/bad.md:2: \"ls -l\" is not a bench command"),
        ("bench table results/none.csv --rows index --value median_ns", 66,
         "docs/bad.md:2: bench table: cannot read report 'results/none.csv': No such file or directory"),
        ("bench table results/r.csv --rows index --value median_ns", 65, "docs/bad.md:2: bench table: 2 rows match"),
        ("bench table results/r.csv --rows index --value medain_ns", 65,
         "docs/bad.md:2: bench table: unknown report column \"medain_ns\""),
        ("bench help run", 65, "docs/bad.md:2: bench help makes a block only with --markdown"),
      ]
      for (command, code, message) in cases {
        try repository { folder in
          try folder.write("docs/bad.md", "x\n<!-- generated: \(command) -->\n<!-- end generated -->\n")
          let before = (bytes(folder.file("README.md")), bytes(folder.file("docs/bad.md")))
          let docs = try runBench(["docs"], in: folder.path)
          #expect(docs.code == code, "\(command): \(docs.stderr)")
          #expect(docs.stderrLines.first?.hasPrefix("bench: " + message) == true, "\(docs.stderr)")
          #expect(bytes(folder.file("README.md")) == before.0 && bytes(folder.file("docs/bad.md")) == before.1)
        }
      }
    }

    /// `--figures` lists the figures typed into the guides' prose.
    @Test func figuresListsHandTypedFigures() throws {
      try repository { folder in
        try folder.write("CONTRIBUTING.md", "A run takes 2 s.\n\n```\nbench run  # 5 ms\n```\n")
        let docs = try runBench(["docs", "--figures"], in: folder.path)
        #expect(docs.code == 1)
        #expect(docs.stdout == """
          CONTRIBUTING.md:1: 2 s
          1 hand-typed figure in README.md, docs/page.md, CONTRIBUTING.md

          """)
        #expect(text(folder.file("README.md"))?.contains("| old |") == true, "--figures changes nothing")
      }
    }

    @Test func aFolderWithoutGuidesIsRefused() throws {
      try withTemporaryFolder { folder in
        let docs = try runBench(["docs"], in: folder.path)
        #expect(docs.code == 66)
        #expect(docs.stderrLines.first?.contains("run bench docs at the repository's root") == true)
      }
    }
  }
}
