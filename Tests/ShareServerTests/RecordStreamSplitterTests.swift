import Testing

@testable import ShareServer

@Suite struct RecordStreamSplitterTests {
    private func split(_ text: String, chunk: Int = .max, maxRecordBytes: Int = 1000) -> (records: [String], lines: [Int], failure: String?) {
        var splitter = RecordStreamSplitter(maxRecordBytes: maxRecordBytes)
        var records: [RecordStreamSplitter.Record] = []
        let bytes = Array(text.utf8)
        do {
            for start in stride(from: 0, to: bytes.count, by: min(chunk, max(bytes.count, 1))) {
                try splitter.feed(bytes[start..<min(bytes.count, start + chunk)], into: &records)
            }
            try splitter.finish()
            return (records.map { $0.bytes.map { String(decoding: $0, as: UTF8.self) } ?? "(too large)" }, records.map(\.line), nil)
        } catch {
            return (
                records.map { $0.bytes.map { String(decoding: $0, as: UTF8.self) } ?? "(too large)" }, records.map(\.line),
                "line \(error.line): \(error.reason)"
            )
        }
    }

    @Test func readsNDJSONAndArraysAlike() {
        let lines = split("{\"a\":1}\n{\"b\":2}\n\n{\"c\":3}\n")
        #expect(lines.records == ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"])
        #expect(lines.lines == [1, 2, 4])
        let array = split("[\n  {\"a\":1},\n  {\"b\":2}\n]\n")
        #expect(array.records == ["{\"a\":1}", "{\"b\":2}"])
        #expect(array.lines == [2, 3])
        #expect(split("[]").records.isEmpty && split("[]").failure == nil)
        #expect(split("").records.isEmpty && split("").failure == nil)
    }

    /// Files saved by some editors begin with a byte order mark: passed over, split anywhere.
    @Test(arguments: [1, 2, 3, 100])
    func aByteOrderMarkAtTheStartIsPassedOver(chunk: Int) {
        let lines = split("\u{FEFF}{\"a\":1}\n{\"b\":2}\n", chunk: chunk)
        #expect(lines.records == ["{\"a\":1}", "{\"b\":2}"] && lines.failure == nil, "\(lines)")
        #expect(split("\u{FEFF}[{\"a\":1}]", chunk: chunk).records == ["{\"a\":1}"])
        #expect(split("{\"a\":1}\n\u{FEFF}{\"b\":2}\n", chunk: chunk).failure?.hasPrefix("line 2") == true, "only at the start")
    }

    @Test func stringsMayHoldBracesQuotesAndEscapes() {
        let tricky = #"{"name":"a}b{c]\"d\\","x":[1,{"y":"}"}]}"#
        #expect(split(tricky + "\n" + tricky).records == [tricky, tricky])
    }

    @Test func chunkBoundariesAnywhereGiveTheSameRecords() {
        let text = "[{\"name\":\"报告 \\\"1\\\".pdf\",\"size\":1},\n{\"name\":\"b\",\"size\":2}]"
        let whole = split(text)
        for chunk in 1...12 {
            #expect(split(text, chunk: chunk).records == whole.records, "chunk \(chunk)")
        }
    }

    @Test func brokenStreamsFailAtTheirLineKeepingWhatCameBefore() {
        let garbage = split("{\"a\":1}\nnope\n{\"b\":2}")
        #expect(garbage.records == ["{\"a\":1}"])
        #expect(garbage.failure?.hasPrefix("line 2:") == true)
        #expect(split("{\"a\":1}\n{\"b\":").failure?.hasPrefix("line 2:") == true)
        #expect(split("[{\"a\":1}").failure?.contains("not closed") == true)
        #expect(split("[{\"a\":1}] {\"b\":2}").failure?.contains("nothing may follow") == true)
        #expect(split("[1, 2]").failure?.contains("JSON object") == true)
    }

    @Test func anOversizedRecordIsSkippedAndTheRecordsAfterItAreStillRead() {
        let big = "{\"name\":\"" + String(repeating: "}x{\\\"", count: 500) + "\"}"
        for text in ["{\"a\":1}\n\(big)\n{\"b\":2}\n", "[{\"a\":1},\n\(big),\n{\"b\":2}]"] {
            for chunk in [7, 100, .max] {
                let result = split(text, chunk: chunk)
                #expect(result.records == ["{\"a\":1}", "(too large)", "{\"b\":2}"], "chunks of \(chunk)")
                #expect(result.lines == [1, 2, 3])
                #expect(result.failure == nil)
            }
        }
    }
}
