/*
 * frame.h - streaming decoder of the frame format (docs/frame-format.md).
 *
 * A frame is a white page plus up to FRAME_MAX_WINDOWS windows, each coded
 * as run lengths of a two-dimensional transform of its two planes. The
 * decoder pulls frame bytes from a reader one at a time and hands out pixel
 * bytes one at a time (frame_next_byte is an epd_byte_source_t), so neither
 * the frame nor a plane is ever held in RAM: the state is one row of the
 * window (the prediction needs the row above) and a few counters.
 *
 * Use: frame_open(); then for each of frame_windows_left() windows:
 * frame_next_window(), pull 2 * (w / 8) * h bytes with frame_next_byte()
 * (DTM1 bytes, then DTM2 bytes), frame_end_window(); finally frame_close().
 * frame_check() runs that whole sequence without a panel: a frame it accepts
 * decodes without error, pulls exactly the bytes each window needs and
 * leaves no byte unread.
 */
#ifndef EPDLE_FRAME_H
#define EPDLE_FRAME_H

#include <stdbool.h>
#include <stdint.h>

#include "epd.h"

#define FRAME_VERSION 1u
#define FRAME_MAX_WINDOWS 16u
#define FRAME_MAX_ORDER 7u

/* Same numbers as epdle.frames.FrameErrorKind (and the shared test vectors). */
typedef enum {
    FRAME_OK = 0,
    FRAME_ERR_VERSION = 1,   /* first byte is not FRAME_VERSION */
    FRAME_ERR_WINDOW = 2,    /* too many windows, window empty or off the panel, order > 7 */
    FRAME_ERR_TRUNCATED = 3, /* the data ends inside a header or a window's codes */
    FRAME_ERR_CODE = 4,      /* a code too long or a run past the end of its plane */
    FRAME_ERR_PADDING = 5,   /* non-zero bits after a window's last code */
    FRAME_ERR_TRAILING = 6   /* bytes left after the last window */
} frame_status_t;

/* Next byte of the frame's data; ctx is the reader's own state. */
typedef uint8_t (*frame_reader_t)(void *ctx);

/* Native pixel coordinates as epd_write_window takes them (x, w multiples of 8). */
typedef struct {
    uint8_t x;
    uint8_t y;
    uint8_t w;
    uint8_t h;
} frame_window_t;

typedef struct {
    frame_reader_t read;
    void *read_ctx;
    uint16_t input_left; /* frame bytes not yet read */
    uint8_t in_byte;     /* byte being consumed bit by bit */
    uint8_t in_mask;     /* its next bit; 0 = take a fresh byte */
    frame_status_t status;
    uint8_t windows_left;
    uint8_t orders[2];    /* per plane: Exp-Golomb order where the error to the left is 0 (low
                             nibble) or 1 (high nibble) */
    uint8_t width_bytes;  /* of the current window */
    uint8_t column;       /* byte column inside the current row */
    uint8_t plane;        /* 0 = DTM1, 1 = DTM2, 2 = both done */
    uint16_t plane_bytes; /* bytes per plane of the current window */
    uint16_t bytes_left;  /* of the current plane */
    uint16_t bits_left;   /* pixels of the current plane not yet produced */
    uint16_t zeros_left;  /* 0 transitions before the next 1 (or the plane's end) */
    bool one_pending;     /* a 1 follows those zeros */
    uint8_t row_error;    /* prediction error of the pixel to the left */
    uint8_t above[EPD_ROW_BYTES]; /* the row above, overwritten as the row is produced */
} frame_decoder_t;

/* Start decoding `length` bytes from read(); reads the version and window count. */
frame_status_t frame_open(frame_decoder_t *dec, frame_reader_t read, void *read_ctx,
                          uint16_t length);

/* Windows still to come (0 once an error happened). */
uint8_t frame_windows_left(const frame_decoder_t *dec);

/* Read and check the next window's header. */
frame_status_t frame_next_window(frame_decoder_t *dec, frame_window_t *window);

/*
 * Next pixel byte of the current window (an epd_byte_source_t; ctx is the
 * frame_decoder_t). After an error, or past the window's end, it returns
 * white (0xFF) and the error stays in the decoder's status.
 */
uint8_t frame_next_byte(void *ctx);

/* After the window's last byte: the status so far, then the padding check. */
frame_status_t frame_end_window(frame_decoder_t *dec);

/* After the last window: the status so far, then no byte may be left over. */
frame_status_t frame_close(frame_decoder_t *dec);

/* Dry run of the whole frame: FRAME_OK only if it would show without error. */
frame_status_t frame_check(frame_decoder_t *dec, frame_reader_t read, void *read_ctx,
                           uint16_t length);

#endif /* EPDLE_FRAME_H */
