import BenchHarness
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A claim on a report's name: one holder at a time, nothing left behind,
/// and a claim file a killed process left is no claim.
@Suite struct OutputClaimsTests {
  @Test func oneHolderAtATime() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let target = OutputTarget("--out", folder + "/r.csv", existing: .keep)
    let first = try OutputClaims.claim([target])
    #expect(listFolder(folder) == [".r.csv.claim"])
    let second = #expect(throws: ReportError.self) { try OutputClaims.claim([target]) }
    #expect(second?.kind == .exists)
    #expect(second?.description == "'\(folder)/r.csv' is being written by another bench process: name a new file with --out")
    first.release()
    #expect(listFolder(folder).isEmpty)
    let again = try OutputClaims.claim([target])
    again.release()
    #expect(listFolder(folder).isEmpty)
  }

  /// A claim file with no lock on it (its holder was killed) is taken over.
  @Test func aStaleClaimFileIsNoClaim() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    writeText("", to: folder + "/.r.csv.claim")
    let claims = try OutputClaims.claim([OutputTarget("--out", folder + "/r.csv", existing: .keep)])
    claims.release()
    #expect(listFolder(folder).isEmpty)
  }

  /// A report another process finished before the claim is found by the
  /// check that follows it.
  @Test func aReportWrittenMeanwhileIsRefused() throws {
    let folder = makeTemporaryFolder()
    defer { removeTree(folder) }
    let target = OutputTarget("--out", folder + "/r.csv", existing: .keep, ifTaken: "name a new file with --out")
    try OutputCheck.check([target], inputs: [])
    writeText("a report\n", to: folder + "/r.csv")
    let error = #expect(throws: ReportError.self) { try OutputCheck.claim([target], inputs: []) }
    #expect(error?.kind == .exists)
    #expect(listFolder(folder) == ["r.csv"], "the claim is given up")
  }
}
