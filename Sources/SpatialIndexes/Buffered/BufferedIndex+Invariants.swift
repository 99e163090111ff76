extension BufferedIndex: InvariantChecking {
  package func _invariantViolations() -> [String] {
    var problems: [String] = []
    if let base = base as? any InvariantChecking {
      problems += base._invariantViolations().map { "base: \($0)" }
    }
    if base.count != basePoints.count {
      problems.append("the base holds \(base.count) points, built from \(basePoints.count)")
    }
    if basePoints.count > stale.count { problems.append("\(basePoints.count) base points, \(stale.count) ids") }
    for (name, buffer, bit) in [("active", active, _Stale.active), ("frozen", frozen, _Stale.frozen)] {
      if buffer.slots.count != stale.count { problems.append("\(name) has \(buffer.slots.count) slots for \(stale.count) ids") }
      if buffer.xs.count != buffer.count || buffer.ys.count != buffer.count {
        problems.append("\(name): \(buffer.count) ids, \(buffer.xs.count) x, \(buffer.ys.count) y")
        continue
      }
      for (i, id) in buffer.ids.enumerated() {
        if Int(buffer.slots[Int(id)]) != i { problems.append("\(name): id \(id) at \(i), its slot says \(buffer.slots[Int(id)])") }
        if stale[Int(id)] & bit == 0 { problems.append("\(name) holds \(id), its stale byte \(stale[Int(id)]) says not") }
        if (stale[Int(id)] & _Stale.removed != 0) != buffer.xs[i].isNaN && bit == _Stale.active {
          problems.append("\(name): id \(id) removed is \(stale[Int(id)] & _Stale.removed != 0), at (\(buffer.xs[i]), \(buffer.ys[i]))")
        }
      }
      let marked = stale.count { $0 & bit != 0 }
      if marked != buffer.count { problems.append("\(marked) ids marked \(name), \(buffer.count) held") }
    }
    if pending == nil && frozen.count > 0 { problems.append("\(frozen.count) frozen points and no build in flight") }
    for id in stale.indices.dropFirst(basePoints.count) where stale[id] & (_Stale.active | _Stale.frozen | _Stale.removed) == 0 {
      problems.append("id \(id), added since the build, is in no buffer")
      break
    }
    let live = stale.count { $0 & _Stale.removed == 0 }
    if live != liveCount { problems.append("\(live) live ids, count says \(liveCount)") }
    return problems
  }
}
