import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The machine a report was measured on. Two reports are only comparable
/// figure for figure when these match (`Comparison` warns otherwise).
public struct MachineInfo: Hashable, Sendable, CustomStringConvertible {
  /// `model name` from /proc/cpuinfo (on our VMs just "AMD EPYC"), or "unknown".
  public var cpuModel: String
  /// Active processor count.
  public var cores: Int
  /// Physical memory, in bytes.
  public var memoryBytes: UInt64
  /// `PRETTY_NAME` from /etc/os-release, else `ProcessInfo`'s OS version string.
  public var os: String

  public init(cpuModel: String, cores: Int, memoryBytes: UInt64, os: String) {
    self.cpuModel = cpuModel
    self.cores = cores
    self.memoryBytes = memoryBytes
    self.os = os
  }

  public var description: String {
    "\(cpuModel), \(cores) cores, \(memoryBytes) bytes, \(os)"
  }

  /// Whether `other` is a machine of the same class: the same processor
  /// model, core count and OS, and memory within 2%. Two VMs of one class
  /// report total memory a few hundred kilobytes apart (what the kernel
  /// keeps differs), which says nothing about their speed.
  public func isSameClass(as other: MachineInfo) -> Bool {
    guard cpuModel == other.cpuModel, cores == other.cores, os == other.os else { return false }
    let a = Double(memoryBytes), b = Double(other.memoryBytes)
    return abs(a - b) <= 0.02 * max(a, b)
  }

  /// This machine. Reads two small files; never fails (unknown parts read "unknown").
  public static func current() -> MachineInfo {
    let info = ProcessInfo.processInfo
    let cpu = readText("/proc/cpuinfo").flatMap(cpuModel(fromCPUInfo:)) ?? "unknown"
    let os =
      readText("/etc/os-release").flatMap(prettyName(fromOSRelease:))
      ?? info.operatingSystemVersionString
    return MachineInfo(
      cpuModel: cpu, cores: info.activeProcessorCount,
      memoryBytes: info.physicalMemory, os: os.isEmpty ? "unknown" : os)
  }

  /// The first `model name` value in /proc/cpuinfo text.
  public static func cpuModel(fromCPUInfo text: String) -> String? {
    value(named: "model name", separator: ":", in: text)
  }

  /// `PRETTY_NAME` from /etc/os-release text, without its quotes.
  public static func prettyName(fromOSRelease text: String) -> String? {
    guard var v = value(named: "PRETTY_NAME", separator: "=", in: text) else { return nil }
    if v.count >= 2, let first = v.first, first == "\"" || first == "'", v.last == first {
      v = String(v.dropFirst().dropLast())
    }
    return v.isEmpty ? nil : v
  }

  /// Peak resident set size of this process so far, in bytes: `getrusage`'s
  /// `ru_maxrss`, which Linux gives in KiB (equal to `VmHWM` in /proc/self/status).
  public static func peakResidentBytes() -> UInt64 {
    var usage = rusage()
    #if canImport(Darwin)
    guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
    return UInt64(max(0, usage.ru_maxrss))  // bytes on Darwin
    #else
    guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
    return UInt64(max(0, usage.ru_maxrss)) * 1024
    #endif
  }

  private static func value(named name: String, separator: Character, in text: String) -> String? {
    for line in text.split(separator: "\n") {
      guard let cut = line.firstIndex(of: separator) else { continue }
      guard line[..<cut].trimmingCharacters(in: .whitespaces) == name else { continue }
      let v = line[line.index(after: cut)...].trimmingCharacters(in: .whitespaces)
      return v.isEmpty ? nil : v
    }
    return nil
  }

  private static func readText(_ path: String) -> String? {
    // /proc files report size 0, so read to the end rather than by size.
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let data = try? handle.readToEnd() else { return nil }
    return String(decoding: data, as: UTF8.self)
  }
}
