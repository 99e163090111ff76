import _SpatialIndexesShims

/// Starts loading the cache line holding `p`, for the clusterer's batched
/// moves (MapClustering has no C shim of its own).
@inlinable @inline(__always)
package func _prefetchLine(_ p: UnsafeRawPointer) {
  _spatialPrefetch(p)
}
