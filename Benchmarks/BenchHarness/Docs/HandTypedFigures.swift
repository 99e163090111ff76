/// Figures typed by hand into a guide: a number with a unit of time, of
/// memory a point, or a multiplier, outside generated blocks and fenced
/// code. Issue 41 counts them (the count is to be 0): a measured figure
/// belongs in a table that a command makes from a report, which stays true
/// when the report is remade.
///
/// A figure is a number (`7`, `1.49`, `10,000`) that does not continue a
/// word (`x86`, `v1.2`), then:
/// - a unit, after no space or one (a plain, no-break or thin space):
///   `ns`, `µs` (or `μs`, `us`), `ms`, `s`, `B/pt`, or `×` — and no letter,
///   digit or `_` right after it (`3 steps` is no figure, `800×500` neither);
/// - or `x` right after the number as a multiplier (`41x`, not `0x5f` or
///   `3x3`).
public enum HandTypedFigures {
  /// One figure: where, and the text as written (`1.49 µs`).
  public struct Figure: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var text: String

    public var description: String { "\(file):\(line): \(text)" }
  }

  static let units = ["B/pt", "ns", "µs", "μs", "us", "ms", "s", "×"]

  /// The figures in the prose of `guide` (``MarkdownGuide/prose``).
  public static func find(in guide: MarkdownGuide, file: String) -> [Figure] {
    guide.prose.flatMap { i in
      find(inLine: guide.lines[i]).map { Figure(file: file, line: i + 1, text: $0) }
    }
  }

  /// The figures in one line of text.
  public static func find(inLine line: String) -> [String] {
    let chars = Array(line)
    var found: [String] = []
    var i = 0
    while i < chars.count {
      guard isDigit(chars[i]) else {
        i += 1
        continue
      }
      if i > 0 && continuesWord(chars[i - 1]) {
        // a digit inside a word (`x86_64`, `v1.2s`): skip the word
        while i < chars.count && (continuesWord(chars[i]) || chars[i] == ".") { i += 1 }
        continue
      }
      // the number: digits, with `,` and `.` between digits
      var end = i
      while end < chars.count
        && (isDigit(chars[end])
          || ((chars[end] == "," || chars[end] == ".") && end + 1 < chars.count && isDigit(chars[end + 1])))
      {
        end += 1
      }
      if let length = unitLength(chars, at: end) {
        found.append(String(chars[i..<end + length]))
        i = end + length
      } else {
        i = end
      }
    }
    return found
  }

  /// The length of the space and unit at `at`, or nil for none.
  private static func unitLength(_ chars: [Character], at start: Int) -> Int? {
    // `x` as a multiplier, right after the number
    if start < chars.count, chars[start] == "x", !(start + 1 < chars.count && continuesWord(chars[start + 1])) {
      return 1
    }
    var at = start
    if at < chars.count, [" ", "\u{00A0}", "\u{202F}", "\u{2009}"].contains(chars[at]) { at += 1 }
    for unit in units {
      let u = Array(unit)
      guard at + u.count <= chars.count, Array(chars[at..<at + u.count]) == u else { continue }
      let after = at + u.count
      if after < chars.count && continuesWord(chars[after]) { continue }
      return after - start
    }
    return nil
  }

  private static func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }

  /// A letter, a digit or `_`: what makes a number part of a word.
  private static func continuesWord(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }
}
