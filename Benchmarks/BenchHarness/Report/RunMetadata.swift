import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who, where and how: written into every row, so a row pasted elsewhere or a
/// report appended to over several runs still says where each figure came from.
public struct RunMetadata: Sendable, Equatable {
  /// When the run started, ISO 8601 UTC to the second (`2026-01-31T12:00:00Z`).
  public var timestamp: String
  /// Short hash of the checked-out commit, or "unknown" outside a git work tree.
  public var gitCommit: String
  public var machine: MachineInfo
  /// Compiler that built this binary, e.g. "6.3" (see `compilerVersion`).
  public var swiftVersion: String
  /// "release" or "debug" (see `buildConfiguration`).
  public var buildConfig: String
  /// Seed of the run's datasets and queries.
  public var seed: UInt64

  public init(
    timestamp: String, gitCommit: String, machine: MachineInfo,
    swiftVersion: String = RunMetadata.compilerVersion,
    buildConfig: String = RunMetadata.buildConfiguration, seed: UInt64
  ) {
    self.timestamp = timestamp
    self.gitCommit = gitCommit
    self.machine = machine
    self.swiftVersion = swiftVersion
    self.buildConfig = buildConfig
    self.seed = seed
  }

  /// Metadata for a run starting now on this machine. `gitDirectory` is where
  /// to ask git (default: the current directory).
  public static func current(seed: UInt64, gitDirectory: String? = nil) -> RunMetadata {
    RunMetadata(
      timestamp: iso8601(Date()), gitCommit: gitCommit(in: gitDirectory),
      machine: .current(), seed: seed)
  }

  /// `date` as ISO 8601 UTC to the second, e.g. `2026-01-31T12:00:00Z`.
  public static func iso8601(_ date: Date) -> String {
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
      + "T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
  }

  /// `git rev-parse --short HEAD` run in `directory`, or "unknown" when git is
  /// missing, fails, or the directory is not in a work tree. Never throws.
  public static func gitCommit(in directory: String? = nil) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "rev-parse", "--short", "HEAD"]
    if let directory {
      process.currentDirectoryURL = URL(fileURLWithPath: directory, isDirectory: true)
    }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      return "unknown"
    }
    // Read before waiting, so a full pipe cannot block git.
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      return "unknown"
    }
    let hash = String(decoding: data, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    return hash.isEmpty ? "unknown" : hash
  }

  /// The compiler that built this module, major.minor, from `#if compiler`
  /// checks (a binary cannot ask its compiler at run time; `swift --version`
  /// could name a different toolchain from the one that built it).
  public static let compilerVersion: String = {
    #if compiler(>=7.0)
    return "7.0+"
    #elseif compiler(>=6.4)
    return "6.4"
    #elseif compiler(>=6.3)
    return "6.3"
    #elseif compiler(>=6.2)
    return "6.2"
    #elseif compiler(>=6.1)
    return "6.1"
    #else
    return "6.0"
    #endif
  }()

  /// "debug" when built with `DEBUG` defined (SwiftPM's debug configuration),
  /// else "release". Debug timings are not worth comparing.
  public static let buildConfiguration: String = {
    #if DEBUG
    return "debug"
    #else
    return "release"
    #endif
  }()
}
