/// What a JPEG's frame header (SOF) declares: the picture's size, whether it is progressive, and how each component
/// is sampled.
struct JPEGFrame {
    let width: Int
    let height: Int
    let isProgressive: Bool
    let sampling: [(horizontal: Int, vertical: Int)]

    /// Reads the markers up to the first frame header as libjpeg does: any number of `FF` fill bytes before a marker,
    /// markers without a length (RST0–7, TEM) skipped. Nil when a scan, the end or anything but a marker comes first.
    init?(_ bytes: [UInt8]) {
        let reader = HeaderBytes(bytes)
        guard reader.bigEndian(at: 0, count: 2) == 0xFFD8 else { return nil }
        var offset = 2
        while true {
            guard offset < bytes.count, bytes[offset] == 0xFF else { return nil }
            while offset < bytes.count, bytes[offset] == 0xFF { offset += 1 }
            guard offset < bytes.count else { return nil }
            let marker = bytes[offset]
            offset += 1
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            guard marker != 0x00, marker != 0xD8, marker != 0xD9, marker != 0xDA,
                let length = reader.bigEndian(at: offset, count: 2), length >= 2
            else { return nil }
            // SOF0–SOF15, but DHT (C4), JPG (C8) and DAC (CC), which share the range.
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                self.init(frame: reader, at: offset + 2, progressive: [0xC2, 0xC6, 0xCA, 0xCE].contains(marker))
                return
            }
            offset += length
        }
    }

    /// The frame header's fields after its length: precision, height, width, then each component's sampling.
    private init?(frame reader: HeaderBytes, at start: Int, progressive: Bool) {
        guard let height = reader.bigEndian(at: start + 1, count: 2), let width = reader.bigEndian(at: start + 3, count: 2),
            let count = reader.bigEndian(at: start + 5, count: 1), count > 0,
            reader.bigEndian(at: start + 6 + 3 * count - 1, count: 1) != nil
        else { return nil }
        (self.width, self.height, isProgressive) = (width, height, progressive)
        sampling = (0..<count).map { index in
            let factors = reader.bytes[start + 6 + 3 * index + 1]
            return (max(1, Int(factors >> 4)), max(1, Int(factors & 0x0F)))
        }
    }

    /// The coefficients of the whole picture, as a progressive decoder keeps them: 64 of two bytes a block of each
    /// component, which covers its share of the picture as sampled.
    func coefficientBytes() -> Int {
        let widest = sampling.map(\.horizontal).max() ?? 1
        let tallest = sampling.map(\.vertical).max() ?? 1
        return sampling.reduce(0) { sum, factors in
            let columns = (width * factors.horizontal / widest + 7) / 8
            let rows = (height * factors.vertical / tallest + 7) / 8
            return sum + columns * rows * 64 * 2
        }
    }
}
