import SpatialIndexes

/// One `--param KEY=V[,V…]` option.
struct ParameterOption: Equatable {
  var key: String
  var values: [String]

  static func parse(_ text: String, command: String) throws(UsageError) -> ParameterOption {
    let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
      throw UsageError("--param \"\(text)\" is not KEY=VALUE[,VALUE…]", command: command)
    }
    let values = parts[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    guard !values.contains("") else {
      throw UsageError("--param \"\(text)\" has an empty value", command: command)
    }
    return ParameterOption(key: String(parts[0]), values: values)
  }
}

/// The index names on the command line, checked against the catalog.
func indexNames(_ text: String, command: String) throws(UsageError) -> [String] {
  let valid = allIndexTypes.map { $0.name }
  if text == "all" { return valid }
  var names: [String] = []
  for part in text.split(separator: ",", omittingEmptySubsequences: false) {
    let name = part.lowercased()
    guard valid.contains(name) else { throw .unknown("index", String(part), valid: valid, command: command) }
    if !names.contains(name) { names.append(name) }
  }
  guard !names.isEmpty else { throw UsageError("--index needs at least one name", command: command) }
  return names
}

/// Every parameter combination `options` asks of index `I` (one for no
/// options): the cartesian product of the values of the keys `I` has.
/// A key no chosen index has is caught by ``checkParameterKeys(_:indexes:command:)``.
func parameterSets<I: SpatialIndex>(
  _ type: I.Type, _ options: [ParameterOption], command: String
) throws(UsageError) -> [I.Parameters] {
  let known = Set(I.Parameters.descriptions.map(\.name))
  var sets = [I.Parameters()]
  for option in options where known.contains(option.key) {
    var next: [I.Parameters] = []
    for base in sets {
      for value in option.values {
        var p = base
        do {
          try p.set(option.key, to: value)
        } catch {
          throw UsageError("\(I.name): \(error)", command: command)
        }
        next.append(p)
      }
    }
    sets = next
  }
  return sets
}

/// Every `--param` key must belong to at least one chosen index.
func checkParameterKeys(
  _ options: [ParameterOption], indexes: [String], command: String
) throws(UsageError) {
  let types = indexes.compactMap { indexType(named: $0) }
  let keys = types.flatMap { type in type.parameterNames }
  for option in options where !keys.contains(option.key) {
    let all = allIndexTypes.flatMap { $0.parameterNames }
    throw .unknown("parameter", option.key, valid: keys.isEmpty ? all : keys, command: command)
  }
}

extension SpatialIndex {
  static var parameterNames: [String] { Parameters.descriptions.map(\.name) }
}
