import BenchFormats
import BenchHarness

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `bench` command line: parses `arguments` (without the program name),
/// runs the command and returns the process exit code. Errors are printed
/// to stderr as one line naming the file, line and field where there is one.
public func benchMain(_ arguments: [String]) -> Int32 {
  StandardOutput.failure = 0
  StandardOutput.readerGone = false
  var code: Int32
  do {
    code = try dispatch(arguments)
  } catch {
    let (errorCode, message) = report(error)
    printError(message)
    code = errorCode
  }
  // What went to standard output is part of the answer: losing it is an error.
  if let message = StandardOutput.failureMessage {
    printError(message)
    if code == 0 { code = 74 }
  }
  return code
}

/// The `bench` executable: readies the process, runs `arguments` and exits
/// with the command's code. A stop signal removes the file being written
/// (``StopSignals``); a write to a closed pipe fails with EPIPE instead of
/// killing bench mid-write, and bench then stops writing to it and ends
/// quietly (``StandardOutput``).
public func benchProcess(_ arguments: [String]) -> Never {
  StopSignals.install()
  _ = signal(SIGPIPE, SIG_IGN)
  exit(benchMain(arguments))
}

/// Runs the command `arguments` name (``CommandCatalog``); flags first mean
/// `run`. `--help` or `-h` anywhere prints the command's help instead.
func dispatch(_ arguments: [String]) throws -> Int32 {
  guard let first = arguments.first else { return try runCommand([]) }
  let rest = Array(arguments.dropFirst())
  if ["help", "--help", "-h"].contains(first) {
    let text = try helpText(rest)
    output(text, terminator: text.hasSuffix("\n") ? "" : "\n")
    return 0
  }
  let asksHelp = arguments.contains { $0 == "--help" || $0 == "-h" }
  if first.hasPrefix("-") {
    if asksHelp { output(Usage.text(for: "run")); return 0 }
    return try runCommand(arguments)
  }
  guard let command = CommandCatalog.named(first) else {
    throw UsageError.unknown("command", first, valid: Usage.commands, command: "help")
  }
  if asksHelp {
    output(Usage.text(for: first))
    return 0
  }
  return try command.run(rest)
}

/// Writes `message` to stderr as one or more lines; a control character
/// in it (from a name or an argument) is written out, so nothing given to
/// bench moves the terminal's cursor or colours it.
func printError(_ message: String) {
  var line = escapingControls(message, keeping: ["\n"])
  if !line.hasSuffix("\n") { line += "\n" }
  writeStandardError(line)
}

/// Writes to file descriptor 2 directly (the C `stderr` global is not
/// concurrency-safe in Swift 6).
func writeStandardError(_ text: String) {
  var bytes = Array(text.utf8)
  var offset = 0
  while offset < bytes.count {
    let n = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
    if n <= 0 { return }
    offset += n
  }
}
