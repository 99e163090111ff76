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
