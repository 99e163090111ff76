/// One disagreement the fuzzer found: which check, at which step, and how.
public struct FuzzFailure: Sendable, Equatable, CustomStringConvertible {
  /// What disagreed.
  public enum Kind: String, Sendable, CaseIterable {
    /// An index (or a strategy of the linear scan) against the linear scan.
    case index
    /// The linear scan against the documented rule (``AnswerRule``).
    case rule
    /// A build or a run threw where the data are valid.
    case error
    /// A case took longer than the cap: a stall, shown with its slowest check.
    case slow
    /// Work that grows with the number of identical points (``DegenerateWork``).
    case work
  }

  /// The check that failed; the shrinker keeps it failing.
  public struct Signature: Hashable, Sendable, CustomStringConvertible {
    public var kind: Kind
    /// The index name (`linear` for a rule).
    public var index: String
    public var workload: String
    /// The workload's variant (`k=1`, `per-cell`), empty for none.
    public var variant: String

    public init(kind: Kind, index: String, workload: String, variant: String) {
      self.kind = kind
      self.index = index
      self.workload = workload
      self.variant = variant
    }

    public var description: String {
      let what = variant.isEmpty ? workload : "\(workload) \(variant)"
      switch kind {
      case .index: return "\(index) \(what) differs from the linear scan"
      case .rule: return "the linear scan's \(what) breaks the documented rule"
      case .error: return "\(index) \(what) threw"
      case .slow: return "\(index) \(what) was slow"
      case .work: return "\(index) \(what): work grows with identical points"
      }
    }
  }

  public var signature: Signature
  /// The first step that differs.
  public var step: Int
  /// How, in a few words.
  public var detail: String

  public init(_ signature: Signature, step: Int, detail: String) {
    self.signature = signature
    self.step = step
    self.detail = detail
  }

  public var description: String { "\(signature), step \(step): \(detail)" }
}
