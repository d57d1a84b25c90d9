/*
 * display.h - put frame N on the panel: from the stored set if one is
 * committed, else from the built-in frames compiled from images/.
 */
#ifndef EPDLE_DISPLAY_H
#define EPDLE_DISPLAY_H

#include <stdint.h>

typedef enum {
    DISPLAY_OK = 0,
    DISPLAY_ERR_NO_FRAME,   /* index out of range / nothing to show */
    DISPLAY_ERR_BAD_FRAME,  /* CRC failed (panel untouched) or the frame did not decode (no refresh)
                             */
    DISPLAY_ERR_PANEL,      /* the driver reported an error (e.g. BUSY stuck) */
    DISPLAY_ERR_LOW_BATTERY /* not refreshed: the cell too weak (drivers/supply.h) */
} display_status_t;

/* Forget the current index (as after reset); call once from app_main(). */
void display_init(void);

/* Frames available now (stored set, or built-in when none is stored). */
uint8_t display_frame_count(void);

/*
 * Index of the frame display_show() was last asked for, shown or not (so a
 * damaged frame is stepped over by the next press); 0 after reset.
 */
uint8_t display_current(void);

/*
 * Open frame `index` (a stored frame's CRC is checked first), power the panel
 * (unless display_wake() has begun it), stream the frame (white around its
 * first window, then its windows), refresh, and power the panel down again
 * (always, on any error).
 * A frame that does not decode is not refreshed: the panel keeps its picture.
 */
display_status_t display_show(uint8_t index);

/*
 * Begin powering the panel up (its POWER_ON takes about 37 ms) ahead of a
 * display_load() that may follow: the main loop confirms a press meanwhile.
 * display_sleep() powers it down again when no load follows.
 * DISPLAY_ERR_LOW_BATTERY: the cell was refused (drivers/supply.h), the panel is
 * unpowered and no load should follow.
 */
display_status_t display_wake(void);
void display_sleep(void);

/*
 * display_show() in three steps, so the caller can work while the 15 s
 * refresh runs (the main loop waits out the button's release then):
 * display_load() does everything but the refresh and leaves the panel
 * powered with the frame in its RAM (DISPLAY_OK), or unpowered on any error;
 * display_refresh_start() takes what display_load() returned and sends the
 * refresh if it loaded (unpowered on any error); display_refresh_end() takes
 * what that returned, waits for the refresh to end, and always leaves the
 * panel unpowered.
 */
display_status_t display_load(uint8_t index);
/* display_load() of the frame after the current one, wrapping around; the first
 * call after display_init() loads frame 0. */
display_status_t display_load_next(void);
display_status_t display_refresh_start(display_status_t loaded);
display_status_t display_refresh_end(display_status_t started);

#endif /* EPDLE_DISPLAY_H */
