import BenchHarness
import SpatialIndexes

/// `bench fuzz`'s loop: cases drawn one after another from a seed
/// (``FuzzCaseGenerator``), each checked (``FuzzCheck``), until a time or a
/// count runs out; each new kind of failure shrunk (``FuzzShrinker``) and
/// handed to the caller at once. The work on identical points
/// (``DegenerateWork``) is checked first.
///
/// A kind of failure is its check's kind, index and workload: the same bug
/// seen by another strategy or `k` is not shrunk again.
public struct FuzzRun {
  public var seed: UInt64
  /// Seconds to draw cases for (0: no limit; then ``cases`` ends the run).
  public var seconds: Double
  /// Cases to run at most.
  public var cases: Int?
  /// The number of the first case (cases are numbered from 0).
  public var firstCase = 0
  /// Kinds of failure in cases after which the run stops.
  public var maximumFailures = 10
  /// A case taking longer than this is a failure (a stall).
  public var caseSeconds = 30.0
  /// Seconds a shrink may take.
  public var shrinkSeconds = 30.0
  /// Whether to check the work on identical points first.
  public var degenerateWork = true
  public var check: FuzzCheck

  package init(seed: UInt64, seconds: Double, cases: Int? = nil, check: FuzzCheck = FuzzCheck()) {
    self.seed = seed
    self.seconds = seconds
    self.cases = cases
    self.check = check
  }

  /// One kind of failure, found and shrunk.
  public struct Found: Sendable {
    /// The case it was found in (its number; nil for the identical-points check).
    public var caseNumber: Int?
    public var failure: FuzzFailure
    public var original: FuzzCase?
    /// The shrunk case and its failure (the original where nothing shrank).
    public var shrunk: FuzzCase?
    public var shrunkFailure: FuzzFailure
    /// Checks the shrinker ran.
    public var attempts: Int
  }

  /// What a run did.
  public struct Summary: Sendable {
    public var cases: Int
    public var seconds: Double
    public var found: [Found]
  }

  /// Runs; `progress` hears the cases run and seconds spent after each case,
  /// `report` each kind of failure as soon as it is shrunk.
  public mutating func run(
    progress: (Int, Double) -> Void = { _, _ in }, report: (Found) -> Void
  ) -> Summary {
    let start = Stopwatch.now()
    func elapsed() -> Double { Double(Stopwatch.now() &- start) / 1e9 }
    var found: [Found] = []
    var seen: Set<String> = []
    func isNew(_ s: FuzzFailure.Signature) -> Bool { seen.insert("\(s.kind) \(s.index) \(s.workload)").inserted }

    if degenerateWork {
      // one report an index, its searches listed (they do not count
      // toward maximumFailures: the cases still run)
      let failures = DegenerateWork.failures(check)
      for index in check.indexes {
        let mine = failures.filter { $0.signature.index == index }
        guard var f = mine.first else { continue }
        f.signature.workload = mine.map { "\($0.signature.workload) \($0.signature.variant)" }.joined(separator: ", ")
        f.signature.variant = ""
        f.detail = mine.map { "\($0.signature.workload) \($0.signature.variant): \($0.detail)" }.joined(separator: "\n  ")
        let item = Found(caseNumber: nil, failure: f, original: nil, shrunk: nil, shrunkFailure: f, attempts: 0)
        found.append(item)
        report(item)
      }
    }
    let fromWork = found.count
    var ran = 0
    var number = firstCase
    while found.count - fromWork < maximumFailures {
      if let cases, ran >= cases { break }
      if seconds > 0 && elapsed() >= seconds { break }
      let c = FuzzCaseGenerator.fuzzCase(seed: seed, number: number)
      let t0 = Stopwatch.now()
      var failures = check.failures(of: c)
      let took = Double(Stopwatch.now() &- t0) / 1e9
      if took > caseSeconds, let slowest = check.slowest {
        var s = slowest.signature
        s.kind = .slow
        failures.append(FuzzFailure(
          s, step: 0, detail: "the case took \(Int(took)) s, this check \(Int(slowest.seconds)) s (cap \(Int(caseSeconds)) s)"))
      }
      for f in failures where isNew(f.signature) && found.count - fromWork < maximumFailures {
        var item = Found(caseNumber: number, failure: f, original: c, shrunk: c, shrunkFailure: f, attempts: 0)
        if f.signature.kind != .slow {
          var shrinker = FuzzShrinker(check: check, signature: f.signature, seconds: shrinkSeconds)
          let (shrunk, failure) = shrinker.shrink(c, f)
          item.shrunk = shrunk
          item.shrunkFailure = failure
          item.attempts = shrinker.attempts
        }
        found.append(item)
        report(item)
      }
      ran += 1
      number += 1
      progress(ran, elapsed())
    }
    return Summary(cases: ran, seconds: elapsed(), found: found)
  }
}
