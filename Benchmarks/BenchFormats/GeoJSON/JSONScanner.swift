/// A pull scanner over JSON (RFC 8259) bytes that come in chunks: the reader
/// asks for the next token, and only a chunk of input and the token at hand
/// are ever in memory, so a file of a million features is read without a
/// tree of objects or a copy of the file.
///
/// It keeps the physical line (LF-counted) for messages. Values a reader
/// does not want are skipped with ``skipValue()``, which checks their syntax
/// with an explicit stack, not recursion, so deep nesting cannot overflow
/// the call stack. A leading UTF-8 byte-order mark is skipped (RFC 8259 lets
/// a parser ignore it).
struct _JSONScanner<Source: ByteSource> {
  /// The longest string or number kept; longer numbers are an error, longer
  /// strings are kept cut (only short keys and names are ever compared).
  static var tokenLimit: Int { 1024 }
  static var chunkSize: Int { 1 << 16 }

  var source: Source
  let name: String
  private let chunk: UnsafeMutableBufferPointer<UInt8>
  private var position = 0
  private var end = 0
  private var finished = false
  /// The line the next byte is on.
  private(set) var line = 1
  /// A reused buffer for the token being read.
  private var token: [UInt8] = []
  /// The last string ``string()`` read was longer than ``tokenLimit`` and
  /// was cut: its text may equal another long string's that is not equal.
  private(set) var stringWasCut = false

  init(_ source: Source, name: String) {
    self.source = source
    self.name = name
    chunk = .allocate(capacity: Self.chunkSize)
    token.reserveCapacity(Self.tokenLimit)
  }

  /// Frees the chunk (the scanner is a struct; the reader calls this once).
  func release() { chunk.deallocate() }

  // MARK: - Bytes

  /// The next byte, or `nil` at the end of the input.
  mutating func peek() throws(DataError) -> UInt8? {
    if position < end { return chunk[position] }
    if finished { return nil }
    end = try source.read(into: chunk)
    position = 0
    if end == 0 {
      finished = true
      return nil
    }
    return chunk[0]
  }

  mutating func advance() {
    if chunk[position] == UInt8(ascii: "\n") { line += 1 }
    position += 1
  }

  /// Skips a byte-order mark at the very start.
  mutating func skipByteOrderMark() throws(DataError) {
    guard try peek() == 0xEF else { return }
    for expected: UInt8 in [0xEF, 0xBB, 0xBF] {
      guard try peek() == expected else { throw syntax("a broken byte-order mark at the start") }
      advance()
    }
  }

  mutating func skipWhitespace() throws(DataError) {
    while let b = try peek(), b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { advance() }
  }

  /// Skips whitespace, then the byte `expected`, or throws naming `context`.
  mutating func expect(_ expected: UInt8, _ context: String) throws(DataError) {
    try skipWhitespace()
    guard let b = try peek() else { throw syntax("expected \(Self.show(expected)) \(context), found the end of the file") }
    guard b == expected else { throw syntax("expected \(Self.show(expected)) \(context), found \(Self.show(b))") }
    advance()
  }

  /// After a member or an element: `true` for a comma (another follows),
  /// `false` for the closing `close`.
  mutating func more(_ close: UInt8, _ context: String) throws(DataError) -> Bool {
    try skipWhitespace()
    guard let b = try peek() else { throw syntax("expected \",\" or \(Self.show(close)) \(context), found the end of the file") }
    advance()
    if b == UInt8(ascii: ",") { return true }
    if b == close { return false }
    throw syntax("expected \",\" or \(Self.show(close)) \(context), found \(Self.show(b))")
  }

  /// Skips whitespace and consumes `close` if it is next (an empty object or array).
  mutating func closesAtOnce(_ close: UInt8) throws(DataError) -> Bool {
    try skipWhitespace()
    guard try peek() == close else { return false }
    advance()
    return true
  }

  // MARK: - Values

  /// What the next value is, for messages: `an object`, `a string`… (after whitespace).
  mutating func nextKind() throws(DataError) -> String {
    try skipWhitespace()
    guard let b = try peek() else { return "the end of the file" }
    switch b {
    case UInt8(ascii: "{"): return "an object"
    case UInt8(ascii: "["): return "an array"
    case UInt8(ascii: "\""): return "a string"
    case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
    case UInt8(ascii: "n"): return "null"
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
    default: return Self.show(b)
    }
  }

  /// What the next value is, as ``nextKind()`` says, where a value must
  /// come: a byte no value starts with, or the end of the input, is a syntax
  /// error, so a trailing comma or a single quote reads as invalid JSON, not
  /// as a value of the wrong kind.
  mutating func valueKind() throws(DataError) -> String {
    try skipWhitespace()
    guard let b = try peek() else { throw syntax("expected a value, found the end of the file") }
    let kind = try nextKind()
    guard Self.startsValue(b) else { throw syntax("expected a value, found \(kind)") }
    return kind
  }

  /// Reads a string (the scanner is on its opening quote); its text, cut at
  /// ``tokenLimit`` bytes.
  mutating func string() throws(DataError) -> String {
    token.removeAll(keepingCapacity: true)
    stringWasCut = false
    try scanString(keep: true)
    return String(decoding: token, as: UTF8.self)
  }

  /// Reads `null` if it is next: `true` when it was.
  mutating func null() throws(DataError) -> Bool {
    try skipWhitespace()
    guard try peek() == UInt8(ascii: "n") else { return false }
    try literal("null")
    return true
  }

  /// Reads `true` or `false` if it is next (after whitespace).
  mutating func boolean() throws(DataError) -> Bool? {
    try skipWhitespace()
    switch try peek() {
    case UInt8(ascii: "t"):
      try literal("true")
      return true
    case UInt8(ascii: "f"):
      try literal("false")
      return false
    default: return nil
    }
  }

  /// Reads a number (after whitespace) with JSON's grammar, converted with
  /// correct rounding; `nil` when the next value is not a number.
  mutating func number() throws(DataError) -> NumberField? {
    guard try scanNumber() else { return nil }
    return token.withUnsafeBufferPointer { NumberField.parse($0) }
  }

  /// Reads a number (after whitespace) with JSON's grammar, and gives its
  /// characters as written; `nil` when the next value is not a number.
  mutating func numberText() throws(DataError) -> [UInt8]? {
    guard try scanNumber() else { return nil }
    return token
  }

  /// Reads a JSON number's characters into `token`; `false` when the next
  /// value is not a number.
  private mutating func scanNumber() throws(DataError) -> Bool {
    try skipWhitespace()
    guard let first = try peek(), first == UInt8(ascii: "-") || (first >= 48 && first <= 57) else {
      return false
    }
    token.removeAll(keepingCapacity: true)
    while let b = try peek(), Self.isNumberByte(b) {
      guard token.count < Self.tokenLimit else { throw syntax("a number longer than \(Self.tokenLimit) characters") }
      token.append(b)
      advance()
    }
    guard Self.isJSONNumber(token) else {
      throw syntax("\(_displayValue(String(decoding: token, as: UTF8.self))) is not a JSON number")
    }
    return true
  }

  /// Skips one value of any kind, checking its syntax.
  mutating func skipValue() throws(DataError) {
    // The open containers, innermost last: true for an object.
    var open: [Bool] = []
    while true {
      try skipWhitespace()
      guard let b = try peek() else { throw syntax("expected a value, found the end of the file") }
      switch b {
      case UInt8(ascii: "{"):
        advance()
        if try closesAtOnce(UInt8(ascii: "}")) { break }
        try key()
        open.append(true)
        continue
      case UInt8(ascii: "["):
        advance()
        if try closesAtOnce(UInt8(ascii: "]")) { break }
        open.append(false)
        continue
      case UInt8(ascii: "\""): try scanString(keep: false)
      case UInt8(ascii: "t"): try literal("true")
      case UInt8(ascii: "f"): try literal("false")
      case UInt8(ascii: "n"): try literal("null")
      default:
        guard try number() != nil else { throw syntax("expected a value, found \(Self.show(b))") }
      }
      // a value ended: close every container it completes
      while let isObject = open.last {
        let close = UInt8(ascii: isObject ? "}" : "]")
        if try more(close, isObject ? "after an object member" : "after an array element") {
          if isObject { try key() }
          break
        }
        open.removeLast()
      }
      if open.isEmpty { return }
    }
  }

  /// Reads an object key and its colon, the key skipped.
  private mutating func key() throws(DataError) {
    try skipWhitespace()
    guard try peek() == UInt8(ascii: "\"") else {
      throw syntax("expected a quoted key, found \(try nextKind())")
    }
    try scanString(keep: false)
    try expect(UInt8(ascii: ":"), "after an object key")
  }

  /// Reads an object key (the scanner before it, after whitespace) and its colon.
  mutating func memberKey() throws(DataError) -> String {
    try skipWhitespace()
    guard try peek() == UInt8(ascii: "\"") else {
      throw syntax("expected a quoted key, found \(try nextKind())")
    }
    let k = try string()
    try expect(UInt8(ascii: ":"), "after an object key")
    return k
  }

  private mutating func literal(_ word: StaticString) throws(DataError) {
    let bytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    for expected in bytes {
      guard let b = try peek(), b == expected else { throw syntax("expected \(word)") }
      advance()
    }
  }

  /// Scans a string from its opening quote through its closing one,
  /// unescaping into `token` when `keep`.
  private mutating func scanString(keep: Bool) throws(DataError) {
    advance()  // the opening quote
    let opened = line
    while true {
      guard let b = try peek() else {
        throw DataError.badData(file: name, line: opened, field: nil, message: "invalid JSON: a string that never ends")
      }
      // before `advance`, which counts a line feed: the error is on the string's line
      if b < 0x20 { throw syntax("a control character (\(Self.show(b))) inside a string") }
      advance()
      if b == UInt8(ascii: "\"") { return }
      if b != UInt8(ascii: "\\") {
        if keep { keepByte(b) }
        continue
      }
      guard let e = try peek() else { throw syntax("a string that never ends") }
      advance()
      var scalar: UInt32
      switch e {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalar = UInt32(e)
      case UInt8(ascii: "b"): scalar = 8
      case UInt8(ascii: "f"): scalar = 12
      case UInt8(ascii: "n"): scalar = 10
      case UInt8(ascii: "r"): scalar = 13
      case UInt8(ascii: "t"): scalar = 9
      case UInt8(ascii: "u"):
        scalar = try hex4()
        if scalar >= 0xD800 && scalar < 0xDC00 {  // a high surrogate: its low one follows
          guard try peek() == UInt8(ascii: "\\") else { throw syntax("a lone surrogate \\u\(String(scalar, radix: 16))") }
          advance()
          guard try peek() == UInt8(ascii: "u") else { throw syntax("a lone surrogate \\u\(String(scalar, radix: 16))") }
          advance()
          let low = try hex4()
          guard low >= 0xDC00 && low < 0xE000 else { throw syntax("a lone surrogate \\u\(String(scalar, radix: 16))") }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if scalar >= 0xDC00 && scalar < 0xE000 {
          throw syntax("a lone surrogate \\u\(String(scalar, radix: 16))")
        }
      default: throw syntax("an unknown escape \\\(Character(Unicode.Scalar(e)))")
      }
      if keep, let s = Unicode.Scalar(scalar) {
        for unit in String(Character(s)).utf8 { keepByte(unit) }
      }
    }
  }

  /// Appends a string's byte to `token`, up to ``tokenLimit``.
  private mutating func keepByte(_ b: UInt8) {
    if token.count < Self.tokenLimit {
      token.append(b)
    } else {
      stringWasCut = true
    }
  }

  private mutating func hex4() throws(DataError) -> UInt32 {
    var v: UInt32 = 0
    for _ in 0..<4 {
      guard let b = try peek() else { throw syntax("a string that never ends") }
      let d: UInt32
      switch b {
      case 48...57: d = UInt32(b - 48)
      case 65...70: d = UInt32(b - 55)
      case 97...102: d = UInt32(b - 87)
      default: throw syntax("\\u needs four hex digits, found \(Self.show(b))")
      }
      advance()
      v = v << 4 | d
    }
    return v
  }

  // MARK: - Messages

  /// A syntax error on the current line.
  func syntax(_ message: String) -> DataError {
    .badData(file: name, line: line, field: nil, message: "invalid JSON: \(message)")
  }

  /// A byte for a message; a quote, the byte JSON messages name most, in
  /// words (`_displayByte` gives its hex code, as `"""` would not read).
  static func show(_ b: UInt8) -> String { b == UInt8(ascii: "\"") ? "a quote" : _displayByte(b) }

  /// Whether a value can start with `b`: `{ [ "`, a literal's letter, `-` or a digit.
  static func startsValue(_ b: UInt8) -> Bool {
    switch b {
    case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "t"),
      UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default: false
    }
  }

  static func isNumberByte(_ b: UInt8) -> Bool {
    (b >= 48 && b <= 57) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
      || b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
  }

  /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
  static func isJSONNumber(_ t: [UInt8]) -> Bool {
    var i = 0
    func digits() -> Int {
      let start = i
      while i < t.count && t[i] >= 48 && t[i] <= 57 { i += 1 }
      return i - start
    }
    if i < t.count && t[i] == UInt8(ascii: "-") { i += 1 }
    guard i < t.count else { return false }
    if t[i] == UInt8(ascii: "0") {
      i += 1
    } else if digits() == 0 {
      return false
    }
    if i < t.count && t[i] == UInt8(ascii: ".") {
      i += 1
      guard digits() > 0 else { return false }
    }
    if i < t.count && (t[i] == UInt8(ascii: "e") || t[i] == UInt8(ascii: "E")) {
      i += 1
      if i < t.count && (t[i] == UInt8(ascii: "+") || t[i] == UInt8(ascii: "-")) { i += 1 }
      guard digits() > 0 else { return false }
    }
    return i == t.count
  }
}

/// A buffer held in memory, as a ``ByteSource``.
struct _MemorySource: ByteSource {
  let bytes: UnsafeBufferPointer<UInt8>
  var offset = 0

  mutating func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(DataError) -> Int {
    let n = min(buffer.count, bytes.count - offset)
    if n > 0 {
      _ = UnsafeMutableBufferPointer(rebasing: buffer[0..<n])
        .initialize(from: UnsafeBufferPointer(rebasing: bytes[offset..<(offset + n)]))
    }
    offset += n
    return n
  }
}
