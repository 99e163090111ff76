import BenchWorkloads
import SpatialIndexes

extension ParameterSweep {
  /// One `--param KEY=V[,V…]` option.
  static func parse(_ text: String, command: String) throws(UsageError) -> ParameterSweep {
    let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
      throw UsageError("--param \"\(text)\" is not KEY=VALUE[,VALUE…]", command: command)
    }
    let values = parts[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    guard !values.contains("") else {
      throw UsageError("--param \"\(text)\" has an empty value", command: command)
    }
    return ParameterSweep(key: String(parts[0]), values: values)
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

/// ``parameterSets(_:_:)`` with a value the index refuses as a usage error
/// naming the index.
func parameterSets<I: DescribedIndex>(
  _ type: I.Type, _ sweeps: [ParameterSweep], command: String
) throws(UsageError) -> [I.Parameters] {
  do {
    return try BenchWorkloads.parameterSets(type, sweeps)
  } catch {
    throw UsageError("\(I.name): \(error)", command: command)
  }
}

/// Every `--param` key must belong to at least one chosen index, and every
/// value must be one the index takes: both fail before any work starts.
func checkParameters(
  _ sweeps: [ParameterSweep], indexes: [String], command: String
) throws(UsageError) {
  let types = indexes.compactMap { indexType(named: $0) }
  let keys = types.flatMap { type in type.parameterNames }
  for sweep in sweeps where !keys.contains(sweep.key) {
    let all = allIndexTypes.flatMap { $0.parameterNames }
    throw .unknown("parameter", sweep.key, valid: keys.isEmpty ? all : keys, command: command)
  }
  struct Check: IndexTypeOperation {
    let sweeps: [ParameterSweep]
    let command: String
    func run<I: DescribedIndex>(_ type: I.Type) throws { _ = try parameterSets(type, sweeps, command: command) }
  }
  var check = Check(sweeps: sweeps, command: command)
  for name in indexes {
    do {
      _ = try withIndexType(named: name, &check)
    } catch let error as UsageError {
      throw error
    } catch {
      throw UsageError("\(error)", command: command)
    }
  }
}

extension DescribedIndex {
  static var parameterNames: [String] { Parameters.descriptions.map(\.name) }
}
