import BenchHarness
import Testing

/// What counts as a figure typed by hand into a guide (issue 41: a number
/// with a unit outside a generated block), and what does not.
@Suite struct HandTypedFiguresTests {
  @Test func numbersWithAUnitAreFigures() {
    #expect(HandTypedFigures.find(inLine: "a 13.1 µs step, 1.49μs or 980 us, 3 ms and 2 s.") ==
      ["13.1 µs", "1.49μs", "980 us", "3 ms", "2 s"])
    #expect(HandTypedFigures.find(inLine: "20.0 B/pt, 41× faster, 7–94×, 1.5 × and 10x; 10,000 ns") ==
      ["20.0 B/pt", "41×", "94×", "1.5 ×", "10x", "10,000 ns"])
    #expect(HandTypedFigures.find(inLine: "(**4.2 ms**) at 5\u{00A0}ms") == ["4.2 ms", "5\u{00A0}ms"])
  }

  @Test func otherNumbersAreNot() {
    for line in [
      "3 steps, 2 seconds, 5 samples", "0x5f1c and 3x3 cells", "800×500 pixels", "x86_64 and v1.2s",
      "zooms 0-3 at 1,000,000 points", "2026-12-06", "a 2xl screen", "10 msec", "page 3",
    ] {
      #expect(HandTypedFigures.find(inLine: line) == [], "\(line)")
    }
  }

  /// Generated blocks and fenced code are not counted; the lines are the
  /// file's own.
  @Test func onlyProseIsCounted() throws {
    let text = """
      It takes 5 ms.
      <!-- generated: bench table r.csv --rows index --value median_ns -->
      | kdtree | 216 ns |
      <!-- end generated -->
      ```
      bench run  # about 2 s
      ```
      ~~~
      12 µs
      ~~~
      Then 3× more.

      """
    let guide = try MarkdownGuide(parsing: text, file: "g.md")
    #expect(HandTypedFigures.find(in: guide, file: "g.md").map(\.description) == ["g.md:1: 5 ms", "g.md:11: 3×"])
  }
}
