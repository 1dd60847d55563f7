#ifndef CMOMENTUMIMAGE_H
#define CMOMENTUMIMAGE_H

/*
 * Decodes uploaded photos completely and makes a size-limited copy of them, with libpng
 * and libjpeg(-turbo).
 *
 * Both libraries report errors with longjmp. Every jump lands in this file's functions,
 * which catch it with setjmp and return a status: no jump ever crosses a caller's frame,
 * so Swift can call these functions safely.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a call came to.
typedef enum {
    /// The image decoded completely.
    CMI_OK = 0,
    /// The bytes are neither a PNG nor a JPEG.
    CMI_UNSUPPORTED = 1,
    /// The image has more pixels than the limits allow (`width` and `height` say how many).
    CMI_TOO_LARGE = 2,
    /// The image is truncated or corrupt (`message` says where).
    CMI_MALFORMED = 3,
    /// Memory ran out, or the image needs more than the decoder may use.
    CMI_NO_MEMORY = 4,
} cmi_status;

/// An image format.
typedef enum {
    CMI_FORMAT_NONE = 0,
    CMI_FORMAT_PNG = 1,
    CMI_FORMAT_JPEG = 2,
} cmi_format;

/// The limits a decoded image must keep, and the size of its copy.
typedef struct {
    /// The most pixels on either side.
    uint32_t max_side;
    /// The most pixels in all (width × height).
    uint64_t max_pixels;
    /// The longest side of the copy; a smaller image keeps its size.
    uint32_t copy_side;
    /// The copy's JPEG quality (1–100).
    int jpeg_quality;
    /// The most memory libjpeg may use for one image, in bytes (a progressive JPEG keeps
    /// all of its coefficients, about 3 bytes a pixel).
    size_t jpeg_max_memory;
} cmi_limits;

/// What `cmi_decode` found.
typedef struct {
    /// The image's format.
    cmi_format format;
    /// The image's size in pixels.
    uint32_t width;
    uint32_t height;
    /// How many bytes of the input the image takes, through its end marker (JPEG `EOI`,
    /// PNG `IEND`); anything after it is not part of the image.
    size_t image_length;
    /// The copy, encoded (JPEG, or PNG when the image has transparency); free it with
    /// `cmi_result_free`.
    unsigned char *copy;
    size_t copy_length;
    cmi_format copy_format;
    uint32_t copy_width;
    uint32_t copy_height;
    /// A sentence saying what went wrong, when something did.
    char message[200];
} cmi_result;

/// Decodes `data` completely, row by row, and makes the copy.
///
/// Memory stays bounded by a few rows of the image and of the copy, except for an
/// interlaced PNG (one copy-sized buffer) and a progressive JPEG (its coefficients, within
/// `jpeg_max_memory`). Refuses images over the limits before decoding their pixels.
cmi_status cmi_decode(const unsigned char *data, size_t length, const cmi_limits *limits, cmi_result *result);

/// Frees what `cmi_decode` allocated in `result` (safe to call more than once).
void cmi_result_free(cmi_result *result);

/// Fills row `y` (`width × channels` bytes) of an image being encoded; returns 0 on success.
typedef int (*cmi_row_source)(void *context, uint32_t y, unsigned char *row);

/// Encodes an 8-bit image with 1 (grey), 3 (RGB) or 4 (RGBA, PNG only) channels whose rows
/// come from `source`, one at a time. `*output` is allocated with malloc; free it with
/// `cmi_free`. `message` receives at least 200 bytes.
cmi_status cmi_encode(
    cmi_format format, uint32_t width, uint32_t height, int channels, int jpeg_quality, cmi_row_source source,
    void *context, unsigned char **output, size_t *output_length, char *message);

/// Decodes a PNG of at most `max_pixels` pixels into 8-bit RGBA, 4 bytes a pixel, row after
/// row (the way tests look at what a renderer drew). `*pixels` is allocated with malloc;
/// free it with `cmi_free`. `message` receives at least 200 bytes.
cmi_status cmi_png_rgba(
    const unsigned char *data, size_t length, uint64_t max_pixels, uint32_t *width, uint32_t *height,
    unsigned char **pixels, char *message);

/// Frees memory this library allocated.
void cmi_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
