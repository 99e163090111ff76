import BenchFormats
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fingerprint a report records beside a points file's path: the size
/// and a hash of every byte up to 2 MiB, else of the first and last MiB.
@Suite struct FileFingerprintTests {
  static let mib = FileFingerprint.endBytes

  /// `count` bytes drawn from `seed`.
  static func bytes(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 56)
    }
  }

  @Test func itIsSpelledSizeColonSixteenHexDigitsAndReadBack() throws {
    let f = FileFingerprint(size: 81_234, hash: 0x9F3C)
    #expect(f.description == "81234:0000000000009f3c")
    #expect(FileFingerprint(f.description) == f)
    for bad in ["", "81234", "81234:9f3c", ":0000000000009f3c", "-1:0000000000009f3c", "+1:0000000000009f3c",
                "1:000000000000009g", "1:00000000000000000", "1:0000000000009f3c:", "1.0:0000000000009f3c"] {
      #expect(FileFingerprint(bad) == nil, "\(bad)")
    }
  }

  @Test(arguments: [0, 1, 7, 8, 9, 1000, 2 << 20, (2 << 20) + 1, 3 << 20])
  func aFilesFingerprintIsThatOfItsBytes(_ size: Int) throws {
    let folder = try TemporaryDirectory()
    defer { folder.cleanUp() }
    let content = Self.bytes(size)
    let path = try folder.write("p.csv", content)
    let f = try #require(try FileFingerprint.of(file: path))
    #expect(f == FileFingerprint(of: content))
    #expect(f.size == UInt64(size))
    // the same bytes elsewhere are the same file
    #expect(try FileFingerprint.of(file: try folder.write("copy.geojson", content)) == f)
  }

  /// What it sees: the size, any byte of a small file, the first and the
  /// last MiB of a large one; what it does not (documented): a same-size
  /// edit in the middle of a file over 2 MiB.
  @Test func itTellsFilesApart() {
    let small = Self.bytes(5_000)
    var edited = small
    edited[2_500] ^= 1
    #expect(FileFingerprint(of: edited) != FileFingerprint(of: small))
    #expect(FileFingerprint(of: small + [0]) != FileFingerprint(of: small))
    #expect(FileFingerprint(of: small.dropLast()) != FileFingerprint(of: small))
    // zero bytes at the end are bytes too
    #expect(FileFingerprint(of: [1, 2, 3]) != FileFingerprint(of: [1, 2, 3, 0]))
    #expect(FileFingerprint(of: []) != FileFingerprint(of: [0]))

    let large = Self.bytes(3 * Self.mib, seed: 2)
    for (position, seen) in [(10, true), (Self.mib - 1, true), (Self.mib + 10, false), (3 * Self.mib - 1, true)] {
      var copy = large
      copy[position] ^= 0x80
      #expect((FileFingerprint(of: copy) != FileFingerprint(of: large)) == seen, "byte \(position)")
    }
  }

  @Test func aFIFOIsNotOpenedAndHasNone() throws {
    let folder = try TemporaryDirectory()
    defer { folder.cleanUp() }
    let path = folder.path + "/pipe.csv"
    #expect(mkfifo(path, 0o600) == 0)
    // opening it would block here, with no writer
    #expect(try FileFingerprint.of(file: path) == nil)
  }

  @Test func aMissingFileIsUnreadable() throws {
    #expect(throws: DataError.unreadable(file: "/nonexistent/p.csv", reason: "no such file")) {
      try FileFingerprint.of(file: "/nonexistent/p.csv")
    }
  }
}
