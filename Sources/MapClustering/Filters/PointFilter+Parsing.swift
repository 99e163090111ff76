// The text form of a filter (see ``PointFilter``), read byte by byte: every
// character the grammar names is ASCII, so a value's other bytes (UTF-8 of
// any script) are taken as they come.

extension PointFilter {
  /// Reads a filter from its text form (see ``PointFilter``). An empty or
  /// blank text is the filter that passes every point.
  ///
  ///     try PointFilter(parsing: "price <= 150 and stars in (4, 5)")
  ///     try PointFilter(parsing: #"name = "The ""Ritz"" and Co""#)   // name is: The "Ritz" and Co
  ///
  /// - Throws: ``ClusteringError/invalidFilter(_:position:)`` with the
  ///   character where the text stops making sense: a field or value
  ///   expected, an unknown operator (`>`, `!=`, `IN`: keywords are
  ///   lowercase), a number expected where the field is numeric, a quote
  ///   not closed, something after a clause that is not `and`.
  /// - Complexity: O(*n*) in the text's length.
  public init(parsing text: String) throws(ClusteringError) {
    var parser = _FilterParser(text)
    self.init(clauses: try parser.clauses(), source: text)
    try checkNumbers()
  }

  /// The typing rule, within the filter: a field compared with `>=` or
  /// `<=` is numeric, so its `=` and `in` values must be decimals too.
  private func checkNumbers() throws(ClusteringError) {
    var numeric: [String: String] = [:]  // field: the operator that made it numeric
    for c in clauses where c.test != .oneOf && numeric[c.field] == nil {
      numeric[c.field] = c.test == .atLeast ? ">=" : "<="
    }
    for (k, c) in clauses.enumerated() where c.test == .oneOf {
      guard let op = numeric[c.field] else { continue }
      for (v, value) in c.values.enumerated() where _FilterDecimal(value) == nil {
        throw .invalidFilter(
          "\(_FilterParser.shown(value)) is not a number (-?digits[.digits]): \(c.field) is numeric, as it is compared with \(op)",
          position: position(clause: k, value: v))
      }
    }
  }
}

/// Reads the clauses of a filter's text.
struct _FilterParser {
  private let text: String
  private let bytes: [UInt8]
  private var i = 0

  init(_ text: String) {
    self.text = text
    bytes = Array(text.utf8)
  }

  private static let quote = UInt8(ascii: "\"")

  private static func isSpace(_ b: UInt8) -> Bool {
    b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r")
  }

  /// Ends a bare value: a space, a comma, a parenthesis or a quote.
  private static func endsValue(_ b: UInt8) -> Bool {
    isSpace(b) || b == UInt8(ascii: ",") || b == UInt8(ascii: "(") || b == UInt8(ascii: ")") || b == quote
  }

  /// Ends a bare field name: what ends a value, and an operator's character.
  private static func endsField(_ b: UInt8) -> Bool {
    endsValue(b) || isOperator(b)
  }

  private static func isOperator(_ b: UInt8) -> Bool {
    b == UInt8(ascii: "=") || b == UInt8(ascii: "<") || b == UInt8(ascii: ">") || b == UInt8(ascii: "!")
  }

  /// `text` quoted for a message, with control characters escaped.
  static func shown(_ text: String) -> String {
    var s = "\""
    for u in text.unicodeScalars {
      switch u {
      case "\"": s += "\\\""
      case "\\": s += "\\\\"
      case _ where u.value < 0x20 || u.value == 0x7F: s += "\\u{\(String(u.value, radix: 16))}"
      default: s.unicodeScalars.append(u)
      }
    }
    return s + "\""
  }

  private func fail(_ message: String, at offset: Int) -> ClusteringError {
    .invalidFilter(message, position: PointFilter.position(in: text, offset: offset))
  }

  private mutating func skipSpaces() {
    while i < bytes.count && Self.isSpace(bytes[i]) { i += 1 }
  }

  /// What stands at `offset`, for a message: a short word or "the end".
  private func found(at offset: Int) -> String {
    guard offset < bytes.count else { return "the end" }
    var j = offset
    if Self.endsValue(bytes[j]) && !Self.isSpace(bytes[j]) {
      j += 1
    } else {
      while j < bytes.count && !Self.endsValue(bytes[j]) && j - offset < 24 { j += 1 }
    }
    return Self.shown(String(decoding: bytes[offset..<j], as: UTF8.self))
  }

  /// Whether the keyword `word` stands at `i`, not followed by a bare
  /// character (so `android` is not `and`).
  private func keyword(_ word: String) -> Bool {
    let w = Array(word.utf8)
    guard i + w.count <= bytes.count, Array(bytes[i..<(i + w.count)]) == w else { return false }
    return i + w.count == bytes.count || Self.endsValue(bytes[i + w.count])
  }

  mutating func clauses() throws(ClusteringError) -> [PointFilter.Clause] {
    var clauses: [PointFilter.Clause] = []
    skipSpaces()
    if i == bytes.count { return clauses }
    while true {
      clauses.append(try clause())
      skipSpaces()
      if i == bytes.count { return clauses }
      let start = i
      guard keyword("and") else {
        var message = "expected \"and\" or the end of the filter, found \(found(at: start))"
        if keywordInCapitals(at: start) { message += " (keywords are lowercase)" }
        if bytes[start] == UInt8(ascii: ",") { message += " (several values go in a list: F in (a, b))" }
        throw fail(message, at: start)
      }
      i += 3
    }
  }

  /// Whether `and` or `in` stands at `offset` in other letter cases.
  private func keywordInCapitals(at offset: Int) -> Bool {
    var j = offset
    while j < bytes.count && !Self.endsValue(bytes[j]) { j += 1 }
    let word = String(decoding: bytes[offset..<j], as: UTF8.self)
    return word != word.lowercased() && (word.lowercased() == "and" || word.lowercased() == "in")
  }

  private mutating func clause() throws(ClusteringError) -> PointFilter.Clause {
    skipSpaces()
    let fieldStart = i
    let field = try field()
    skipSpaces()
    let opStart = i
    let test: PointFilter.Test
    if i < bytes.count && Self.isOperator(bytes[i]) {
      var j = i
      while j < bytes.count && Self.isOperator(bytes[j]) { j += 1 }
      let op = String(decoding: bytes[i..<j], as: UTF8.self)
      switch op {
      case "=": test = .oneOf
      case ">=": test = .atLeast
      case "<=": test = .atMost
      default:
        let hint = op == "==" ? "=" : op == ">" || op == "=>" ? ">=" : op == "<" || op == "=<" ? "<=" : "=, >=, <= or in"
        throw fail("unknown operator \(Self.shown(op)) after \(field); use \(hint)", at: opStart)
      }
      i = j
    } else if keyword("in") {
      i += 2
      return try list(field, fieldStart)
    } else {
      var message = "expected an operator (=, >=, <= or in) after \(Self.shown(field)), found \(found(at: opStart))"
      if keywordInCapitals(at: opStart) { message += " (keywords are lowercase)" }
      throw fail(message, at: opStart)
    }
    skipSpaces()
    let valueStart = i
    let value = try value(after: test == .oneOf ? "=" : test == .atLeast ? ">=" : "<=")
    if test != .oneOf && _FilterDecimal(value) == nil {
      throw fail("a number (-?digits[.digits]) expected after \(test == .atLeast ? ">=" : "<="), found \(Self.shown(value))",
                 at: valueStart)
    }
    return PointFilter.Clause(field: field, test: test, values: [value], fieldOffset: fieldStart, valueOffsets: [valueStart])
  }

  /// `( v1, v2, … )` after `in`.
  private mutating func list(_ field: String, _ fieldStart: Int) throws(ClusteringError) -> PointFilter.Clause {
    skipSpaces()
    guard i < bytes.count && bytes[i] == UInt8(ascii: "(") else {
      throw fail("expected \"(\" after in, found \(found(at: i))", at: i)
    }
    i += 1
    var values: [String] = [], offsets: [Int] = []
    while true {
      skipSpaces()
      offsets.append(i)
      values.append(try value(after: values.isEmpty ? "(" : ","))
      skipSpaces()
      guard i < bytes.count else { throw fail("the list after in is not closed: expected \")\"", at: i) }
      if bytes[i] == UInt8(ascii: ")") {
        i += 1
        return PointFilter.Clause(field: field, test: .oneOf, values: values, fieldOffset: fieldStart, valueOffsets: offsets)
      }
      guard bytes[i] == UInt8(ascii: ",") else {
        throw fail("expected \",\" or \")\" in the list, found \(found(at: i))", at: i)
      }
      i += 1
    }
  }

  private mutating func field() throws(ClusteringError) -> String {
    let start = i
    if i < bytes.count && bytes[i] == Self.quote {
      let name = try quoted()
      if name.isEmpty { throw fail("a field name is empty", at: start) }
      return name
    }
    while i < bytes.count && !Self.endsField(bytes[i]) { i += 1 }
    guard i > start else { throw fail("a field name expected, found \(found(at: start))", at: start) }
    return String(decoding: bytes[start..<i], as: UTF8.self)
  }

  /// A bare or quoted value; `after` names what it follows, for a message.
  private mutating func value(after: String) throws(ClusteringError) -> String {
    let start = i
    if i < bytes.count && bytes[i] == Self.quote { return try quoted() }
    while i < bytes.count && !Self.endsValue(bytes[i]) { i += 1 }
    guard i > start else { throw fail("a value expected after \(after), found \(found(at: start))", at: start) }
    return String(decoding: bytes[start..<i], as: UTF8.self)
  }

  /// `"…"` at `i`, `""` standing for a quote.
  private mutating func quoted() throws(ClusteringError) -> String {
    let open = i
    i += 1
    var content: [UInt8] = []
    while i < bytes.count {
      if bytes[i] == Self.quote {
        if i + 1 < bytes.count && bytes[i + 1] == Self.quote {
          content.append(Self.quote)
          i += 2
          continue
        }
        i += 1
        return String(decoding: content, as: UTF8.self)
      }
      content.append(bytes[i])
      i += 1
    }
    throw fail("a quoted value is not closed: a double quote is missing (write \"\" for a quote inside)", at: open)
  }
}
