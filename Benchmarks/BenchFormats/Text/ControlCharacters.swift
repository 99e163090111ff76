/// `text` with every control character written out as `\u{1B}`: the C0
/// controls (line feed, carriage return, escape, bell…), DEL and the C1
/// controls, except those in `kept`.
///
/// A file name may hold any byte but `/` and NUL, and a file's fields any
/// text: shown raw, an escape sequence would clear or recolour the user's
/// terminal, a carriage return or line feed would forge a line, and in HTML
/// most controls are not even allowed (XML 1.0). Every name, message and
/// page text that can hold what a user gave goes through this.
///
///     escapingControls("evil\u{1B}[2J.csv")  // evil\u{1B}[2J.csv, as text
///
/// - Complexity: O(*n*); text without a control is returned as it is.
public func escapingControls(_ text: String, keeping kept: Set<Unicode.Scalar> = []) -> String {
  func escaped(_ s: Unicode.Scalar) -> Bool {
    (s.value < 0x20 || (0x7F...0x9F).contains(s.value)) && !kept.contains(s)
  }
  guard text.unicodeScalars.contains(where: escaped) else { return text }
  var out = String.UnicodeScalarView()
  for s in text.unicodeScalars {
    if escaped(s) {
      let hex = String(s.value, radix: 16, uppercase: true)
      out.append(contentsOf: "\\u{\(hex.count < 2 ? "0" + hex : hex)}".unicodeScalars)
    } else {
      out.append(s)
    }
  }
  return String(out)
}
