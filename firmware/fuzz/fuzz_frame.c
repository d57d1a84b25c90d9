/*
 * fuzz_frame.c - libFuzzer target for the streaming frame decoder (frame.c).
 *
 * Any byte string: the dry run (frame_check) and the streaming decode must
 * agree, never read outside the input, and a frame they accept must supply
 * exactly the pixel bytes of its windows and consume every input byte.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "frame.h"

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t position;
} fuzz_reader_t;

/* The input being read (the decoder's reader takes no argument). */
static fuzz_reader_t *reader;

static uint8_t read_input(void) {
    if (reader->position >= reader->size) {
        abort(); /* the decoder read past the length it was given */
    }
    return reader->data[reader->position++];
}

static frame_status_t stream(const uint8_t *data, uint16_t size, size_t *consumed) {
    fuzz_reader_t input = {data, size, 0u};
    const frame_window_t window = {0u, 0u, 0u, 0u};
    uint32_t pixels;

    (void)window;
    reader = &input;
    frame_open(read_input, size);
    while (frame_windows_left() != 0u) {
        const frame_window_t *w = &frame_window;
        if (frame_next_window() != FRAME_OK) {
            break;
        }
        if (w->x % 8u != 0u || w->w % 8u != 0u || w->w == 0u || w->h == 0u ||
            w->x + w->w > EPD_WIDTH || w->y + w->h > EPD_HEIGHT) {
            abort(); /* a window the panel driver would refuse got through */
        }
        if (frame_plane_bytes() != (uint16_t)((w->w / 8u) * w->h)) {
            abort();
        }
        for (pixels = 2u * (w->w / 8u) * w->h; pixels > 0u; pixels--) {
            (void)frame_next_byte();
        }
        frame_end_window();
    }
    *consumed = input.position;
    return frame_close();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_reader_t input = {data, size, 0u};
    frame_status_t checked;
    frame_status_t streamed;
    size_t consumed;

    if (size > 0xFFFFu) {
        return 0;
    }
    reader = &input;
    checked = frame_check(read_input, (uint16_t)size);
    streamed = stream(data, (uint16_t)size, &consumed);
    if (checked != streamed) {
        abort();
    }
    if (checked == FRAME_OK && (consumed != size || input.position != size)) {
        abort();
    }
    return 0;
}
