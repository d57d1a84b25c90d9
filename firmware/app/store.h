/*
 * store.h - the frame set kept in the upper part of program flash.
 * Read side only here; the write side belongs to the link (app/link.c).
 */
#ifndef EPDLE_STORE_H
#define EPDLE_STORE_H

#include <stdbool.h>
#include <stdint.h>

/* Find the current set and check it; call once after reset. */
void store_init(void);

/* Frames in the current (committed, CRC-checked) set; 0 if none. */
uint8_t store_frame_count(void);

/* The current set's generation: another value means another set (each commit outranks). */
uint16_t store_generation(void);

/*
 * Open frame `index` of the current set for reading. Verifies the frame's
 * CRC first: false (and nothing to read) if it is absent or damaged. There
 * is one read position: opening a frame closes the one open before.
 */
bool store_frame_open(uint8_t index);

/* Bytes of the open frame left to read (its length right after opening). */
uint16_t store_frame_left(void);

/* Next byte of the open frame (a frame_reader_t); 0xFF past the end (never reads outside). */
uint8_t store_read_byte(void);

#endif /* EPDLE_STORE_H */
