import BenchCommands
import Testing

/// Inside the serialized CLI suite: these print to stdout, which another
/// test of the suite captures.
extension CLITests {
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
}
