/*
 * frame.h - streaming decoder of the frame format (docs/frame-format.md).
 *
 * A frame is a white page plus up to FRAME_MAX_WINDOWS windows, each coded
 * as run lengths of a two-dimensional transform of its two planes. The
 * decoder pulls frame bytes from a reader one at a time and hands out pixel
 * bytes one at a time, so neither the frame nor a plane is ever held in RAM:
 * the state is one row of the window (the prediction needs the row above)
 * and a few counters.
 *
 * There is one decoder (the device shows one frame at a time): its state is
 * file-static, so the 8-bit core reaches every field directly instead of
 * through a pointer.
 *
 * Use: frame_open(); then while frame_windows_left(): frame_next_window()
 * (the window is in frame_window), pull 2 * frame_plane_bytes() bytes with
 * frame_next_byte() (DTM1 bytes, then DTM2 bytes), frame_end_window();
 * finally frame_close(). frame_check() runs that whole sequence without a
 * panel: a frame it accepts decodes without error, pulls exactly the bytes
 * each window needs and leaves no byte unread.
 */
#ifndef EPDLE_FRAME_H
#define EPDLE_FRAME_H

#include <stdbool.h>
#include <stdint.h>

#include "epd.h"

#define FRAME_VERSION 1u
/* Version 2: version 1 with a fast window, in a window header's form, after the version
 * byte (docs/frame-format.md). */
#define FRAME_VERSION_FAST 2u
#define FRAME_MAX_WINDOWS 16u
#define FRAME_MAX_ORDER 7u

/* Same numbers as epdle.frames.FrameErrorKind (and the shared test vectors). */
typedef enum {
    FRAME_OK = 0,
    FRAME_ERR_VERSION = 1,   /* first byte is neither FRAME_VERSION nor FRAME_VERSION_FAST */
    FRAME_ERR_WINDOW = 2,    /* too many windows, window empty or off the panel, order > 7 */
    FRAME_ERR_TRUNCATED = 3, /* the data ends inside a header or a window's codes */
    FRAME_ERR_CODE = 4,      /* a code too long or a run past the end of its plane */
    FRAME_ERR_PADDING = 5,   /* non-zero bits after a window's last code */
    FRAME_ERR_TRAILING = 6   /* bytes left after the last window */
} frame_status_t;

/* Next byte of the frame's data (the reader keeps its own position). */
typedef uint8_t (*frame_reader_t)(void);

/* Native pixel coordinates as the panel takes them (x, w multiples of 8). */
typedef struct {
    uint8_t x;
    uint8_t y;
    uint8_t w;
    uint8_t h;
} frame_window_t;

/* The window frame_next_window() read last. */
extern frame_window_t frame_window;
/*
 * The frame's fast window (version 2), read by frame_open(): where the frames
 * of its set differ, in black only; h == 0 for none (a version 1 frame).
 */
extern frame_window_t frame_fast;

/* Start decoding `length` bytes from read(); reads the version and window count. */
frame_status_t frame_open(frame_reader_t read, uint16_t length);

/* Windows still to come (0 once an error happened). */
uint8_t frame_windows_left(void);

/* Read and check the next window's header into frame_window. */
frame_status_t frame_next_window(void);

/* Bytes of one plane of the current window: (w / 8) * h. */
uint16_t frame_plane_bytes(void);

/*
 * Next pixel byte of the current window. After an error, or past the
 * window's end, it returns white (0xFF) and the error stays in the status.
 */
uint8_t frame_next_byte(void);

/*
 * The next `count` pixel bytes of the current row (at most to its end) read and dropped,
 * as frame_next_byte() would, in one step where they hold no transition: where a fast
 * update needs no pixels. The row above may then keep its old bytes in those columns, so
 * what frame_next_byte() gives there in the rows below is wrong: skip them too.
 */
void frame_skip(uint8_t count);

/* After the window's last byte: the status so far, then the padding check. */
frame_status_t frame_end_window(void);

/* After the last window: the status so far, then no byte may be left over. */
frame_status_t frame_close(void);

/* Dry run of the whole frame: FRAME_OK only if it would show without error. */
frame_status_t frame_check(frame_reader_t read, uint16_t length);

#endif /* EPDLE_FRAME_H */
