/*
 * Panel driver tests: the exact bytes decoded from the pin writes, the BUSY
 * bounds, and the power gating that must leave every panel pin low.
 */
#include "epd.h"
#include "recording_hal.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#define DC_CMD 0u
#define DC_DATA 1u

typedef struct {
    uint8_t next;
    uint32_t pulls;
} counter_source_t;

static uint8_t counting_source(counter_source_t *counter) {
    counter->pulls++;
    return counter->next++;
}

/* A whole window as display.c sends it: begin, plane 1, plane 2, end. */
static epd_status_t write_window(uint8_t x, uint8_t y, uint8_t w, uint8_t h,
                                 counter_source_t *counter) {
    uint32_t plane_bytes = (uint32_t)(w / 8u) * h;
    uint32_t i;
    epd_status_t status = epd_window_begin(x, y, w, h);

    if (status != EPD_OK) {
        return status;
    }
    for (i = 0u; i < plane_bytes; i++) {
        epd_data(counting_source(counter));
    }
    epd_second_plane();
    for (i = 0u; i < plane_bytes; i++) {
        epd_data(counting_source(counter));
    }
    epd_window_end();
    return EPD_OK;
}

static int setup(void **state) {
    (void)state;
    rec_reset();
    return 0;
}

/* Asserts that bytes [*pos, ...) start with the given (dc, value) pairs and moves *pos on. */
static void expect_bytes(uint32_t *pos, const uint8_t *pairs, uint32_t pair_count) {
    uint32_t i;

    for (i = 0u; i < pair_count; i++) {
        assert_true(*pos + i < rec.byte_count);
        assert_int_equal(rec.bytes[*pos + i].dc, pairs[2u * i]);
        assert_int_equal(rec.bytes[*pos + i].value, pairs[2u * i + 1u]);
    }
    *pos += pair_count;
}

static void assert_clean_wire(void) {
    assert_int_equal(rec.backfeed_writes, 0);
    assert_int_equal(rec.sda_changes_while_clock_high, 0);
    assert_int_equal(rec.partial_bytes, 0);
    assert_int_equal(rec.clocks_without_cs, 0);
    assert_int_equal(rec.cs_frames, rec.byte_count);
    assert_int_equal(rec.overflow_count, 0);
}

static const uint8_t init_sequence[] = {
    DC_CMD, 0x06,   DC_DATA, 0x17,    DC_DATA, 0x17,   DC_DATA, 0x17,    DC_CMD,
    0x04,   DC_CMD, 0x00,    DC_DATA, 0x8F,    DC_CMD, 0x50,    DC_DATA, 0x37,
    DC_CMD, 0x61,   DC_DATA, 0x68,    DC_DATA, 0x00,   DC_DATA, 0xD4,
};

static void power_up_ok(void) {
    assert_int_equal(epd_power_up(), EPD_OK);
}

static void test_power_up_sends_init_sequence(void **state) {
    uint32_t pos = 0u;
    int32_t power_on;
    int32_t panel_setting;

    (void)state;
    power_up_ok();
    expect_bytes(&pos, init_sequence, sizeof init_sequence / 2u);
    assert_int_equal(rec.byte_count, pos);
    assert_int_equal(rec.pin[HAL_PIN_EPD_PWR], 1);
    assert_int_equal(rec.pin[HAL_PIN_EPD_RST], 1);
    assert_int_equal(rec.pin[HAL_PIN_EPD_CS], 1);
    /* PANEL_SETTING only once BUSY is back up after POWER_ON. */
    power_on = rec_find_command(0x04, 0);
    panel_setting = rec_find_command(0x00, 0);
    assert_true(rec.bytes[panel_setting].t_ns - rec.bytes[power_on].t_ns >= 37000000ull);
    /* Far from the 2 x 200 ms of fixed reset delays of the original build. */
    assert_true(rec_now_ms() < 50u);
    assert_clean_wire();
}

static void test_power_up_drives_supply_before_any_control_pin(void **state) {
    (void)state;
    power_up_ok();
    /* Any control pin high while unpowered is counted as back-feeding. */
    assert_int_equal(rec.backfeed_writes, 0);
}

static void test_white_window_sends_both_planes(void **state) {
    const uint8_t head[] = {0x91, 0x90, 8, 8 + 16 - 1, 0, 20, 0, 20 + 10 - 1, 0x01};
    const uint32_t plane_bytes = 2u * 10u;
    uint32_t start;
    uint32_t dtm1;
    uint32_t dtm2;
    uint32_t i;

    (void)state;
    power_up_ok();
    start = rec.byte_count;
    assert_int_equal(epd_white_window(8, 20, 16, 10), EPD_OK);
    for (i = 0u; i < sizeof head; i++) {
        assert_int_equal(rec.bytes[start + i].value, head[i]);
    }
    dtm1 = (uint32_t)rec_find_command(0x10, 0);
    dtm2 = (uint32_t)rec_find_command(0x13, 0);
    assert_int_equal(dtm1, start + sizeof head);
    assert_int_equal(rec_data_len(dtm1), plane_bytes);
    assert_int_equal(rec_data_len(dtm2), plane_bytes);
    assert_int_equal(dtm2, dtm1 + 1u + plane_bytes);
    for (i = 1u; i <= plane_bytes; i++) {
        assert_int_equal(rec.bytes[dtm1 + i].value, 0xFF);
        assert_int_equal(rec.bytes[dtm2 + i].value, 0xFF);
    }
    assert_int_equal(rec.bytes[dtm2 + 1u + plane_bytes].value, 0x92); /* PARTIAL_OUT */
    assert_int_equal(rec.byte_count, dtm2 + 2u + plane_bytes);
    assert_int_equal(epd_white_window(4, 0, 8, 1), EPD_ERR_BAD_WINDOW);
    assert_clean_wire();
}

static void check_window(uint8_t x, uint8_t y, uint8_t w, uint8_t h, const uint8_t window[7]) {
    counter_source_t counter = {0u, 0u};
    uint32_t plane_bytes = (uint32_t)(w / 8u) * h;
    uint32_t pos;
    uint32_t i;
    const uint8_t head[] = {
        DC_CMD,    0x91,      DC_CMD,    0x90,      DC_DATA,   window[0], DC_DATA,
        window[1], DC_DATA,   window[2], DC_DATA,   window[3], DC_DATA,   window[4],
        DC_DATA,   window[5], DC_DATA,   window[6], DC_CMD,    0x10,
    };

    rec_reset();
    power_up_ok();
    pos = rec.byte_count;
    assert_int_equal(write_window(x, y, w, h, &counter), EPD_OK);
    expect_bytes(&pos, head, sizeof head / 2u);
    for (i = 0u; i < plane_bytes; i++) {
        assert_int_equal(rec.bytes[pos + i].dc, DC_DATA);
        assert_int_equal(rec.bytes[pos + i].value, (uint8_t)i);
    }
    pos += plane_bytes;
    assert_int_equal(rec.bytes[pos].dc, DC_CMD);
    assert_int_equal(rec.bytes[pos].value, 0x13);
    pos++;
    for (i = 0u; i < plane_bytes; i++) {
        assert_int_equal(rec.bytes[pos + i].dc, DC_DATA);
        assert_int_equal(rec.bytes[pos + i].value, (uint8_t)(plane_bytes + i));
    }
    pos += plane_bytes;
    assert_int_equal(rec.bytes[pos].dc, DC_CMD);
    assert_int_equal(rec.bytes[pos].value, 0x92);
    assert_int_equal(rec.byte_count, pos + 1u);
    assert_int_equal(counter.pulls, 2u * plane_bytes);
    assert_clean_wire();
}

static void test_window_bytes_and_alignment(void **state) {
    const uint8_t small[7] = {0x08, 0x17, 0x00, 0x0A, 0x00, 0x0C, 0x01};
    const uint8_t right_edge[7] = {0x60, 0x67, 0x00, 0x00, 0x00, 0x00, 0x01};
    const uint8_t full_panel[7] = {0x00, 0x67, 0x00, 0x00, 0x00, 0xD3, 0x01};
    const uint8_t bottom_rows[7] = {0x28, 0x3F, 0x00, 0xC8, 0x00, 0xD3, 0x01};

    (void)state;
    check_window(8, 10, 16, 3, small);
    check_window(96, 0, 8, 1, right_edge);
    check_window(0, 0, 104, 212, full_panel);
    check_window(40, 200, 24, 12, bottom_rows);
}

static void test_bad_windows_are_rejected_before_touching_the_panel(void **state) {
    static const uint8_t bad[][4] = {
        {4, 0, 8, 1},     /* x not a multiple of 8 */
        {8, 0, 12, 1},    /* w not a multiple of 8 */
        {0, 0, 0, 1},     /* empty width */
        {0, 0, 8, 0},     /* empty height */
        {96, 0, 16, 1},   /* past the right edge */
        {0, 210, 8, 3},   /* past the bottom */
        {0, 255, 8, 255}, /* wraps in 8 bits */
        {248, 0, 16, 1},  /* x + w wraps in 8 bits */
    };
    counter_source_t counter = {0u, 0u};
    uint32_t writes_before;
    size_t i;

    (void)state;
    power_up_ok();
    writes_before = rec.pin_writes;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(write_window(bad[i][0], bad[i][1], bad[i][2], bad[i][3], &counter),
                         EPD_ERR_BAD_WINDOW);
    }
    assert_int_equal(rec.pin_writes, writes_before);
    assert_int_equal(counter.pulls, 0);
}

static void test_calls_before_power_up_are_refused(void **state) {
    counter_source_t counter = {0u, 0u};

    (void)state;
    assert_int_equal(epd_white_window(0, 0, EPD_WIDTH, EPD_HEIGHT), EPD_ERR_NOT_READY);
    assert_int_equal(write_window(0, 0, 8, 1, &counter), EPD_ERR_NOT_READY);
    assert_int_equal(epd_refresh(), EPD_ERR_NOT_READY);
    assert_int_equal(rec.pin_writes, 0);
    assert_int_equal(counter.pulls, 0);
}

static void test_refresh_waits_for_busy(void **state) {
    uint32_t start_ms;

    (void)state;
    power_up_ok();
    /* The short BUSY waits of the power-up are polled, not slept. */
    assert_int_equal(rec.pin_sleep_calls, 0);
    start_ms = rec_now_ms();
    assert_int_equal(epd_refresh(), EPD_OK);
    assert_int_equal(rec.bytes[rec.byte_count - 1u].dc, DC_CMD);
    assert_int_equal(rec.bytes[rec.byte_count - 1u].value, 0x12);
    assert_in_range(rec_now_ms() - start_ms, 14900u, 14902u);
    /* The MCU slept through it a watchdog period at a time (14.9 s: 466 of them, the
     * last cut short by BUSY's rising edge), interrupts off at each SLEEP. */
    assert_int_equal(rec.pin_sleep_calls, 14900u / HAL_SLEEP_PERIOD_MS + 1u);
    assert_in_range(rec.pin_sleep_ns / 1000000u, 14899u, 14900u);
    assert_int_equal(rec.sleeps_with_irq_enabled, 0);
    assert_false(rec.busy_wake_armed); /* disarmed once it rose */
}

static void test_refresh_with_stuck_busy_times_out_and_still_powers_down(void **state) {
    uint32_t start_ms;
    uint32_t bytes_before;

    (void)state;
    power_up_ok();
    rec.busy_stuck = true;
    start_ms = rec_now_ms();
    assert_int_equal(epd_refresh(), EPD_ERR_BUSY_TIMEOUT);
    /* About twice the datasheet's 15 s, asleep in whole watchdog periods, then give up. */
    assert_in_range(rec_now_ms() - start_ms, 30000u, 30000u + HAL_SLEEP_PERIOD_MS);
    assert_true(rec.pin_sleep_ns >= 30000000000ull);
    bytes_before = rec.byte_count;
    assert_int_equal(epd_power_down(), EPD_ERR_BUSY_TIMEOUT);
    /* No command is sent to a controller that is still busy. */
    assert_int_equal(rec.byte_count, bytes_before);
    assert_true(rec_panel_pins_all_low());
    assert_int_equal(rec.backfeed_writes, 0);
}

static void test_power_up_with_stuck_busy_is_bounded(void **state) {
    (void)state;
    rec.busy_stuck = true;
    assert_int_equal(epd_power_up(), EPD_ERR_BUSY_TIMEOUT);
    assert_true(rec_now_ms() <= 12u);
    assert_int_equal(rec.byte_count, 0);
    assert_int_equal(epd_white_window(0, 0, EPD_WIDTH, EPD_HEIGHT), EPD_ERR_NOT_READY);
    assert_int_equal(epd_power_down(), EPD_ERR_BUSY_TIMEOUT);
    assert_true(rec_panel_pins_all_low());
}

static void test_slow_power_on_times_out(void **state) {
    (void)state;
    rec.busy_ms_power_on = 5000u;
    assert_int_equal(epd_power_up(), EPD_ERR_BUSY_TIMEOUT);
    assert_in_range(rec_now_ms(), 100u, 110u);
    /* Stopped after POWER_ON: no PANEL_SETTING to a controller that never came up. */
    assert_int_equal(rec_find_command(0x00, 0), -1);
    epd_power_down();
    assert_true(rec_panel_pins_all_low());
}

static void test_power_down_sends_sleep_and_cuts_everything(void **state) {
    static const uint8_t sleep_sequence[] = {DC_CMD, 0x02, DC_CMD, 0x07, DC_DATA, 0xA5};
    uint32_t pos;
    int32_t power_off;
    int32_t deep_sleep;

    (void)state;
    power_up_ok();
    assert_int_equal(epd_refresh(), EPD_OK);
    pos = rec.byte_count;
    assert_int_equal(epd_power_down(), EPD_OK);
    expect_bytes(&pos, sleep_sequence, sizeof sleep_sequence / 2u);
    assert_int_equal(rec.byte_count, pos);
    power_off = rec_find_command(0x02, 0);
    deep_sleep = rec_find_command(0x07, 0);
    assert_true(rec.bytes[deep_sleep].t_ns - rec.bytes[power_off].t_ns >= 21000000ull);
    assert_true(rec_panel_pins_all_low());
    assert_clean_wire();
    assert_int_equal(epd_refresh(), EPD_ERR_NOT_READY);
}

static void test_reboot_leaves_no_stale_ready_state(void **state) {
    uint32_t bytes_before;

    (void)state;
    power_up_ok();
    /* A reboot: hal_init() drops the supply behind the driver's back. */
    hal_init();
    bytes_before = rec.byte_count;
    assert_int_equal(epd_white_window(0, 0, EPD_WIDTH, EPD_HEIGHT), EPD_ERR_NOT_READY);
    assert_int_equal(epd_refresh(), EPD_ERR_NOT_READY);
    assert_int_equal(epd_power_down(), EPD_OK);
    assert_int_equal(rec.byte_count, bytes_before);
    assert_true(rec_panel_pins_all_low());
}

static void test_power_down_when_off_only_drives_pins_low(void **state) {
    (void)state;
    assert_int_equal(epd_power_down(), EPD_OK);
    assert_int_equal(rec.byte_count, 0);
    assert_true(rec_panel_pins_all_low());
}

static void test_slow_power_off_still_cuts_supply(void **state) {
    (void)state;
    power_up_ok();
    rec.busy_ms_power_off = 10000u;
    assert_int_equal(epd_power_down(), EPD_ERR_BUSY_TIMEOUT);
    assert_int_equal(rec_find_command(0x07, 0), -1);
    assert_true(rec_panel_pins_all_low());
    assert_int_equal(rec.backfeed_writes, 0);
}

static void test_full_update_reaches_refresh_quickly(void **state) {
    counter_source_t counter = {0u, 0u};
    int32_t refresh;

    (void)state;
    /* Simulated time at 125 ns per pin access: power-up, white page, a full-panel window. */
    power_up_ok();
    assert_int_equal(epd_white_window(0, 0, EPD_WIDTH, EPD_HEIGHT), EPD_OK);
    assert_int_equal(write_window(0, 0, 104, 212, &counter), EPD_OK);
    rec.busy_ms_refresh = 0u;
    assert_int_equal(epd_refresh(), EPD_OK);
    refresh = rec_find_command(0x12, 0);
    assert_true(refresh >= 0);
    assert_true(rec.bytes[refresh].t_ns < 200000000ull);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_power_up_sends_init_sequence, setup),
        cmocka_unit_test_setup(test_power_up_drives_supply_before_any_control_pin, setup),
        cmocka_unit_test_setup(test_white_window_sends_both_planes, setup),
        cmocka_unit_test_setup(test_window_bytes_and_alignment, setup),
        cmocka_unit_test_setup(test_bad_windows_are_rejected_before_touching_the_panel, setup),
        cmocka_unit_test_setup(test_calls_before_power_up_are_refused, setup),
        cmocka_unit_test_setup(test_refresh_waits_for_busy, setup),
        cmocka_unit_test_setup(test_refresh_with_stuck_busy_times_out_and_still_powers_down, setup),
        cmocka_unit_test_setup(test_power_up_with_stuck_busy_is_bounded, setup),
        cmocka_unit_test_setup(test_slow_power_on_times_out, setup),
        cmocka_unit_test_setup(test_power_down_sends_sleep_and_cuts_everything, setup),
        cmocka_unit_test_setup(test_reboot_leaves_no_stale_ready_state, setup),
        cmocka_unit_test_setup(test_power_down_when_off_only_drives_pins_low, setup),
        cmocka_unit_test_setup(test_slow_power_off_still_cuts_supply, setup),
        cmocka_unit_test_setup(test_full_update_reaches_refresh_quickly, setup),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
