extension GeoJSONPoints {
  /// The names of the features' `properties` in the GeoJSON file at
  /// `path`, in the order first seen (at most 256), told without keeping a
  /// point: the features are walked, keys only, until every name of
  /// `wanted` is seen (the first feature, when they all share their
  /// names), else to the end. `nil` when the walk meets something it does
  /// not expect (invalid JSON, a feature that is no object): the load then
  /// says what is wrong, and where.
  ///
  /// - Throws: ``DataError`` when the file cannot be opened or read.
  /// - Complexity: O(*n*) in the bytes walked; memory O(1) beyond 64 KiB.
  public static func propertyNames(inFile path: String, among wanted: Set<String>) throws(DataError) -> [String]? {
    let file = try InputFile(path)
    var walk = _NameWalk(scanner: _JSONScanner(file, name: path), wanted: wanted)
    defer { walk.scanner.release() }
    do {
      try walk.collection()
    } catch {
      if case .unreadable = error { throw error }
      return nil
    }
    return walk.names
  }
}

/// The walk of ``GeoJSONPoints/propertyNames(inFile:among:)``: the top
/// level's `features`, each feature's `properties` keys; it stops once
/// every wanted name is found.
private struct _NameWalk<Source: ByteSource> {
  var scanner: _JSONScanner<Source>
  let wanted: Set<String>
  var found: Set<String> = []
  /// Every name seen, in order, up to 256: for a message.
  var names: [String] = []
  var known: Set<String> = []

  var done: Bool { found.count == wanted.count }

  /// Calls `body` with each key of the object the scanner is on (the
  /// scanner then on its value) until `body` returns false.
  mutating func keys(_ body: (inout Self, String) throws(DataError) -> Bool) throws(DataError) {
    try scanner.expect(UInt8(ascii: "{"), "an object")
    if try scanner.closesAtOnce(UInt8(ascii: "}")) { return }
    repeat {
      let key = try scanner.memberKey()
      guard try body(&self, key) else { return }
    } while try scanner.more(UInt8(ascii: "}"), "after a member")
  }

  mutating func collection() throws(DataError) {
    try scanner.skipByteOrderMark()
    try keys { walk, key throws(DataError) in
      guard key == "features" else {
        try walk.scanner.skipValue()
        return true
      }
      try walk.features()
      return !walk.done
    }
  }

  mutating func features() throws(DataError) {
    try scanner.expect(UInt8(ascii: "["), "features")
    if try scanner.closesAtOnce(UInt8(ascii: "]")) { return }
    repeat {
      try keys { walk, key throws(DataError) in
        guard key == "properties", !(try walk.scanner.null()) else {
          if key != "properties" { try walk.scanner.skipValue() }
          return true
        }
        try walk.keys { walk, name throws(DataError) in
          if !walk.scanner.stringWasCut {
            if walk.wanted.contains(name) { walk.found.insert(name) }
            if walk.names.count < 256 && walk.known.insert(name).inserted { walk.names.append(name) }
          }
          try walk.scanner.skipValue()
          return true
        }
        return !walk.done
      }
      if done { return }
    } while try scanner.more(UInt8(ascii: "]"), "after a feature")
  }
}
