/// Every index type SpatialBench knows, one line each, in the order reports
/// list them (`package`: the bench's catalogue and the tests', not an app's).
///
/// To add an index: implement ``SpatialIndex`` and ``DescribedIndex`` in a
/// folder of its own and add one line here; the conformance tests, `bench
/// list`, `bench run` and the charts' colours pick it up.
///
/// The catalogue hands `visitor` each concrete type, rather than being a
/// list of `any DescribedIndex.Type`: passing an existential metatype to a
/// generic function opens it at run time, and the function then runs
/// unspecialised, every counter update and every id handed to a visitor a
/// witness-table call (seen in `perf` as k-d tree searches without a
/// specialisation suffix, and as the `aggregate` clustering strategy
/// running 2–3× slower). Called with a concrete visitor, each line
/// specialises.
@inlinable
package func forEachIndexType<V: IndexTypeVisitor>(_ visitor: inout V) {
  visitor.visit(LinearScanIndex.self)
  visitor.visit(BucketQuadtree.self)
  visitor.visit(GridHashIndex.self)
  visitor.visit(KDTreeIndex.self)
  visitor.visit(HilbertRTree.self)
  visitor.visit(CellTree.self)
}

/// Receives each index type of the catalogue (``forEachIndexType(_:)``).
@usableFromInline package protocol IndexTypeVisitor {
  mutating func visit<I: DescribedIndex>(_ type: I.Type)
}

/// The catalogue as a list, for what needs no specialised code: names,
/// summaries, parameters.
package let allIndexTypes: [any DescribedIndex.Type] = {
  struct Collect: IndexTypeVisitor {
    var types: [any DescribedIndex.Type] = []
    mutating func visit<I: DescribedIndex>(_ type: I.Type) { types.append(type) }
  }
  var collect = Collect()
  forEachIndexType(&collect)
  return collect.types
}()

/// The index type called `name` (as in `bench --index NAME`), if any.
package func indexType(named name: String) -> (any DescribedIndex.Type)? {
  allIndexTypes.first { $0.name == name.lowercased() }
}

/// A generic operation on an index type, which ``withIndexType(named:_:)``
/// runs with the concrete type.
@usableFromInline package protocol IndexTypeOperation {
  associatedtype Result
  mutating func run<I: DescribedIndex>(_ type: I.Type) throws -> Result
}

/// Runs `operation` with the index type called `name` (nil if there is
/// none), specialised for it (see ``forEachIndexType(_:)``).
@inlinable
package func withIndexType<O: IndexTypeOperation>(
  named name: String, _ operation: inout O
) throws -> O.Result? {
  var named = _NamedIndexType(name: name.lowercased(), operation: operation)
  forEachIndexType(&named)
  operation = named.operation
  return try named.result?.get()
}

/// Runs an operation on the catalogue's type of one name.
@usableFromInline
struct _NamedIndexType<O: IndexTypeOperation>: IndexTypeVisitor {
  @usableFromInline let name: String
  @usableFromInline var operation: O
  @usableFromInline var result: Result<O.Result, any Error>?

  @inlinable
  init(name: String, operation: O) {
    self.name = name
    self.operation = operation
  }

  @inlinable
  mutating func visit<I: DescribedIndex>(_ type: I.Type) {
    guard result == nil, I.name == name else { return }
    result = Result { try operation.run(type) }
  }
}
