/// How long opening a saved index took, in three parts: reading the file,
/// its checksums, and the structural checks that make a walk safe (with
/// whatever the index computes again from its arrays).
package struct SavedOpenTimings: Sendable {
  /// Reading the header, the table and the sections read into arrays, and
  /// mapping the others.
  package var reading: Duration = .zero
  /// The CRC32C of every section (the header's is in `reading`: 64 bytes
  /// and the table); for a mapped section, with the first touch of its
  /// pages, which the system reads in then.
  package var checksums: Duration = .zero
  /// The structural checks, and the arrays computed again.
  package var structure: Duration = .zero
  /// Zero timings.
  package init() {}
  /// Timings of the three parts.
  package init(reading: Duration, checksums: Duration, structure: Duration) {
    self.reading = reading
    self.checksums = checksums
    self.structure = structure
  }
}
