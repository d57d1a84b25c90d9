/*
 * display.c - put frame N on the panel, streaming it from the stored set (or
 * the built-in frames) through the frame decoder into the panel driver.
 *
 * Every frame is decoded twice: a dry run first (frame_check) so a damaged or
 * malformed frame never reaches the panel, then for real straight into the
 * driver. Nothing of the frame is held in RAM in between.
 */
#include "display.h"

#include <stdbool.h>

#include "builtin_frames.h"
#include "epd.h"
#include "frame.h"
#include "store.h"

static uint8_t current;
static bool shown_since_init;
static frame_decoder_t decoder;
/* One reader per pass: the dry run consumes the first, the panel the second. */
static store_cursor_t check_cursor;
static store_cursor_t show_cursor;
static const uint8_t *check_builtin;
static const uint8_t *show_builtin;

static uint8_t read_stored(void *ctx) {
    return store_cursor_next((store_cursor_t *)ctx);
}

static uint8_t read_builtin(void *ctx) {
    const uint8_t **next = (const uint8_t **)ctx;
    uint8_t byte = **next;

    (*next)++;
    return byte;
}

/* Zero values to reset the scratch state with (each pass sets it up again anyway). */
static const frame_decoder_t idle_decoder;
static const store_cursor_t closed_cursor;

void display_init(void) {
    current = 0u;
    decoder = idle_decoder;
    check_cursor = closed_cursor;
    show_cursor = closed_cursor;
    shown_since_init = false;
    check_builtin = builtin_frame_bytes;
    show_builtin = builtin_frame_bytes;
}

uint8_t display_frame_count(void) {
    uint8_t stored = store_frame_count();

    return stored != 0u ? stored : (uint8_t)BUILTIN_FRAME_COUNT;
}

uint8_t display_current(void) {
    return current;
}

/* Two readers of frame `index` from its start; false if the store refuses it (CRC). */
static bool open_frame(uint8_t index, frame_reader_t *read, void **check_ctx, void **show_ctx,
                       uint16_t *length) {
    if (store_frame_count() != 0u) {
        if (!store_frame_open(index, &check_cursor)) {
            return false;
        }
        show_cursor = check_cursor;
        *read = read_stored;
        *check_ctx = &check_cursor;
        *show_ctx = &show_cursor;
        *length = check_cursor.remaining;
        return true;
    }
    check_builtin = &builtin_frame_bytes[builtin_frame_offsets[index]];
    show_builtin = check_builtin;
    *read = read_builtin;
    *check_ctx = (void *)&check_builtin;
    *show_ctx = (void *)&show_builtin;
    *length = (uint16_t)(builtin_frame_offsets[index + 1u] - builtin_frame_offsets[index]);
    return true;
}

display_status_t display_show(uint8_t index) {
    frame_reader_t read;
    frame_window_t window;
    void *check_ctx;
    void *show_ctx;
    uint16_t length;
    epd_status_t panel;
    display_status_t result = DISPLAY_OK;

    if (index >= display_frame_count()) {
        return DISPLAY_ERR_NO_FRAME;
    }
    current = index;
    shown_since_init = true;
    if (!open_frame(index, &read, &check_ctx, &show_ctx, &length) ||
        frame_check(&decoder, read, check_ctx, length) != FRAME_OK) {
        return DISPLAY_ERR_BAD_FRAME;
    }

    /* White page, then every window, streamed (inline: see frame.c on stack depth). */
    (void)frame_open(&decoder, read, show_ctx, length);
    panel = epd_power_up();
    if (panel == EPD_OK) {
        panel = epd_fill(0xFFu, 0xFFu);
    }
    while (panel == EPD_OK && frame_windows_left(&decoder) != 0u) {
        if (frame_next_window(&decoder, &window) != FRAME_OK) {
            break;
        }
        panel = epd_write_window(window.x, window.y, window.w, window.h, frame_next_byte, &decoder);
        (void)frame_end_window(&decoder);
    }
    if (panel != EPD_OK) {
        result = DISPLAY_ERR_PANEL;
    } else if (frame_close(&decoder) != FRAME_OK) {
        /* The data changed since the dry run: leave the old picture, do not refresh. */
        result = DISPLAY_ERR_BAD_FRAME;
    } else if (epd_refresh() != EPD_OK) {
        result = DISPLAY_ERR_PANEL;
    }
    if (epd_power_down() != EPD_OK && result == DISPLAY_OK) {
        result = DISPLAY_ERR_PANEL;
    }
    return result;
}

display_status_t display_show_next(void) {
    uint8_t next = shown_since_init ? (uint8_t)(current + 1u) : 0u;

    if (next >= display_frame_count()) {
        next = 0u;
    }
    return display_show(next);
}
