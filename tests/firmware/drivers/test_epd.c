/*
 * Panel driver tests on the simulated board's core: the driver's calls run
 * straight from the test (host context) against the sim HAL, and what reaches
 * the panel is what the controller model decoded from the pin edges (its
 * transaction log and RAM), with its protocol and power checks as violations.
 * BUSY is the model's, with the published times or a fault set by the test.
 * Built once per controller the driver can be built for (EPD_CONTROLLER), on
 * the model of that controller.
 */
#include "epd.h"
#include "hal.h"
#include "sim.h"
#include "sim_panel.h"
#include "supply.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#define MS 1000000ull

#if EPD_CONTROLLER == EPD_UC8151D
#define CONTROLLER SIM_PANEL_UC8151D
#define OTHER_CONTROLLER SIM_PANEL_IL0373
/* The cell's check awake (supply.h), supply 1 ms, three reset pulses of 2 ms, 2 ms apart,
 * 10 ms after; epd.c's bounds. */
#define RESET_MS (SUPPLY_AWAKE_MS + 21u)
#define POWER_ON_BOUND_MS (20u * HAL_SLEEP_PERIOD_MS)
#define REFRESH_BOUND_MS 34000u
#define POWER_ON_NS SIM_UC8151D_POWER_ON_NS
#define POWER_OFF_NS SIM_UC8151D_POWER_OFF_NS
#define REFRESH_NS SIM_UC8151D_REFRESH_NS
#else
#define CONTROLLER SIM_PANEL_IL0373
#define OTHER_CONTROLLER SIM_PANEL_UC8151D
#define RESET_MS (SUPPLY_AWAKE_MS + 2u)
#define POWER_ON_BOUND_MS (20u * HAL_SLEEP_PERIOD_MS)
#define REFRESH_BOUND_MS 30000u
#define POWER_ON_NS SIM_IL0373_POWER_ON_NS
#define POWER_OFF_NS SIM_IL0373_POWER_OFF_NS
#define REFRESH_NS SIM_IL0373_REFRESH_NS
#endif

/* The firmware coroutine never runs here: the tests call the driver themselves. */
void app_main(void) {
    for (;;) {
        hal_sleep();
    }
}

/* A fresh board with the controller this driver was built for. */
static void boot_board(void) {
    assert_int_equal(sim_boot(NULL), 0);
    sim_panel_set_controller(CONTROLLER);
    hal_init();
}

static int setup(void **state) {
    (void)state;
    boot_board();
    return 0;
}

static int teardown(void **state) {
    (void)state;
    sim_shutdown();
    return 0;
}

static uint32_t now_ms(void) {
    return (uint32_t)(sim_time_ns() / MS);
}

static sim_epd_transaction_t transaction(size_t index) {
    sim_epd_transaction_t t;

    assert_int_equal(sim_epd_transaction(index, &t), 0);
    return t;
}

/* Index of the n-th (0-based) transaction with this command, or -1. */
static long find_command(uint8_t command, unsigned nth) {
    size_t i;

    for (i = 0; i < sim_epd_transaction_count(); i++) {
        if (transaction(i).cmd == command && nth-- == 0u) {
            return (long)i;
        }
    }
    return -1;
}

/* A transaction: its command, its length and (up to 7 of) its first data bytes. */
typedef struct {
    uint8_t cmd;
    uint16_t len;
    uint8_t data[7];
} expected_t;

/* The transactions from `first` on start with these (and are only these if `exact`). */
static void expect_transactions_from(size_t first, const expected_t *expected, size_t count,
                                     bool exact) {
    size_t i;

    if (exact) {
        assert_int_equal(sim_epd_transaction_count(), first + count);
    }
    for (i = 0; i < count; i++) {
        sim_epd_transaction_t t = transaction(first + i);

        assert_int_equal(t.cmd, expected[i].cmd);
        assert_int_equal(t.len, expected[i].len);
        assert_memory_equal(t.data, expected[i].data, expected[i].len < 7u ? expected[i].len : 7u);
    }
}

static void expect_transactions(size_t first, const expected_t *expected, size_t count) {
    expect_transactions_from(first, expected, count, true);
}

static void assert_no_violations(void) {
    size_t i;

    for (i = 0; i < sim_violation_count(); i++) {
        print_error("violation: %s\n", sim_violation_text(i));
    }
    assert_int_equal(sim_violation_count(), 0);
}

static void assert_panel_pins_all_low(void) {
    static const sim_net_t nets[] = {SIM_NET_EPD_SCL, SIM_NET_EPD_SDA, SIM_NET_EPD_CS,
                                     SIM_NET_EPD_DC,  SIM_NET_EPD_RST, SIM_NET_EPD_VCC};
    size_t i;

    for (i = 0; i < sizeof nets / sizeof nets[0]; i++) {
        assert_int_equal(sim_net_level(nets[i]), 0);
    }
}

static uint64_t time_asleep_ns(void) {
    sim_power_stats_t stats;

    sim_power_stats(&stats);
    return stats.mcu_sleep_ns;
}

/* A whole window as display.c sends it; bytes count up from *next. */
static epd_status_t write_window(uint8_t x, uint8_t y, uint8_t w, uint8_t h, uint8_t *next) {
    uint32_t plane_bytes = (uint32_t)(w / 8u) * h;
    uint32_t i;
    epd_status_t status = epd_window_begin(x, y, w, h);

    if (status != EPD_OK) {
        return status;
    }
    for (i = 0u; i < plane_bytes; i++) {
        epd_data((*next)++);
    }
    epd_second_plane();
    for (i = 0u; i < plane_bytes; i++) {
        epd_data((*next)++);
    }
    epd_window_end();
    return EPD_OK;
}

/* Waveshare's EPD_2in13b_V3 for the UC8151D (facts 4.1); facts 1.4 for the IL0373. */
#if EPD_CONTROLLER == EPD_UC8151D
static const expected_t init_sequence[] = {
    {0x04, 0, {0}},
    {0x00, 2, {0x0F, 0x89}},
    {0x61, 3, {0x68, 0x00, 0xD4}},
    {0x50, 1, {0x77}},
};
#define START_COUNT 1u /* up to POWER_ON */
#else
static const expected_t init_sequence[] = {
    {0x06, 3, {0x17, 0x17, 0x17}}, {0x04, 0, {0}}, {0x00, 1, {0x8F}}, {0x50, 1, {0x37}},
    {0x61, 3, {0x68, 0x00, 0xD4}},
};
#define START_COUNT 2u
#endif
#define INIT_COUNT (sizeof init_sequence / sizeof init_sequence[0])

/* Sleep: on the UC8151D, Waveshare's (VCOM and data interval 0xF7: the border floating,
 * POWER_OFF, DEEP_SLEEP); facts 1.4 for the IL0373. */
#if EPD_CONTROLLER == EPD_UC8151D
static const expected_t down[] = {{0x50, 1, {0xF7}}, {0x02, 0, {0}}, {0x07, 1, {0xA5}}};
#else
static const expected_t down[] = {{0x02, 0, {0}}, {0x07, 1, {0xA5}}};
#endif
#define DOWN_COUNT (sizeof down / sizeof down[0])
#define POWER_OFF_AT (DOWN_COUNT - 2u) /* its index in down[] */
#define POWER_ON_INDEX (START_COUNT - 1u)

static void power_up_ok(void) {
    assert_int_equal(epd_power_up(), EPD_OK);
}

static void test_power_up_sends_init_sequence(void **state) {
    (void)state;
    power_up_ok();
    expect_transactions(0, init_sequence, INIT_COUNT);
    assert_int_equal(sim_net_level(SIM_NET_EPD_VCC), 1);
    assert_int_equal(sim_net_level(SIM_NET_EPD_RST), 1);
    assert_int_equal(sim_net_level(SIM_NET_EPD_CS), 1);
    /* PANEL_SETTING only once BUSY is back up after POWER_ON. */
    assert_true(transaction(START_COUNT).t_ns - transaction(POWER_ON_INDEX).t_ns >= POWER_ON_NS);
    /* The reset and POWER_ON, far from the 2 x 200 ms of fixed reset delays of the original
     * build. */
    assert_true(now_ms() < RESET_MS + POWER_ON_NS / MS + 5u);
    /* The supply came first: no control pin fed the unpowered panel (a violation). */
    assert_no_violations();
}

/* The power-up in two steps: the caller works while POWER_ON's BUSY runs. */
static void test_power_up_start_returns_before_power_on_is_done(void **state) {
    uint32_t started_ms;

    (void)state;
    assert_int_equal(epd_power_up_start(), EPD_OK);
    started_ms = now_ms();
    /* The reset, POWER_ON and the cell's check under its load (supply.h). */
    assert_true(started_ms < RESET_MS + SUPPLY_LOAD_MS + 3u);
    expect_transactions(0, init_sequence, START_COUNT);
    assert_int_equal(sim_net_level(SIM_NET_EPD_BUSY), 0); /* POWER_ON in progress */
    hal_delay_ms(20u);
    power_up_ok(); /* waits out the rest, then the panel settings */
    expect_transactions(0, init_sequence, INIT_COUNT);
    assert_true(transaction(START_COUNT).t_ns - transaction(POWER_ON_INDEX).t_ns >= POWER_ON_NS);
    assert_true(now_ms() - started_ms < POWER_ON_NS / MS + 3u);
    assert_no_violations();
}

/* A start that no load follows is undone properly once POWER_ON is over. */
static void test_power_down_after_start_waits_for_power_on(void **state) {
    (void)state;
    assert_int_equal(epd_power_up_start(), EPD_OK);
    assert_int_equal(epd_power_down(), EPD_OK);
    expect_transactions(START_COUNT, down, DOWN_COUNT);
    assert_true(transaction(START_COUNT).t_ns - transaction(POWER_ON_INDEX).t_ns >= POWER_ON_NS);
    assert_panel_pins_all_low();
    assert_no_violations();
}

static void test_white_window_whitens_just_that_window(void **state) {
    static const expected_t fill[] = {{0x91, 0, {0}},
                                      {0x90, 7, {8, 8 + 16 - 1, 0, 20, 0, 20 + 10 - 1, 0x01}},
                                      {0x10, 20, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}},
                                      {0x13, 20, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}},
                                      {0x92, 0, {0}}};
    static uint8_t black[SIM_PLANE_BYTES];
    static uint8_t red[SIM_PLANE_BYTES];
    static uint8_t noise_black[SIM_PLANE_BYTES];
    static uint8_t noise_red[SIM_PLANE_BYTES];
    size_t first;
    unsigned row;
    unsigned column;

    (void)state;
    power_up_ok();
    sim_panel_ram(noise_black, noise_red); /* what the RAM holds after the power-up */
    first = sim_epd_transaction_count();
    assert_int_equal(epd_white_window(8, 20, 16, 10), EPD_OK);
    expect_transactions(first, fill, 5);
    /* The controller's RAM keeps its noise except in that window. */
    sim_panel_ram(black, red);
    for (row = 0; row < EPD_HEIGHT; row++) {
        for (column = 0; column < EPD_ROW_BYTES; column++) {
            unsigned at = row * EPD_ROW_BYTES + column;
            bool inside = row >= 20u && row < 30u && column >= 1u && column < 3u;

            assert_int_equal(black[at], inside ? 0xFF : noise_black[at]);
            assert_int_equal(red[at], inside ? 0xFF : noise_red[at]);
        }
    }
    assert_int_equal(epd_white_window(4, 0, 8, 1), EPD_ERR_BAD_WINDOW);
    /* An empty band (a window touching the panel's edge) sends nothing. */
    assert_int_equal(epd_white_window(0, 0, EPD_WIDTH, 0), EPD_OK);
    assert_int_equal(epd_white_window(96, 0, 0, 5), EPD_OK);
    assert_int_equal(sim_epd_transaction_count(), first + 5u);
    assert_no_violations();
}

static void check_window(uint8_t x, uint8_t y, uint8_t w, uint8_t h, const uint8_t window[7]) {
    static uint8_t black[SIM_PLANE_BYTES];
    static uint8_t red[SIM_PLANE_BYTES];
    uint32_t plane_bytes = (uint32_t)(w / 8u) * h;
    expected_t expected[5] = {
        {0x91, 0, {0}}, {0x90, 7, {0}}, {0x10, 0, {0}}, {0x13, 0, {0}}, {0x92, 0, {0}}};
    uint8_t next = 0u;
    uint32_t i;
    size_t first;

    boot_board();
    power_up_ok();
    first = sim_epd_transaction_count();
    assert_int_equal(write_window(x, y, w, h, &next), EPD_OK);
    memcpy(expected[1].data, window, 7);
    expect_transactions_from(first, expected, 2, false);
    assert_int_equal(transaction(first + 2u).len, plane_bytes);
    assert_int_equal(transaction(first + 3u).len, plane_bytes);
    assert_int_equal(transaction(first + 4u).cmd, 0x92);
    assert_int_equal(sim_epd_transaction_count(), first + 5u);
    /* Every byte in its place in the controller's RAM, row by row, plane 1 then plane 2. */
    sim_panel_ram(black, red);
    for (i = 0u; i < plane_bytes; i++) {
        uint32_t at = (y + i / (w / 8u)) * EPD_ROW_BYTES + x / 8u + i % (w / 8u);

        assert_int_equal(black[at], (uint8_t)i);
        assert_int_equal(red[at], (uint8_t)(plane_bytes + i));
    }
    assert_no_violations();
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
    uint8_t next = 0u;
    size_t before;
    size_t i;

    (void)state;
    power_up_ok();
    before = sim_epd_transaction_count();
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(write_window(bad[i][0], bad[i][1], bad[i][2], bad[i][3], &next),
                         EPD_ERR_BAD_WINDOW);
    }
    assert_int_equal(sim_epd_transaction_count(), before);
    assert_int_equal(next, 0);
    assert_no_violations();
}

static void test_calls_before_power_up_are_refused(void **state) {
    uint8_t next = 0u;

    (void)state;
    assert_int_equal(epd_white_window(0, 0, EPD_WIDTH, EPD_HEIGHT), EPD_ERR_NOT_READY);
    assert_int_equal(write_window(0, 0, 8, 1, &next), EPD_ERR_NOT_READY);
    assert_int_equal(epd_refresh_start(), EPD_ERR_NOT_READY);
    assert_int_equal(sim_epd_transaction_count(), 0);
    assert_int_equal(next, 0);
    assert_panel_pins_all_low();
}

static void test_power_on_and_refresh_wait_for_busy_asleep(void **state) {
    uint32_t start_ms;
    uint64_t asleep_ns;

    (void)state;
    power_up_ok();
    /* POWER_ON's BUSY is slept through too (the charge pumps draw 8 mA meanwhile) once the
     * cell was checked under that load, awake, SUPPLY_LOAD_MS into it; the reset's wait for
     * BUSY is polled. */
    asleep_ns = time_asleep_ns();
    assert_in_range(asleep_ns / MS, POWER_ON_NS / MS - SUPPLY_LOAD_MS - 2u,
                    POWER_ON_NS / MS - SUPPLY_LOAD_MS);
    assert_int_equal(epd_white_window(0, 0, EPD_WIDTH, EPD_HEIGHT), EPD_OK);
    start_ms = now_ms();
    assert_int_equal(epd_refresh_start(), EPD_OK);
    assert_int_equal(epd_refresh_wait(), EPD_OK);
    assert_int_equal(transaction(sim_epd_transaction_count() - 1u).cmd, 0x12);
    assert_int_equal(sim_refresh_count(), 1);
    assert_in_range(now_ms() - start_ms, REFRESH_NS / MS - 1u, REFRESH_NS / MS + 2u);
    /* The MCU slept through it, a watchdog period at a time, woken by BUSY's rise. */
    assert_in_range((time_asleep_ns() - asleep_ns) / MS, REFRESH_NS / MS - 2u, REFRESH_NS / MS);
    assert_no_violations();
}

static void test_refresh_with_stuck_busy_times_out_and_still_powers_down(void **state) {
    uint32_t start_ms;
    size_t before;

    (void)state;
    power_up_ok();
    sim_panel_hold_busy_low(true);
    start_ms = now_ms();
    assert_int_equal(epd_refresh_start(), EPD_OK);
    assert_int_equal(epd_refresh_wait(), EPD_ERR_BUSY_TIMEOUT);
    /* About twice the refresh, asleep in whole watchdog periods, then give up (plus the
     * 10 ms the driver looked for BUSY to fall). */
    assert_in_range(now_ms() - start_ms, REFRESH_BOUND_MS,
                    REFRESH_BOUND_MS + 11u + HAL_SLEEP_PERIOD_MS);
    assert_true(time_asleep_ns() >= REFRESH_BOUND_MS * MS);
    before = sim_epd_transaction_count();
    assert_int_equal(epd_power_down(), EPD_ERR_BUSY_TIMEOUT);
    /* The border floated and POWER_OFF before the supply is cut, a timeout's too (the line
     * is stuck, the controller listens); no DEEP_SLEEP, as its BUSY never rose; no cut with
     * the charge pumps on. */
#if EPD_CONTROLLER == EPD_UC8151D
    assert_int_equal(sim_epd_transaction_count(), before + 2u);
    assert_int_equal(transaction(before).cmd, 0x50);
    before++;
#else
    assert_int_equal(sim_epd_transaction_count(), before + 1u);
#endif
    assert_int_equal(transaction(before).cmd, 0x02);
    assert_panel_pins_all_low();
    for (size_t i = 0; i < sim_violation_count(); i++) {
        assert_null(strstr(sim_violation_text(i), "EPD_VCC cut"));
    }
}

static void test_power_up_with_stuck_busy_is_bounded(void **state) {
    (void)state;
    sim_panel_hold_busy_low(true);
    assert_int_equal(epd_power_up(), EPD_ERR_BUSY_TIMEOUT);
    assert_true(now_ms() <= RESET_MS + 11u);
    assert_int_equal(sim_epd_transaction_count(), 0);
    assert_int_equal(epd_white_window(0, 0, EPD_WIDTH, EPD_HEIGHT), EPD_ERR_NOT_READY);
    assert_int_equal(epd_power_down(), EPD_ERR_BUSY_TIMEOUT);
    assert_panel_pins_all_low();
}

static void test_slow_power_on_times_out(void **state) {
    (void)state;
    sim_panel_set_busy_ns(5000u * MS, POWER_OFF_NS, REFRESH_NS);
    assert_int_equal(epd_power_up(), EPD_ERR_BUSY_TIMEOUT);
    /* Asleep in whole watchdog periods, then give up. */
    assert_in_range(now_ms(), RESET_MS + POWER_ON_BOUND_MS,
                    RESET_MS + POWER_ON_BOUND_MS + HAL_SLEEP_PERIOD_MS);
    /* Stopped after POWER_ON: no PANEL_SETTING to a controller that never came up. */
    assert_int_equal(find_command(0x00, 0), -1);
    (void)epd_power_down();
    assert_panel_pins_all_low();
}

static void test_power_down_sends_sleep_and_cuts_everything(void **state) {
    size_t first;

    (void)state;
    power_up_ok();
    assert_int_equal(epd_white_window(0, 0, EPD_WIDTH, EPD_HEIGHT), EPD_OK);
    assert_int_equal(epd_refresh_start(), EPD_OK);
    assert_int_equal(epd_refresh_wait(), EPD_OK);
    first = sim_epd_transaction_count();
    assert_int_equal(epd_power_down(), EPD_OK);
    expect_transactions(first, down, DOWN_COUNT);
    assert_true(transaction(first + POWER_OFF_AT + 1u).t_ns -
                    transaction(first + POWER_OFF_AT).t_ns >=
                POWER_OFF_NS);
    assert_panel_pins_all_low();
    assert_no_violations();
    assert_int_equal(epd_refresh_start(), EPD_ERR_NOT_READY);
}

static void test_reboot_leaves_no_stale_ready_state(void **state) {
    size_t before;

    (void)state;
    power_up_ok();
    /* A reboot: hal_init() drops the supply behind the driver's back. */
    hal_init();
    before = sim_epd_transaction_count();
    assert_int_equal(epd_white_window(0, 0, EPD_WIDTH, EPD_HEIGHT), EPD_ERR_NOT_READY);
    assert_int_equal(epd_refresh_start(), EPD_ERR_NOT_READY);
    assert_int_equal(epd_power_down(), EPD_OK);
    assert_int_equal(sim_epd_transaction_count(), before);
    assert_panel_pins_all_low();
}

static void test_power_down_when_off_only_drives_pins_low(void **state) {
    (void)state;
    assert_int_equal(epd_power_down(), EPD_OK);
    assert_int_equal(sim_epd_transaction_count(), 0);
    assert_panel_pins_all_low();
    assert_no_violations();
}

static void test_slow_power_off_still_cuts_supply(void **state) {
    (void)state;
    sim_panel_set_busy_ns(POWER_ON_NS, 10000u * MS, REFRESH_NS);
    power_up_ok();
    assert_int_equal(epd_power_down(), EPD_ERR_BUSY_TIMEOUT);
    assert_int_equal(find_command(0x07, 0), -1);
    assert_panel_pins_all_low();
}

static void test_full_update_reaches_refresh_quickly(void **state) {
    uint8_t next = 0u;
    long refresh;

    (void)state;
    /* At the chip's SPI cost (the sim HAL's): power-up, white page, a full-panel window. */
    sim_panel_set_busy_ns(POWER_ON_NS, POWER_OFF_NS, 1u * MS);
    power_up_ok();
    assert_int_equal(epd_white_window(0, 0, EPD_WIDTH, EPD_HEIGHT), EPD_OK);
    assert_int_equal(write_window(0, 0, 104, 212, &next), EPD_OK);
    assert_int_equal(epd_refresh_start(), EPD_OK);
    assert_int_equal(epd_refresh_wait(), EPD_OK);
    refresh = find_command(0x12, 0);
    assert_true(refresh >= 0);
    /* 16 MHz, and the cell checked awake and under POWER_ON's load. */
    assert_true(transaction((size_t)refresh).t_ns < 400u * MS);
    assert_no_violations();
}

/*
 * A controller that pulls BUSY low a while after the command (0..5 ms): every
 * wait still covers the whole operation, and nothing is sent while it runs.
 */
static void test_busy_latency_is_waited_for(void **state) {
    uint64_t latency_ms;
    long power_on;
    long refresh;

    (void)state;
    for (latency_ms = 0u; latency_ms <= 5u; latency_ms++) {
        boot_board();
        sim_panel_set_busy_latency_ns(latency_ms * MS);
        power_up_ok();
        power_on = find_command(0x04, 0);
        assert_true(power_on >= 0);
        assert_true(transaction((size_t)power_on + 1u).t_ns - transaction((size_t)power_on).t_ns >=
                    latency_ms * MS + POWER_ON_NS);
        assert_int_equal(epd_white_window(0, 0, EPD_WIDTH, EPD_HEIGHT), EPD_OK);
        assert_int_equal(epd_refresh_start(), EPD_OK);
        assert_int_equal(epd_refresh_wait(), EPD_OK);
        assert_int_equal(sim_refresh_count(), 1);
        assert_int_equal(epd_power_down(), EPD_OK);
        refresh = find_command(0x12, 0);
        assert_true(refresh >= 0);
        /* POWER_OFF only once the refresh is over. */
        assert_true(transaction((size_t)refresh + 1u).t_ns - transaction((size_t)refresh).t_ns >=
                    latency_ms * MS + REFRESH_NS);
        assert_panel_pins_all_low();
        assert_no_violations();
    }
}

/* This driver's init on the other controller's model is refused: it is not that part's. */
static void test_the_other_controller_refuses_this_init(void **state) {
    size_t i;
    int refused = 0;

    (void)state;
    boot_board();
    sim_panel_set_controller(OTHER_CONTROLLER);
    (void)epd_power_up();
    (void)epd_white_window(0, 0, EPD_WIDTH, EPD_HEIGHT);
    for (i = 0; i < sim_violation_count(); i++) {
#if EPD_CONTROLLER == EPD_UC8151D
        /* No booster soft start: the IL0373 takes no data. */
        refused += strstr(sim_violation_text(i), "DTM1 data before init") != NULL;
#else
        /* One short reset: the UC8151D asks for three. */
        refused += strstr(sim_violation_text(i), "after 1 reset pulse(s)") != NULL;
#endif
    }
    assert_int_equal(refused, 1);
}

#if EPD_CONTROLLER == EPD_UC8151D
/* A white page shown by a full refresh, then the panel powered up again. */
static void white_shown_then_power_up(void) {
    power_up_ok();
    assert_int_equal(epd_white_window(0, 0, EPD_WIDTH, EPD_HEIGHT), EPD_OK);
    assert_int_equal(epd_refresh_start(), EPD_OK);
    assert_int_equal(epd_refresh_wait(), EPD_OK);
    assert_int_equal(epd_power_down(), EPD_OK);
    power_up_ok();
}

/*
 * What a fast update of rows 16-23 of byte columns 1-2 writes first (display.c): the OLD
 * picture as a whole frame (`old` to DTM1: what the glass shows; no red), then the NEW
 * black over DTM2 alone.
 */
static void load_fast_window(uint8_t old) {
    unsigned i;

    assert_int_equal(epd_window_begin(8, 16, 16, 8), EPD_OK);
    for (i = 0; i < 16u; i++) {
        epd_data(old);
    }
    epd_second_plane();
    for (i = 0; i < 16u; i++) {
        epd_data(0xFFu);
    }
    epd_window_end();
    assert_int_equal(epd_window_plane(EPD_DTM2, 8, 16, 16, 8), EPD_OK);
    for (i = 0; i < 16u; i++) {
        epd_data(0x00u);
    }
    epd_window_end();
}

/* GxEPD2's refresh_bw for this panel (facts 4.1). */
static const expected_t fast_sequence[] = {
    {0x20, 44, {0x00, 0x1F, 0x01, 0x00, 0x00, 0x01, 0x00}},
    {0x21, 42, {0x00, 0x1F, 0x01, 0x00, 0x00, 0x01, 0x00}},
    {0x22, 42, {0x80, 0x1F, 0x01, 0x00, 0x00, 0x01, 0x00}},
    {0x23, 42, {0x40, 0x1F, 0x01, 0x00, 0x00, 0x01, 0x00}},
    {0x24, 42, {0x00, 0x1F, 0x01, 0x00, 0x00, 0x01, 0x00}},
    {0x00, 1, {0xBF}},
    {0x50, 1, {0xF7}},
    {0x91, 0, {0}},
    {0x90, 7, {8, 23, 0, 16, 0, 23, 0x01}},
    {0x12, 0, {0}},
};

static void test_fast_refresh_drives_the_window_in_black_only(void **state) {
    uint8_t black[EPD_PLANE_BYTES];
    uint8_t red[EPD_PLANE_BYTES];
    sim_refresh_info_t info;
    uint32_t start_ms;
    size_t first;

    (void)state;
    white_shown_then_power_up();
    load_fast_window(0xFFu); /* the glass is white */
    first = sim_epd_transaction_count();
    start_ms = now_ms();
    assert_int_equal(epd_fast_refresh_start(8, 16, 16, 8), EPD_OK);
    assert_int_equal(epd_refresh_wait(), EPD_OK);
    /* 32 frames at 50 Hz, not the 16.8 s of the OTP waveform. */
    assert_in_range(now_ms() - start_ms, 640u, 645u);
    expect_transactions(first, fast_sequence, sizeof fast_sequence / sizeof fast_sequence[0]);
    sim_refresh_info(&info);
    assert_int_equal(info.fast, 1);
    assert_int_equal(info.dc_balanced, 1);
    assert_int_equal(info.ghost_max, 1);
    assert_int_equal(info.ram_unknown, 0);
    assert_int_equal(info.wrong_pixels, 0);
    sim_panel_shown(black, red);
    assert_int_equal(black[16u * 13u + 1u], 0x00);
    assert_int_equal(black[23u * 13u + 2u], 0x00);
    assert_int_equal(black[15u * 13u + 1u], 0xFF);
    assert_int_equal(black[16u * 13u + 3u], 0xFF);
    assert_int_equal(red[20u * 13u + 1u], 0xFF);
    assert_int_equal(epd_power_down(), EPD_OK);
    assert_no_violations();
}

/* The same update with the NEW picture in DTM1 as well (not what the glass shows): the
 * controller drives black to black, nothing moves, and the model counts the 128 pixels
 * driven from the wrong side. */
static void test_fast_refresh_from_a_wrong_old_picture_leaves_the_glass_wrong(void **state) {
    uint8_t black[EPD_PLANE_BYTES];
    uint8_t red[EPD_PLANE_BYTES];
    sim_refresh_info_t info;

    (void)state;
    white_shown_then_power_up();
    load_fast_window(0x00u);
    assert_int_equal(epd_fast_refresh_start(8, 16, 16, 8), EPD_OK);
    assert_int_equal(epd_refresh_wait(), EPD_OK);
    sim_refresh_info(&info);
    assert_int_equal(info.wrong_pixels, 128);
    sim_panel_shown(black, red);
    assert_int_equal(black[16u * 13u + 1u], 0xFF);
    assert_int_equal(epd_power_down(), EPD_OK);
    assert_no_violations();
}

/* A fast update whose DTM1 was never written after the power-up uses lost RAM: flagged. */
static void test_fast_refresh_without_the_old_picture_uses_lost_ram(void **state) {
    sim_refresh_info_t info;
    unsigned i;

    (void)state;
    power_up_ok();
    assert_int_equal(epd_window_plane(EPD_DTM2, 8, 16, 16, 8), EPD_OK);
    for (i = 0; i < 16u; i++) {
        epd_data(0x00u);
    }
    epd_window_end();
    assert_int_equal(epd_fast_refresh_start(8, 16, 16, 8), EPD_OK);
    assert_int_equal(epd_refresh_wait(), EPD_OK);
    sim_refresh_info(&info);
    assert_int_equal(info.ram_unknown, 16);
    assert_int_equal(sim_violation_count(), 1);
    assert_non_null(strstr(sim_violation_text(0), "RAM lost"));
    assert_int_equal(epd_power_down(), EPD_OK);
}

/* A stuck BUSY under the fast waveform is given up on after its own bound (2 s), not 34 s. */
static void test_fast_refresh_with_stuck_busy_is_bounded_and_powers_down(void **state) {
    uint32_t start_ms;

    (void)state;
    power_up_ok();
    load_fast_window(0xFFu);
    sim_panel_hold_busy_low(true);
    start_ms = now_ms();
    assert_int_equal(epd_fast_refresh_start(8, 16, 16, 8), EPD_OK);
    assert_int_equal(epd_refresh_wait(), EPD_ERR_BUSY_TIMEOUT);
    assert_in_range(now_ms() - start_ms, 2000u, 2000u + 11u + HAL_SLEEP_PERIOD_MS);
    assert_int_equal(epd_power_down(), EPD_ERR_BUSY_TIMEOUT);
    assert_panel_pins_all_low();
    /* A call before power-up touches nothing. */
    assert_int_equal(epd_fast_refresh_start(0, 0, 8, 8), EPD_ERR_NOT_READY);
}
#else
static void test_il0373_has_no_fast_refresh(void **state) {
    (void)state;
    power_up_ok();
    assert_int_equal(epd_fast_refresh_start(8, 16, 16, 8), EPD_ERR_NOT_READY);
    assert_int_equal(epd_power_down(), EPD_OK);
}
#endif

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void) {
    const struct CMUnitTest tests[] = {
        T(test_power_up_sends_init_sequence),
        T(test_power_up_start_returns_before_power_on_is_done),
        T(test_power_down_after_start_waits_for_power_on),
        T(test_white_window_whitens_just_that_window),
        T(test_window_bytes_and_alignment),
        T(test_bad_windows_are_rejected_before_touching_the_panel),
        T(test_calls_before_power_up_are_refused),
        T(test_power_on_and_refresh_wait_for_busy_asleep),
        T(test_refresh_with_stuck_busy_times_out_and_still_powers_down),
        T(test_power_up_with_stuck_busy_is_bounded),
        T(test_slow_power_on_times_out),
        T(test_power_down_sends_sleep_and_cuts_everything),
        T(test_reboot_leaves_no_stale_ready_state),
        T(test_power_down_when_off_only_drives_pins_low),
        T(test_slow_power_off_still_cuts_supply),
        T(test_full_update_reaches_refresh_quickly),
        T(test_busy_latency_is_waited_for),
        T(test_the_other_controller_refuses_this_init),
#if EPD_CONTROLLER == EPD_UC8151D
        T(test_fast_refresh_drives_the_window_in_black_only),
        T(test_fast_refresh_from_a_wrong_old_picture_leaves_the_glass_wrong),
        T(test_fast_refresh_without_the_old_picture_uses_lost_ram),
        T(test_fast_refresh_with_stuck_busy_is_bounded_and_powers_down),
#else
        T(test_il0373_has_no_fast_refresh),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
