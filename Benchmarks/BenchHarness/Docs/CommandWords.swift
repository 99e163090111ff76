/// The words of a command line written in a guide, split as a POSIX shell
/// splits them (without expansions), so the line can be pasted into a
/// terminal as it stands: blanks separate words; `'…'` keeps everything
/// literally; `"…"` keeps everything but `\"` and `\\`; a backslash outside
/// quotes keeps the next character.
public enum CommandWords {
  /// - Throws: a message for an unclosed quote or a trailing backslash.
  public static func split(_ line: String) throws(DocsError.Reason) -> [String] {
    var words: [String] = []
    var word = ""
    var inWord = false
    var chars = line.makeIterator()
    while let c = chars.next() {
      switch c {
      case " ", "\t", "\n", "\r", "\r\n":
        if inWord { words.append(word) }
        word = ""
        inWord = false
      case "'":
        inWord = true
        var closed = false
        while let d = chars.next() {
          if d == "'" { closed = true; break }
          word.append(d)
        }
        guard closed else { throw DocsError.Reason("an unclosed ' in the command") }
      case "\"":
        inWord = true
        var closed = false
        while let d = chars.next() {
          if d == "\"" { closed = true; break }
          if d == "\\" {
            guard let e = chars.next() else { break }
            if e != "\"" && e != "\\" { word.append(d) }
            word.append(e)
          } else {
            word.append(d)
          }
        }
        guard closed else { throw DocsError.Reason("an unclosed \" in the command") }
      case "\\":
        guard let d = chars.next() else { throw DocsError.Reason("a backslash ends the command") }
        inWord = true
        word.append(d)
      default:
        inWord = true
        word.append(c)
      }
    }
    if inWord { words.append(word) }
    return words
  }
}
