/*
 * fake_display.h - display.h stand-in for the link tests: "shows" frames by
 * reading them through store.h and remembering what it read.
 */
#ifndef EPDLE_FAKE_DISPLAY_H
#define EPDLE_FAKE_DISPLAY_H

#include <stdint.h>

#include "display.h"

#define FAKE_DISPLAY_MAX_BYTES 8192u

typedef struct {
    uint8_t current;
    uint16_t shows;
    uint8_t last_bytes[FAKE_DISPLAY_MAX_BYTES];
    uint16_t last_length;
} fake_display_t;

extern fake_display_t fake_display;

void fake_display_reset(void);

#endif /* EPDLE_FAKE_DISPLAY_H */
