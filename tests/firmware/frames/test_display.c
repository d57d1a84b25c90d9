/*
 * test_display.c - display.c on fakes of the panel driver and the store:
 * exact windows and planes, the call order, and every error path (the panel
 * untouched for a bad frame, always powered down once it was powered up).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "builtin_frames.h"
#include "display.h"
#include "fake_panel.h"
#include "fake_store.h"
#include "vector_files.h"

typedef struct {
    uint8_t *frame;
    size_t frame_size;
    uint8_t *planes; /* NULL for invalid vectors */
} vector_t;

static vector_t load(const char *name, int valid) {
    vector_t vector;
    size_t planes_size = 0;

    vector.frame = vector_read(name, "frame", &vector.frame_size);
    vector.planes = valid ? vector_read(name, "planes", &planes_size) : NULL;
    return vector;
}

static void unload(vector_t *vector) {
    free(vector->frame);
    free(vector->planes);
}

static int setup(void **state) {
    (void)state;
    fake_panel_reset();
    fake_store_reset();
    display_init();
    return 0;
}

static void assert_calls_begin(const panel_call_t *expected, unsigned count) {
    unsigned i;

    assert_true(fake_panel.call_count >= count);
    for (i = 0; i < count; i++) {
        assert_int_equal(fake_panel.calls[i], expected[i]);
    }
}

static void assert_calls(const panel_call_t *expected, unsigned count) {
    assert_int_equal(fake_panel.call_count, count);
    assert_calls_begin(expected, count);
}

static const panel_call_t power_down_only[] = {PANEL_POWER_DOWN};

static void assert_panel_shows(const uint8_t *planes) {
    assert_true(fake_panel.refreshed);
    assert_memory_equal(fake_panel.planes[0], planes, EPD_PLANE_BYTES);
    assert_memory_equal(fake_panel.planes[1], planes + EPD_PLANE_BYTES, EPD_PLANE_BYTES);
}

static void test_stored_frame_streams_its_window(void **state) {
    vector_t tiny = load("tiny", 1);
    /* White above, below, left and right of the window, then the window. */
    const panel_call_t expected[] = {PANEL_POWER_UP, PANEL_FILL,         PANEL_FILL,
                                     PANEL_FILL,     PANEL_FILL,         PANEL_WINDOW,
                                     PANEL_REFRESH,  PANEL_REFRESH_WAIT, PANEL_POWER_DOWN};

    (void)state;
    fake_store_add(tiny.frame, (uint16_t)tiny.frame_size);
    assert_int_equal(display_frame_count(), 1);
    assert_int_equal(display_show(0), DISPLAY_OK);
    assert_calls(expected, 9);
    assert_int_equal(fake_panel.windows[0][0], 16);
    assert_int_equal(fake_panel.windows[0][1], 10);
    assert_int_equal(fake_panel.windows[0][2], 8);
    assert_int_equal(fake_panel.windows[0][3], 4);
    assert_panel_shows(tiny.planes);
    assert_false(fake_panel.powered);
    /* One pass over the frame: its format was checked when its set was committed. */
    assert_int_equal(fake_store.reads, tiny.frame_size);
    unload(&tiny);
}

static void test_stored_frames_show_their_vector_planes(void **state) {
    const char *names[] = {"blank", "text", "checkerboard", "sixteen_windows", "full_and_corners"};
    vector_t vectors[5];
    unsigned i;

    (void)state;
    for (i = 0; i < 5u; i++) {
        vectors[i] = load(names[i], 1);
        fake_store_add(vectors[i].frame, (uint16_t)vectors[i].frame_size);
    }
    for (i = 0; i < 5u; i++) {
        fake_panel_reset();
        assert_int_equal(display_show((uint8_t)i), DISPLAY_OK);
        assert_int_equal(display_current(), i);
        assert_panel_shows(vectors[i].planes);
        assert_false(fake_panel.powered);
    }
    assert_int_equal(fake_panel.window_count, 3); /* full_and_corners */
    for (i = 0; i < 5u; i++) {
        unload(&vectors[i]);
    }
}

static void test_builtin_frames_show_when_nothing_is_stored(void **state) {
    const panel_call_t first[] = {PANEL_POWER_UP};
    uint8_t i;

    (void)state;
    assert_int_equal(display_frame_count(), BUILTIN_FRAME_COUNT);
    for (i = 0; i < BUILTIN_FRAME_COUNT; i++) {
        fake_panel_reset();
        assert_int_equal(display_show(i), DISPLAY_OK);
        assert_calls_begin(first, 1);
        assert_true(fake_panel.window_count >= 1u);
        assert_int_equal(fake_panel.calls[fake_panel.call_count - 3u], PANEL_REFRESH);
        assert_int_equal(fake_panel.calls[fake_panel.call_count - 2u], PANEL_REFRESH_WAIT);
        assert_int_equal(fake_panel.calls[fake_panel.call_count - 1u], PANEL_POWER_DOWN);
        /* Built-in frames carry ink in both planes somewhere. */
        assert_true(memchr(fake_panel.planes[0], 0x00, EPD_PLANE_BYTES) != NULL);
    }
    assert_int_equal(display_show(BUILTIN_FRAME_COUNT), DISPLAY_ERR_NO_FRAME);
}

static void test_crc_failure_leaves_the_panel_untouched(void **state) {
    vector_t tiny = load("tiny", 1);

    (void)state;
    fake_store_add(tiny.frame, (uint16_t)tiny.frame_size);
    fake_store.crc_bad[0] = true;
    assert_int_equal(display_show(0), DISPLAY_ERR_BAD_FRAME);
    assert_calls(power_down_only, 1);
    assert_false(fake_panel.powered);
    unload(&tiny);
}

/*
 * A stored frame's format is checked when its set is committed, so a show
 * decodes once. Should a frame not decode all the same, it is refused: a bad
 * header before the panel is powered, anything later before the refresh.
 */
static void test_malformed_frames_are_never_refreshed(void **state) {
    const char *names[] = {
        "empty",          "bad_version",    "seventeen_windows", "window_off_right",
        "window_x_wraps", "order_too_big",  "codes_cut",         "trailing_byte",
        "padding_set",    "run_past_plane", "code_too_long"};
    unsigned i;

    (void)state;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        vector_t bad = load(names[i], 0);

        fake_store_reset();
        fake_store_add(bad.frame, (uint16_t)bad.frame_size);
        print_message("%s\n", names[i]);
        fake_panel_reset();
        assert_int_equal(display_show(0), DISPLAY_ERR_BAD_FRAME);
        assert_false(fake_panel.refreshed);
        assert_false(fake_panel.powered);
        if (i < 3u) { /* the header's own errors: the panel is not even powered */
            assert_calls(power_down_only, 1);
        } else {
            assert_int_equal(fake_panel.calls[fake_panel.call_count - 1u], PANEL_POWER_DOWN);
        }
        unload(&bad);
    }
}

static void test_out_of_range_index_is_no_frame(void **state) {
    vector_t tiny = load("tiny", 1);

    (void)state;
    fake_store_add(tiny.frame, (uint16_t)tiny.frame_size);
    assert_int_equal(display_show(1), DISPLAY_ERR_NO_FRAME);
    assert_calls(power_down_only, 1);
    fake_panel_reset();
    assert_int_equal(display_show(255), DISPLAY_ERR_NO_FRAME);
    assert_calls(power_down_only, 1);
    assert_int_equal(display_current(), 0);
    unload(&tiny);
}

/* The text vector is one window with white on all four sides. */
static void run_with_failing(panel_call_t failing, const panel_call_t *expected, unsigned count) {
    vector_t text = load("text", 1);

    fake_store_reset();
    fake_panel_reset();
    fake_store_add(text.frame, (uint16_t)text.frame_size);
    fake_panel.fail_call = (int)failing;
    assert_int_equal(display_show(0), DISPLAY_ERR_PANEL);
    assert_calls(expected, count);
    assert_false(fake_panel.powered);
    unload(&text);
}

static void test_driver_errors_power_the_panel_down(void **state) {
    const panel_call_t up[] = {PANEL_POWER_UP, PANEL_POWER_DOWN};
    const panel_call_t fill[] = {PANEL_POWER_UP, PANEL_FILL, PANEL_POWER_DOWN};
    const panel_call_t window[] = {PANEL_POWER_UP, PANEL_FILL,   PANEL_FILL,      PANEL_FILL,
                                   PANEL_FILL,     PANEL_WINDOW, PANEL_POWER_DOWN};
    const panel_call_t refresh[] = {PANEL_POWER_UP, PANEL_FILL,   PANEL_FILL,    PANEL_FILL,
                                    PANEL_FILL,     PANEL_WINDOW, PANEL_REFRESH, PANEL_POWER_DOWN};
    const panel_call_t wait[] = {PANEL_POWER_UP, PANEL_FILL,         PANEL_FILL,
                                 PANEL_FILL,     PANEL_FILL,         PANEL_WINDOW,
                                 PANEL_REFRESH,  PANEL_REFRESH_WAIT, PANEL_POWER_DOWN};

    (void)state;
    run_with_failing(PANEL_POWER_UP, up, 2);
    run_with_failing(PANEL_FILL, fill, 3);
    run_with_failing(PANEL_WINDOW, window, 7);
    run_with_failing(PANEL_REFRESH, refresh, 8);
    run_with_failing(PANEL_REFRESH_WAIT, wait, 9);
    run_with_failing(PANEL_POWER_DOWN, wait, 9);
}

static void test_frame_going_bad_while_shown_is_not_refreshed(void **state) {
    vector_t text = load("text", 1);
    const panel_call_t expected[] = {PANEL_POWER_UP, PANEL_FILL,   PANEL_FILL,      PANEL_FILL,
                                     PANEL_FILL,     PANEL_WINDOW, PANEL_POWER_DOWN};

    (void)state;
    fake_store_add(text.frame, (uint16_t)text.frame_size);
    /* Its last byte reads back wrong: the codes no longer end cleanly. */
    fake_store.flip_read = (unsigned)text.frame_size;
    assert_int_equal(display_show(0), DISPLAY_ERR_BAD_FRAME);
    assert_calls(expected, 7);
    assert_false(fake_panel.refreshed);
    assert_false(fake_panel.powered);
    unload(&text);
}

/* A frame that fills the panel needs no white page; one without windows is all white page. */
static void test_white_page_only_around_the_first_window(void **state) {
    vector_t full = load("checkerboard", 1);
    vector_t blank = load("blank", 1);
    const panel_call_t full_calls[] = {PANEL_POWER_UP, PANEL_WINDOW, PANEL_REFRESH,
                                       PANEL_REFRESH_WAIT, PANEL_POWER_DOWN};
    const panel_call_t blank_calls[] = {PANEL_POWER_UP, PANEL_FILL, PANEL_REFRESH,
                                        PANEL_REFRESH_WAIT, PANEL_POWER_DOWN};

    (void)state;
    fake_store_add(full.frame, (uint16_t)full.frame_size);
    fake_store_add(blank.frame, (uint16_t)blank.frame_size);
    assert_int_equal(display_show(0), DISPLAY_OK);
    assert_calls(full_calls, 5);
    assert_panel_shows(full.planes);
    fake_panel_reset();
    assert_int_equal(display_show(1), DISPLAY_OK);
    assert_calls(blank_calls, 5);
    assert_panel_shows(blank.planes);
    unload(&full);
    unload(&blank);
}

/* The main loop wakes the panel before it knows a press is real. */
static void test_a_woken_panel_is_loaded_or_put_back_to_sleep(void **state) {
    vector_t tiny = load("tiny", 1);
    const panel_call_t slept[] = {PANEL_WAKE, PANEL_POWER_DOWN};
    const panel_call_t loaded[] = {PANEL_WAKE, PANEL_POWER_UP, PANEL_FILL,  PANEL_FILL,
                                   PANEL_FILL, PANEL_FILL,     PANEL_WINDOW};

    (void)state;
    fake_store_add(tiny.frame, (uint16_t)tiny.frame_size);
    display_wake();
    display_sleep();
    assert_calls(slept, 2);
    assert_false(fake_panel.powered);
    fake_panel_reset();
    display_wake();
    assert_int_equal(display_load_next(), DISPLAY_OK);
    assert_calls(loaded, 7);
    assert_true(fake_panel.powered);
    unload(&tiny);
}

/* The main loop's show: load the next frame, refresh, wait for the refresh. */
static display_status_t show_next(void) {
    return display_refresh_end(display_refresh_start(display_load_next()));
}

static void test_show_next_starts_at_zero_and_wraps(void **state) {
    vector_t tiny = load("tiny", 1);
    uint8_t expected[] = {0, 1, 2, 0, 1};
    unsigned i;

    (void)state;
    for (i = 0; i < 3u; i++) {
        fake_store_add(tiny.frame, (uint16_t)tiny.frame_size);
    }
    for (i = 0; i < sizeof expected; i++) {
        assert_int_equal(show_next(), DISPLAY_OK);
        assert_int_equal(display_current(), expected[i]);
    }
    display_init();
    assert_int_equal(display_current(), 0);
    assert_int_equal(show_next(), DISPLAY_OK);
    assert_int_equal(display_current(), 0);
    unload(&tiny);
}

static void test_show_next_steps_over_a_damaged_frame(void **state) {
    vector_t tiny = load("tiny", 1);

    (void)state;
    fake_store_add(tiny.frame, (uint16_t)tiny.frame_size);
    fake_store_add(tiny.frame, (uint16_t)tiny.frame_size);
    fake_store_add(tiny.frame, (uint16_t)tiny.frame_size);
    fake_store.crc_bad[1] = true;
    assert_int_equal(show_next(), DISPLAY_OK);
    assert_int_equal(show_next(), DISPLAY_ERR_BAD_FRAME);
    assert_int_equal(display_current(), 1);
    assert_int_equal(show_next(), DISPLAY_OK);
    assert_int_equal(display_current(), 2);
    /* A smaller set committed meanwhile: the index wraps inside it. */
    fake_store.count = 2;
    assert_int_equal(show_next(), DISPLAY_OK);
    assert_int_equal(display_current(), 0);
    unload(&tiny);
}

/* show_next() with the panel's call log started afresh (it holds 64 calls). */
static display_status_t show_next_logged(void) {
    fake_panel.call_count = 0u;
    return show_next();
}

/* Which refresh the last show ran: PANEL_REFRESH or PANEL_FAST_REFRESH. */
static panel_call_t last_refresh(void) {
    unsigned i;

    for (i = fake_panel.call_count; i > 0u; i--) {
        if (fake_panel.calls[i - 1u] == PANEL_REFRESH ||
            fake_panel.calls[i - 1u] == PANEL_FAST_REFRESH) {
            return fake_panel.calls[i - 1u];
        }
    }
    fail_msg("no refresh");
    return PANEL_REFRESH;
}

/*
 * A set whose frames carry a fast window: the first show is a full refresh, the
 * next seven fast updates of that window, then a full one again.
 */
static void test_runner_ups_go_fast_until_a_full_refresh_is_due(void **state) {
    vector_t fast = load("fast_window", 1);
    unsigned press;

    (void)state;
    fake_store_add(fast.frame, (uint16_t)fast.frame_size);
    fake_store_add(fast.frame, (uint16_t)fast.frame_size);
    for (press = 0; press < 17u; press++) {
        assert_int_equal(show_next_logged(), DISPLAY_OK);
        assert_int_equal(last_refresh(), press % 8u == 0u ? PANEL_REFRESH : PANEL_FAST_REFRESH);
    }
    /* The window of the frame (1, 8, 3, 10 in bytes across and rows), in pixels. */
    assert_memory_equal(fake_panel.fast_window, "\x08\x08\x18\x0A", 4);
    assert_panel_shows(fast.planes);
    unload(&fast);
}

/* Anything that leaves the picture unknown or from another set makes the next show full. */
static void test_a_full_refresh_after_a_new_set_an_error_or_a_reset(void **state) {
    vector_t fast = load("fast_window", 1);
    vector_t tiny = load("tiny", 1);

    (void)state;
    fake_store_add(fast.frame, (uint16_t)fast.frame_size);
    fake_store_add(fast.frame, (uint16_t)fast.frame_size);
    assert_int_equal(show_next_logged(), DISPLAY_OK);
    assert_int_equal(show_next_logged(), DISPLAY_OK);
    assert_int_equal(last_refresh(), PANEL_FAST_REFRESH);
    /* Another set, with the same frames and window. */
    fake_store.generation++;
    assert_int_equal(show_next_logged(), DISPLAY_OK);
    assert_int_equal(last_refresh(), PANEL_REFRESH);
    /* A fast update that fails: the panel may show anything. */
    fake_panel.fail_call = PANEL_REFRESH_WAIT;
    assert_int_equal(show_next_logged(), DISPLAY_ERR_PANEL);
    assert_int_equal(last_refresh(), PANEL_FAST_REFRESH);
    assert_int_equal(show_next_logged(), DISPLAY_OK);
    assert_int_equal(last_refresh(), PANEL_REFRESH);
    /* A reset (a power cut in the middle of anything). */
    display_init();
    assert_int_equal(show_next_logged(), DISPLAY_OK);
    assert_int_equal(last_refresh(), PANEL_REFRESH);
    /* A frame without a fast window, and the one after it. */
    fake_store.frames[1] = tiny.frame;
    fake_store.lengths[1] = (uint16_t)tiny.frame_size;
    assert_int_equal(show_next_logged(), DISPLAY_OK);
    assert_int_equal(last_refresh(), PANEL_REFRESH);
    assert_int_equal(show_next_logged(), DISPLAY_OK);
    assert_int_equal(last_refresh(), PANEL_REFRESH);
    unload(&fast);
    unload(&tiny);
}

/* A set whose frames carry different fast windows (no host makes one): never fast between them. */
static void test_frames_with_other_fast_windows_are_refreshed_in_full(void **state) {
    vector_t fast = load("fast_window", 1);
    uint8_t *moved = malloc(fast.frame_size);

    (void)state;
    assert_non_null(moved);
    memcpy(moved, fast.frame, fast.frame_size);
    moved[1] = 2u; /* the fast window one byte further right */
    fake_store_add(fast.frame, (uint16_t)fast.frame_size);
    fake_store_add(moved, (uint16_t)fast.frame_size);
    fake_store_add(moved, (uint16_t)fast.frame_size);
    assert_int_equal(show_next_logged(), DISPLAY_OK);
    assert_int_equal(last_refresh(), PANEL_REFRESH);
    assert_int_equal(show_next_logged(), DISPLAY_OK);
    assert_int_equal(last_refresh(), PANEL_REFRESH);
    assert_int_equal(show_next_logged(), DISPLAY_OK);
    assert_int_equal(last_refresh(), PANEL_FAST_REFRESH);
    assert_memory_equal(fake_panel.fast_window, "\x10\x08\x18\x0A", 4);
    free(moved);
    unload(&fast);
}

/*
 * Two frames of one set, written by epdle.frames.encode with their set's fast window
 * (bytes 4-5 across, rows 10-17): a black bar in rows 2-3 and a red mark in row 40 the
 * same in both, and their own black inside the fast window. The old frame is coded as
 * three windows (one meets the fast window), the new one as one window over rows 2-40.
 */
static const uint8_t frame_old[] = {0x02, 0x04, 0x0A, 0x02, 0x08, 0x00, 0x00, 0x03, 0x00, 0x02,
                                    0x0D, 0x02, 0x50, 0x05, 0x9D, 0xE7, 0x80, 0x04, 0x0A, 0x02,
                                    0x08, 0x11, 0x06, 0xB5, 0x55, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xD8,
                                    0x00, 0x00, 0x28, 0x01, 0x01, 0x02, 0x20, 0x67, 0x90};
static const uint8_t frame_new[] = {0x02, 0x04, 0x0A, 0x02, 0x08, 0x00, 0x00, 0x01, 0x00,
                                    0x02, 0x0D, 0x27, 0x22, 0x27, 0x80, 0xD3, 0x01, 0x49,
                                    0xFF, 0xC0, 0xCB, 0xCD, 0xA4, 0xD8, 0x0C, 0xAA, 0x6A,
                                    0x40, 0x12, 0x58, 0x1F, 0xE1, 0xF8, 0xC0};
#define FAST_BYTE0 4u
#define FAST_ROW0 10u
#define FAST_ROWS 8u

static bool in_fast_window(unsigned at) {
    unsigned row = at / EPD_ROW_BYTES;
    unsigned column = at % EPD_ROW_BYTES;

    return row >= FAST_ROW0 && row < FAST_ROW0 + FAST_ROWS && column >= FAST_BYTE0 &&
           column < FAST_BYTE0 + 2u;
}

/* The planes those frames were made from (0: frame_old, 1: frame_new). */
static void set_picture(unsigned which, uint8_t *black, uint8_t *red) {
    unsigned at;

    memset(black, 0xFF, EPD_PLANE_BYTES);
    memset(red, 0xFF, EPD_PLANE_BYTES);
    memset(&black[2u * EPD_ROW_BYTES], 0x00, 2u * EPD_ROW_BYTES);
    red[40u * EPD_ROW_BYTES] = 0x0Fu;
    for (at = 0; at < EPD_PLANE_BYTES; at++) {
        unsigned row = at / EPD_ROW_BYTES;

        if (in_fast_window(at)) {
            if (which == 0u) {
                black[at] = row % 2u != 0u ? 0xF0u : 0x3Cu;
            } else {
                black[at] = row < 14u ? 0x0Fu : 0x81u;
            }
        }
    }
}

/* In fast mode the controller drives each pixel of the fast window from DTM1 (OLD) to
 * DTM2 (NEW): there, the frame on the glass must be in DTM1 and the new frame's black in
 * DTM2 (outside it the RAM is not used). */
static void assert_fast_load(unsigned old, unsigned new_frame) {
    static uint8_t black[2][EPD_PLANE_BYTES];
    static uint8_t red[EPD_PLANE_BYTES];
    unsigned at;

    set_picture(old, black[0], red);
    set_picture(new_frame, black[1], red);
    assert_int_equal(last_refresh(), PANEL_FAST_REFRESH);
    assert_memory_equal(fake_panel.fast_window, "\x20\x0A\x10\x08", 4);
    for (at = 0; at < EPD_PLANE_BYTES; at++) {
        if (in_fast_window(at)) {
            assert_int_equal(fake_panel.planes[0][at], black[0][at]);
            assert_int_equal(fake_panel.planes[1][at], black[1][at]);
        }
    }
}

/* The next frame shown by a full refresh, whole: picture `which` in the panel's RAM. */
static void assert_full_load(unsigned which) {
    static uint8_t black[EPD_PLANE_BYTES];
    static uint8_t red[EPD_PLANE_BYTES];

    assert_int_equal(last_refresh(), PANEL_REFRESH);
    set_picture(which, black, red);
    assert_memory_equal(fake_panel.planes[0], black, EPD_PLANE_BYTES);
    assert_memory_equal(fake_panel.planes[1], red, EPD_PLANE_BYTES);
}

static void test_a_fast_update_sends_the_old_frame_to_dtm1_and_the_new_to_dtm2(void **state) {
    (void)state;
    fake_store_add(frame_old, sizeof frame_old);
    fake_store_add(frame_new, sizeof frame_new);
    assert_int_equal(show_next_logged(), DISPLAY_OK);
    assert_full_load(0u);
    /* The controller's RAM is lost between presses. */
    memset(fake_panel.planes, 0x55, sizeof fake_panel.planes);
    assert_int_equal(show_next_logged(), DISPLAY_OK);
    assert_fast_load(0u, 1u);
    memset(fake_panel.planes, 0x55, sizeof fake_panel.planes);
    assert_int_equal(show_next_logged(), DISPLAY_OK);
    assert_fast_load(1u, 0u);
}

/* The frame on the glass does not read back (its CRC fails now): no refresh, an error,
 * and the next update is a full one; fast again after it. */
static void test_an_old_frame_that_does_not_read_back_makes_the_next_update_full(void **state) {
    static const panel_call_t failed[] = {PANEL_POWER_UP, PANEL_FILL, PANEL_WINDOW,
                                          PANEL_POWER_DOWN};

    (void)state;
    fake_store_add(frame_old, sizeof frame_old);
    fake_store_add(frame_new, sizeof frame_new);
    assert_int_equal(show_next_logged(), DISPLAY_OK);
    fake_store.crc_bad[0] = true;
    /* The new frame went to DTM2 first; the old one is refused as it is opened: the panel
     * is powered down, not refreshed. */
    fake_panel.refreshed = false;
    assert_int_equal(show_next_logged(), DISPLAY_ERR_BAD_FRAME);
    assert_calls(failed, 4);
    assert_false(fake_panel.refreshed);
    fake_store.crc_bad[0] = false;
    memset(fake_panel.planes, 0x55, sizeof fake_panel.planes);
    assert_int_equal(show_next_logged(), DISPLAY_OK);
    assert_full_load(0u);
    memset(fake_panel.planes, 0x55, sizeof fake_panel.planes);
    assert_int_equal(show_next_logged(), DISPLAY_OK);
    assert_fast_load(0u, 1u);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_stored_frame_streams_its_window, setup),
        cmocka_unit_test_setup(test_runner_ups_go_fast_until_a_full_refresh_is_due, setup),
        cmocka_unit_test_setup(test_a_full_refresh_after_a_new_set_an_error_or_a_reset, setup),
        cmocka_unit_test_setup(test_frames_with_other_fast_windows_are_refreshed_in_full, setup),
        cmocka_unit_test_setup(test_a_fast_update_sends_the_old_frame_to_dtm1_and_the_new_to_dtm2,
                               setup),
        cmocka_unit_test_setup(test_an_old_frame_that_does_not_read_back_makes_the_next_update_full,
                               setup),
        cmocka_unit_test_setup(test_stored_frames_show_their_vector_planes, setup),
        cmocka_unit_test_setup(test_builtin_frames_show_when_nothing_is_stored, setup),
        cmocka_unit_test_setup(test_crc_failure_leaves_the_panel_untouched, setup),
        cmocka_unit_test_setup(test_malformed_frames_are_never_refreshed, setup),
        cmocka_unit_test_setup(test_out_of_range_index_is_no_frame, setup),
        cmocka_unit_test_setup(test_driver_errors_power_the_panel_down, setup),
        cmocka_unit_test_setup(test_frame_going_bad_while_shown_is_not_refreshed, setup),
        cmocka_unit_test_setup(test_white_page_only_around_the_first_window, setup),
        cmocka_unit_test_setup(test_a_woken_panel_is_loaded_or_put_back_to_sleep, setup),
        cmocka_unit_test_setup(test_show_next_starts_at_zero_and_wraps, setup),
        cmocka_unit_test_setup(test_show_next_steps_over_a_damaged_frame, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
