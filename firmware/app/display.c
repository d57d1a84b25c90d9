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
 * window from its DTM1 value to its DTM2 value, and its RAM is lost with its
 * supply between presses: a fast update writes, inside the window only, the
 * black of the frame on the glass (read back from the store, CRC-checked
 * again) to DTM1 and the new frame's black to DTM2. Should the old frame not
 * read back, the update is a full refresh of the new one. A fast update drives each pixel it
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
/* That frame (display_current() once its refresh ended well). */
static uint8_t shown_index;
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

/* One plane of the current window, decoded straight into the panel. */
static void send_plane(void) {
    uint16_t left;

    for (left = frame_plane_bytes(); left > 0u; left--) {
        epd_data(frame_next_byte());
    }
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

void display_wake(void) {
    (void)epd_power_up_start(); /* an error shows again in display_load()'s epd_power_up() */
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
 * The open frame's black inside the fast window, into the panel's DTM1 (plane
 * 0: the OLD picture) or DTM2 (1: the NEW one): each of its windows that meets
 * the fast window sends the bytes of their overlap, as a partial window of its
 * own; the rest of those windows is decoded and dropped (the rows above the
 * overlap are the prediction of the rows in it). The frame's last window is
 * left where the overlap ends (below it, and its red plane, nothing is needed),
 * so the frame is not closed: its CRC was checked when it was opened, its
 * format when its set was committed.
 */
static epd_status_t send_fast_black(uint8_t plane) {
    uint8_t x0;
    uint8_t x1;
    uint8_t y0;
    uint8_t y1;
    uint8_t row;
    uint8_t column;
    uint8_t byte;
    uint16_t left;
    bool meets;
    bool last;

    while (frame_windows_left() != 0u) {
        if (frame_next_window() != FRAME_OK) {
            break;
        }
        last = frame_windows_left() == 0u;
        /* The overlap (end-exclusive; a frame window ends at most at 104, 212). */
        x0 = frame_window.x > shown_x ? frame_window.x : shown_x;
        x1 = (uint8_t)(frame_window.x + frame_window.w);
        if (x1 > (uint8_t)(shown_x + shown_w)) {
            x1 = (uint8_t)(shown_x + shown_w);
        }
        y0 = frame_window.y > shown_y ? frame_window.y : shown_y;
        y1 = (uint8_t)(frame_window.y + frame_window.h);
        if (y1 > (uint8_t)(shown_y + shown_h)) {
            y1 = (uint8_t)(shown_y + shown_h);
        }
        meets = x0 < x1 && y0 < y1;
        if (!meets) {
            if (last) {
                break;
            }
            y1 = frame_window.y; /* nothing to send: decode it all */
        } else if (epd_window_plane(plane, x0, y0, (uint8_t)(x1 - x0), (uint8_t)(y1 - y0)) !=
                   EPD_OK) {
            return EPD_ERR_NOT_READY;
        }
        for (row = frame_window.y; row != (uint8_t)(frame_window.y + frame_window.h); row++) {
            if (last && row == y1) {
                break;
            }
            for (column = frame_window.x; column != (uint8_t)(frame_window.x + frame_window.w);
                 column = (uint8_t)(column + 8u)) {
                byte = frame_next_byte();
                if (row >= y0 && row < y1 && column >= x0 && column < x1) {
                    epd_data(byte);
                }
            }
        }
        if (meets) {
            epd_window_end();
        }
        if (last) {
            break;
        }
        for (left = frame_plane_bytes(); left > 0u; left--) {
            (void)frame_next_byte(); /* the red plane: none inside the fast window */
        }
        (void)frame_end_window();
    }
    return EPD_OK;
}

/*
 * Whether the frame just opened goes by a fast update (see FAST_UPDATES_MAX);
 * from here until its refresh ends, the panel's picture is not known.
 */
static void decide_fast(bool stored) {
    uint16_t generation = store_generation();
    uint8_t differs = (uint8_t)(frame_fast.x ^ shown_x);

    differs |= (uint8_t)(frame_fast.y ^ shown_y);
    differs |= (uint8_t)(frame_fast.w ^ shown_w);
    differs |= (uint8_t)(frame_fast.h ^ shown_h);
    shown_x = frame_fast.x;
    shown_y = frame_fast.y;
    shown_w = frame_fast.w;
    shown_h = frame_fast.h;
    if (generation != shown_generation) {
        differs = 1u;
    }
    shown_generation = generation;
    fast_next = false;
    loaded_left = 0u;
    if (stored && frame_fast.h != 0u) {
        loaded_left = (uint8_t)FAST_UPDATES_MAX;
        if (differs == 0u && fast_left != 0u) {
            fast_next = true;
            loaded_left = (uint8_t)(fast_left - 1u);
        }
    }
    fast_left = 0u;
}
#else
#define decide_fast(stored) ((void)(stored))
#endif

display_status_t display_load(uint8_t index) {
    frame_reader_t read = read_builtin;
    uint16_t length;
    epd_status_t panel;
    bool first = true;

    if (index >= display_frame_count()) {
        return fail(DISPLAY_ERR_NO_FRAME);
    }
    current = index;
    shown_since_init = true;
    /* The store's CRC check runs while a display_wake() power-up waits for BUSY. */
    if (store_frame_count() != 0u) {
        if (!store_frame_open(index)) {
            return fail(DISPLAY_ERR_BAD_FRAME);
        }
        read = store_read_byte;
        length = store_frame_left();
    } else {
#if BUILTIN_FRAME_COUNT == 1
        builtin_at = 0u; /* index is 0 */
        length = BUILTIN_FRAME_BYTES;
#else
        builtin_at = builtin_frame_offsets[index];
        length = (uint16_t)(builtin_frame_offsets[index + 1u] - builtin_at);
#endif
    }
    if (frame_open(read, length) != FRAME_OK) {
        return fail(DISPLAY_ERR_BAD_FRAME);
    }
    decide_fast(store_frame_count() != 0u);

    panel = epd_power_up();
#if EPD_FAST_UPDATES
    if (fast_next && panel == EPD_OK) {
        /* White in both planes inside the fast window, then the new frame's black into
         * DTM2 and the old frame's into DTM1 over it. */
        panel = epd_white_window(shown_x, shown_y, shown_w, shown_h);
        if (panel == EPD_OK) {
            panel = send_fast_black(1u);
        }
        if (panel != EPD_OK) {
            return fail(DISPLAY_ERR_PANEL);
        }
        if (store_frame_open(shown_index) &&
            frame_open(store_read_byte, store_frame_left()) == FRAME_OK) {
            if (send_fast_black(0u) != EPD_OK) {
                return fail(DISPLAY_ERR_PANEL);
            }
            return DISPLAY_OK;
        }
        /* The old frame did not read back as it was stored: a full refresh of the new. */
        fast_next = false;
        loaded_left = (uint8_t)FAST_UPDATES_MAX;
        if (!store_frame_open(index) ||
            frame_open(store_read_byte, store_frame_left()) != FRAME_OK) {
            return fail(DISPLAY_ERR_BAD_FRAME);
        }
    }
#endif
    if (panel == EPD_OK && frame_windows_left() == 0u) {
        /* A frame without windows: a white page. */
        panel = epd_white_window(0u, 0u, (uint8_t)EPD_WIDTH, (uint8_t)EPD_HEIGHT);
    }
    while (panel == EPD_OK && frame_windows_left() != 0u) {
        if (frame_next_window() != FRAME_OK) {
            break;
        }
        if (first) {
            panel = fill_around();
            first = false;
        }
        if (panel == EPD_OK) {
            panel =
                epd_window_begin(frame_window.x, frame_window.y, frame_window.w, frame_window.h);
        }
        if (panel == EPD_OK) {
            send_plane();
            epd_second_plane();
            send_plane();
            epd_window_end();
            (void)frame_end_window();
        }
    }
    if (panel != EPD_OK) {
        return fail(DISPLAY_ERR_PANEL);
    }
    if (frame_close() != FRAME_OK) {
        /* Not what was checked: leave the old picture, do not refresh. */
        return fail(DISPLAY_ERR_BAD_FRAME);
    }
    return DISPLAY_OK;
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
    shown_index = current;
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
