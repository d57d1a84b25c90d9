/*
 * store.h - the frame set kept in the upper part of program flash.
 * Read side only here; the write side belongs to the link (app/link.c).
 */
#ifndef EPDLE_STORE_H
#define EPDLE_STORE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    uint16_t word_addr; /* next flash word to unpack */
    uint16_t remaining; /* frame bytes left */
    uint8_t phase;      /* position inside the word packing */
    uint16_t carry;     /* unpacking state */
} store_cursor_t;

/* Find the current set and check it; call once after reset. */
void store_init(void);

/* Frames in the current (committed, CRC-checked) set; 0 if none. */
uint8_t store_frame_count(void);

/*
 * Open frame `index` of the current set for reading. Verifies the frame's
 * CRC first: false (and nothing to read) if it is absent or damaged.
 */
bool store_frame_open(uint8_t index, store_cursor_t *cursor);

/* Next byte of the opened frame; 0xFF past the end (never reads outside). */
uint8_t store_cursor_next(store_cursor_t *cursor);

#endif /* EPDLE_STORE_H */
