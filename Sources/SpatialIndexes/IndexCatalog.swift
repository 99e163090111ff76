/// Every index type SpatialBench knows, in the order reports list them
/// (`package`: the bench's catalogue and the tests', not an app's).
///
/// To add an index: implement ``SpatialIndex`` and ``DescribedIndex`` in a
/// folder of its own, add its type here, and the conformance tests, `bench list` and `bench run` pick it up.
package let allIndexTypes: [any DescribedIndex.Type] = [
  LinearScanIndex.self,
  BucketQuadtree.self,
  GridHashIndex.self,
  KDTreeIndex.self,
  HilbertRTree.self,
  CellTree.self,
]

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

/// Runs `operation` with the index type called `name` (nil if there is none).
///
/// Passing an `any SpatialIndex.Type` to a generic function opens the
/// existential at run time: the function then runs unspecialised, every
/// counter update and every id handed to a visitor a witness-table call
/// (seen in `perf` as k-d tree searches without a specialisation suffix, and
/// as the `aggregate` clustering strategy running 2–3× slower). The switch
/// below names each type, so the operation specialises for each one. A test
/// checks that it covers ``allIndexTypes``.
@inlinable
package func withIndexType<O: IndexTypeOperation>(
  named name: String, _ operation: inout O
) throws -> O.Result? {
  switch name.lowercased() {
  case LinearScanIndex.name: try operation.run(LinearScanIndex.self)
  case BucketQuadtree.name: try operation.run(BucketQuadtree.self)
  case GridHashIndex.name: try operation.run(GridHashIndex.self)
  case KDTreeIndex.name: try operation.run(KDTreeIndex.self)
  case HilbertRTree.name: try operation.run(HilbertRTree.self)
  case CellTree.name: try operation.run(CellTree.self)
  default: nil
  }
}
