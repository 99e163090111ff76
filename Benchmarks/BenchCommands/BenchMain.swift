import SpatialIndexes

/// The `bench` command line: parses `arguments` (without the program name),
/// runs the command and returns the process exit code.
public func benchMain(_ arguments: [String]) -> Int32 {
  for t in allIndexTypes { print(t.name) }
  return 0
}
