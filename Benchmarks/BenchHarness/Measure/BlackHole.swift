/// Keeps a value alive so the optimiser cannot delete the work that made it.
@inline(never)
public func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}
