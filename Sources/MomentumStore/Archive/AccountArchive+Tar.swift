import Foundation

extension AccountArchive {
    /// The name of the folder a tar archive holds its files in.
    public static let tarFolder = "momentum-archive"

    /// The archive as one POSIX tar file: the files of ``files()`` in a `momentum-archive/`
    /// folder, so that `tar -xf` gives the directory `momentum import` reads. The same
    /// archive always gives the same bytes (every file is dated when the account was made).
    ///
    /// - Throws: ``StoreError/Code/invalidInput`` when a path is too long for a tar header.
    public func tar() throws(StoreError) -> Data {
        let files = try files().map { (path: "\(Self.tarFolder)/\($0.path)", bytes: $0.bytes) }
        return try Tar.pack(files, modified: Int(account.createdAt.timeIntervalSince1970.rounded(.down)))
    }

    /// Reads and checks an archive from a tar file (``tar()``, or a folder written by
    /// `momentum export` and packed with `tar -cf`): the same checks as ``read(from:packs:)``.
    ///
    /// The files may sit at the top of the tar file or in one folder.
    ///
    /// - Parameters:
    ///   - tar: The tar file's bytes.
    ///   - origin: Where it comes from, for messages.
    ///   - packs: The packs the profile may name (the bundled ones by default).
    /// - Throws: ``StoreError/Code/invalidArchive`` for a file that is not a tar file or an
    ///   archive with problems, each named.
    public static func read(
        tar: Data, origin: String = "the tar file", packs: PackLibrary = .bundled
    ) throws(StoreError) -> AccountArchive {
        var files = try Tar.unpack(tar, origin: origin)
        // One folder holding everything (the usual way to pack a directory): look inside it.
        let folders = Set(files.keys.map { $0.split(separator: "/", maxSplits: 1).first.map(String.init) ?? "" })
        if files[accountFile] == nil, folders.count == 1, let folder = folders.first,
            files.keys.allSatisfy({ $0.hasPrefix(folder + "/") })
        {
            files = Dictionary(
                uniqueKeysWithValues: files.map { (String($0.key.dropFirst(folder.count + 1)), $0.value) })
        }
        return try read(origin: origin, packs: packs) { path in
            files[path].map { .success($0) } ?? .failure(FileProblem(reason: "it is not in the tar file"))
        }
    }
}

/// Writes and reads POSIX (ustar) tar files: regular files only, which is all an account
/// archive holds. Reading is total: a truncated or made-up file is an error, never a trap.
enum Tar {
    static let block = 512
    /// More entries than any account archive holds: a bound on the work one file can ask.
    static let maximumEntries = 1_000_000

    /// One tar file of the given files.
    static func pack(_ files: [(path: String, bytes: Data)], modified: Int) throws(StoreError) -> Data {
        var out = Data()
        out.reserveCapacity(files.reduce(2 * block) { $0 + block + ($1.bytes.count + block - 1) / block * block })
        for (path, bytes) in files {
            var header = [UInt8](repeating: 0, count: block)
            let (prefix, name) = try split(path)
            put(name, at: 0, width: 100, in: &header)
            put("0000644", at: 100, width: 8, in: &header)
            put("0000000", at: 108, width: 8, in: &header)
            put("0000000", at: 116, width: 8, in: &header)
            put(octal(bytes.count, digits: 11), at: 124, width: 12, in: &header)
            put(octal(max(0, modified), digits: 11), at: 136, width: 12, in: &header)
            header[156] = UInt8(ascii: "0")
            put("ustar", at: 257, width: 6, in: &header)
            put("00", at: 263, width: 2, in: &header)
            put(prefix, at: 345, width: 155, in: &header)
            // The checksum counts its own field as eight spaces.
            for i in 148..<156 { header[i] = UInt8(ascii: " ") }
            let sum = header.reduce(0) { $0 + Int($1) }
            put(octal(sum, digits: 6), at: 148, width: 7, in: &header)
            out.append(contentsOf: header)
            out.append(bytes)
            out.append(contentsOf: [UInt8](repeating: 0, count: (block - bytes.count % block) % block))
        }
        // Two empty blocks end the file.
        out.append(contentsOf: [UInt8](repeating: 0, count: 2 * block))
        return out
    }

    /// The regular files of a tar file by path (a leading `./` dropped).
    static func unpack(_ data: Data, origin: String) throws(StoreError) -> [String: Data] {
        let bytes = [UInt8](data)
        func refuse(_ reason: String) -> StoreError {
            StoreError(
                .invalidArchive, "\(origin) is not a Momentum account archive: \(reason)",
                problems: [StoreError.Problem(file: origin, line: nil, reason: reason)])
        }
        guard bytes.count >= block else { throw refuse("it is shorter than one tar header") }
        var files: [String: Data] = [:]
        var offset = 0
        var longName: String?
        var entries = 0
        while bytes.count - offset >= block {
            let header = bytes[offset..<(offset + block)]
            if header.allSatisfy({ $0 == 0 }) { break }
            entries += 1
            guard entries <= maximumEntries else { throw refuse("more than \(maximumEntries) entries") }
            guard let stored = number(header, at: offset + 148, width: 8) else {
                throw refuse("the header at byte \(offset) has no checksum: is it a tar file?")
            }
            let sum = header.indices.reduce(0) {
                $0 + ((offset + 148..<offset + 156).contains($1) ? 32 : Int(header[$1]))
            }
            guard sum == stored else { throw refuse("the header at byte \(offset) has a wrong checksum") }
            guard let size = number(header, at: offset + 124, width: 12) else {
                throw refuse("the header at byte \(offset) has no size")
            }
            let start = offset + block
            guard size <= bytes.count - start else {
                throw refuse("the file is cut short (an entry of \(size) bytes at byte \(offset))")
            }
            let content = bytes[start..<(start + size)]
            var name = text(header, at: offset, width: 100)
            if header[offset + 257..<offset + 262].elementsEqual("ustar".utf8) {
                let prefix = text(header, at: offset + 345, width: 155)
                if !prefix.isEmpty { name = prefix + "/" + name }
            }
            if let long = longName {
                name = long
                longName = nil
            }
            while name.hasPrefix("./") { name.removeFirst(2) }
            switch header[offset + 156] {
            case 0, UInt8(ascii: "0"), UInt8(ascii: "7"):
                guard files.updateValue(Data(content), forKey: name) == nil else {
                    throw refuse("'\(name)' is in it twice")
                }
            case UInt8(ascii: "5"), UInt8(ascii: "x"), UInt8(ascii: "g"):
                break  // Folders and extended headers: nothing to keep.
            case UInt8(ascii: "L"):
                longName = text(content, at: content.startIndex, width: content.count)
            default:
                throw refuse(
                    "'\(name)' is neither a file nor a folder (tar type '\(Character(Unicode.Scalar(header[offset + 156])))')"
                )
            }
            offset = start + (size + block - 1) / block * block
        }
        guard !files.isEmpty else { throw refuse("it holds no files") }
        return files
    }

    /// A path as a ustar header's prefix (up to 155 bytes) and name (up to 100).
    private static func split(_ path: String) throws(StoreError) -> (prefix: String, name: String) {
        let utf8 = Array(path.utf8)
        if utf8.count <= 100 { return ("", path) }
        // The last slash that leaves at most 100 bytes of name and 155 of prefix.
        for index in utf8.indices.reversed() where utf8[index] == UInt8(ascii: "/") {
            let name = utf8.count - index - 1
            guard name <= 100 else { break }
            if index <= 155, name > 0 {
                return (
                    String(decoding: utf8[..<index], as: UTF8.self),
                    String(decoding: utf8[(index + 1)...], as: UTF8.self)
                )
            }
        }
        throw StoreError(.invalidInput, "the path '\(path)' is too long for a tar file")
    }

    private static func put(_ text: String, at offset: Int, width: Int, in header: inout [UInt8]) {
        for (i, byte) in text.utf8.prefix(width).enumerated() { header[offset + i] = byte }
    }

    private static func octal(_ value: Int, digits: Int) -> String {
        let text = String(value, radix: 8)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// An octal field (spaces and NULs around it); `nil` when it holds anything else or
    /// more digits than a tar field has.
    private static func number(_ bytes: ArraySlice<UInt8>, at offset: Int, width: Int) -> Int? {
        var value = 0
        var digits = 0
        var ended = false
        for byte in bytes[offset..<(offset + width)] {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                guard !ended, digits < 12 else { return nil }
                value = value * 8 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            case 0, UInt8(ascii: " "):
                if digits > 0 { ended = true }
            default:
                return nil
            }
        }
        return digits > 0 ? value : nil
    }

    /// A NUL-terminated text field.
    private static func text(_ bytes: ArraySlice<UInt8>, at offset: Int, width: Int) -> String {
        let field = bytes[offset..<(offset + width)]
        return String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
    }
}
