import BenchFormats
import Testing

@Suite struct ControlCharactersTests {
  @Test func everyControlIsWrittenOut() {
    #expect(escapingControls("plain name.csv") == "plain name.csv")
    #expect(escapingControls("a\u{1B}[2Jb") == "a\\u{1B}[2Jb")
    #expect(escapingControls("\u{0}\u{7}\t\r\n\u{7F}\u{85}\u{9F}") == "\\u{00}\\u{07}\\u{09}\\u{0D}\\u{0A}\\u{7F}\\u{85}\\u{9F}")
    #expect(escapingControls("line\nnext\ttab\u{1B}", keeping: ["\n", "\t"]) == "line\nnext\ttab\\u{1B}")
    // letters beyond ASCII are not controls
    #expect(escapingControls("Qeyşar Zürich é\u{A0}") == "Qeyşar Zürich é\u{A0}")
  }
}
