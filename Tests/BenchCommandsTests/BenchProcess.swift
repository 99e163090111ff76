import Foundation
import Testing

/// The `bench` executable beside this test bundle (`swift test` builds it).
///
/// Tests that check what `bench` prints run it as a child process: in
/// process, stderr is shared with the test runner, which reports other
/// suites' tests there while a command runs.
var benchExecutable: URL? {
  let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
  var dir = exe.deletingLastPathComponent()
  for _ in 0..<3 {
    let candidate = dir.appendingPathComponent("bench")
    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    dir = dir.deletingLastPathComponent()
  }
  return nil
}

/// What one `bench` process did.
struct BenchResult {
  var code: Int32
  var stdout: String
  var stderr: String

  /// The lines written to stderr.
  var stderrLines: [String] {
    stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
  }
}

/// Runs `bench arguments` in `directory` (relative paths in the arguments
/// resolve there, so messages name files exactly as given) and waits for it.
func runBench(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> BenchResult {
  try runConcurrently([arguments], in: directory, environment: environment)[0]
}

/// Runs `bench arguments` in `directory` with standard output appended to
/// the file at `path` (as `bench … >> path` does); `stdout` is empty.
func runBench(_ arguments: [String], in directory: String, appendingStandardOutputTo path: String) throws -> BenchResult {
  let bench = try #require(benchExecutable, "the bench executable was not built beside the tests")
  let capture = try TemporaryFolder()
  defer { capture.remove() }
  let err = try capture.write("err", "")
  let process = Process()
  process.executableURL = bench
  process.arguments = arguments
  process.currentDirectoryURL = URL(fileURLWithPath: directory)
  process.standardInput = FileHandle.nullDevice
  let out = try FileHandle(forUpdating: URL(fileURLWithPath: path))
  _ = try out.seekToEnd()
  process.standardOutput = out
  process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
  try process.run()
  waitForExit(of: process, seconds: 600, "bench \(arguments.joined(separator: " "))")
  try out.close()
  let status = process.terminationStatus
  return BenchResult(
    code: process.terminationReason == .exit ? status : -status, stdout: "", stderr: text(err) ?? "")
}

/// Starts every invocation at once in `directory` and waits for all.
/// `environment` adds to (or replaces in) the test's own.
func runConcurrently(
  _ invocations: [[String]], in directory: String, environment: [String: String] = [:]
) throws -> [BenchResult] {
  let bench = try #require(benchExecutable, "the bench executable was not built beside the tests")
  // Output goes to files, not pipes: a full pipe would block the child.
  let capture = try TemporaryFolder()
  defer { capture.remove() }
  var processes: [(Process, String, String)] = []
  for (k, arguments) in invocations.enumerated() {
    let out = try capture.write("out-\(k)", ""), err = try capture.write("err-\(k)", "")
    let process = Process()
    process.executableURL = bench
    process.arguments = arguments
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
    processes.append((process, out, err))
  }
  for (process, _, _) in processes { try process.run() }
  return processes.map { process, out, err in
    waitForExit(of: process, seconds: 600, "bench \(process.arguments?.joined(separator: " ") ?? "")")
    // A signal shows as its negated number, never as a plausible exit code.
    let status = process.terminationStatus
    return BenchResult(
      code: process.terminationReason == .exit ? status : -status, stdout: text(out) ?? "",
      stderr: text(err) ?? "")
  }
}

/// Waits for `process` to end, at most `seconds`: past that it is killed
/// and the test fails, so a hung child never hangs the suite.
func waitForExit(
  of process: Process, seconds: Int, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  var waited = 0
  while process.isRunning && waited < seconds * 10 {
    usleep(100_000)
    waited += 1
  }
  if process.isRunning {
    kill(process.processIdentifier, SIGKILL)
    Issue.record("\(what) did not end within \(seconds) s", sourceLocation: sourceLocation)
  }
  process.waitUntilExit()
}

/// Expects `result` to be a failure with exit `code` and exactly one line on
/// stderr, `bench: ` + `message`.
func expectOneError(
  _ result: BenchResult, code: Int32, _ message: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(result.code == code, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
  #expect(result.stderrLines == ["bench: " + message], sourceLocation: sourceLocation)
}

/// True when this process may write anywhere: permission bits do not stop it.
var isRoot: Bool { getuid() == 0 }
