import BenchHarness
import SpatialIndexes

/// What timing one runner produced.
struct Measured {
  var samples: [Double]
  var batch: Int
  var checksum: UInt64
  var resultsTotal: UInt64
  var counters: WorkCounters?
  var churn: Int? = nil
}

/// Times every step of `runner`, `repeats` times after `warmup` untimed
/// passes. A step shorter than 20 clock overheads is timed in batches of
/// identical repetitions (the same `k` for every step, picked on a pilot
/// pass), and its sample is the batch's time divided by `k`.
///
/// Repetitions stop early once `budget` nanoseconds have gone by (at least
/// one timed pass always runs), so one very slow combination, such as the
/// linear scan clustering cell by cell, cannot hold up a whole run; the
/// `samples` column tells how many were taken.
///
/// Counters, when asked for, come from one extra untimed pass, so they
/// never disturb the timings.
func measure<R: StepRunner>(
  _ runner: inout R, repeats: Int, warmup: Int, budget: Double, clockOverhead: Double,
  counters wantCounters: Bool, progress: (Double) -> Void
) -> Measured {
  var none = NoCounters()
  let n = runner.stepCount
  // Pilot and warm-up: also yields the checksum, which every pass repeats.
  var checksum: UInt64 = 0
  var total: UInt64 = 0
  var pilot: [Double] = []
  pilot.reserveCapacity(n)
  for step in 0..<n {
    let t0 = Stopwatch.now()
    let r = runner.run(step: step, counters: &none)
    pilot.append(Double(Stopwatch.now() &- t0))
    checksum = checksum &* 0x100_0000_01B3 &+ r.digest
    total &+= UInt64(r.count)
  }
  for _ in 0..<max(0, warmup - 1) {
    for step in 0..<n { _ = runner.run(step: step, counters: &none) }
  }
  let typical = pilot.sorted().dropFirst(pilot.count / 2).first ?? 0
  let floor = 20 * clockOverhead
  var batch = 1
  while Double(batch) * typical < floor && batch < 1024 { batch *= 2 }

  var samples: [Double] = []
  samples.reserveCapacity(n * repeats)
  let perCall = 1 / Double(batch)
  let started = Stopwatch.now()
  for pass in 0..<repeats {
    if pass > 0 && budget > 0 && Double(Stopwatch.now() &- started) > budget { break }
    for step in 0..<n {
      let t0 = Stopwatch.now()
      for _ in 0..<batch {
        let r = runner.run(step: step, counters: &none)
        blackHole(r.digest)
      }
      samples.append(Double(Stopwatch.now() &- t0) * perCall)
    }
    progress(Double(pass + 1) / Double(max(1, repeats)))
  }
  var counted: WorkCounters? = nil
  if wantCounters {
    var c = WorkCounters()
    for step in 0..<n { _ = runner.run(step: step, counters: &c) }
    counted = c
  }
  return Measured(
    samples: samples, batch: batch, checksum: checksum, resultsTotal: total, counters: counted,
    churn: runner.churn)
}
