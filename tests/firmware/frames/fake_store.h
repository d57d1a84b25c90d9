/*
 * fake_store.h - store.h stand-in for the display tests: frames held in RAM,
 * a CRC verdict per frame, and a byte that can go bad between two reads.
 */
#ifndef EPDLE_FAKE_STORE_H
#define EPDLE_FAKE_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "store.h"

#define FAKE_STORE_MAX_FRAMES 8

typedef struct {
    uint8_t count;
    const uint8_t *frames[FAKE_STORE_MAX_FRAMES];
    uint16_t lengths[FAKE_STORE_MAX_FRAMES];
    bool crc_bad[FAKE_STORE_MAX_FRAMES];
    unsigned reads;      /* bytes handed out so far */
    unsigned flip_read;  /* the read with this number comes back inverted (0 = none) */
    uint16_t generation; /* of the set: another set, another value */
} fake_store_t;

extern fake_store_t fake_store;

void fake_store_reset(void);
void fake_store_add(const uint8_t *frame, uint16_t length);

#endif /* EPDLE_FAKE_STORE_H */
