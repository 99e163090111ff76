/// A structural self-check that tests run after builds, inserts and removals.
///
/// Each index checks what its layout promises: every point reachable exactly
/// once, every node's box holds its points, counts consistent. The checks are
/// O(*n*) or worse and belong in tests, not in queries.
package protocol InvariantChecking {
  /// Every broken invariant, described; empty when the structure is sound.
  func _invariantViolations() -> [String]
}
