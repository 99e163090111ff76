import BenchHarness
import Foundation
import Testing

@Suite struct MachineInfoTests {
  @Test func parsesCPUModel() {
    let text =
      "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\nflags\t: x\n"
    #expect(MachineInfo.cpuModel(fromCPUInfo: text) == "AMD EPYC 7B13")
    #expect(MachineInfo.cpuModel(fromCPUInfo: "processor : 0\n") == nil)
  }

  @Test func parsesPrettyName() {
    let text =
      "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\n"
    #expect(MachineInfo.prettyName(fromOSRelease: text) == "Debian GNU/Linux 12 (bookworm)")
    #expect(MachineInfo.prettyName(fromOSRelease: "PRETTY_NAME=Plain\n") == "Plain")
    #expect(MachineInfo.prettyName(fromOSRelease: "ID=x\n") == nil)
  }

  @Test func currentMachineIsFilledIn() {
    let m = MachineInfo.current()
    #expect(!m.cpuModel.isEmpty)
    #expect(m.cores >= 1)
    #expect(m.memoryBytes > 0)
    #expect(!m.os.isEmpty)
  }

  @Test func peakResidentSetIsPlausible() {
    let rss = MachineInfo.peakResidentBytes()
    #expect(rss > 1 << 20)  // a Swift test process holds more than 1 MiB
    #expect(rss < 1 << 40)
  }

  @Test func gitCommitOutsideARepositoryIsUnknown() {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    #expect(RunMetadata.gitCommit(in: folder) == "unknown")
    #expect(RunMetadata.gitCommit(in: folder + "/missing") == "unknown")
  }

  @Test func gitCommitNeverEmpty() {
    // Inside this work tree it is a short hash, elsewhere "unknown".
    let commit = RunMetadata.gitCommit()
    #expect(!commit.isEmpty && !commit.contains("\n"))
  }

  @Test func timestampIsISO8601UTC() {
    #expect(RunMetadata.iso8601(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
    #expect(RunMetadata.iso8601(Date(timeIntervalSince1970: 1_769_861_045.9))
      == "2026-01-31T12:04:05Z")
  }

  @Test func buildConfigAndCompiler() {
    #expect(["debug", "release"].contains(RunMetadata.buildConfiguration))
    let compiler = RunMetadata.compilerVersion
    #expect(compiler.hasPrefix("6.") || compiler.hasPrefix("7"))
    let run = RunMetadata.current(seed: 7)
    #expect(run.seed == 7 && run.timestamp.hasSuffix("Z"))
  }
}
