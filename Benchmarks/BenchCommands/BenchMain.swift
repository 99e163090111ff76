import SpatialIndexes

/// The `bench` command line: parses `arguments` (without the program name),
/// runs the command and returns the process exit code.
public func benchMain(_ arguments: [String]) -> Int32 {
  if arguments.first == "speed" {
    var check = SpeedCheck()
    var names = allIndexTypes.map { $0.name }
    var params: [(String, String)] = []
    var it = arguments.dropFirst().makeIterator()
    while let a = it.next() {
      switch a {
      case "--n": check.n = Int(it.next() ?? "") ?? check.n
      case "--repeat": check.repeats = Int(it.next() ?? "") ?? check.repeats
      case "--queries": check.queries = Int(it.next() ?? "") ?? check.queries
      case "--index": names = (it.next() ?? "").split(separator: ",").map(String.init)
      case "--param":
        let kv = (it.next() ?? "").split(separator: "=", maxSplits: 1).map(String.init)
        if kv.count == 2 { params.append((kv[0], kv[1])) }
      default: break
      }
    }
    let points = check.points()
    for name in names {
      guard let type = indexType(named: name) else { continue }
      do { try runSpeed(type, check, points, params) } catch { print("\(name): \(error)") }
    }
    return 0
  }
  for t in allIndexTypes { print(t.name) }
  return 0
}

private func runSpeed<I: SpatialIndex>(
  _ type: I.Type, _ check: SpeedCheck, _ points: [Point], _ params: [(String, String)]
) throws {
  var sweeps: [I.Parameters] = [I.Parameters()]
  for (k, vs) in params {
    var next: [I.Parameters] = []
    for p in sweeps {
      for v in vs.split(separator: ",") {
        var q = p
        do { try q.set(k, to: String(v)) } catch { continue }
        next.append(q)
      }
    }
    if !next.isEmpty { sweeps = next }
  }
  for p in sweeps { try check.run(type, parameters: p, points: points) }
}
