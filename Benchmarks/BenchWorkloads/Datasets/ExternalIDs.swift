/// The external id of each point of a dataset, by position: the ids a file
/// listed, or for generated points their row numbers, which take no memory
/// (8 bytes a point listed was 800 MB of a 100M-point run).
public struct ExternalIDs: RandomAccessCollection, Sendable, Equatable {
  /// The ids listed, or nil for row numbers.
  private let listed: [UInt64]?
  public let count: Int

  /// The ids of a file, in its order.
  public init(_ listed: [UInt64]) {
    self.listed = listed
    count = listed.count
  }

  /// 0, 1, …, `count − 1`.
  public static func rows(_ count: Int) -> ExternalIDs { ExternalIDs(rows: count) }

  private init(rows count: Int) {
    listed = nil
    self.count = count
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { count }

  /// Equal when they hold the same ids, listed or computed.
  public static func == (a: ExternalIDs, b: ExternalIDs) -> Bool {
    a.count == b.count && (a.listed == nil && b.listed == nil || a.elementsEqual(b))
  }

  public subscript(i: Int) -> UInt64 {
    precondition(i >= 0 && i < count, "id position out of range")
    return listed?[i] ?? UInt64(i)
  }
}
