#include "CMomentumImage.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>
#include <png.h>

/*
 * Every call runs as one `job`: all of its state lives in one calloc'ed struct, so that
 * after a longjmp back to the call's setjmp every pointer is still there to be freed
 * (locals changed after setjmp would be indeterminate).
 */

/// Progressive JPEGs with more scans than this are refused: each scan walks the whole
/// image, so thousands of tiny scans are a way to make a small file cost minutes.
#define CMI_MAX_SCANS 500

struct job;

/// libjpeg's error manager, with the way back to its job.
typedef struct {
    struct jpeg_error_mgr manager;
    struct job *job;
} jpeg_bridge;

/// A growing byte buffer (the encoded PNG copy).
typedef struct {
    unsigned char *bytes;
    size_t length;
    size_t capacity;
} buffer;

/// libjpeg's destination: 64 kB at a time into the encoder's output buffer.
typedef struct {
    struct jpeg_destination_mgr manager;
    struct job *job;
    unsigned char chunk[65536];
} jpeg_sink;

/// A streaming encoder: rows go in one at a time.
typedef struct {
    cmi_format format;
    uint32_t width;
    uint32_t height;
    int channels;
    buffer output;
    png_structp png;
    png_infop png_info;
    struct jpeg_compress_struct jpeg;
    jpeg_bridge jpeg_errors;
    jpeg_sink jpeg_sink;
    int jpeg_created;
} encoder;

/// A box filter from the decoded size down to the copy's size. Each source pixel adds to
/// the copy's pixel it falls in; a copy row is written once every source row that falls in
/// it has been added (rows arrive in order), or at the end for an interlaced PNG.
typedef struct {
    uint32_t in_width;
    uint32_t in_height;
    uint32_t out_width;
    uint32_t out_height;
    int channels;
    uint32_t *columns;  // in_width entries: the copy's column of each source column
    uint32_t *sums;     // rows × out_width × channels
    uint32_t *counts;   // rows × out_width
    uint32_t rows;      // 1 (streaming) or out_height (interlaced)
    int64_t current;    // streaming: the copy row being filled, or -1
    uint32_t written;   // copy rows written so far
    unsigned char *out_row;
} scaler;

typedef struct job {
    jmp_buf jump;
    cmi_status failure;
    char *message;
    // PNG input
    const unsigned char *data;
    size_t length;
    size_t position;
    png_structp png;
    png_infop png_info;
    // JPEG input
    struct jpeg_decompress_struct jpeg;
    jpeg_bridge jpeg_errors;
    struct jpeg_progress_mgr progress;
    int jpeg_created;
    // Pixels
    unsigned char *row;
    unsigned char *rgb_row;  // a CMYK JPEG's row, converted
    scaler scale;
    encoder out;
    // The copy's source, when encoding rows from a caller.
    cmi_row_source source;
    void *context;
} job;

static void fail(job *job, cmi_status status, const char *format, ...) __attribute__((noreturn, format(printf, 3, 4)));

static void fail(job *job, cmi_status status, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(job->message, 200, format, arguments);
    va_end(arguments);
    job->failure = status;
    longjmp(job->jump, 1);
}

static void *allocate(job *job, size_t count, size_t size) {
    if (count != 0 && size > SIZE_MAX / count) fail(job, CMI_NO_MEMORY, "the image is too large to decode");
    void *pointer = calloc(count == 0 ? 1 : count, size == 0 ? 1 : size);
    if (pointer == NULL) fail(job, CMI_NO_MEMORY, "out of memory");
    return pointer;
}

// MARK: libpng's and libjpeg's error handlers

static void png_failed(png_structp png, png_const_charp text) {
    job *job = png_get_error_ptr(png);
    cmi_status status = strstr(text, "memory") != NULL ? CMI_NO_MEMORY : CMI_MALFORMED;
    fail(job, status, "%s", text);
}

static void png_warned(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void jpeg_failed(j_common_ptr common) {
    jpeg_bridge *bridge = (jpeg_bridge *)common->err;
    char text[JMSG_LENGTH_MAX];
    (*common->err->format_message)(common, text);
    int code = common->err->msg_code;
    cmi_status status =
        code == JERR_OUT_OF_MEMORY || code == JERR_NO_BACKING_STORE || code == JERR_BAD_ALLOC_CHUNK
            ? CMI_NO_MEMORY
            : CMI_MALFORMED;
    if (status == CMI_NO_MEMORY) {
        fail(bridge->job, status, "the JPEG needs more memory than a photo may use (%s)", text);
    }
    fail(bridge->job, status, "%s", text);
}

/// libjpeg reports corrupt or truncated data as warnings (and fills the gap with grey):
/// here they are errors, since the whole image must decode. Warnings about metadata only
/// are ignored.
static void jpeg_message(j_common_ptr common, int level) {
    if (level >= 0) return;  // trace messages
    int code = common->err->msg_code;
    if (code == JWRN_ADOBE_XFORM || code == JWRN_BOGUS_ICC || code == JWRN_JFIF_MAJOR) return;
    jpeg_failed(common);
}

static void jpeg_scan_count(j_common_ptr common) {
    if (!common->is_decompressor) return;
    j_decompress_ptr jpeg = (j_decompress_ptr)common;
    if (jpeg->input_scan_number > CMI_MAX_SCANS) {
        jpeg_bridge *bridge = (jpeg_bridge *)common->err;
        fail(bridge->job, CMI_MALFORMED, "the JPEG has more than %d progressive scans", CMI_MAX_SCANS);
    }
}

static void jpeg_errors(job *job, jpeg_bridge *bridge) {
    jpeg_std_error(&bridge->manager);
    bridge->manager.error_exit = jpeg_failed;
    bridge->manager.emit_message = jpeg_message;
    bridge->job = job;
}

// MARK: Encoding, row by row

static void output_append(job *job, const unsigned char *bytes, size_t length) {
    buffer *output = &job->out.output;
    if (length > SIZE_MAX / 2 - output->length) fail(job, CMI_NO_MEMORY, "the copy is too large");
    if (output->length + length > output->capacity) {
        size_t capacity = output->capacity == 0 ? 65536 : output->capacity;
        while (capacity < output->length + length) capacity *= 2;
        unsigned char *grown = realloc(output->bytes, capacity);
        if (grown == NULL) fail(job, CMI_NO_MEMORY, "out of memory");
        output->bytes = grown;
        output->capacity = capacity;
    }
    memcpy(output->bytes + output->length, bytes, length);
    output->length += length;
}

static void png_write_bytes(png_structp png, png_bytep bytes, size_t length) {
    output_append(png_get_io_ptr(png), bytes, length);
}

static void jpeg_sink_start(j_compress_ptr jpeg) {
    jpeg_sink *sink = (jpeg_sink *)jpeg->dest;
    sink->manager.next_output_byte = sink->chunk;
    sink->manager.free_in_buffer = sizeof sink->chunk;
}

static boolean jpeg_sink_full(j_compress_ptr jpeg) {
    jpeg_sink *sink = (jpeg_sink *)jpeg->dest;
    output_append(sink->job, sink->chunk, sizeof sink->chunk);
    jpeg_sink_start(jpeg);
    return TRUE;
}

static void jpeg_sink_end(j_compress_ptr jpeg) {
    jpeg_sink *sink = (jpeg_sink *)jpeg->dest;
    output_append(sink->job, sink->chunk, sizeof sink->chunk - sink->manager.free_in_buffer);
}

static void png_flush_nothing(png_structp png) { (void)png; }

static void encoder_begin(job *job, cmi_format format, uint32_t width, uint32_t height, int channels, int quality) {
    encoder *out = &job->out;
    out->format = format;
    out->width = width;
    out->height = height;
    out->channels = channels;
    if (format == CMI_FORMAT_PNG) {
        if (channels != 1 && channels != 3 && channels != 4) fail(job, CMI_UNSUPPORTED, "unsupported channel count");
        out->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, job, png_failed, png_warned);
        if (out->png == NULL) fail(job, CMI_NO_MEMORY, "out of memory");
        out->png_info = png_create_info_struct(out->png);
        if (out->png_info == NULL) fail(job, CMI_NO_MEMORY, "out of memory");
        png_set_write_fn(out->png, job, png_write_bytes, png_flush_nothing);
        int type = channels == 1 ? PNG_COLOR_TYPE_GRAY : channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGBA;
        png_set_IHDR(
            out->png, out->png_info, width, height, 8, type, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
            PNG_FILTER_TYPE_DEFAULT);
        png_write_info(out->png, out->png_info);
    } else if (format == CMI_FORMAT_JPEG) {
        if (channels != 1 && channels != 3) fail(job, CMI_UNSUPPORTED, "a JPEG has 1 or 3 channels");
        out->jpeg.err = &out->jpeg_errors.manager;
        jpeg_errors(job, &out->jpeg_errors);
        jpeg_create_compress(&out->jpeg);
        out->jpeg_created = 1;
        out->jpeg_sink.job = job;
        out->jpeg_sink.manager.init_destination = jpeg_sink_start;
        out->jpeg_sink.manager.empty_output_buffer = jpeg_sink_full;
        out->jpeg_sink.manager.term_destination = jpeg_sink_end;
        out->jpeg.dest = &out->jpeg_sink.manager;
        out->jpeg.image_width = width;
        out->jpeg.image_height = height;
        out->jpeg.input_components = channels;
        out->jpeg.in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
        jpeg_set_defaults(&out->jpeg);
        jpeg_set_quality(&out->jpeg, quality < 1 ? 1 : quality > 100 ? 100 : quality, TRUE);
        jpeg_start_compress(&out->jpeg, TRUE);
    } else {
        fail(job, CMI_UNSUPPORTED, "unknown format");
    }
}

static void encoder_write(job *job, unsigned char *row) {
    encoder *out = &job->out;
    if (out->format == CMI_FORMAT_PNG) {
        png_write_row(out->png, row);
    } else {
        JSAMPROW rows[1] = {row};
        jpeg_write_scanlines(&out->jpeg, rows, 1);
    }
}

/// Finishes the encoding and hands its bytes over (malloc'ed).
static void encoder_finish(job *job, unsigned char **bytes, size_t *length) {
    encoder *out = &job->out;
    if (out->format == CMI_FORMAT_PNG) {
        png_write_end(out->png, NULL);
    } else {
        jpeg_finish_compress(&out->jpeg);
    }
    *bytes = out->output.bytes;
    *length = out->output.length;
    out->output.bytes = NULL;
}

// MARK: Scaling

static void scaler_begin(job *job, uint32_t in_width, uint32_t in_height, uint32_t out_width, uint32_t out_height,
                         int channels, int all_rows) {
    scaler *scale = &job->scale;
    scale->in_width = in_width;
    scale->in_height = in_height;
    scale->out_width = out_width;
    scale->out_height = out_height;
    scale->channels = channels;
    scale->rows = all_rows ? out_height : 1;
    scale->current = -1;
    scale->columns = allocate(job, in_width, sizeof(uint32_t));
    for (uint32_t x = 0; x < in_width; x++) scale->columns[x] = (uint32_t)((uint64_t)x * out_width / in_width);
    scale->sums = allocate(job, (size_t)scale->rows * out_width * (size_t)channels, sizeof(uint32_t));
    scale->counts = allocate(job, (size_t)scale->rows * out_width, sizeof(uint32_t));
    scale->out_row = allocate(job, out_width, (size_t)channels);
}

static void scaler_emit(job *job, uint32_t slot) {
    scaler *scale = &job->scale;
    size_t width = scale->out_width;
    int channels = scale->channels;
    uint32_t *sums = scale->sums + (size_t)slot * width * (size_t)channels;
    uint32_t *counts = scale->counts + (size_t)slot * width;
    for (size_t x = 0; x < width; x++) {
        uint32_t count = counts[x] == 0 ? 1 : counts[x];
        for (int c = 0; c < channels; c++) {
            size_t index = x * (size_t)channels + (size_t)c;
            scale->out_row[index] = (unsigned char)((sums[index] + count / 2) / count);
        }
    }
    encoder_write(job, scale->out_row);
    scale->written++;
    memset(sums, 0, width * (size_t)channels * sizeof(uint32_t));
    memset(counts, 0, width * sizeof(uint32_t));
}

/// Adds the pixels of source row `y` at columns `first`, `first + step`, … to the copy.
static void scaler_add(job *job, uint32_t y, const unsigned char *row, uint32_t first, uint32_t step) {
    scaler *scale = &job->scale;
    uint32_t target = (uint32_t)((uint64_t)y * scale->out_height / scale->in_height);
    uint32_t slot = 0;
    if (scale->rows == 1) {
        if (scale->current != (int64_t)target) {
            if (scale->current >= 0) scaler_emit(job, 0);
            scale->current = target;
        }
    } else {
        slot = target;
    }
    int channels = scale->channels;
    uint32_t *sums = scale->sums + (size_t)slot * scale->out_width * (size_t)channels;
    uint32_t *counts = scale->counts + (size_t)slot * scale->out_width;
    for (uint32_t x = first; x < scale->in_width; x += step) {
        uint32_t column = scale->columns[x];
        const unsigned char *pixel = row + (size_t)x * (size_t)channels;
        uint32_t *sum = sums + (size_t)column * (size_t)channels;
        for (int c = 0; c < channels; c++) sum[c] += pixel[c];
        counts[column]++;
    }
}

static void scaler_finish(job *job) {
    scaler *scale = &job->scale;
    if (scale->rows == 1) {
        if (scale->current >= 0) scaler_emit(job, 0);
    } else {
        for (uint32_t slot = 0; slot < scale->out_height; slot++) scaler_emit(job, slot);
    }
    if (scale->written != scale->out_height) fail(job, CMI_MALFORMED, "the image has fewer rows than it declares");
}

/// The copy's size: the image's own, or with its longest side brought down to `side`.
static void copy_size(uint32_t width, uint32_t height, uint32_t side, uint32_t *out_width, uint32_t *out_height) {
    uint32_t longest = width > height ? width : height;
    if (side == 0 || longest <= side) {
        *out_width = width;
        *out_height = height;
        return;
    }
    uint64_t w = ((uint64_t)width * side + longest / 2) / longest;
    uint64_t h = ((uint64_t)height * side + longest / 2) / longest;
    *out_width = w == 0 ? 1 : (uint32_t)w;
    *out_height = h == 0 ? 1 : (uint32_t)h;
}

static void check_limits(job *job, const cmi_limits *limits, uint32_t width, uint32_t height) {
    if (width == 0 || height == 0) fail(job, CMI_MALFORMED, "the image has no pixels");
    if (width > limits->max_side || height > limits->max_side ||
        (uint64_t)width * (uint64_t)height > limits->max_pixels) {
        fail(job, CMI_TOO_LARGE, "the image is %u x %u pixels", width, height);
    }
}

// MARK: PNG

static void png_read_bytes(png_structp png, png_bytep bytes, size_t length) {
    job *job = png_get_io_ptr(png);
    if (length > job->length - job->position) png_error(png, "the PNG ends before its image is complete");
    memcpy(bytes, job->data + job->position, length);
    job->position += length;
}

static void decode_png(job *job, const cmi_limits *limits, cmi_result *result) {
    job->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, job, png_failed, png_warned);
    if (job->png == NULL) fail(job, CMI_NO_MEMORY, "out of memory");
    job->png_info = png_create_info_struct(job->png);
    if (job->png_info == NULL) fail(job, CMI_NO_MEMORY, "out of memory");
    png_set_read_fn(job->png, job, png_read_bytes);
    // The size is checked below, with this library's answer; libpng's own default limit
    // (a million pixels a side) would only say "exceeds user limit". No ancillary chunk
    // (a compressed text, a colour profile) may expand past 8 MB.
    png_set_user_limits(job->png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    png_set_chunk_malloc_max(job->png, 8u << 20);
    png_read_info(job->png, job->png_info);

    uint32_t width = png_get_image_width(job->png, job->png_info);
    uint32_t height = png_get_image_height(job->png, job->png_info);
    result->width = width;
    result->height = height;
    check_limits(job, limits, width, height);

    // Everything becomes 8-bit grey, grey + alpha, RGB or RGBA; grey becomes RGB.
    int type = png_get_color_type(job->png, job->png_info);
    png_set_expand(job->png);
    png_set_strip_16(job->png);
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(job->png);
    int passes = png_set_interlace_handling(job->png);
    png_read_update_info(job->png, job->png_info);
    int channels = png_get_channels(job->png, job->png_info);
    if (channels != 3 && channels != 4) fail(job, CMI_UNSUPPORTED, "unsupported PNG colour type");

    uint32_t copy_width, copy_height;
    copy_size(width, height, limits->copy_side, &copy_width, &copy_height);
    job->row = allocate(job, png_get_rowbytes(job->png, job->png_info), 1);
    scaler_begin(job, width, height, copy_width, copy_height, channels, passes > 1);
    encoder_begin(
        job, channels == 4 ? CMI_FORMAT_PNG : CMI_FORMAT_JPEG, copy_width, copy_height, channels == 4 ? 4 : 3,
        limits->jpeg_quality);

    for (uint64_t call = 0; call < (uint64_t)passes * height; call++) {
        int pass = passes > 1 ? png_get_current_pass_number(job->png) : 0;
        uint32_t y = passes > 1 ? png_get_current_row_number(job->png) : (uint32_t)call;
        png_read_row(job->png, job->row, NULL);
        if (passes == 1) {
            scaler_add(job, y, job->row, 0, 1);
        } else if (PNG_ROW_IN_INTERLACE_PASS(y, pass) && PNG_PASS_START_COL(pass) < width) {
            scaler_add(job, y, job->row, PNG_PASS_START_COL(pass), PNG_PASS_COL_OFFSET(pass));
        }
    }
    png_read_end(job->png, NULL);
    scaler_finish(job);
    result->image_length = job->position;
    result->copy_format = job->out.format;
    result->copy_width = copy_width;
    result->copy_height = copy_height;
    encoder_finish(job, &result->copy, &result->copy_length);
}

// MARK: JPEG

static void decode_jpeg(job *job, const cmi_limits *limits, cmi_result *result) {
    job->jpeg.err = &job->jpeg_errors.manager;
    jpeg_errors(job, &job->jpeg_errors);
    jpeg_create_decompress(&job->jpeg);
    job->jpeg_created = 1;
    job->jpeg.mem->max_memory_to_use = (long)limits->jpeg_max_memory;
    job->progress.progress_monitor = jpeg_scan_count;
    job->jpeg.progress = &job->progress;
    jpeg_mem_src(&job->jpeg, job->data, (unsigned long)job->length);
    jpeg_read_header(&job->jpeg, TRUE);

    uint32_t width = job->jpeg.image_width;
    uint32_t height = job->jpeg.image_height;
    result->width = width;
    result->height = height;
    check_limits(job, limits, width, height);

    int cmyk = job->jpeg.jpeg_color_space == JCS_CMYK || job->jpeg.jpeg_color_space == JCS_YCCK;
    job->jpeg.out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
    uint32_t copy_width, copy_height;
    copy_size(width, height, limits->copy_side, &copy_width, &copy_height);
    // Decode at the smallest DCT scale (n/8) that is still at least the copy's size:
    // libjpeg then skips most of the work of a full-size decode.
    for (unsigned int numerator = 1; numerator <= 8; numerator++) {
        job->jpeg.scale_num = numerator;
        job->jpeg.scale_denom = 8;
        jpeg_calc_output_dimensions(&job->jpeg);
        if (job->jpeg.output_width >= copy_width && job->jpeg.output_height >= copy_height) break;
    }
    jpeg_start_decompress(&job->jpeg);
    uint32_t decoded_width = job->jpeg.output_width;
    uint32_t decoded_height = job->jpeg.output_height;
    if (decoded_width < copy_width) copy_width = decoded_width;
    if (decoded_height < copy_height) copy_height = decoded_height;
    int components = job->jpeg.output_components;
    job->row = allocate(job, decoded_width, (size_t)components);
    scaler_begin(job, decoded_width, decoded_height, copy_width, copy_height, 3, 0);
    if (cmyk) job->rgb_row = allocate(job, decoded_width, 3);
    unsigned char *rgb = cmyk ? job->rgb_row : job->row;
    encoder_begin(job, CMI_FORMAT_JPEG, copy_width, copy_height, 3, limits->jpeg_quality);

    while (job->jpeg.output_scanline < decoded_height) {
        uint32_t y = job->jpeg.output_scanline;
        JSAMPROW rows[1] = {job->row};
        if (jpeg_read_scanlines(&job->jpeg, rows, 1) != 1) fail(job, CMI_MALFORMED, "the JPEG stopped early");
        if (cmyk) {
            // Photoshop writes CMYK JPEGs inverted (an Adobe marker says so).
            int inverted = job->jpeg.saw_Adobe_marker;
            for (uint32_t x = 0; x < decoded_width; x++) {
                const unsigned char *p = job->row + (size_t)x * 4;
                unsigned int c = inverted ? p[0] : 255u - p[0], m = inverted ? p[1] : 255u - p[1];
                unsigned int ye = inverted ? p[2] : 255u - p[2], k = inverted ? p[3] : 255u - p[3];
                rgb[x * 3] = (unsigned char)(c * k / 255);
                rgb[x * 3 + 1] = (unsigned char)(m * k / 255);
                rgb[x * 3 + 2] = (unsigned char)(ye * k / 255);
            }
        }
        scaler_add(job, y, rgb, 0, 1);
    }
    jpeg_finish_decompress(&job->jpeg);
    scaler_finish(job);
    result->image_length = job->length - job->jpeg.src->bytes_in_buffer;
    result->copy_format = CMI_FORMAT_JPEG;
    result->copy_width = copy_width;
    result->copy_height = copy_height;
    encoder_finish(job, &result->copy, &result->copy_length);
}

// MARK: Entry points

static void job_free(job *job) {
    if (job->png != NULL) png_destroy_read_struct(&job->png, job->png_info != NULL ? &job->png_info : NULL, NULL);
    if (job->jpeg_created) jpeg_destroy_decompress(&job->jpeg);
    if (job->out.png != NULL) {
        png_destroy_write_struct(&job->out.png, job->out.png_info != NULL ? &job->out.png_info : NULL);
    }
    if (job->out.jpeg_created) jpeg_destroy_compress(&job->out.jpeg);
    free(job->out.output.bytes);
    free(job->row);
    free(job->rgb_row);
    free(job->scale.columns);
    free(job->scale.sums);
    free(job->scale.counts);
    free(job->scale.out_row);
    free(job);
}

cmi_status cmi_decode(const unsigned char *data, size_t length, const cmi_limits *limits, cmi_result *result) {
    memset(result, 0, sizeof *result);
    static const unsigned char png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (length >= 8 && memcmp(data, png_signature, 8) == 0) {
        result->format = CMI_FORMAT_PNG;
    } else if (length >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF) {
        result->format = CMI_FORMAT_JPEG;
    } else {
        snprintf(result->message, sizeof result->message, "not a PNG or JPEG");
        return CMI_UNSUPPORTED;
    }
    job *job = calloc(1, sizeof(struct job));
    if (job == NULL) return CMI_NO_MEMORY;
    job->message = result->message;
    job->data = data;
    job->length = length;
    if (setjmp(job->jump) != 0) {
        cmi_status status = job->failure;
        free(result->copy);
        result->copy = NULL;
        result->copy_length = 0;
        job_free(job);
        return status;
    }
    if (result->format == CMI_FORMAT_PNG) {
        decode_png(job, limits, result);
    } else {
        decode_jpeg(job, limits, result);
    }
    job_free(job);
    return CMI_OK;
}

void cmi_result_free(cmi_result *result) {
    free(result->copy);
    result->copy = NULL;
    result->copy_length = 0;
}

cmi_status cmi_encode(
    cmi_format format, uint32_t width, uint32_t height, int channels, int jpeg_quality, cmi_row_source source,
    void *context, unsigned char **output, size_t *output_length, char *message) {
    *output = NULL;
    *output_length = 0;
    message[0] = 0;
    if (width == 0 || height == 0) {
        snprintf(message, 200, "an image needs pixels");
        return CMI_MALFORMED;
    }
    job *job = calloc(1, sizeof(struct job));
    if (job == NULL) return CMI_NO_MEMORY;
    job->message = message;
    job->source = source;
    job->context = context;
    if (setjmp(job->jump) != 0) {
        cmi_status status = job->failure;
        job_free(job);
        return status;
    }
    encoder_begin(job, format, width, height, channels, jpeg_quality);
    job->row = allocate(job, width, (size_t)channels);
    for (uint32_t y = 0; y < height; y++) {
        // The caller's function returns before any library call that may jump.
        if (job->source(job->context, y, job->row) != 0) fail(job, CMI_MALFORMED, "the row source failed");
        encoder_write(job, job->row);
    }
    encoder_finish(job, output, output_length);
    job_free(job);
    return CMI_OK;
}

cmi_status cmi_png_rgba(
    const unsigned char *data, size_t length, uint64_t max_pixels, uint32_t *width, uint32_t *height,
    unsigned char **pixels, char *message) {
    *pixels = NULL;
    *width = 0;
    *height = 0;
    message[0] = 0;
    // libpng's simplified API catches its own longjmps: every failure is a return value.
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, length)) {
        snprintf(message, 200, "%s", image.message);
        return CMI_MALFORMED;
    }
    *width = image.width;
    *height = image.height;
    if ((uint64_t)image.width * image.height > max_pixels) {
        png_image_free(&image);
        snprintf(message, 200, "%ux%u is over the limit", image.width, image.height);
        return CMI_TOO_LARGE;
    }
    image.format = PNG_FORMAT_RGBA;
    unsigned char *buffer = malloc(PNG_IMAGE_SIZE(image));
    if (buffer == NULL) {
        png_image_free(&image);
        snprintf(message, 200, "out of memory");
        return CMI_NO_MEMORY;
    }
    if (!png_image_finish_read(&image, NULL, buffer, 0, NULL)) {
        snprintf(message, 200, "%s", image.message);
        free(buffer);
        png_image_free(&image);
        return CMI_MALFORMED;
    }
    *pixels = buffer;
    return CMI_OK;
}

void cmi_free(void *pointer) { free(pointer); }
