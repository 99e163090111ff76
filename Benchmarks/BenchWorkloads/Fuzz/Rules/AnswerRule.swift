import SpatialIndexes

/// A workload's answers as its documented contract defines them
/// (docs/formats.md, "Answer files"), worked out by brute force over every
/// point: the fuzzer's check on the linear scan, which every index is
/// checked against. Each rule is written from the contract's text, not from
/// the code it checks: a rule and the library that agree on a wrong answer
/// must both have misread the same sentence.
///
/// To add a workload: its rule in a file of its own here, and one line in
/// ``AnswerRules/all`` (a test fails for a catalogue workload without one).
public protocol AnswerRule {
  /// The workload's answer type (``Workload/Answer``).
  associatedtype Answer

  /// The name of the workload whose answers the rule gives.
  static var workload: String { get }

  /// Every step's answer of `variant` over `data`.
  static func answers(_ data: WorkloadData, variant: String) -> [Answer]

  /// Whether `got` is an answer the contract allows at `step`, the rule's
  /// own being `expected`: equal, or different only where the contract's
  /// arithmetic leaves room (two distances a rounding apart, ranked either
  /// way; a point a rounding away from a search's limit, kept or not).
  static func allows(
    _ got: Answer, expected: Answer, step: Int, data: WorkloadData, variant: String
  ) -> Bool
}

extension AnswerRule where Answer: Equatable {
  public static func allows(
    _ got: Answer, expected: Answer, step: Int, data: WorkloadData, variant: String
  ) -> Bool {
    got == expected
  }
}

/// The rule of every workload, by name.
public enum AnswerRules {
  public static var all: [any AnswerRule.Type] {
    [ViewportRule.self, ClusterRule.self, TapRule.self, FilterSessionRule.self, NearestRule.self, LiveRule.self]
  }

  /// The rule of the workload called `name`.
  public static func rule(for name: String) -> (any AnswerRule.Type)? {
    all.first { $0.workload == name }
  }
}
