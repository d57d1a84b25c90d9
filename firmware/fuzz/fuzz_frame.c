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

static uint8_t read_input(void *ctx) {
    fuzz_reader_t *reader = (fuzz_reader_t *)ctx;

    if (reader->position >= reader->size) {
        abort(); /* the decoder read past the length it was given */
    }
    return reader->data[reader->position++];
}

static frame_status_t stream(const uint8_t *data, uint16_t size, size_t *consumed) {
    fuzz_reader_t reader = {data, size, 0u};
    frame_decoder_t dec;
    frame_window_t window;
    uint32_t pixels;

    frame_open(&dec, read_input, &reader, size);
    while (frame_windows_left(&dec) != 0u) {
        if (frame_next_window(&dec, &window) != FRAME_OK) {
            break;
        }
        if (window.x % 8u != 0u || window.w % 8u != 0u || window.w == 0u || window.h == 0u ||
            window.x + window.w > EPD_WIDTH || window.y + window.h > EPD_HEIGHT) {
            abort(); /* a window the panel driver would refuse got through */
        }
        for (pixels = 2u * (window.w / 8u) * window.h; pixels > 0u; pixels--) {
            (void)frame_next_byte(&dec);
        }
        frame_end_window(&dec);
    }
    *consumed = reader.position;
    return frame_close(&dec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_reader_t reader = {data, size, 0u};
    frame_decoder_t dec;
    frame_status_t checked;
    frame_status_t streamed;
    size_t consumed;

    if (size > 0xFFFFu) {
        return 0;
    }
    checked = frame_check(&dec, read_input, &reader, (uint16_t)size);
    streamed = stream(data, (uint16_t)size, &consumed);
    if (checked != streamed) {
        abort();
    }
    if (checked == FRAME_OK && (consumed != size || reader.position != size)) {
        abort();
    }
    return 0;
}
