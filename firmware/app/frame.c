/*
 * frame.c - streaming decoder of the frame format (docs/frame-format.md).
 */
#include "frame.h"

/* A code's value (1 << order | bits) must fit 16 bits: zeros + order <= 15. */
#define MAX_CODE_BITS 15u

static void fail(frame_decoder_t *dec, frame_status_t status) {
    if (dec->status == FRAME_OK) {
        dec->status = status;
        dec->windows_left = 0u;
    }
}

/* Next whole byte of the frame (headers); 0 and FRAME_ERR_TRUNCATED past the end. */
static uint8_t read_byte(frame_decoder_t *dec) {
    if (dec->input_left == 0u) {
        fail(dec, FRAME_ERR_TRUNCATED);
        return 0u;
    }
    dec->input_left--;
    return dec->read(dec->read_ctx);
}

/*
 * Next code bit. It fetches bytes itself rather than through read_byte(),
 * and frame_next_byte() decodes runs inline: the PIC16's return stack has 16
 * levels, and this path already sits below the main loop, the display and
 * the driver, and above the store and the HAL.
 */
static uint8_t read_bit(frame_decoder_t *dec) {
    uint8_t bit;

    if (dec->in_mask == 0u) {
        if (dec->input_left == 0u) {
            fail(dec, FRAME_ERR_TRUNCATED);
            return 0u;
        }
        dec->input_left--;
        dec->in_byte = dec->read(dec->read_ctx);
        dec->in_mask = 0x80u;
    }
    bit = (uint8_t)((dec->in_byte & dec->in_mask) != 0u);
    dec->in_mask = (uint8_t)(dec->in_mask >> 1);
    return bit;
}

/* Order-k Exp-Golomb value; refused as soon as it cannot fit 16 bits. */
static uint16_t read_code(frame_decoder_t *dec, uint8_t order) {
    uint8_t zeros = 0u;
    uint8_t bits;
    uint16_t value = 1u;

    while (read_bit(dec) == 0u) {
        if (dec->status != FRAME_OK) {
            return 0u;
        }
        zeros++;
        if ((uint8_t)(zeros + order) > MAX_CODE_BITS) {
            fail(dec, FRAME_ERR_CODE);
            return 0u;
        }
    }
    for (bits = (uint8_t)(zeros + order); bits > 0u; bits--) {
        value = (uint16_t)((uint16_t)(value << 1) | read_bit(dec));
    }
    if (dec->status != FRAME_OK) {
        return 0u;
    }
    return (uint16_t)(value - (uint16_t)(1u << order));
}

static void start_plane(frame_decoder_t *dec, uint8_t plane) {
    uint8_t i;

    dec->plane = plane;
    dec->bytes_left = dec->plane_bytes;
    dec->bits_left = (uint16_t)(dec->plane_bytes * 8u);
    dec->zeros_left = 0u;
    dec->one_pending = false;
    dec->column = 0u;
    dec->row_error = 0u;
    /* The row above the window's first row counts as white. */
    for (i = 0u; i < EPD_ROW_BYTES; i++) {
        dec->above[i] = 0xFFu;
    }
}

frame_status_t frame_open(frame_decoder_t *dec, frame_reader_t read, void *read_ctx,
                          uint16_t length) {
    uint8_t count;

    dec->read = read;
    dec->read_ctx = read_ctx;
    dec->input_left = length;
    dec->in_byte = 0u;
    dec->in_mask = 0u;
    dec->status = FRAME_OK;
    dec->windows_left = 0u;
    dec->orders[0] = 0u;
    dec->orders[1] = 0u;
    dec->width_bytes = 0u;
    dec->plane_bytes = 0u;
    start_plane(dec, 2u);

    if (read_byte(dec) != FRAME_VERSION) {
        fail(dec, FRAME_ERR_VERSION); /* keeps TRUNCATED if the frame was empty */
        return dec->status;
    }
    count = read_byte(dec);
    if (dec->status == FRAME_OK && count > FRAME_MAX_WINDOWS) {
        fail(dec, FRAME_ERR_WINDOW);
    }
    if (dec->status == FRAME_OK) {
        dec->windows_left = count;
    }
    return dec->status;
}

uint8_t frame_windows_left(const frame_decoder_t *dec) {
    return dec->windows_left;
}

frame_status_t frame_next_window(frame_decoder_t *dec, frame_window_t *window) {
    uint8_t x_bytes;
    uint8_t y;
    uint8_t width_bytes;
    uint8_t height;
    uint8_t black_orders;
    uint8_t red_orders;

    if (dec->status != FRAME_OK) {
        return dec->status;
    }
    if (dec->windows_left == 0u) {
        fail(dec, FRAME_ERR_TRAILING);
        return dec->status;
    }
    x_bytes = read_byte(dec);
    y = read_byte(dec);
    width_bytes = read_byte(dec);
    height = read_byte(dec);
    black_orders = read_byte(dec);
    red_orders = read_byte(dec);
    if (dec->status != FRAME_OK) {
        return dec->status;
    }
    /* Compared one at a time so no sum can wrap around a uint8_t. */
    if (width_bytes == 0u || height == 0u || x_bytes >= EPD_ROW_BYTES ||
        width_bytes > EPD_ROW_BYTES - x_bytes || y >= EPD_HEIGHT || height > EPD_HEIGHT - y ||
        (black_orders & 0x0Fu) > FRAME_MAX_ORDER || (black_orders >> 4) > FRAME_MAX_ORDER ||
        (red_orders & 0x0Fu) > FRAME_MAX_ORDER || (red_orders >> 4) > FRAME_MAX_ORDER) {
        fail(dec, FRAME_ERR_WINDOW);
        return dec->status;
    }
    dec->windows_left--;
    dec->orders[0] = black_orders;
    dec->orders[1] = red_orders;
    dec->width_bytes = width_bytes;
    dec->plane_bytes = (uint16_t)((uint16_t)width_bytes * height);
    start_plane(dec, 0u);
    window->x = (uint8_t)(x_bytes * 8u);
    window->y = y;
    window->w = (uint8_t)(width_bytes * 8u);
    window->h = height;
    return FRAME_OK;
}

uint8_t frame_next_byte(void *ctx) {
    frame_decoder_t *dec = (frame_decoder_t *)ctx;
    uint8_t errors = 0u;
    uint8_t bit;
    uint8_t pixels;
    uint16_t run;

    if (dec->bytes_left == 0u && dec->plane == 0u) {
        start_plane(dec, 1u);
    }
    if (dec->status != FRAME_OK || dec->bytes_left == 0u) {
        return 0xFFu;
    }
    for (bit = 0u; bit < 8u; bit++) {
        /* T is runs of zeros, each but a plane's last ended by a one. */
        if (dec->zeros_left == 0u && !dec->one_pending) {
            /* The order depends on the error to the left: short runs inside ink edges. */
            run = read_code(dec, dec->row_error != 0u ? (uint8_t)(dec->orders[dec->plane] >> 4)
                                                      : (uint8_t)(dec->orders[dec->plane] & 0x0Fu));
            if (dec->status != FRAME_OK) {
                return 0xFFu;
            }
            if (run > dec->bits_left) {
                fail(dec, FRAME_ERR_CODE);
                return 0xFFu;
            }
            dec->zeros_left = run;
            dec->one_pending = run < dec->bits_left;
        }
        dec->bits_left--;
        if (dec->zeros_left != 0u) {
            dec->zeros_left--;
        } else {
            dec->one_pending = false;
            /* A pixel's error is its transition XOR the error of the pixel to its left. */
            dec->row_error ^= 1u;
        }
        errors = (uint8_t)((uint8_t)(errors << 1) | dec->row_error);
    }
    pixels = (uint8_t)(dec->above[dec->column] ^ errors);
    dec->above[dec->column] = pixels;
    dec->bytes_left--;
    dec->column++;
    if (dec->column == dec->width_bytes) {
        dec->column = 0u;
        dec->row_error = 0u;
    }
    return pixels;
}

frame_status_t frame_end_window(frame_decoder_t *dec) {
    uint8_t unread_bits;

    if (dec->status != FRAME_OK) {
        return dec->status;
    }
    if (dec->plane != 1u || dec->bytes_left != 0u) {
        /* The caller stopped pulling early: the window's codes were not all read. */
        fail(dec, FRAME_ERR_TRUNCATED);
        return dec->status;
    }
    unread_bits = dec->in_mask == 0u ? 0u : (uint8_t)((uint8_t)(dec->in_mask << 1) - 1u);
    if ((dec->in_byte & unread_bits) != 0u) {
        fail(dec, FRAME_ERR_PADDING);
        return dec->status;
    }
    dec->in_mask = 0u;
    dec->plane = 2u;
    return FRAME_OK;
}

frame_status_t frame_close(frame_decoder_t *dec) {
    if (dec->status == FRAME_OK && (dec->windows_left != 0u || dec->input_left != 0u)) {
        fail(dec, dec->windows_left != 0u ? FRAME_ERR_TRUNCATED : FRAME_ERR_TRAILING);
    }
    return dec->status;
}

frame_status_t frame_check(frame_decoder_t *dec, frame_reader_t read, void *read_ctx,
                           uint16_t length) {
    frame_window_t window;
    uint16_t bytes;

    frame_open(dec, read, read_ctx, length);
    while (frame_windows_left(dec) != 0u) {
        if (frame_next_window(dec, &window) != FRAME_OK) {
            break;
        }
        for (bytes = (uint16_t)(dec->plane_bytes * 2u); bytes > 0u; bytes--) {
            (void)frame_next_byte(dec);
        }
        frame_end_window(dec);
    }
    return frame_close(dec);
}
