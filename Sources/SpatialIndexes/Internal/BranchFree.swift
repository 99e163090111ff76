extension Bool {
  /// Non-short-circuit "and": both sides are evaluated, so a chain of
  /// comparisons becomes bit operations the compiler can vectorise instead
  /// of a chain of branches.
  @usableFromInline @inline(__always)
  static func & (a: Bool, b: Bool) -> Bool {
    (UInt8(a ? 1 : 0) & UInt8(b ? 1 : 0)) != 0
  }
}
