import Synchronization

/// The memory pictures being decoded for thumbnails may hold at once: each reserves what its header says decoding
/// will take (`ThumbnailMaker.Inspected.decodingBytes`) before it is decoded, and waits its turn while the others
/// hold the rest, so that a burst of large or hostile pictures costs at most this much, however many arrive.
final class DecodingBudget: Sendable {
    /// Enough for a progressive 48-megapixel JPEG, or dozens of phone photos at once.
    static let defaultCapacity = 192 * 1_048_576

    let capacity: Int

    private struct Waiter {
        let id: UInt64
        let bytes: Int
        let admit: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var used = 0
        var waiting: [Waiter] = []
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    init(capacity: Int = DecodingBudget.defaultCapacity) {
        self.capacity = capacity
    }

    /// Waits until `bytes` (at most `capacity`) fit beside the decodes under way, in the order pictures came, for at
    /// most `wait`; true once reserved (give them back with `release`), false when they did not fit in time.
    func reserve(_ bytes: Int, waitingAtMost wait: Duration) async -> Bool {
        await withCheckedContinuation { (admit: CheckedContinuation<Bool, Never>) in
            let waiting: UInt64? = state.withLock { state in
                if state.waiting.isEmpty, state.used + bytes <= capacity {
                    state.used += bytes
                    return nil
                }
                state.nextID += 1
                state.waiting.append(Waiter(id: state.nextID, bytes: bytes, admit: admit))
                return state.nextID
            }
            guard let waiting else { return admit.resume(returning: true) }
            Task {
                try? await Task.sleep(for: wait)
                let (expired, admitted) = self.state.withLock { state in
                    (state.waiting.firstIndex { $0.id == waiting }.map { state.waiting.remove(at: $0) }, Self.admitFitting(&state, capacity))
                }
                expired?.admit.resume(returning: false)
                for waiter in admitted { waiter.admit.resume(returning: true) }
            }
        }
    }

    /// How many pictures wait for room now.
    var waiting: Int {
        state.withLock { $0.waiting.count }
    }

    /// Gives back what `reserve` took, admitting the pictures waiting that now fit, in order.
    func release(_ bytes: Int) {
        let admitted = state.withLock { state -> [Waiter] in
            state.used -= bytes
            return Self.admitFitting(&state, capacity)
        }
        for waiter in admitted { waiter.admit.resume(returning: true) }
    }

    /// Takes the waiting pictures that now fit, in order, stopping at the first that does not (one that gave up
    /// ahead of them may have been in their way).
    private static func admitFitting(_ state: inout State, _ capacity: Int) -> [Waiter] {
        var admitted: [Waiter] = []
        while let next = state.waiting.first, state.used + next.bytes <= capacity {
            state.used += next.bytes
            admitted.append(state.waiting.removeFirst())
        }
        return admitted
    }
}
