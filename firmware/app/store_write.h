/*
 * store_write.h - the write side of the frame store (used by app/link.c).
 *
 * begin -> bytes... -> commit. The bytes are the set stream: for each frame
 * its 4-byte header (length u16 LE, CRC-16 u16 LE) then its bytes. Nothing
 * the device shows changes until commit succeeds; an abandoned upload
 * (abort, new begin, reset) leaves the current set as it was.
 */
#ifndef EPDLE_STORE_WRITE_H
#define EPDLE_STORE_WRITE_H

#include <stdbool.h>
#include <stdint.h>

typedef enum {
    STORE_OK = 0,
    STORE_ERR_NOT_WRITING,     /* bytes/commit without begin */
    STORE_ERR_TOO_MANY_FRAMES, /* begin: count above STORE_MAX_FRAMES */
    STORE_ERR_TOO_BIG,         /* begin: no free run of rows that large */
    STORE_ERR_BAD_STREAM,      /* frame headers disagree with begin */
    STORE_ERR_INCOMPLETE,      /* commit before every frame arrived */
    STORE_ERR_FRAME_CRC,       /* commit: a frame read back with a bad CRC */
    STORE_ERR_FLASH,           /* a row did not read back as written */
    STORE_ERR_FRAME_FORMAT,    /* commit: a frame does not decode (frame.h) */
    STORE_STATUS_COUNT
} store_status_t;

/* Flash words a new set may use right now (largest free run of rows). */
uint16_t store_free_words(void);

/* Flash words a frame of `length` bytes takes, header included. */
uint16_t store_frame_words(uint16_t length);

/* Start a set of `count` frames taking exactly `flash_words` words. */
store_status_t store_write_begin(uint8_t count, uint16_t flash_words);

/* Append one stream byte (writes a flash row when it fills). After an error
 * the upload is abandoned. */
store_status_t store_write_byte(uint8_t byte);

/* Stream bytes accepted since begin. */
uint16_t store_write_offset(void);

bool store_write_active(void);

/*
 * Flush, read every frame back and check its CRC and its format, then write
 * the record that makes the set current. store_failed_frame() names the
 * frame on STORE_ERR_FRAME_CRC and STORE_ERR_FRAME_FORMAT.
 */
store_status_t store_write_commit(void);
uint8_t store_failed_frame(void);

/* Forget the upload in progress (the current set is untouched). */
void store_write_abort(void);

/* Make an empty set current (the device falls back to built-in frames). */
store_status_t store_clear(void);

#endif /* EPDLE_STORE_WRITE_H */
