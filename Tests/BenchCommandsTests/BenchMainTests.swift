import BenchCommands
import Testing

@Suite struct BenchMainTests {
  @Test func helpSucceeds() {
    #expect(benchMain(["help"]) == 0)
    #expect(benchMain(["help", "query"]) == 0)
  }

  @Test func unknownCommandIsAUsageError() {
    #expect(benchMain(["frobnicate"]) == 64)
    #expect(benchMain(["help", "frobnicate"]) == 64)
  }
}
