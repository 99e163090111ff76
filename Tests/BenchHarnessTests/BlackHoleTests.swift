import BenchHarness
import Testing

@Test func blackHoleAcceptsAnyValue() {
  blackHole(42)
  blackHole([1, 2, 3])
}
