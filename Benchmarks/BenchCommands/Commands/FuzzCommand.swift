import BenchHarness
import BenchWorkloads
import SpatialIndexes

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `bench fuzz [--seconds S] [--cases N] [--seed S] [--case I]
/// [--max-failures F] [--quiet]`: draws hostile cases from the seed
/// and checks every index, workload and strategy against the linear scan,
/// and the linear scan against the documented rules (``FuzzRun``). Each
/// new kind of failure is shrunk and printed as a Swift Testing test and,
/// where it can, a `bench query` line. Exit 1 on any failure.
func fuzzCommand(_ arguments: [String]) throws -> Int32 {
  let command = "fuzz"
  var o = FuzzOptions()
  try FuzzOptions.table.parse(arguments, into: &o)
  let seed = o.seed, only = o.only
  if o.seconds == 0 && o.cases == nil && only == nil {
    throw UsageError("--seconds 0 runs without a time limit: give --cases N too", command: command)
  }
  warnIfDebugBuild()
  var run = FuzzRun(seed: seed, seconds: o.seconds, cases: o.cases, check: FuzzCheck())
  run.maximumFailures = o.maximumFailures
  if let only {
    run.firstCase = only
    run.cases = 1
    run.seconds = 0
    run.degenerateWork = false
  }
  FuzzCrashNote.install(seed: seed, firstCase: only ?? 0)
  output("fuzz: seed \(seed), indexes \(run.check.indexes.joined(separator: ", ")); workloads "
    + "\(run.check.workloads.joined(separator: ", "))")
  var lastProgress = Stopwatch.now()
  var failures = 0
  let summary = run.run(
    progress: { ran, elapsed in
      FuzzCrashNote.caseNumber = (only ?? 0) + ran
      guard !o.quiet, Double(Stopwatch.now() &- lastProgress) > 5e9 else { return }
      lastProgress = Stopwatch.now()
      writeStandardError("fuzz: \(ran) cases in \(Int(elapsed)) s\n")
    },
    report: { found in
      failures += 1
      output(FuzzReport.text(found, number: failures, seed: seed))
    })
  FuzzCrashNote.uninstall()
  let rate = summary.seconds > 0 ? Double(summary.cases) / summary.seconds : 0
  output("fuzz: \(summary.cases) case\(summary.cases == 1 ? "" : "s") in \(String(format: "%.1f", summary.seconds)) s "
    + "(\(String(format: "%.1f", rate)) cases/s), seed \(seed): "
    + (failures == 0 ? "no failure" : "\(failures) failure\(failures == 1 ? "" : "s")"))
  return failures == 0 ? 0 : 1
}

/// What `bench fuzz` reads from the command line.
struct FuzzOptions {
  var seconds = 60.0
  var cases: Int?
  var seed: UInt64 = 42
  /// `--case I`: that case alone.
  var only: Int?
  var maximumFailures = 10
  var quiet = false

  static var table: FlagTable<FuzzOptions> {
    FlagTable("fuzz", [
      Flag("--seconds", "S", help: "draw cases for S seconds (default 60; 0: no limit, with --cases)") {
        (o: inout FuzzOptions, v: FlagValue) throws(UsageError) in
        guard let s = Double(v.text), s.isFinite, s >= 0, s <= 7 * 86_400 else {
          throw v.error("--seconds \"\(v.text)\" must be seconds in 0...604800 (0: no limit, with --cases)")
        }
        o.seconds = s
      },
      Flag("--cases", "N", help: "at most N cases") { (o: inout FuzzOptions, v: FlagValue) throws(UsageError) in
        o.cases = try v.integer(in: 1...Int(Int32.max))
      },
      .seed(\.seed, help: "the seed (default 42)"),
      Flag("--case", "I", help: "case I of the seed alone, to reproduce a failure") {
        (o: inout FuzzOptions, v: FlagValue) throws(UsageError) in
        o.only = try v.integer(in: 0...Int(Int32.max))
      },
      Flag("--max-failures", "F", help: "stop after F kinds of failure in cases (default 10)") {
        (o: inout FuzzOptions, v: FlagValue) throws(UsageError) in
        o.maximumFailures = try v.integer(in: 1...1000)
      },
      .quiet(\.quiet),
    ])
  }
}

/// How `bench fuzz` prints a failure it found.
enum FuzzReport {
  static func text(_ found: FuzzRun.Found, number: Int, seed: UInt64) -> String {
    var lines = ["", "FAILURE \(number): \(found.failure.signature)"]
    guard let caseNumber = found.caseNumber, let original = found.original, let shrunk = found.shrunk else {
      lines.append("  \(found.failure.detail)")
      return lines.joined(separator: "\n")
    }
    let again = "bench fuzz --seed \(seed) --case \(caseNumber)"
    lines.append("  case \(caseNumber) (\(original.points.count) points, \(original.steps.count) steps), "
      + "step \(found.failure.step): \(found.failure.detail)")
    lines.append("  again: \(again)")
    if found.failure.signature.kind == .slow { return lines.joined(separator: "\n") }
    lines.append("  shrunk in \(found.attempts) checks to \(shrunk.points.count) points and "
      + "\(shrunk.steps.count) step\(shrunk.steps.count == 1 ? "" : "s"), step \(found.shrunkFailure.step): "
      + found.shrunkFailure.detail)
    let test = RegressionTest(
      fuzzCase: shrunk, failure: found.shrunkFailure, seed: seed, caseNumber: caseNumber)
    lines.append("")
    lines.append(test.swift)
    if let query = test.benchQuery {
      lines.append("The same with bench query:")
      lines.append(query)
    }
    return lines.joined(separator: "\n")
  }
}

/// Says which case was running when a check crashes (a trap in an index is
/// a failure too): a signal handler writes the seed and case number, then
/// lets the signal take its course.
enum FuzzCrashNote {
  nonisolated(unsafe) static var seed: UInt64 = 0
  nonisolated(unsafe) static var caseNumber = 0
  /// The handler's message, made before any crash: the handler only fills
  /// in digits and writes it (nothing it calls may allocate).
  nonisolated(unsafe) static var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
  static let signals = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

  static func install(seed: UInt64, firstCase: Int) {
    self.seed = seed
    caseNumber = firstCase
    for s in signals { _ = signal(s, FuzzCrashNote.handler) }
  }

  static func uninstall() {
    for s in signals { _ = signal(s, SIG_DFL) }
  }

  /// Only async-signal-safe work: bytes into the buffer, write(2), raise(3).
  static let handler: @convention(c) (Int32) -> Void = { sig in
    var n = 0
    func put(_ text: StaticString) {
      text.withUTF8Buffer { for b in $0 where n < 255 { buffer[n] = b; n += 1 } }
    }
    func put(_ value: UInt64) {
      var divisor: UInt64 = 1
      while value / divisor >= 10 { divisor *= 10 }
      while divisor > 0 && n < 255 {
        buffer[n] = UInt8(48 + (value / divisor) % 10)
        n += 1
        divisor /= 10
      }
    }
    put("\nbench fuzz: crashed in case ")
    put(UInt64(caseNumber))
    put(" of seed ")
    put(seed)
    put("; again: bench fuzz --seed ")
    put(seed)
    put(" --case ")
    put(UInt64(caseNumber))
    put("\n")
    _ = write(2, buffer, n)
    _ = signal(sig, SIG_DFL)
    _ = raise(sig)
  }
}
