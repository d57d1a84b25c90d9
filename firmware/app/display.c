/*
 * display.c - put frame N on the panel, streaming it from the stored set (or
 * the built-in frames) through the frame decoder into the panel driver.
 *
 * One decode pass: a stored frame's format was checked when its set was
 * committed and its CRC is checked when it is opened, and the built-in
 * frames are checked by the host tests, so a show never meets a frame that
 * does not decode. Should one fail all the same, the panel is not refreshed
 * and keeps its picture. Nothing of the frame is held in RAM.
 */
#include "display.h"

#include <stdbool.h>

#include "builtin_frames.h"
#include "epd.h"
#include "frame.h"
#include "store.h"

/*
 * Fast updates. A stored frame with a fast window (docs/frame-format.md,
 * version 2) goes by a fast black/white update of that window
 * (epd_fast_refresh_start) when the panel is known to show a frame of the same
 * set (every frame of a set carries the same window: the host makes it so) and
 * fewer than FAST_UPDATES_MAX fast updates ran since the last full refresh;
 * anything else is a full refresh: the first frame after a reset or a power cut
 * (the panel's picture is not known), after a new set, after any error, and
 * every FAST_UPDATES_MAX + 1-th press. The controller drives each pixel of the
 * window from its DTM1 value (OLD) to its DTM2 value (NEW), and its RAM is lost
 * with its supply between presses: a fast update first loads the frame on the
 * glass again (read back from the store, its CRC checked), then the new frame's
 * black into DTM2 (display_load). A fast update drives each pixel it
 * changes once; the simulated panel counts those since the last full refresh
 * (its ghost count), so this bounds it at FAST_UPDATES_MAX, far below the "up
 * to 100" GxEPD2 allows this waveform on this panel: enough to cycle a set of
 * 8 suggestions with one full refresh, and a full one at least once a cycle to
 * clear the ghosts and the reddish tint GxEPD2 reports. The host can refuse
 * fast updates altogether by sending frames without a fast window (`epdle push
 * --full-refresh`).
 */
#define FAST_UPDATES_MAX 7u

static uint8_t current;
static bool shown_since_init;
#if EPD_FAST_UPDATES
/* Fast updates allowed now, 0 when the next refresh must be full (the panel shows a
 * frame of set shown_generation with fast window shown_fast, or its picture is not
 * known, or that frame has no fast window). */
static uint8_t fast_left;
/* The same once the frame being loaded is shown; and whether it goes fast. */
static uint8_t loaded_left;
static bool fast_next;
static uint16_t shown_generation;
/* The fast window of that frame (frame_fast's x, y, w, h). */
static uint8_t shown_x;
static uint8_t shown_y;
static uint8_t shown_w;
static uint8_t shown_h;
#define FAST_FORGET() (fast_left = 0u, fast_next = false)
#else
#define FAST_FORGET() ((void)0)
#endif
static uint16_t builtin_at; /* next byte of the built-in frame being shown */

static uint8_t read_builtin(void) {
    uint8_t byte = builtin_frame_bytes[builtin_at];

    builtin_at++;
    return byte;
}

void display_init(void) {
    current = 0u;
    shown_since_init = false;
    FAST_FORGET();
    builtin_at = 0u;
}

uint8_t display_frame_count(void) {
    uint8_t stored = store_frame_count();

    return stored != 0u ? stored : (uint8_t)BUILTIN_FRAME_COUNT;
}

uint8_t display_current(void) {
    return current;
}

/*
 * White around the frame's first window (frame_window), in four bands (above,
 * below, left, right; an empty one costs nothing): the controller's RAM holds
 * noise after its deep sleep, and the window itself is written next. A
 * frame's later windows are drawn over this page as before.
 */
static epd_status_t fill_around(void) {
    uint8_t x = frame_window.x;
    uint8_t y = frame_window.y;
    uint8_t h = frame_window.h;
    uint8_t below = (uint8_t)(y + h);
    uint8_t right = (uint8_t)(x + frame_window.w);
    epd_status_t panel = epd_white_window(0u, 0u, (uint8_t)EPD_WIDTH, y);

    if (panel == EPD_OK) {
        panel = epd_white_window(0u, below, (uint8_t)EPD_WIDTH, (uint8_t)(EPD_HEIGHT - below));
    }
    if (panel == EPD_OK) {
        panel = epd_white_window(0u, y, x, h);
    }
    if (panel == EPD_OK) {
        panel = epd_white_window(right, y, (uint8_t)(EPD_WIDTH - right), h);
    }
    return panel;
}

/* What send_windows() writes: a whole frame (white around its first window, black to
 * DTM1, red to DTM2), or for a fast update one frame's black alone, to DTM1 (the frame
 * on the glass) or DTM2 (the new one): the plane's command (epd_window_plane). */
#define WHOLE 0u
#define OLD_BLACK EPD_DTM1
#define NEW_BLACK EPD_DTM2

/*
 * The open frame's windows, each as a partial window, decoded straight into the panel.
 * For OLD_BLACK and NEW_BLACK only black from the fast window's first column on: the
 * columns left of it and the red plane (none lies in the fast window) are skipped
 * (frame_skip), and what lies right of it goes to RAM the fast refresh does not drive.
 */
static epd_status_t send_windows(uint8_t what) {
    epd_status_t panel = EPD_OK;
    bool whole = what == WHOLE;
    bool first = whole;
    uint16_t left;
    uint8_t plane;
    uint8_t row_bytes;
    uint8_t skip;
    uint8_t row;
    uint8_t column;

    while (panel == EPD_OK && frame_windows_left() != 0u) {
        if (frame_next_window() != FRAME_OK) {
            break;
        }
        if (first) {
            panel = fill_around();
            first = false;
        }
        plane = EPD_DTM1;
        row_bytes = (uint8_t)(frame_window.w >> 3);
        skip = 0u;
#if EPD_FAST_UPDATES
        if (!whole) {
            plane = what;
            if (shown_x > frame_window.x) {
                skip = (uint8_t)((uint8_t)(shown_x - frame_window.x) >> 3);
            }
            if (skip >= row_bytes) {
                skip = 0u; /* the window lies left of the fast window: sent whole */
            }
        }
#endif
        if (panel == EPD_OK) {
            panel = epd_window_plane(plane, (uint8_t)(frame_window.x + (uint8_t)(skip << 3)),
                                     frame_window.y, (uint8_t)((uint8_t)(row_bytes - skip) << 3),
                                     frame_window.h);
        }
        if (panel == EPD_OK) {
            for (row = frame_window.h; row > 0u; row--) {
                if (skip != 0u) {
                    frame_skip(skip);
                }
                for (column = skip; column < row_bytes; column++) {
                    epd_data(frame_next_byte());
                }
            }
            if (whole) {
                epd_second_plane();
                for (left = frame_plane_bytes(); left > 0u; left--) {
                    epd_data(frame_next_byte());
                }
            } else {
                for (row = frame_window.h; row > 0u; row--) {
                    frame_skip(row_bytes);
                }
            }
            epd_window_end();
            (void)frame_end_window();
        }
    }
    return panel;
}

display_status_t display_wake(void) {
    /* A cell too weak is said here (no frame is loaded for it); any other error shows
     * again in display_load()'s epd_power_up(). */
    if (epd_power_up_start() == EPD_ERR_LOW_SUPPLY) {
        return DISPLAY_ERR_LOW_BATTERY;
    }
    return DISPLAY_OK;
}

void display_sleep(void) {
    (void)epd_power_down();
}

/* The panel powered down, whatever state it was left in; then the error. */
static display_status_t fail(display_status_t status) {
    FAST_FORGET();
    (void)epd_power_down();
    return status;
}

#if EPD_FAST_UPDATES
/*
 * Whether the frame just opened goes by a fast update (see FAST_UPDATES_MAX);
 * from here until its refresh ends, the panel's picture is not known.
 */
static void decide_fast(uint8_t stored) {
    uint16_t generation = store_generation();
    bool same = generation == shown_generation && frame_fast.x == shown_x &&
                frame_fast.y == shown_y && frame_fast.w == shown_w && frame_fast.h == shown_h;

    shown_x = frame_fast.x;
    shown_y = frame_fast.y;
    shown_w = frame_fast.w;
    shown_h = frame_fast.h;
    shown_generation = generation;
    fast_next = false;
    loaded_left = 0u;
    if (stored != 0u && frame_fast.h != 0u) {
        loaded_left = (uint8_t)FAST_UPDATES_MAX;
        if (same && fast_left != 0u) {
            fast_next = true;
            loaded_left = (uint8_t)(fast_left - 1u);
        }
    }
    fast_left = 0u;
}
#else
#define decide_fast(stored) ((void)(stored))
#endif

/* Frame `index` opened for the decoder: stored (its CRC checked first) or built in. */
static frame_status_t open_frame(uint8_t index) {
    if (store_frame_count() != 0u) {
        if (!store_frame_open(index)) {
            return FRAME_ERR_TRUNCATED; /* absent or damaged */
        }
        return frame_open(store_read_byte, store_frame_left());
    }
#if BUILTIN_FRAME_COUNT == 1
    builtin_at = 0u; /* index is 0 */
    return frame_open(read_builtin, BUILTIN_FRAME_BYTES);
#else
    builtin_at = builtin_frame_offsets[index];
    return frame_open(read_builtin, (uint16_t)(builtin_frame_offsets[index + 1u] - builtin_at));
#endif
}

display_status_t display_load(uint8_t index) {
#if EPD_FAST_UPDATES
    /* The frame on the glass, while fast_left says so (an error or a reset clears it). */
    uint8_t shown = current;
#endif
    epd_status_t panel;
    uint8_t what = WHOLE;

    if (index >= display_frame_count()) {
        return fail(DISPLAY_ERR_NO_FRAME);
    }
    current = index;
    shown_since_init = true;
    /* The store's CRC check runs while a display_wake() power-up waits for BUSY. */
    if (open_frame(index) != FRAME_OK) {
        return fail(DISPLAY_ERR_BAD_FRAME);
    }
    decide_fast(store_frame_count());

    panel = epd_power_up();
#if EPD_FAST_UPDATES
    /*
     * A fast update drives only its window, from DTM1 to DTM2: the window white in both
     * planes (what no frame window covers is white, and no red lies there), then the new
     * frame's black over DTM2 (it is open: its CRC was checked during POWER_ON), then
     * the frame on the glass, read back from the store, its black over DTM1 (the old
     * picture; the controller keeps the two planes apart, so the order is free). One
     * that does not read back as it was stored is an error (the next update is full).
     */
    if (fast_next) {
        what = NEW_BLACK;
        if (panel == EPD_OK) {
            panel = epd_white_window(shown_x, shown_y, shown_w, shown_h);
        }
    }
#endif
    for (;;) {
        if (panel == EPD_OK && what == WHOLE && frame_windows_left() == 0u) {
            /* A frame without windows: a white page. */
            panel = epd_white_window(0u, 0u, (uint8_t)EPD_WIDTH, (uint8_t)EPD_HEIGHT);
        }
        if (panel == EPD_OK) {
            panel = send_windows(what);
        }
        if (panel != EPD_OK) {
            return fail(panel == EPD_ERR_LOW_SUPPLY ? DISPLAY_ERR_LOW_BATTERY : DISPLAY_ERR_PANEL);
        }
        if (frame_close() != FRAME_OK) {
            /* Not what was checked: leave the old picture, do not refresh. */
            return fail(DISPLAY_ERR_BAD_FRAME);
        }
#if EPD_FAST_UPDATES
        if (what == NEW_BLACK) {
            what = OLD_BLACK;
            if (open_frame(shown) == FRAME_OK) {
                continue;
            }
            return fail(DISPLAY_ERR_BAD_FRAME);
        }
#endif
        return DISPLAY_OK;
    }
}

display_status_t display_refresh_start(display_status_t loaded) {
    if (loaded != DISPLAY_OK) {
        return loaded; /* the load already left the panel unpowered */
    }
#if EPD_FAST_UPDATES
    if ((fast_next ? epd_fast_refresh_start(shown_x, shown_y, shown_w, shown_h)
                   : epd_refresh_start()) != EPD_OK) {
#else
    if (epd_refresh_start() != EPD_OK) {
#endif
        return fail(DISPLAY_ERR_PANEL);
    }
    return DISPLAY_OK;
}

display_status_t display_refresh_end(display_status_t started) {
    display_status_t result = started;

    if (started != DISPLAY_OK) {
        return started; /* the panel is already unpowered */
    }
    if (epd_refresh_wait() != EPD_OK) {
        result = DISPLAY_ERR_PANEL;
    }
    if (epd_power_down() != EPD_OK && result == DISPLAY_OK) {
        result = DISPLAY_ERR_PANEL;
    }
#if EPD_FAST_UPDATES
    fast_left = result == DISPLAY_OK ? loaded_left : 0u;
    fast_next = false;
#endif
    return result;
}

display_status_t display_show(uint8_t index) {
    return display_refresh_end(display_refresh_start(display_load(index)));
}

display_status_t display_load_next(void) {
    uint8_t next = shown_since_init ? (uint8_t)(current + 1u) : 0u;

    if (next >= display_frame_count()) {
        next = 0u;
    }
    return display_load(next);
}
