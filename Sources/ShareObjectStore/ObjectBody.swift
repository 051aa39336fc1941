import NIOCore

/// The bytes of an object as the store sends them, a piece at a time; one piece is read ahead of the reader, no
/// more, so that memory stays flat whatever the object's size and however slowly it is taken.
public struct ObjectBody: AsyncSequence, Sendable {
    public typealias Element = ByteBuffer
    typealias Producer = NIOThrowingAsyncSequenceProducer<
        ByteBuffer, any Error, NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark, Demand
    >
    typealias Source = Producer.Source

    private let pieces: Producer

    /// How many pieces may wait for the reader: one, read again once it is taken.
    private static let readAhead = NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark(lowWatermark: 1, highWatermark: 1)

    static func make(delegate: Demand) -> (source: Source, body: ObjectBody) {
        let made = Producer.makeSequence(backPressureStrategy: readAhead, finishOnDeinit: false, delegate: delegate)
        return (made.source, ObjectBody(pieces: made.sequence))
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(pieces: pieces.makeAsyncIterator())
    }

    public struct Iterator: AsyncIteratorProtocol {
        var pieces: Producer.AsyncIterator

        public mutating func next() async throws -> ByteBuffer? {
            try await pieces.next()
        }
    }

    /// What the reader asks of the connection's handler, from any thread: more pieces, or nothing any more.
    struct Demand: NIOAsyncSequenceProducerDelegate {
        let handler: NIOLoopBound<ObjectAnswerHandler>

        func produceMore() {
            handler.eventLoop.execute { handler.value.resume() }
        }

        func didTerminate() {
            handler.eventLoop.execute { handler.value.readerGone() }
        }
    }
}
