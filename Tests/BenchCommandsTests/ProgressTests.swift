import Foundation
import Testing

@testable import BenchCommands

/// The lines a ``Progress`` wrote, from any thread.
final class WrittenLines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []

  func append(_ line: String) {
    lock.lock()
    lines.append(line)
    lock.unlock()
  }

  var all: [String] {
    lock.lock()
    defer { lock.unlock() }
    return lines
  }
}

/// Progress on stderr that is a log (a file, a pipe): a line every
/// interval (5 s), also while one long unit runs without a word.
@Suite struct ProgressTests {
  @Test func aLogGetsALineEveryIntervalDuringALongUnit() {
    let lines = WrittenLines()
    var progress = Progress(
      quiet: false, totalUnits: 2, isTerminal: false, interval: 0.05, write: { lines.append($0) })
    progress.start("kdtree build")
    #expect(lines.all.count == 1)
    Thread.sleep(forTimeInterval: 0.6)  // the unit runs on, with no update
    let during = lines.all
    #expect(during.count >= 4, "\(during)")
    #expect(during.allSatisfy { $0.hasPrefix("kdtree build: ") && $0.hasSuffix("\n") }, "\(during)")
    progress.finish()
    let atFinish = lines.all.count
    Thread.sleep(forTimeInterval: 0.3)
    #expect(lines.all.count == atFinish, "no line after the run")
  }

  @Test func quietWritesNothing() {
    let lines = WrittenLines()
    var progress = Progress(
      quiet: true, totalUnits: 1, isTerminal: false, interval: 0.02, write: { lines.append($0) })
    progress.start("kdtree build")
    progress.update(0.5)
    Thread.sleep(forTimeInterval: 0.2)
    progress.finish()
    #expect(lines.all.isEmpty)
  }
}
