import Foundation

/// Checks an uploaded photo's type by its bytes, removes location and other metadata,
/// decodes it completely and makes the copy that share cards show.
///
/// JPEG: the APP1 (Exif, XMP), APP13 (IPTC) and comment segments are dropped; the image
/// data and its colour profile are kept byte for byte, and anything after the image's end
/// marker is cut off. PNG: the `eXIf`, `tEXt`, `zTXt`, `iTXt` and `tIME` chunks are
/// dropped. Then ``PhotoDecoder`` decodes what is left: a photo over the size limits, or
/// one that does not decode to its last row, is refused.
public enum PhotoSanitizer: Sendable {
    /// Why a photo was refused.
    public enum Failure: Error, Equatable, Sendable {
        /// Neither JPEG nor PNG.
        case unsupportedType
        /// Not a photo that decodes: the sentence says where it broke.
        case malformed(String)
        /// Too many pixels, or too demanding to decode: the sentence says which limit.
        case tooLarge(String)
    }

    /// A photo ready to store.
    public struct Sanitized: Sendable, Equatable {
        /// The photo's content type.
        public var contentType: String
        /// Its bytes without metadata.
        public var bytes: [UInt8]
        /// The file name extension for its content type.
        public var ext: String
        /// Its size in pixels.
        public var width: Int
        var height: Int
        /// The size-limited copy for share cards.
        public var shareCopy: PhotoDecoder.Copy
    }

    /// The photo without metadata, checked by decoding, and its copy for share cards.
    public static func sanitize(_ bytes: [UInt8], decoder: PhotoDecoder) throws(Failure) -> Sanitized {
        let (contentType, stripped, ext) = try stripMetadata(bytes)
        let decoded: PhotoDecoder.Decoded
        do throws(PhotoDecoder.Failure) {
            decoded = try decoder.decode(stripped)
        } catch {
            switch error {
            case .unsupportedType:
                throw .unsupportedType
            case .tooLarge(let width, let height):
                throw .tooLarge("the photo is \(width) × \(height) pixels; \(decoder.limits.description)")
            case .tooDemanding(let reason):
                throw .tooLarge("the photo needs too much memory to decode (\(reason))")
            case .malformed(let reason):
                throw .malformed(reason)
            }
        }
        return Sanitized(
            contentType: contentType, bytes: Array(stripped.prefix(decoded.imageLength)), ext: ext,
            width: decoded.width, height: decoded.height, shareCopy: decoded.copy)
    }

    /// The photo's content type and its bytes without metadata.
    public static func stripMetadata(
        _ bytes: [UInt8]
    ) throws(Failure) -> (contentType: String, bytes: [UInt8], ext: String) {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return ("image/jpeg", try jpeg(bytes), "jpg") }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return ("image/png", try png(bytes), "png")
        }
        throw .unsupportedType
    }

    static func jpeg(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        var index = 2
        while index + 4 <= bytes.count {
            guard bytes[index] == 0xFF else { throw .malformed("expected a JPEG marker at byte \(index)") }
            let marker = bytes[index + 1]
            if marker == 0xFF {  // fill byte
                index += 1
                continue
            }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            guard length >= 2, index + 2 + length <= bytes.count else {
                throw .malformed("a JPEG segment runs past the end of the file")
            }
            if marker == 0xDA {  // start of scan: the rest is image data
                out += bytes[index...]
                return out
            }
            let dropped = marker == 0xE1 || marker == 0xED || marker == 0xFE
            if !dropped { out += bytes[index..<(index + 2 + length)] }
            index += 2 + length
        }
        throw .malformed("the JPEG has no image data")
    }

    static func png(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
        var out = Array(bytes[0..<8])
        var index = 8
        let dropped: Set<String> = ["eXIf", "tEXt", "zTXt", "iTXt", "tIME"]
        while index + 12 <= bytes.count {
            let length = bytes[index..<(index + 4)].reduce(0) { $0 << 8 | Int($1) }
            let end = index + 12 + length
            guard length >= 0, end <= bytes.count else { throw .malformed("a PNG chunk runs past the end of the file") }
            let type = String(decoding: bytes[(index + 4)..<(index + 8)], as: UTF8.self)
            if !dropped.contains(type) { out += bytes[index..<end] }
            index = end
            if type == "IEND" { return out }
        }
        throw .malformed("the PNG has no IEND chunk")
    }
}
