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

uint16_t store_generation(void) {
    return fake_store.generation;
}

/* The open frame and the read position inside it. */
static uint8_t open_index;
static uint16_t position;
static uint16_t left;

bool store_frame_open(uint8_t index) {
    left = 0u;
    if (index >= fake_store.count || fake_store.crc_bad[index]) {
        return false;
    }
    open_index = index;
    position = 0u;
    left = fake_store.lengths[index];
    return true;
}

uint16_t store_frame_left(void) {
    return left;
}

uint8_t store_read_byte(void) {
    uint8_t byte;

    if (left == 0u) {
        return 0xFFu;
    }
    left--;
    byte = fake_store.frames[open_index][position++];
    fake_store.reads++;
    return fake_store.reads == fake_store.flip_read ? (uint8_t)~byte : byte;
}
