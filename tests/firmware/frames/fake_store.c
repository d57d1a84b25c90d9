/*
 * fake_store.c - the stored frame set as the display tests see it.
 */
#include "fake_store.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

fake_store_t fake_store;

void fake_store_reset(void) {
    memset(&fake_store, 0, sizeof fake_store);
}

void fake_store_add(const uint8_t *frame, uint16_t length) {
    assert_true(fake_store.count < FAKE_STORE_MAX_FRAMES);
    fake_store.frames[fake_store.count] = frame;
    fake_store.lengths[fake_store.count] = length;
    fake_store.count++;
}

void store_init(void) {}

uint8_t store_frame_count(void) {
    return fake_store.count;
}

/* The cursor's fields carry the frame index (carry) and the read position (word_addr). */
bool store_frame_open(uint8_t index, store_cursor_t *cursor) {
    memset(cursor, 0, sizeof *cursor);
    if (index >= fake_store.count || fake_store.crc_bad[index]) {
        return false;
    }
    cursor->carry = index;
    cursor->remaining = fake_store.lengths[index];
    return true;
}

uint8_t store_cursor_next(store_cursor_t *cursor) {
    uint8_t byte;

    if (cursor->remaining == 0u) {
        return 0xFFu;
    }
    cursor->remaining--;
    byte = fake_store.frames[cursor->carry][cursor->word_addr++];
    fake_store.reads++;
    return fake_store.reads == fake_store.flip_read ? (uint8_t)~byte : byte;
}
