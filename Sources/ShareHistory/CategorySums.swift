import ShareKit

/// Counts and bytes per icon category, numbered by `IconCategory.allCases`: the statistics add these up by the
/// thousand, where hashing a dictionary's keys had cost more than the sums.
package struct CategorySums {
    private var sums = [Sums](repeating: Sums(), count: IconCategory.allCases.count)

    package init() {}

    package subscript(category: Int) -> Sums {
        get { sums[category] }
        set { sums[category] = newValue }
    }

    package mutating func add(_ other: CategorySums) {
        for category in sums.indices { sums[category].add(other.sums[category]) }
    }

    package mutating func subtract(_ other: CategorySums) {
        for category in sums.indices { sums[category].subtract(other.sums[category]) }
    }
}
