/// Every index type SpatialBench knows, in the order reports list them.
///
/// To add an index: implement ``SpatialIndex`` in a folder of its own, add its
/// type here, and the conformance tests, `bench list` and `bench run` pick it up.
public let allIndexTypes: [any SpatialIndex.Type] = [
  LinearScanIndex.self,
  BucketQuadtree.self,
  GridHashIndex.self,
  KDTreeIndex.self,
]

/// The index type called `name` (as in `bench --index NAME`), if any.
public func indexType(named name: String) -> (any SpatialIndex.Type)? {
  allIndexTypes.first { $0.name == name.lowercased() }
}
