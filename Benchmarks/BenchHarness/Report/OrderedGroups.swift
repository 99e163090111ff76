/// `items` in groups of equal `key`, the groups in the order their first
/// item comes and each group's items in their own order: how reports,
/// charts and verdicts gather rows without reordering what a run measured.
public func orderedGroups<Item, Key: Hashable>(_ items: [Item], by key: (Item) -> Key) -> [[Item]] {
  var position: [Key: Int] = [:]
  var groups: [[Item]] = []
  for item in items {
    let k = key(item)
    if let i = position[k] {
      groups[i].append(item)
    } else {
      position[k] = groups.count
      groups.append([item])
    }
  }
  return groups
}
