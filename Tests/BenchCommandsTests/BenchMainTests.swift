import BenchCommands
import Testing

@Test func benchMainRunsWithoutArguments() {
  #expect(benchMain([]) == 0)
}
