/// The generated tables of a Markdown guide:
///
/// ```
/// <!-- generated: bench table results/reference/scaling.csv --rows index … -->
/// | index | … |
/// <!-- end generated -->
/// ```
///
/// Between the two markers stands exactly what the command prints. The
/// opening marker is a line that starts with `<!-- generated:`; the command
/// runs to `-->`, which may close it on a later line (the lines are joined
/// with spaces). Markers inside fenced code (``` or ~~~) are text, so a guide
/// can show the syntax.
public struct GeneratedBlock: Sendable, Equatable {
  /// The 1-based line of the opening marker.
  public var line: Int
  /// The command, as written between `generated:` and `-->`.
  public var command: String
  /// The 0-based lines of the block's content: after the opening marker,
  /// before the closing one.
  public var content: Range<Int>
  /// The content, each line with its line feed.
  public var text: String
}

/// A guide split into its generated blocks and the prose around them.
public struct MarkdownGuide: Sendable {
  public static let opening = "<!-- generated:"
  public static let closing = "<!-- end generated -->"

  /// The file as read, one element a line (without its line feed).
  public let lines: [String]
  /// Whether the text ended with a line feed.
  let endsWithNewline: Bool
  public let blocks: [GeneratedBlock]
  /// The 0-based lines outside blocks and fenced code: where a hand-typed
  /// figure would be.
  public let prose: [Int]

  /// Reads the blocks of `text`.
  ///
  /// - Throws: a ``DocsError`` (65) naming `file` and the line of an opening
  ///   marker with no `-->` or no closing marker, a closing marker with no
  ///   opening one, or an opening marker inside a block.
  public init(parsing text: String, file: String) throws(DocsError) {
    // lines end at LF (a CRLF line keeps its CR: Swift reads "\r\n" as one
    // Character, so the split is on bytes)
    var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .map { String(decoding: $0, as: UTF8.self) }
    endsWithNewline = text.utf8.last == UInt8(ascii: "\n")
    if endsWithNewline { lines.removeLast() }
    self.lines = lines
    var blocks: [GeneratedBlock] = []
    var prose: [Int] = []
    var fence: Substring? = nil
    var i = 0
    while i < lines.count {
      let line = lines[i]
      let trimmed = Self.unindented(line)
      if let open = fence {
        // closed by a run of the same character at least as long, alone
        if trimmed.hasPrefix(open) && trimmed.drop(while: { $0 == open.first! }).allSatisfy(\.isWhitespace) {
          fence = nil
        }
        i += 1
        continue
      }
      if let marker = Self.fenceMarker(trimmed) {
        fence = marker
        i += 1
        continue
      }
      if trimmed.hasPrefix(Self.closing) {
        throw DocsError(file: file, line: i + 1, .init("\(Self.closing) without a \(Self.opening) … --> above it"))
      }
      guard trimmed.hasPrefix(Self.opening) else {
        prose.append(i)
        i += 1
        continue
      }
      // the command, to `-->`
      let start = i
      var command = String(trimmed.dropFirst(Self.opening.count))
      while !command.contains("-->") {
        i += 1
        guard i < lines.count else {
          throw DocsError(file: file, line: start + 1, .init("\(Self.opening) is never closed with -->"))
        }
        command += " " + lines[i]
      }
      let end = command.range(of: "-->")!
      guard command[end.upperBound...].allSatisfy(\.isWhitespace) else {
        throw DocsError(file: file, line: i + 1, .init("text after --> on the marker's line"))
      }
      command = String(command[..<end.lowerBound]).trimmingBlanks()
      // the content, to the closing marker
      let first = i + 1
      var j = first
      while j < lines.count && !Self.unindented(lines[j]).hasPrefix(Self.closing) {
        if Self.unindented(lines[j]).hasPrefix(Self.opening) {
          throw DocsError(
            file: file, line: start + 1,
            .init("no \(Self.closing) before the next \(Self.opening) (line \(j + 1))"))
        }
        j += 1
      }
      guard j < lines.count else {
        throw DocsError(file: file, line: start + 1, .init("no \(Self.closing) after this block"))
      }
      let text = lines[first..<j].map { $0 + "\n" }.joined()
      blocks.append(GeneratedBlock(line: start + 1, command: command, content: first..<j, text: text))
      i = j + 1
    }
    self.blocks = blocks
    self.prose = prose
  }

  /// The guide with each block's content replaced by `outputs` (one per
  /// block, in order, each ending with a line feed).
  public func replacing(_ outputs: [String]) -> String {
    precondition(outputs.count == blocks.count, "one output per block")
    var result: [String] = []
    var next = 0
    for (block, output) in zip(blocks, outputs) {
      result += lines[next..<block.content.lowerBound]
      // split on LF bytes, as the guide was ("\r\n" is one Character)
      var body = Array(output.utf8)
      if body.last == UInt8(ascii: "\n") { body.removeLast() }
      if !output.isEmpty {
        result += body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
          .map { String(decoding: $0, as: UTF8.self) }
      }
      next = block.content.upperBound
    }
    result += lines[next...]
    return result.joined(separator: "\n") + (endsWithNewline ? "\n" : "")
  }

  /// A line without up to three leading spaces (Markdown's indentation of
  /// a block that is not code).
  static func unindented(_ line: String) -> Substring {
    var s = line[...]
    var n = 0
    while n < 3, s.first == " " {
      s = s.dropFirst()
      n += 1
    }
    return s
  }

  /// The run of ``` or ~~~ that opens a fence, or nil.
  static func fenceMarker(_ line: Substring) -> Substring? {
    guard let c = line.first, c == "`" || c == "~" else { return nil }
    let run = line.prefix { $0 == c }
    return run.count >= 3 ? run : nil
  }
}

extension String {
  func trimmingBlanks() -> String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
