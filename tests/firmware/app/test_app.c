/*
 * Main loop tests: the real app.c and panel driver on the recording HAL, with
 * a display stand-in that drives the panel like display_load() and
 * display_refresh() do, and a
 * link stand-in that records events.
 */
#include "app.h"
#include "display.h"
#include "epd.h"
#include "link.h"
#include "recording_hal.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define MAX_SHOWS 16u
#define FRAME_COUNT 3u

static jmp_buf test_exit;

static struct {
    uint32_t show_start_ms[MAX_SHOWS];
    uint32_t show_count;
    uint8_t current;
    bool cut_power_during_show;
    uint32_t init_count;
} fake_display;

static struct {
    uint32_t init_count;
    uint32_t service_calls;
    uint32_t stay_awake_calls; /* link_service() returns true this many times */
    uint32_t sleeps_at_last_awake_call;
    char events[64]; /* 'b' = button, '0'+index = shown, '!' = show failed */
    uint32_t event_count;
} fake_link;

void display_init(void) {
    fake_display.init_count++;
    fake_display.current = 0u;
}

uint8_t display_frame_count(void) {
    return FRAME_COUNT;
}

uint8_t display_current(void) {
    return fake_display.current;
}

void display_wake(void) {
    (void)epd_power_up_start();
}

void display_sleep(void) {
    (void)epd_power_down();
}

/* display_show() in its two steps, as app.c calls them. */
display_status_t display_load_next(void) {
    epd_status_t status;

    if (fake_display.show_count < MAX_SHOWS) {
        fake_display.show_start_ms[fake_display.show_count] = rec_now_ms();
    }
    fake_display.show_count++;
    fake_display.current = (uint8_t)((fake_display.current + 1u) % FRAME_COUNT);
    status = epd_power_up();
    if (status == EPD_OK) {
        status = epd_white_window(0, 0, EPD_WIDTH, EPD_HEIGHT);
    }
    if (fake_display.cut_power_during_show) {
        longjmp(test_exit, 1);
    }
    if (status != EPD_OK) {
        (void)epd_power_down();
        return DISPLAY_ERR_PANEL;
    }
    return DISPLAY_OK;
}

display_status_t display_refresh(display_status_t loaded) {
    epd_status_t status = EPD_OK;

    if (loaded != DISPLAY_OK) {
        return loaded;
    }
    status = epd_refresh();
    (void)epd_power_down();
    return status == EPD_OK ? DISPLAY_OK : DISPLAY_ERR_PANEL;
}

void link_init(void) {
    fake_link.init_count++;
}

bool link_service(void) {
    fake_link.service_calls++;
    if (fake_link.stay_awake_calls > 0u) {
        fake_link.stay_awake_calls--;
        fake_link.sleeps_at_last_awake_call = rec.sleep_count;
        return true;
    }
    return false;
}

static void record_event(char event) {
    if (fake_link.event_count + 1u < sizeof fake_link.events) {
        fake_link.events[fake_link.event_count++] = event;
    }
}

void link_event_button(void) {
    record_event('b');
}

void link_event_shown(uint8_t index, uint8_t display_status) {
    /* A failed show is reported as '!' after its index. */
    record_event((char)('0' + index));
    if (display_status != DISPLAY_OK) {
        record_event('!');
    }
}

static int setup(void **state) {
    (void)state;
    rec_reset();
    rec.exit_to = &test_exit;
    memset(&fake_display, 0, sizeof fake_display);
    memset(&fake_link, 0, sizeof fake_link);
    return 0;
}

/* Runs the firmware until it sleeps with no scripted event left. */
static void run_app(void) {
    if (setjmp(test_exit) == 0) {
        app_main();
    }
}

static void assert_slept_unpowered(void) {
    assert_true(rec.sleep_count > 0u);
    assert_int_equal(rec.sleeps_with_panel_pin_high, 0);
    assert_int_equal(rec.backfeed_writes, 0);
    assert_true(rec_panel_pins_all_low());
}

/* When the frame's load started and when DISPLAY_REFRESH went out, in ms. */
static uint32_t refresh_ms(void) {
    int32_t refresh = rec_find_command(0x12, 0);

    assert_true(refresh >= 0);
    return (uint32_t)(rec.bytes[refresh].t_ns / 1000000ull);
}

static void test_boot_sleeps_without_showing(void **state) {
    (void)state;
    run_app();
    assert_int_equal(rec.init_count, 1);
    assert_int_equal(fake_link.init_count, 1);
    assert_int_equal(fake_display.init_count, 1);
    assert_int_equal(fake_display.show_count, 0);
    assert_int_equal(rec.sleep_count, 1);
    assert_int_equal(rec.sleeps_with_irq_enabled, 0);
    assert_slept_unpowered();
}

static void test_press_shows_next_frame_then_sleeps(void **state) {
    (void)state;
    rec_button_press(100u, 150u, 0u);
    run_app();
    assert_int_equal(fake_display.show_count, 1);
    assert_string_equal(fake_link.events, "b1");
    assert_int_equal(rec.sleep_count, 2);
    assert_slept_unpowered();
    /* The panel's power-up starts at the edge (supply, reset: about 2 ms), then the
     * press is debounced (20 ms) while POWER_ON runs, and the load starts, not after the
     * release; the refresh waits for the release (at 250 ms) and its debounce. The
     * product's figure, with a real frame decoded: tests/sim/test_board.py. */
    assert_in_range(fake_display.show_start_ms[0], 122u, 123u);
    assert_int_equal(rec_find_command(0x04, 0) >= 0, 1); /* POWER_ON before the load */
    assert_true(rec.bytes[rec_find_command(0x04, 0)].t_ns < 110u * 1000000ull);
    assert_in_range(refresh_ms(), 270u, 272u);
}

static void test_long_hold_released_during_refresh_counts_once(void **state) {
    (void)state;
    /* Still down when the show starts; its bouncing release lands in the refresh. */
    rec_button_press(100u, 400u, 3u);
    run_app();
    assert_int_equal(fake_display.show_count, 1);
    assert_string_equal(fake_link.events, "b1");
    /* A button held on (released at 500 ms): the wait for its release is bounded,
     * 150 ms after the load (about 36 ms on this stand-in display, the panel having
     * powered up during the debounce). */
    assert_in_range(fake_display.show_start_ms[0], 122u, 123u);
    assert_in_range(refresh_ms(), 300u, 315u);
}

static void test_new_press_after_long_hold_counts_if_still_down(void **state) {
    (void)state;
    rec_button_press(100u, 400u, 3u);
    /* Pressed again during the refresh and still down when it ends. */
    rec_button_press(5000u, 15000u, 3u);
    run_app();
    assert_int_equal(fake_display.show_count, 2);
    assert_string_equal(fake_link.events, "b1b2");
}

static void test_bouncing_press_counts_once(void **state) {
    (void)state;
    rec_button_press(100u, 200u, 5u);
    run_app();
    assert_int_equal(fake_display.show_count, 1);
    assert_string_equal(fake_link.events, "b1");
}

/* A tactile switch may bounce for up to 20 ms, on the press and on the release. */
static void test_bounces_of_up_to_20_ms_are_one_press(void **state) {
    uint8_t bounces;

    (void)state;
    for (bounces = 1u; bounces <= 10u; bounces++) { /* 2 ms a bounce: 2 .. 20 ms */
        setup(NULL);
        rec_button_press(100u, 150u, bounces);
        run_app();
        assert_int_equal(fake_display.show_count, 1);
        assert_string_equal(fake_link.events, "b1");
    }
}

static void test_glitch_shorter_than_debounce_is_ignored(void **state) {
    (void)state;
    rec_button_at(100u, 0u);
    rec_button_at(103u, 1u);
    run_app();
    assert_int_equal(fake_display.show_count, 0);
    assert_int_equal(rec.sleep_count, 2);
    /* The power-up it began is undone properly: POWER_OFF and DEEP_SLEEP, no refresh. */
    assert_true(rec_find_command(0x04, 0) >= 0);
    assert_true(rec_find_command(0x02, 0) > rec_find_command(0x04, 0));
    assert_true(rec_find_command(0x07, 0) > rec_find_command(0x02, 0));
    assert_int_equal(rec_find_command(0x12, 0), -1);
    assert_slept_unpowered();
}

static void test_press_during_refresh_is_shown_once_afterwards(void **state) {
    (void)state;
    rec_button_press(100u, 150u, 3u);
    /* A quick press well inside the 14.9 s refresh of the first frame. */
    rec_button_press(5000u, 80u, 3u);
    run_app();
    assert_int_equal(fake_display.show_count, 2);
    assert_string_equal(fake_link.events, "b1b2");
    assert_true(fake_display.show_start_ms[1] > 100u + 14900u);
    assert_slept_unpowered();
}

static void test_sleeps_unpowered_after_every_update(void **state) {
    (void)state;
    rec_button_press(100u, 120u, 2u);
    rec_button_press(20000u, 120u, 2u);
    rec_button_press(40000u, 120u, 2u);
    run_app();
    assert_int_equal(fake_display.show_count, 3);
    assert_string_equal(fake_link.events, "b1b2b0");
    assert_int_equal(rec.sleep_count, 4);
    assert_slept_unpowered();
}

static void test_stuck_panel_is_reported_and_the_chip_still_sleeps_unpowered(void **state) {
    (void)state;
    rec.busy_stuck = true;
    rec_button_press(100u, 120u, 2u);
    rec_button_press(1000u, 120u, 2u);
    run_app();
    /* Each press gets its (failed) show and a report; nothing hangs. */
    assert_int_equal(fake_display.show_count, 2);
    assert_string_equal(fake_link.events, "b1!b2!");
    assert_int_equal(rec.sleep_count, 3);
    assert_slept_unpowered();
}

static void test_link_keeps_the_chip_awake_while_busy(void **state) {
    (void)state;
    fake_link.stay_awake_calls = 5u;
    run_app();
    assert_int_equal(fake_link.service_calls, 6);
    assert_int_equal(fake_link.sleeps_at_last_awake_call, 0);
    assert_int_equal(rec.sleep_count, 1);
}

static void test_reboot_mid_show_starts_clean(void **state) {
    (void)state;
    rec_button_press(100u, 150u, 0u);
    fake_display.cut_power_during_show = true;
    run_app();
    assert_int_equal(fake_display.show_count, 1);

    /* Power cut: the board reboots by calling app_main() again. */
    fake_display.cut_power_during_show = false;
    run_app();
    assert_int_equal(rec.init_count, 2);
    assert_int_equal(fake_link.init_count, 2);
    assert_int_equal(fake_display.init_count, 2);
    assert_int_equal(fake_display.show_count, 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_boot_sleeps_without_showing, setup),
        cmocka_unit_test_setup(test_press_shows_next_frame_then_sleeps, setup),
        cmocka_unit_test_setup(test_bouncing_press_counts_once, setup),
        cmocka_unit_test_setup(test_long_hold_released_during_refresh_counts_once, setup),
        cmocka_unit_test_setup(test_new_press_after_long_hold_counts_if_still_down, setup),
        cmocka_unit_test_setup(test_bounces_of_up_to_20_ms_are_one_press, setup),
        cmocka_unit_test_setup(test_glitch_shorter_than_debounce_is_ignored, setup),
        cmocka_unit_test_setup(test_press_during_refresh_is_shown_once_afterwards, setup),
        cmocka_unit_test_setup(test_sleeps_unpowered_after_every_update, setup),
        cmocka_unit_test_setup(test_stuck_panel_is_reported_and_the_chip_still_sleeps_unpowered,
                               setup),
        cmocka_unit_test_setup(test_link_keeps_the_chip_awake_while_busy, setup),
        cmocka_unit_test_setup(test_reboot_mid_show_starts_clean, setup),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
