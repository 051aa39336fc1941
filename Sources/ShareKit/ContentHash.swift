/// FNV-1a (64 bits) of some bytes: a short tag that changes when they do, for ETags. Not a defence against anyone
/// forging a collision; nothing relies on that.
public enum ContentHash {
    public static func of(_ bytes: some Sequence<UInt8>, radix: Int = 16) -> String {
        let hash = bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { hash, byte in (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: radix)
    }
}
