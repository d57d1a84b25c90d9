/*
 * frame.c - streaming decoder of the frame format (docs/frame-format.md).
 *
 * One decoder, file-static state: on the PIC every field is a direct
 * register-file access. The bit reader is written out inside read_code() so
 * the show path stays shallow on the 16-level hardware stack.
 */
#include "frame.h"

#include "hal.h"

/* An order nibble above FRAME_MAX_ORDER (7) has its top bit set: both nibbles at once. */
#define ORDER_TOO_BIG 0x88u
HAL_STATIC_ASSERT(order_nibble_top_bit, FRAME_MAX_ORDER == 7u);

/* A code's value (1 << order | bits) must fit 16 bits: zeros + order <= 15. */
#define MAX_CODE_BITS 15u

frame_window_t frame_window;
frame_window_t frame_fast;

static frame_reader_t reader;
static uint16_t input_left; /* frame bytes not yet read */
static uint8_t in_byte;     /* its unread bits, from the top; zeros shifted in below */
static uint8_t in_bits;     /* how many; 0 = take a fresh byte */
static frame_status_t status;
static uint8_t windows_left;
/* Per plane: Exp-Golomb order where the error to the left is 0 (low nibble) or 1 (high). */
static uint8_t orders[2];
/* The current plane's two orders k, and 1 << k of each (shifted once per plane, not per code). */
static uint8_t order_at_0;
static uint8_t order_at_1;
static uint16_t offset_at_0;
static uint16_t offset_at_1;
static uint8_t width_bytes; /* of the current window */
static uint8_t column;      /* byte column inside the current row */
static uint8_t plane;       /* 0 = DTM1, 1 = DTM2, 2 = both done */
static uint16_t plane_bytes;
/* Pixels of the current plane not yet produced (between bytes 8 a byte left). */
static uint16_t bits_left;
static uint16_t zeros_left;          /* 0 transitions before the next 1 (or the plane's end) */
static bool one_pending;             /* a 1 follows those zeros */
static uint8_t row_error;            /* prediction error of the pixel to the left */
static uint8_t above[EPD_ROW_BYTES]; /* the row above, overwritten as the row is produced */

static void fail(frame_status_t why) {
    if (status == FRAME_OK) {
        status = why;
        windows_left = 0u;
    }
}

/* Next whole byte of the frame (headers); 0 and FRAME_ERR_TRUNCATED past the end. */
static uint8_t read_byte(void) {
    if (input_left == 0u) {
        fail(FRAME_ERR_TRUNCATED);
        return 0u;
    }
    input_left--;
    HAL_WORK(HAL_WORK_CODED_BYTE);
    return reader();
}

/*
 * Order-k Exp-Golomb value, k by the error to the left (short runs inside ink
 * edges); refused as soon as it cannot fit 16 bits.
 */
static uint16_t read_code(void) {
    uint8_t order = row_error != 0u ? order_at_1 : order_at_0;
    uint8_t zeros = 0u;
    uint8_t bits = 0u;
    bool counting = true;
    uint16_t value = 1u;

    /* The next bit is the top one of in_byte: tested in place, then shifted out. */
    for (;;) {
        if (in_bits == 0u) {
            if (input_left == 0u) {
                fail(FRAME_ERR_TRUNCATED);
                return 0u;
            }
            input_left--;
            HAL_WORK(HAL_WORK_CODED_BYTE);
            in_byte = reader();
            in_bits = 8u;
        }
        in_bits--;
        if (!counting) {
            value = (uint16_t)(value << 1);
            if ((in_byte & 0x80u) != 0u) {
                value |= 1u;
            }
            in_byte = (uint8_t)(in_byte << 1);
            bits--;
            if (bits == 0u) {
                break;
            }
        } else if ((in_byte & 0x80u) != 0u) {
            in_byte = (uint8_t)(in_byte << 1);
            bits = (uint8_t)(zeros + order);
            if (bits == 0u) {
                break;
            }
            counting = false;
        } else {
            in_byte = (uint8_t)(in_byte << 1);
            zeros++;
            if ((uint8_t)(zeros + order) > MAX_CODE_BITS) {
                fail(FRAME_ERR_CODE);
                return 0u;
            }
        }
    }
    return (uint16_t)(value - (row_error != 0u ? offset_at_1 : offset_at_0));
}

static void start_plane(uint8_t which) {
    uint8_t i;
    uint8_t k;

    plane = which;
    if (which < 2u) {
        order_at_0 = (uint8_t)(orders[which] & 0x0Fu);
        order_at_1 = (uint8_t)(orders[which] >> 4);
        offset_at_0 = 1u;
        for (k = order_at_0; k > 0u; k--) {
            offset_at_0 = (uint16_t)(offset_at_0 << 1);
        }
        offset_at_1 = 1u;
        for (k = order_at_1; k > 0u; k--) {
            offset_at_1 = (uint16_t)(offset_at_1 << 1);
        }
    }
    bits_left = (uint16_t)(plane_bytes << 3);
    zeros_left = 0u;
    one_pending = false;
    column = 0u;
    row_error = 0u;
    /* The row above the window's first row counts as white. */
    for (i = 0u; i < EPD_ROW_BYTES; i++) {
        above[i] = 0xFFu;
    }
}

frame_status_t frame_open(frame_reader_t read, uint16_t length) {
    uint8_t count;
    uint8_t version;

    reader = read;
    input_left = length;
    in_byte = 0u;
    in_bits = 0u;
    status = FRAME_OK;
    windows_left = 0u;
    orders[0] = 0u;
    orders[1] = 0u;
    width_bytes = 0u;
    plane_bytes = 0u;
    start_plane(2u);
    frame_fast.h = 0u;

    version = read_byte();
    if (version == FRAME_VERSION_FAST) {
        /* The fast window has a window header's form: read and checked as one. */
        windows_left = 1u;
        if (frame_next_window() == FRAME_OK) {
            frame_fast.x = frame_window.x;
            frame_fast.y = frame_window.y;
            frame_fast.w = frame_window.w;
            frame_fast.h = frame_window.h;
        }
    } else if (version != FRAME_VERSION) {
        fail(FRAME_ERR_VERSION); /* keeps TRUNCATED if the frame was empty */
        return status;
    }
    count = read_byte();
    if (status == FRAME_OK && count > FRAME_MAX_WINDOWS) {
        fail(FRAME_ERR_WINDOW);
    }
    if (status == FRAME_OK) {
        windows_left = count;
    }
    return status;
}

uint8_t frame_windows_left(void) {
    return windows_left;
}

uint16_t frame_plane_bytes(void) {
    return plane_bytes;
}

/* row_bytes * rows as at most EPD_ROW_BYTES additions of a column's rows (not up to
 * EPD_HEIGHT of a row's bytes): no multiply routine on the 8-bit core. */
static uint16_t area(uint8_t row_bytes, uint8_t rows) {
    uint16_t total = 0u;

    for (; row_bytes > 0u; row_bytes--) {
        total = (uint16_t)(total + rows);
    }
    return total;
}

frame_status_t frame_next_window(void) {
    uint8_t x_bytes;
    uint8_t y;
    uint8_t w_bytes;
    uint8_t height;
    uint8_t black_orders;
    uint8_t red_orders;

    if (status != FRAME_OK) {
        return status;
    }
    if (windows_left == 0u) {
        fail(FRAME_ERR_TRAILING);
        return status;
    }
    x_bytes = read_byte();
    y = read_byte();
    w_bytes = read_byte();
    height = read_byte();
    black_orders = read_byte();
    red_orders = read_byte();
    if (status != FRAME_OK) {
        return status;
    }
    /* Compared one at a time so no sum can wrap around a uint8_t. */
    if (w_bytes == 0u || height == 0u || x_bytes >= EPD_ROW_BYTES ||
        w_bytes > EPD_ROW_BYTES - x_bytes || y >= EPD_HEIGHT || height > EPD_HEIGHT - y ||
        ((uint8_t)(black_orders | red_orders) & ORDER_TOO_BIG) != 0u) {
        fail(FRAME_ERR_WINDOW);
        return status;
    }
    windows_left--;
    orders[0] = black_orders;
    orders[1] = red_orders;
    width_bytes = w_bytes;
    plane_bytes = area(w_bytes, height);
    start_plane(0u);
    frame_window.x = (uint8_t)(x_bytes << 3);
    frame_window.y = y;
    frame_window.w = (uint8_t)(w_bytes << 3);
    frame_window.h = height;
    return FRAME_OK;
}

uint8_t frame_next_byte(void) {
    uint8_t errors = 0u;
    uint8_t bit;
    uint8_t pixels;
    uint16_t run;

    if (bits_left == 0u && plane == 0u) {
        start_plane(1u);
    }
    if (status != FRAME_OK || bits_left == 0u) {
        return 0xFFu;
    }
    if (zeros_left >= 8u) {
        /* No transition in these 8 pixels (the common case: blank runs): each has the
         * error of the pixel to its left. Same result as the loop, a tenth of the work. */
        zeros_left = (uint16_t)(zeros_left - 8u);
        bits_left = (uint16_t)(bits_left - 8u);
        errors = row_error != 0u ? 0xFFu : 0x00u;
        bit = 8u;
    } else {
        bit = 0u;
    }
    for (; bit < 8u; bit++) {
        /* T is runs of zeros, each but a plane's last ended by a one. */
        if (zeros_left == 0u && !one_pending) {
            run = read_code();
            if (status != FRAME_OK) {
                return 0xFFu;
            }
            if (run > bits_left) {
                fail(FRAME_ERR_CODE);
                return 0xFFu;
            }
            zeros_left = run;
            one_pending = run < bits_left;
        }
        bits_left--;
        if (zeros_left != 0u) {
            zeros_left--;
        } else {
            one_pending = false;
            /* A pixel's error is its transition XOR the error of the pixel to its left. */
            row_error ^= 1u;
        }
        errors = (uint8_t)((uint8_t)(errors << 1) | row_error);
    }
    HAL_WORK(HAL_WORK_DECODED_BYTE);
    pixels = (uint8_t)(above[column] ^ errors);
    above[column] = pixels;
    column++;
    if (column == width_bytes) {
        column = 0u;
        row_error = 0u;
    }
    return pixels;
}

/*
 * frame_next_byte() `count` times, the bytes dropped; within one run of zeros (no
 * transition in those pixels: the common case) in one step, the row above not updated.
 */
void frame_skip(uint8_t count) {
    uint8_t pixels = (uint8_t)(count << 3);

    /* zeros_left <= bits_left: the plane has those bytes left. */
    if (zeros_left < pixels) {
        for (; count > 0u; count--) {
            (void)frame_next_byte();
        }
        return;
    }
    HAL_WORK(HAL_WORK_SKIP);
    zeros_left = (uint16_t)(zeros_left - pixels);
    bits_left = (uint16_t)(bits_left - pixels);
    column = (uint8_t)(column + count);
    if (column == width_bytes) {
        column = 0u;
        row_error = 0u;
    }
}

frame_status_t frame_end_window(void) {
    if (status != FRAME_OK) {
        return status;
    }
    if (plane != 1u || bits_left != 0u) {
        /* The caller stopped pulling early: the window's codes were not all read. */
        fail(FRAME_ERR_TRUNCATED);
        return status;
    }
    if (in_byte != 0u) { /* the unread bits of the last byte (the read ones are shifted out) */
        fail(FRAME_ERR_PADDING);
        return status;
    }
    in_bits = 0u;
    plane = 2u;
    return FRAME_OK;
}

frame_status_t frame_close(void) {
    if (status == FRAME_OK && (windows_left != 0u || input_left != 0u)) {
        fail(windows_left != 0u ? FRAME_ERR_TRUNCATED : FRAME_ERR_TRAILING);
    }
    return status;
}

frame_status_t frame_check(frame_reader_t read, uint16_t length) {
    uint16_t bytes;

    frame_open(read, length);
    while (windows_left != 0u) {
        if (frame_next_window() != FRAME_OK) {
            break;
        }
        for (bytes = (uint16_t)(plane_bytes << 1); bytes > 0u; bytes--) {
            (void)frame_next_byte();
        }
        frame_end_window();
    }
    return frame_close();
}
