import BenchFormats
import BenchHarness
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct ReportFileTests {
  @Test func writesAndReadsBack() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let path = "\(folder)/report.csv"
    let rows = [testRow(), testRow(index: "GridHashIndex")]
    try ReportFile.write(rows, to: path)
    #expect(try ReportFile.read(path) == rows)
    #expect(listFolder(folder) == ["report.csv"])  // no temporary file left
  }

  @Test func neverReplacesAnEarlierReport() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let path = "\(folder)/report.csv"
    writeText("old\n", to: path)
    #expect(throws: ReportError(.exists, path: path, detail: "already exists")) {
      try ReportFile.write([testRow()], to: path)
    }
    #expect(readText(path) == "old\n")
    #expect(listFolder(folder) == ["report.csv"])
  }

  /// The default name takes the next free suffix, also when a name was taken
  /// after it was chosen.
  @Test func aNewReportTakesTheNextFreeName() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let date = Date(timeIntervalSince1970: 1_800_000_000)
    let first = try ReportFile.writeNew([testRow()], suite: "run", gitCommit: "abc", date: date, directory: folder)
    let second = try ReportFile.writeNew([testRow()], suite: "run", gitCommit: "abc", date: date, directory: folder)
    #expect(first == "\(folder)/2027-01-15-abc-run.csv")
    #expect(second == "\(folder)/2027-01-15-abc-run-2.csv")
    writeText("taken\n", to: "\(folder)/2027-01-15-abc-run-3.csv")
    let third = try ReportFile.writeNew([testRow()], suite: "run", gitCommit: "abc", date: date, directory: folder)
    #expect(third == "\(folder)/2027-01-15-abc-run-4.csv")
    #expect(readText("\(folder)/2027-01-15-abc-run-3.csv") == "taken\n")
  }

  /// While a file is written its temporary name is where the stop handler
  /// finds it, and only then; also a file written while another is (as
  /// `export` does), without losing the first.
  @Test func theTemporaryFileIsKnownToTheStopHandlerWhileItIsWritten() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    var outer: [String] = [], inner: [String] = []
    try AtomicFile._write(Array("x".utf8), to: "\(folder)/out.csv", mode: 0o644, existing: .replace) {
      () throws(ReportError) in
      outer = StopSignals.pendingPaths.filter { $0.hasPrefix(folder) }
      try AtomicFile._write(Array("y".utf8), to: "\(folder)/next.csv", mode: 0o644, existing: .replace) {
        () throws(ReportError) in inner = StopSignals.pendingPaths.filter { $0.hasPrefix(folder) }
      }
    }
    #expect(outer.count == 1)
    #expect(outer.allSatisfy { $0.hasPrefix("\(folder)/.out.csv.tmp-") })
    #expect(inner.count == 2)
    #expect(inner.filter { $0.hasPrefix("\(folder)/.next.csv.tmp-") }.count == 1)
    #expect(StopSignals.pendingPaths.filter { $0.hasPrefix(folder) }.isEmpty)
    #expect(listFolder(folder) == ["next.csv", "out.csv"])
  }

  @Test func failureBeforeRenameLeavesOldFileAndNoTemporary() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let path = "\(folder)/report.csv"
    writeText("earlier content\n", to: path)
    let injected = ReportError(.ioError, path: path, detail: "injected")
    #expect(throws: injected) {
      try AtomicFile._write(Array("new".utf8), to: path, mode: 0o644, existing: .replace) {
        () throws(ReportError) in throw injected
      }
    }
    #expect(readText(path) == "earlier content\n")
    #expect(listFolder(folder) == ["report.csv"])
  }

  @Test func failureBeforeRenameCreatesNothing() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let injected = ReportError(.ioError, path: "x", detail: "injected")
    #expect(throws: injected) {
      try AtomicFile._write([], to: "\(folder)/new.csv", mode: 0o644, existing: .replace) {
        () throws(ReportError) in throw injected
      }
    }
    #expect(listFolder(folder).isEmpty)
  }

  @Test func missingFolderIsCannotCreate() {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let path = "\(folder)/no/such/folder/out.csv"
    expectCannotCreate(path)
    #expect(listFolder(folder).isEmpty)
  }

  /// Root ignores a folder's write bits, so as root (as CI runs) an
  /// unwritable folder is forced with a path through a regular file (ENOTDIR).
  @Test func pathThroughARegularFileIsCannotCreate() {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    writeText("x", to: "\(folder)/file.txt")
    expectCannotCreate("\(folder)/file.txt/out.csv")
    #expect(listFolder(folder) == ["file.txt"])
  }

  /// Only meaningful when not root: root writes into a 0555 folder anyway.
  @Test(.enabled(if: geteuid() != 0, "root ignores folder permissions"))
  func readOnlyFolderIsCannotCreate() {
    let folder = makeTemporaryFolder()
    defer {
      chmod(folder, 0o755)
      removeTree(folder)
    }
    chmod(folder, 0o555)
    expectCannotCreate("\(folder)/out.csv")
    #expect(listFolder(folder).isEmpty)
  }

  @Test func directoryInTheWayIsCannotCreate() {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    mkdir("\(folder)/out.csv", 0o755)
    expectCannotCreate("\(folder)/out.csv")
    do {
      try ReportFile.append([testRow()], to: "\(folder)/out.csv")
      Issue.record("append to a directory should have failed")
    } catch {
      #expect(error.exitCode == 73)
    }
    #expect(listFolder(folder) == ["out.csv"])
  }

  @Test func appendToMatchingHeaderKeepsOldRowsByteForByte() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let path = "\(folder)/report.csv"
    try ReportFile.write([testRow()], to: path)
    chmod(path, 0o600)
    let before = try #require(readText(path))
    try ReportFile.append([testRow(index: "hilbert")], to: path)
    let after = try #require(readText(path))
    #expect(after.hasPrefix(before))
    let added = CSVWriter.line(testRow(index: "hilbert").csvFields)
    #expect(after.dropFirst(before.count) == added)
    #expect(try ReportFile.read(path).map(\.key.index) == ["kdtree", "hilbert"])
    var info = stat()
    stat(path, &info)
    #expect(info.st_mode & 0o777 == 0o600)  // permissions kept
    #expect(listFolder(folder) == ["report.csv"])
  }

  @Test func appendAddsMissingFinalNewline() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let path = "\(folder)/report.csv"
    let text = ReportSchema.render([testRow()])
    writeText(String(text.dropLast()), to: path)
    try ReportFile.append([testRow(index: "B")], to: path)
    #expect(try ReportFile.read(path).count == 2)
  }

  @Test func appendCreatesAMissingReport() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let path = "\(folder)/new.csv"
    try ReportFile.append([testRow()], to: path)
    #expect(try ReportFile.read(path) == [testRow()])
  }

  @Test func appendRefusesADifferentHeaderAndLeavesFileUntouched() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let path = "\(folder)/report.csv"
    let foreign = "index,params,median_ns\nA,,12\n"
    writeText(foreign, to: path)
    do {
      try ReportFile.append([testRow()], to: path)
      Issue.record("append should have refused")
    } catch {
      #expect(error.kind == .badData && error.exitCode == 65)
      #expect(error.description.contains(path))
    }
    #expect(readText(path) == foreign)
    #expect(listFolder(folder) == ["report.csv"])
    writeText("", to: path)
    #expect(throws: ReportError.self) { try ReportFile.append([testRow()], to: path) }
  }

  @Test func readingMissingFileIsNoInput() {
    do {
      _ = try ReportFile.read("/nonexistent-folder/report.csv")
      Issue.record("read should have failed")
    } catch {
      #expect(error.kind == .noInput && error.exitCode == 66)
    }
  }

  @Test func defaultPathDoesNotOverwrite() {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let date = Date(timeIntervalSince1970: 1_769_861_045)
    let first = ReportFile.defaultPath(
      suite: "viewport", gitCommit: "abc1234", date: date, directory: folder)
    #expect(first == "\(folder)/2026-01-31-abc1234-viewport.csv")
    writeText("x", to: first)
    let second = ReportFile.defaultPath(
      suite: "viewport", gitCommit: "abc1234", date: date, directory: folder + "/")
    #expect(second == "\(folder)/2026-01-31-abc1234-viewport-2.csv")
    writeText("x", to: second)
    #expect(ReportFile.defaultPath(suite: "viewport", gitCommit: "abc1234", date: date,
      directory: folder).hasSuffix("-3.csv"))
    #expect(ReportFile.defaultPath(suite: "a b/c", gitCommit: "", date: date,
      directory: folder).hasSuffix("2026-01-31-unknown-a-b-c.csv"))
  }

  private func expectCannotCreate(
    _ path: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      try ReportFile.write([testRow()], to: path)
      Issue.record("write to \(path) should have failed", sourceLocation: sourceLocation)
    } catch {
      #expect(error.kind == .cannotCreate, sourceLocation: sourceLocation)
      #expect(error.exitCode == 73, sourceLocation: sourceLocation)
      #expect(error.description.contains(path), sourceLocation: sourceLocation)
    }
  }
}
