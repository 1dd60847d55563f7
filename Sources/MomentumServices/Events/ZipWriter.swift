/// Writes a zip file (PKWARE's APPNOTE) whose entries are stored uncompressed: every zip
/// tool, spreadsheet and browser reads it, and the same files always make the same bytes
/// (each entry is dated 1980-01-01, the earliest date the format holds).
public enum ZipWriter: Sendable {
    /// A zip file holding `files`, in order.
    ///
    /// - Parameter files: Each file's path in the archive (`/`-separated, UTF-8) and bytes;
    ///   fewer than 65,535 files of under 4 GiB in all.
    public static func archive(_ files: [(path: String, bytes: [UInt8])]) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for file in files {
            let name = Array(file.path.utf8)
            let crc = crc32(file.bytes)
            let offset = UInt32(truncatingIfNeeded: out.count)
            let size = UInt32(truncatingIfNeeded: file.bytes.count)
            // Local file header.
            append32(0x0403_4b50, to: &out)
            append16(20, to: &out)  // version needed: 2.0
            append16(0x0800, to: &out)  // flags: the name is UTF-8
            append16(0, to: &out)  // method: stored
            append16(0, to: &out)  // time 00:00
            append16(0x21, to: &out)  // date 1980-01-01
            append32(crc, to: &out)
            append32(size, to: &out)
            append32(size, to: &out)
            append16(UInt16(truncatingIfNeeded: name.count), to: &out)
            append16(0, to: &out)  // no extra field
            out += name
            out += file.bytes
            // Its central directory entry.
            append32(0x0201_4b50, to: &central)
            append16(0x031E, to: &central)  // made by: Unix, 3.0
            append16(20, to: &central)
            append16(0x0800, to: &central)
            append16(0, to: &central)
            append16(0, to: &central)
            append16(0x21, to: &central)
            append32(crc, to: &central)
            append32(size, to: &central)
            append32(size, to: &central)
            append16(UInt16(truncatingIfNeeded: name.count), to: &central)
            append16(0, to: &central)  // extra
            append16(0, to: &central)  // comment
            append16(0, to: &central)  // disk
            append16(0, to: &central)  // internal attributes
            append32(0o100644 << 16, to: &central)  // external: a regular file, rw-r--r--
            append32(offset, to: &central)
            central += name
        }
        let start = UInt32(truncatingIfNeeded: out.count)
        out += central
        // End of central directory.
        append32(0x0605_4b50, to: &out)
        append16(0, to: &out)
        append16(0, to: &out)
        append16(UInt16(truncatingIfNeeded: files.count), to: &out)
        append16(UInt16(truncatingIfNeeded: files.count), to: &out)
        append32(UInt32(truncatingIfNeeded: central.count), to: &out)
        append32(start, to: &out)
        append16(0, to: &out)
        return out
    }

    /// CRC-32 (IEEE 802.3), as zip uses it.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var c = UInt32(index)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private static func append16(_ value: UInt16, to out: inout [UInt8]) {
        out.append(UInt8(truncatingIfNeeded: value))
        out.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    private static func append32(_ value: UInt32, to out: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
}
