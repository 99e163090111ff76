/// The subpaths of an SVG path's `d` attribute as absolute points, for the
/// lines-only paths the pictures write: `M`/`m` (move, then implicit lines),
/// `L`/`l`; numbers separated by spaces, commas or a minus sign (`l.5-2`).
/// Nil for any other command or a malformed number.
package func svgSubpaths(_ d: String) -> [[(x: Double, y: Double)]]? {
  var tokens: [String] = []  // commands and numbers
  var number = ""
  func flush() {
    if !number.isEmpty { tokens.append(number) }
    number = ""
  }
  for c in d {
    switch c {
    case "M", "m", "L", "l":
      flush()
      tokens.append(String(c))
    case " ", ",", "\n", "\t":
      flush()
    case "-":
      flush()
      number = "-"
    case ".":
      if number.contains(".") { flush() }  // `1.5.3` is 1.5 then .3
      number.append(c)
    case "0"..."9":
      number.append(c)
    default:
      return nil
    }
  }
  flush()

  var paths: [[(x: Double, y: Double)]] = []
  var command: Character? = nil
  var pen = (x: 0.0, y: 0.0)
  var i = 0
  while i < tokens.count {
    if let c = tokens[i].first, "MmLl".contains(c), tokens[i].count == 1 {
      command = c
      i += 1
      continue
    }
    guard let c = command, i + 1 < tokens.count, let x = Double(tokens[i]),
      let y = Double(tokens[i + 1])
    else { return nil }
    i += 2
    let relative = c == "m" || c == "l"
    let p = relative ? (pen.x + x, pen.y + y) : (x, y)
    if c == "M" || c == "m" {
      paths.append([p])
      command = c == "M" ? "L" : "l"  // pairs after a move are lines
    } else {
      guard !paths.isEmpty else { return nil }
      paths[paths.count - 1].append(p)
    }
    pen = p
  }
  return paths
}
