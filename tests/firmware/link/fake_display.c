#include "fake_display.h"

#include <string.h>

#include "store.h"

fake_display_t fake_display;

/* The panel driver's hook, which link_init() sets (no panel here: never called). */
void (*epd_awake_hook)(void);

void fake_display_reset(void) {
    memset(&fake_display, 0, sizeof fake_display);
}

uint8_t display_frame_count(void) {
    return store_frame_count();
}

uint8_t display_current(void) {
    return fake_display.current;
}

display_status_t display_show(uint8_t index) {
    fake_display.shows++;
    if (index >= store_frame_count()) {
        return DISPLAY_ERR_NO_FRAME;
    }
    if (!store_frame_open(index)) {
        return DISPLAY_ERR_BAD_FRAME;
    }
    fake_display.last_length = 0;
    while (store_frame_left() != 0u && fake_display.last_length < FAKE_DISPLAY_MAX_BYTES) {
        fake_display.last_bytes[fake_display.last_length] = store_read_byte();
        fake_display.last_length++;
    }
    fake_display.current = index;
    return DISPLAY_OK;
}
