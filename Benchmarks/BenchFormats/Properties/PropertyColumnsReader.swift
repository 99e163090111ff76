/// Fills the columns a run named, one value at a time, for the CSV and
/// GeoJSON readers: the value rules live here once, the readers only say
/// where a value starts and how to name it in a message.
struct _PropertyColumnsReader {
  let requests: [PropertyRequest]
  private var categories: [CategoryColumn] = []
  private var decimals: [DecimalColumn] = []
  /// The line of each decimal column's largest value, for an overflow message.
  private var largestLines: [Int] = []
  /// `slots[k]`: request `k`'s column in `categories` or `decimals`.
  private var slots: [Int] = []

  init(_ requests: [PropertyRequest], reserving n: Int = 0) {
    self.requests = requests
    for r in requests {
      switch r.kind {
      case .category:
        slots.append(categories.count)
        var c = CategoryColumn(name: r.name)
        c.reserveCapacity(n)
        categories.append(c)
      case .number:
        slots.append(decimals.count)
        var c = DecimalColumn(name: r.name)
        c.reserveCapacity(n)
        decimals.append(c)
        largestLines.append(0)
      }
    }
  }

  /// Request `k`'s value is missing for the next point.
  mutating func appendMissing(_ k: Int) {
    switch requests[k].kind {
    case .category: categories[slots[k]].appendMissing()
    case .number: decimals[slots[k]].appendMissing()
    }
  }

  /// Request `k`'s value for the next point: `raw` holds a number's
  /// characters, `text()` gives a category's text (quoting undone), read
  /// only for a category. An empty value is missing. The error's message
  /// follows the field's name: `price "abc" is not a decimal number…`.
  mutating func append(
    _ k: Int, raw: UnsafeBufferPointer<UInt8>, line: Int, text: () -> String
  ) throws(_PropertyValueError) {
    let j = slots[k]
    switch requests[k].kind {
    case .category:
      if raw.isEmpty { return categories[j].appendMissing() }
      categories[j].append(text())
    case .number:
      switch DecimalNumber.parse(raw) {
      case .empty: decimals[j].appendMissing()
      case .value(let v):
        do {
          try decimals[j].append(v)
        } catch {
          let digits = "\(error.scale) fractional digit\(error.scale == 1 ? "" : "s")"
          if error.row == decimals[j].count {
            throw _PropertyValueError("\(shown(raw)) does not fit in 64-bit fixed point at \(digits)")
          }
          throw _PropertyValueError(
            "\(shown(raw)) needs \(digits), and at that scale \(DecimalColumn.text(error.units, scale: error.digits)) "
              + "(line \(largestLines[j])) does not fit in 64-bit fixed point")
        }
        if decimals[j].largestRow == decimals[j].count - 1 { largestLines[j] = line }
      case .notADecimal:
        throw _PropertyValueError("\(shown(raw)) is not a decimal number (-?digits[.digits], no exponent)")
      case .tooManyDigits:
        throw _PropertyValueError("\(shown(raw)) has more than \(DecimalNumber.maxDigits) fractional digits")
      case .tooLarge:
        throw _PropertyValueError("\(shown(raw)) does not fit in 64-bit fixed point")
      }
    }
  }

  private func shown(_ raw: UnsafeBufferPointer<UInt8>) -> String {
    _displayValue(String(decoding: raw, as: UTF8.self))
  }

  /// The columns, in the order they were asked for.
  func table() -> PropertyTable {
    PropertyTable(columns: requests.indices.map { k in
      switch requests[k].kind {
      case .category: .category(categories[slots[k]])
      case .number: .decimal(decimals[slots[k]])
      }
    })
  }
}

/// A bad property value: the reader adds the file, the line and the field.
struct _PropertyValueError: Error {
  var message: String
  init(_ message: String) { self.message = message }
}
