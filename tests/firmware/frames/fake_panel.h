/*
 * fake_panel.h - epd.h stand-in for the display tests: records every call,
 * keeps the two planes the controller would hold, and fails on request.
 */
#ifndef EPDLE_FAKE_PANEL_H
#define EPDLE_FAKE_PANEL_H

#include <stdbool.h>
#include <stdint.h>

#include "epd.h"

#define FAKE_PANEL_MAX_CALLS 64

typedef enum {
    PANEL_WAKE, /* epd_power_up_start */
    PANEL_POWER_UP,
    PANEL_FILL, /* epd_white_window, not empty */
    PANEL_WINDOW,
    PANEL_REFRESH,      /* epd_refresh_start */
    PANEL_FAST_REFRESH, /* epd_fast_refresh_start */
    PANEL_REFRESH_WAIT, /* epd_refresh_wait */
    PANEL_POWER_DOWN
} panel_call_t;

typedef struct {
    panel_call_t calls[FAKE_PANEL_MAX_CALLS];
    unsigned call_count;
    uint8_t windows[FAKE_PANEL_MAX_CALLS][4]; /* x, y, w, h of each PANEL_WINDOW, in order */
    unsigned window_count;
    uint8_t planes[2][EPD_PLANE_BYTES]; /* controller RAM: DTM1, DTM2 */
    bool powered;
    bool refreshed;         /* planes went to the glass */
    uint8_t fast_window[4]; /* x, y, w, h of the last epd_fast_refresh_start */
    /* Fail the first call of this kind with EPD_ERR_BUSY_TIMEOUT (-1 = never). */
    int fail_call;
} fake_panel_t;

extern fake_panel_t fake_panel;

void fake_panel_reset(void);

#endif /* EPDLE_FAKE_PANEL_H */
