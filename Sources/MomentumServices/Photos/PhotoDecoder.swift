import CMomentumImage

/// Decodes a JPEG or PNG completely, with libjpeg-turbo and libpng, and makes the copy of
/// it that share cards show.
///
/// The header is not trusted: every row is decoded, so a truncated or corrupt image, or a
/// "JPEG" that is a header followed by something else, is refused. An image over the
/// limits is refused as soon as its header is read, before any pixel is decoded. Decoding
/// streams row by row (memory stays within a few rows of the image and of the copy; a
/// progressive JPEG needs its coefficients, within ``jpegMemory``), and a JPEG is decoded
/// at the smallest DCT scale that still covers the copy. The C side catches both
/// libraries' `longjmp`s, which never cross a Swift frame.
public struct PhotoDecoder: Sendable {
    /// The most memory libjpeg may use for one photo: a progressive JPEG keeps all of its
    /// coefficients, 2 bytes a sample, so this covers 40 megapixels with 4:2:0 chroma
    /// (the usual camera JPEG) and about 26 with full-resolution chroma.
    public static let jpegMemory = 160 << 20

    /// The size a photo may have and the size of its copy.
    public struct Limits: Sendable, Equatable {
        /// The most pixels on either side.
        public var maxSide: Int
        /// The most pixels in all.
        public var maxPixels: Int
        /// The longest side of the copy for share cards.
        public var copySide: Int

        /// A sentence naming the limits, for error messages.
        public var description: String {
            let megapixels =
                maxPixels % 1_000_000 == 0 ? "\(maxPixels / 1_000_000) megapixels" : "\(maxPixels) pixels"
            return "a photo may have at most \(maxSide) pixels on a side and \(megapixels) in all"
        }
    }

    /// A size-limited copy of a photo, encoded.
    public struct Copy: Sendable, Equatable {
        /// `image/jpeg`, or `image/png` for a photo with transparency.
        public var contentType: String
        /// The file name extension that goes with the content type.
        public var ext: String
        /// The encoded copy.
        public var bytes: [UInt8]
        /// The copy's size in pixels.
        public var width: Int
        var height: Int
    }

    /// What decoding found.
    public struct Decoded: Sendable, Equatable {
        /// The photo's size in pixels.
        public var width: Int
        var height: Int
        /// How many bytes of the input the image takes, through its end marker: anything
        /// after it is not part of the image.
        public var imageLength: Int
        /// The copy for share cards.
        public var copy: Copy
    }

    /// Why a photo was refused.
    public enum Failure: Error, Equatable, Sendable {
        /// Neither a JPEG nor a PNG.
        case unsupportedType
        /// More pixels than the limits allow.
        case tooLarge(width: Int, height: Int)
        /// Needs more memory to decode than a photo may use.
        case tooDemanding(String)
        /// Truncated or corrupt.
        case malformed(String)
    }

    let limits: Limits

    /// A decoder with the limits `configuration` sets.
    public init(configuration: ServerConfiguration) {
        limits = Limits(
            maxSide: configuration.maxPhotoSide, maxPixels: configuration.maxPhotoPixels,
            copySide: configuration.shareCopySide)
    }

    /// A decoder with the given limits.
    public init(limits: Limits) {
        self.limits = limits
    }

    /// Decodes `bytes` completely and makes the copy.
    public func decode(_ bytes: [UInt8]) throws(Failure) -> Decoded {
        var cLimits = cmi_limits(
            max_side: UInt32(clamping: limits.maxSide), max_pixels: UInt64(clamping: limits.maxPixels),
            copy_side: UInt32(clamping: limits.copySide), jpeg_quality: 85, jpeg_max_memory: Self.jpegMemory)
        var result = cmi_result()
        let status = bytes.withUnsafeBufferPointer { buffer in
            cmi_decode(buffer.baseAddress, buffer.count, &cLimits, &result)
        }
        defer { cmi_result_free(&result) }
        let message = withUnsafeBytes(of: result.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        switch status {
        case CMI_OK:
            break
        case CMI_UNSUPPORTED:
            throw .unsupportedType
        case CMI_TOO_LARGE:
            throw .tooLarge(width: Int(result.width), height: Int(result.height))
        case CMI_NO_MEMORY:
            throw .tooDemanding(message)
        default:
            throw .malformed(message)
        }
        let png = result.copy_format == CMI_FORMAT_PNG
        let copy = Copy(
            contentType: png ? "image/png" : "image/jpeg", ext: png ? "png" : "jpg",
            bytes: Array(UnsafeBufferPointer(start: result.copy, count: result.copy_length)),
            width: Int(result.copy_width), height: Int(result.copy_height))
        return Decoded(
            width: Int(result.width), height: Int(result.height), imageLength: result.image_length, copy: copy)
    }
}
