/// The two steps the k-nearest searches sort and select with, on ranges of
/// raw memory so that neither allocates: Hoare's partition and the sort by
/// insertion of a short range.

/// Partitions `base[low...high]` around `pivot`, a value the range holds:
/// on return `base[low...j] ≤ pivot ≤ base[i...high]` by `less`, `j < i`,
/// and anything between them equals the pivot. Both scans stop at the
/// pivot, so neither leaves the range.
@inlinable @inline(__always)
func _partition<T>(
  _ base: UnsafeMutablePointer<T>, _ low: Int, _ high: Int, around pivot: T, by less: (T, T) -> Bool
) -> (i: Int, j: Int) {
  var i = low, j = high
  while i <= j {
    while less(base[i], pivot) { i &+= 1 }
    while less(pivot, base[j]) { j &-= 1 }
    if i <= j {
      (base[i], base[j]) = (base[j], base[i])
      i &+= 1
      j &-= 1
    }
  }
  return (i, j)
}

/// Sorts `base[low...high]` by `less`, stably: fast for the few values
/// left once a partition has done its work.
@inlinable @inline(__always)
func _insertionSort<T>(_ base: UnsafeMutablePointer<T>, _ low: Int, _ high: Int, by less: (T, T) -> Bool) {
  var i = low &+ 1
  while i <= high {
    let v = base[i]
    var j = i
    while j > low && less(v, base[j &- 1]) {
      base[j] = base[j &- 1]
      j &-= 1
    }
    base[j] = v
    i &+= 1
  }
}

/// Sorts `base[low...high]` in place by `less`: a quicksort (median of
/// three), ranges of 17 or fewer by insertion; the larger side of each
/// partition waits on a stack of at most log2(n) ranges, so nothing is
/// allocated and the depth stays bounded.
@inlinable
func _sortRange<T>(_ base: UnsafeMutablePointer<T>, _ low: Int, _ high: Int, by less: (T, T) -> Bool) {
  var low = low, high = high
  withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: 64) { pending in
    var depth = 0
    while true {
      while high &- low > 16 {
        let middle = low &+ (high &- low) / 2
        if less(base[middle], base[low]) { (base[low], base[middle]) = (base[middle], base[low]) }
        if less(base[high], base[middle]) { (base[middle], base[high]) = (base[high], base[middle]) }
        if less(base[middle], base[low]) { (base[low], base[middle]) = (base[middle], base[low]) }
        let (i, j) = _partition(base, low, high, around: base[middle], by: less)
        if j &- low < high &- i {
          pending[depth] = (i, high)
          high = j
        } else {
          pending[depth] = (low, j)
          low = i
        }
        depth &+= 1
      }
      _insertionSort(base, low, high, by: less)
      guard depth > 0 else { break }
      depth &-= 1
      (low, high) = pending[depth]
    }
  }
}
