/*
 * test_sim_panel.c - the panel-controller model, driven from pin edges only
 * (no firmware runs: the test plays the MCU on the nets).
 */
#include "sim.h"
#include "sim_bus.h"
#include "sim_clock.h"
#include "sim_panel.h"
#include "sim_test_pins.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

/* The board needs a firmware entry point; these tests never run it. */
void app_main(void) {}

static sim_epd_transaction_t transaction(size_t index) {
    sim_epd_transaction_t entry;

    assert_int_equal(sim_epd_transaction(index, &entry), 0);
    return entry;
}

static void send_plane(uint8_t command, uint8_t seed, unsigned count) {
    unsigned i;

    pins_command(command);
    for (i = 0; i < count; i++) {
        pins_data((uint8_t)(seed + i * 7u));
    }
}

static void test_init_sequence_is_decoded_from_pins(void **state) {
    sim_epd_transaction_t setting;
    sim_epd_transaction_t resolution;

    (void)state;
    pins_power_up();
    pins_command(0x04u);
    /* POWER_ON holds BUSY low for the 79.4 ms GxEPD2 measured on the UC8151D. */
    assert_int_equal(sim_net_level(SIM_NET_EPD_BUSY), 0);
    pins_wait_ns(79000000u);
    assert_int_equal(sim_net_level(SIM_NET_EPD_BUSY), 0);
    pins_wait_ns(1000000u);
    assert_int_equal(sim_net_level(SIM_NET_EPD_BUSY), 1);
    pins_command(0x00u);
    pins_data(0x0Fu);
    pins_data(0x89u);
    pins_command(0x61u);
    pins_data(0x68u);
    pins_data(0x00u);
    pins_data(0xD4u);

    assert_int_equal(sim_epd_transaction_count(), 3);
    assert_int_equal(transaction(0).cmd, 0x04);
    assert_int_equal(transaction(0).len, 0);
    setting = transaction(1);
    assert_int_equal(setting.cmd, 0x00);
    assert_memory_equal(setting.data, "\x0F\x89", 2);
    resolution = transaction(2);
    assert_int_equal(resolution.cmd, 0x61);
    assert_memory_equal(resolution.data, "\x68\x00\xD4", 3);
    assert_true(resolution.t_ns > setting.t_ns);
    assert_int_equal(sim_violation_count(), 0);
}

/* The IL0373: 37 ms of POWER_ON, and no data before its booster soft start. */
static void test_il0373_needs_its_booster_and_has_its_times(void **state) {
    (void)state;
    sim_panel_set_controller(SIM_PANEL_IL0373);
    pins_power_up();
    pins_command(0x04u);
    pins_wait_ns(36000000u);
    assert_int_equal(sim_net_level(SIM_NET_EPD_BUSY), 0);
    pins_wait_ns(2000000u);
    assert_int_equal(sim_net_level(SIM_NET_EPD_BUSY), 1);
    send_plane(0x10u, 0u, 4u);
    assert_int_equal(
        pins_violations_matching("DTM1 data before init (booster soft start + power on)"), 1);
}

/* The UC8151D's reset as its vendors give it: three pulses of 50 us or more, 10 ms to wait. */
static void test_uc8151d_reset_rules(void **state) {
    (void)state;
    pins_set(SIM_NET_EPD_VCC, 1u);
    pins_set(SIM_NET_EPD_CS, 1u);
    pins_wait_ns(1000000u);
    pins_set(SIM_NET_EPD_RST, 1u); /* one pulse, held low since power-up */
    pins_wait_ns(10000000u);
    pins_set(SIM_NET_EPD_RST, 0u);
    pins_wait_ns(20000u); /* too short to count */
    pins_set(SIM_NET_EPD_RST, 1u);
    assert_int_equal(pins_violations_matching("UC8151D: RST low for 20.1 us (it needs 50 us)"), 1);
    pins_wait_ns(1000000u);
    pins_command(0x04u);
    assert_int_equal(pins_violations_matching("first command 0x04 after 1 reset pulse(s)"), 1);
    assert_int_equal(pins_violations_matching("command 0x04 1.00"), 1);
    /* Deep sleep starts a new init: three pulses again, then no complaint. */
    pins_wait_ns(80000000u);
    pins_command(0x02u);
    pins_wait_ns(40000000u);
    pins_command(0x07u);
    pins_data(0xA5u);
    pins_reset();
    pins_command(0x04u);
    assert_int_equal(sim_violation_count(), 3);
}

/* BUSY falls a set latency after the command; the controller is busy from the command on. */
static void test_busy_latency(void **state) {
    (void)state;
    sim_panel_set_busy_latency_ns(3000000u);
    pins_power_up();
    pins_command(0x04u);
    assert_int_equal(sim_net_level(SIM_NET_EPD_BUSY), 1);
    assert_int_equal(sim_panel_state(), SIM_PANEL_BUSY);
    pins_command(0x00u);
    assert_int_equal(pins_violations_matching("command 0x00 while BUSY (the pin not low yet)"), 1);
    pins_wait_ns(3000000u);
    assert_int_equal(sim_net_level(SIM_NET_EPD_BUSY), 0);
    /* The operation's own time counts from there. */
    pins_wait_ns(SIM_UC8151D_POWER_ON_NS - 1000000u);
    assert_int_equal(sim_net_level(SIM_NET_EPD_BUSY), 0);
    /* The UC8151D's status read works while busy (Waveshare's driver polls it). */
    pins_command(0x71u);
    assert_int_equal(sim_violation_count(), 1);
    pins_wait_ns(1000000u);
    assert_int_equal(sim_net_level(SIM_NET_EPD_BUSY), 1);
}

/* A PANEL_SETTING that does not show the three colours from OTP is refused at the refresh. */
static void test_uc8151d_panel_setting_rules(void **state) {
    (void)state;
    pins_power_up();
    pins_init_controller();
    pins_command(0x00u);
    pins_data(0x1Fu); /* black/white only */
    send_plane(0x10u, 0u, SIM_PLANE_BYTES);
    send_plane(0x13u, 0u, SIM_PLANE_BYTES);
    pins_command(0x12u);
    assert_int_equal(pins_violations_matching("PANEL_SETTING 0x1F: black/white mode"), 1);
    pins_wait_ns(SIM_PANEL_REFRESH_NS);
    pins_command(0x00u);
    pins_data(0x2Fu); /* LUT from registers, none loaded */
    pins_command(0x12u);
    assert_int_equal(pins_violations_matching("PANEL_SETTING 0x2F: LUT from registers"), 1);
    pins_wait_ns(SIM_PANEL_REFRESH_NS);
    pins_command(0x00u);
    pins_data(0x0Eu);
    assert_int_equal(pins_violations_matching("RST_N = 0 soft-resets the UC8151D"), 1);
}

static void test_sda_is_sampled_on_the_rising_clock_edge_only(void **state) {
    uint8_t mask;
    const uint8_t byte = 0xA6u;

    (void)state;
    pins_power_up();
    pins_set(SIM_NET_EPD_DC, 0u);
    /* Clock edges with CS high are not data. */
    pins_set(SIM_NET_EPD_SCL, 1u);
    pins_set(SIM_NET_EPD_SCL, 0u);
    pins_set(SIM_NET_EPD_CS, 0u);
    for (mask = 0x80u; mask != 0u; mask >>= 1) {
        pins_set(SIM_NET_EPD_SDA, (byte & mask) != 0u);
        pins_set(SIM_NET_EPD_SCL, 1u);
        /* SDA wiggling while SCL is high and on the falling edge changes nothing. */
        pins_set(SIM_NET_EPD_SDA, (byte & mask) == 0u);
        pins_set(SIM_NET_EPD_SCL, 0u);
    }
    pins_set(SIM_NET_EPD_CS, 1u);
    assert_int_equal(sim_epd_transaction_count(), 1);
    assert_int_equal(transaction(0).cmd, 0xA6);
    assert_int_equal(pins_violations_matching("unknown command 0xA6"), 1);
}

static void test_full_frame_refresh_shows_the_ram_planes_after_busy(void **state) {
    uint8_t black[SIM_PLANE_BYTES];
    uint8_t red[SIM_PLANE_BYTES];
    unsigned i;

    (void)state;
    pins_power_up();
    pins_init_controller();
    send_plane(0x10u, 3u, SIM_PLANE_BYTES);
    send_plane(0x13u, 11u, SIM_PLANE_BYTES);
    pins_command(0x12u);
    assert_int_equal(sim_net_level(SIM_NET_EPD_BUSY), 0);
    sim_panel_shown(black, red);
    assert_int_equal(black[0], 0xFF); /* still the old (white) image */
    pins_wait_ns(SIM_PANEL_REFRESH_NS - 100000000ull);
    assert_int_equal(sim_refresh_count(), 0);
    pins_wait_ns(200000000ull);
    assert_int_equal(sim_refresh_count(), 1);
    assert_int_equal(sim_net_level(SIM_NET_EPD_BUSY), 1);
    sim_panel_shown(black, red);
    for (i = 0; i < SIM_PLANE_BYTES; i++) {
        assert_int_equal(black[i], (uint8_t)(3u + i * 7u));
        assert_int_equal(red[i], (uint8_t)(11u + i * 7u));
    }
    assert_int_equal(sim_violation_count(), 0);
}

static void test_partial_window_aligns_x_and_addresses_the_ram(void **state) {
    uint8_t black[SIM_PLANE_BYTES];
    uint8_t red[SIM_PLANE_BYTES];
    unsigned row;

    (void)state;
    pins_power_up();
    pins_init_controller();
    pins_command(0x91u);
    pins_command(0x90u);
    pins_data(13u); /* x = 13: the controller ignores the low 3 bits -> 8 */
    pins_data((uint8_t)(8u + 16u - 1u) | 0x07u); /* -> 23: two bytes a row */
    pins_data(0u);
    pins_data(10u);
    pins_data(0u);
    pins_data(12u);
    pins_data(0x01u);
    send_plane(0x10u, 0x40u, 6u);
    send_plane(0x13u, 0x80u, 6u);
    pins_command(0x92u);
    sim_panel_ram(black, red);
    for (row = 0; row < 3u; row++) {
        assert_int_equal(black[(10u + row) * 13u + 1u], (uint8_t)(0x40u + (row * 2u) * 7u));
        assert_int_equal(black[(10u + row) * 13u + 2u], (uint8_t)(0x40u + (row * 2u + 1u) * 7u));
        assert_int_equal(red[(10u + row) * 13u + 1u], (uint8_t)(0x80u + (row * 2u) * 7u));
    }
    assert_int_equal(sim_violation_count(), 0);
    /* One byte more than the window holds is an overrun. */
    pins_command(0x91u);
    send_plane(0x10u, 0u, 7u);
    assert_int_equal(pins_violations_matching("DTM1 data overruns the partial window (6 bytes)"),
                     1);
}

static void test_window_outside_the_panel_is_reported(void **state) {
    (void)state;
    pins_power_up();
    pins_init_controller();
    pins_command(0x90u);
    pins_data(96u);
    pins_data(111u);
    pins_data(0u);
    pins_data(0u);
    pins_data(0u);
    pins_data(5u);
    pins_data(1u);
    assert_int_equal(pins_violations_matching("outside the 104x212 panel"), 1);
}

static void test_full_plane_overrun_is_reported_once(void **state) {
    (void)state;
    pins_power_up();
    pins_init_controller();
    send_plane(0x10u, 0u, SIM_PLANE_BYTES + 3u);
    assert_int_equal(pins_violations_matching("DTM1 data overruns the plane (2756 bytes)"), 1);
}

static void test_command_or_data_while_busy(void **state) {
    (void)state;
    pins_power_up();
    pins_command(0x04u);
    pins_command(0x00u);
    pins_data(0x8Fu);
    assert_int_equal(pins_violations_matching("command 0x00 while BUSY"), 1);
    assert_int_equal(pins_violations_matching("data 0x8F while BUSY"), 1);
}

static void test_data_and_refresh_before_init(void **state) {
    (void)state;
    pins_power_up();
    send_plane(0x10u, 0u, 4u);
    pins_command(0x12u);
    assert_int_equal(pins_violations_matching("DTM1 data before init"), 1);
    assert_int_equal(pins_violations_matching("DISPLAY_REFRESH before init"), 1);
    assert_int_equal(sim_net_level(SIM_NET_EPD_BUSY), 1); /* nothing started */
}

static void test_deep_sleep_needs_the_check_code_and_a_reset(void **state) {
    (void)state;
    pins_power_up();
    pins_init_controller();
    pins_command(0x02u);
    pins_wait_ns(SIM_PANEL_POWER_OFF_NS + 1000000u);
    pins_command(0x07u);
    pins_data(0x00u);
    assert_int_equal(pins_violations_matching("check code 0x00 ignored"), 1);
    assert_int_equal(sim_panel_state(), SIM_PANEL_IDLE);
    pins_command(0x07u);
    pins_data(0xA5u);
    assert_int_equal(sim_panel_state(), SIM_PANEL_DEEP_SLEEP);
    pins_command(0x04u);
    assert_int_equal(pins_violations_matching("command 0x04 in deep sleep"), 1);
    /* Only a hardware reset wakes it. */
    pins_reset();
    assert_int_equal(sim_panel_state(), SIM_PANEL_IDLE);
    pins_command(0x06u);
    assert_int_equal(pins_violations_matching("in deep sleep"), 1);
}

static void test_deep_sleep_with_pumps_on_is_reported(void **state) {
    (void)state;
    pins_power_up();
    pins_init_controller();
    pins_command(0x07u);
    pins_data(0xA5u);
    assert_int_equal(pins_violations_matching("DEEP_SLEEP with the charge pumps on"), 1);
}

static void test_ram_is_lost_when_unpowered(void **state) {
    (void)state;
    pins_power_up();
    pins_init_controller();
    send_plane(0x10u, 0u, SIM_PLANE_BYTES);
    send_plane(0x13u, 0u, SIM_PLANE_BYTES);
    pins_command(0x02u);
    pins_wait_ns(SIM_PANEL_POWER_OFF_NS + 1000000u);
    pins_set(SIM_NET_EPD_CS, 0u);
    pins_set(SIM_NET_EPD_RST, 0u);
    pins_set(SIM_NET_EPD_DC, 0u);
    pins_set(SIM_NET_EPD_VCC, 0u);
    assert_int_equal(sim_violation_count(), 0);
    pins_power_up();
    pins_init_controller();
    pins_command(0x12u);
    assert_int_equal(pins_violations_matching("RAM lost while unpowered"), 1);
}

static void test_control_pin_high_while_unpowered(void **state) {
    (void)state;
    pins_power_up(); /* leaves CS and RST high */
    pins_set(SIM_NET_EPD_VCC, 0u);
    assert_int_equal(pins_violations_matching("EPD_CS high while EPD_VCC is off"), 1);
    assert_int_equal(pins_violations_matching("EPD_RST high while EPD_VCC is off"), 1);
    /* A control pin rising while the supply is off is the same fault. */
    pins_set(SIM_NET_EPD_SDA, 1u);
    pins_set(SIM_NET_EPD_SDA, 0u);
    pins_set(SIM_NET_EPD_SDA, 1u);
    assert_int_equal(pins_violations_matching("EPD_SDA high while EPD_VCC is off"), 1);
    assert_int_equal(sim_net_level(SIM_NET_EPD_BUSY), 0); /* an unpowered panel pulls BUSY low */
}

static void test_supply_cut_with_pumps_on_or_busy(void **state) {
    (void)state;
    pins_power_up();
    pins_init_controller();
    /* (Pulling RST low first would reset the controller and stop the pumps.) */
    pins_set(SIM_NET_EPD_VCC, 0u);
    assert_int_equal(pins_violations_matching("cut with the charge pumps on"), 1);
    pins_power_up();
    pins_command(0x04u);
    /* (Pulling RST low first would abort the power-on and end BUSY.) */
    pins_set(SIM_NET_EPD_VCC, 0u);
    assert_int_equal(pins_violations_matching("EPD_VCC cut while BUSY"), 1);
}

static void test_unknown_command_and_partial_byte(void **state) {
    (void)state;
    pins_power_up();
    pins_command(0x55u);
    assert_int_equal(pins_violations_matching("unknown command 0x55"), 1);
    pins_command(0x22u); /* a LUT register: known */
    assert_int_equal(pins_violations_matching("unknown command"), 1);
    pins_set(SIM_NET_EPD_CS, 0u);
    pins_set(SIM_NET_EPD_SCL, 1u);
    pins_set(SIM_NET_EPD_SCL, 0u);
    pins_set(SIM_NET_EPD_CS, 1u);
    assert_int_equal(pins_violations_matching("CS released after 1 bits"), 1);
}

static void test_bytes_while_reset_is_held_are_reported(void **state) {
    (void)state;
    pins_power_up();
    pins_set(SIM_NET_EPD_RST, 0u);
    pins_command(0x06u);
    assert_int_equal(pins_violations_matching("while RST is low"), 1);
    assert_int_equal(sim_epd_transaction_count(), 0);
}

/* ---- waveforms from the LUT registers --------------------------------------- */

/*
 * One group per LUT, as GxEPD2's refresh_bw for this panel loads them (facts
 * 4.1): level selects VCOM 0x00, WW 0x00, BW 0x80, WB 0x40, BB 0x00, and 0x1F
 * frames, 1 frame, repeated once; the rest of each LUT zero. `ww` replaces
 * WW's level select (to make the waveform unbalanced).
 */
static void load_bw_luts(uint8_t ww) {
    const uint8_t levels[5] = {0x00u, ww, 0x80u, 0x40u, 0x00u};
    unsigned lut;
    unsigned i;

    for (lut = 0; lut < 5u; lut++) {
        pins_command((uint8_t)(0x20u + lut));
        pins_data(levels[lut]);
        pins_data(0x1Fu);
        pins_data(0x01u);
        pins_data(0x00u);
        pins_data(0x00u);
        pins_data(0x01u);
        for (i = 6u; i < (lut == 0u ? 44u : 42u); i++) {
            pins_data(0x00u);
        }
    }
}

static void send_filled_plane(uint8_t command, uint8_t value) {
    unsigned i;

    pins_command(command);
    for (i = 0; i < SIM_PLANE_BYTES; i++) {
        pins_data(value);
    }
}

/* A full three-colour refresh of a black plane of `black` and no red. */
static void show_full(uint8_t black) {
    send_filled_plane(0x10u, black);
    send_filled_plane(0x13u, 0xFFu);
    pins_command(0x12u);
    pins_wait_ns(SIM_PANEL_REFRESH_NS);
}

/*
 * Whole planes in RAM (DTM1 the OLD picture, DTM2 the NEW one: facts 5.1), then the b/w
 * waveform over the window x 8..23, rows 10..19.
 */
static void fast_update(uint8_t old, uint8_t black, uint8_t ww) {
    pins_command(0x92u); /* the whole plane, not the last window */
    send_filled_plane(0x10u, old);
    send_filled_plane(0x13u, black);
    load_bw_luts(ww);
    pins_command(0x00u);
    pins_data(0xBFu);
    pins_command(0x50u);
    pins_data(0xF7u);
    pins_command(0x91u);
    pins_command(0x90u);
    pins_data(8u);
    pins_data(23u);
    pins_data(0u);
    pins_data(10u);
    pins_data(0u);
    pins_data(19u);
    pins_data(0x01u);
    pins_command(0x12u);
}

static void test_fast_refresh_runs_the_register_waveform_in_the_window(void **state) {
    uint8_t black[SIM_PLANE_BYTES];
    uint8_t red[SIM_PLANE_BYTES];
    sim_refresh_info_t info;

    (void)state;
    pins_power_up();
    pins_init_controller();
    show_full(0xF0u);
    sim_refresh_info(&info);
    assert_int_equal(info.fast, 0);
    assert_int_equal(info.duration_ns, SIM_PANEL_REFRESH_NS);
    fast_update(0xF0u, 0x0Fu, 0x00u);
    /* 32 frames at the default PLL_CONTROL (0x3C, 50 Hz): 640 ms of BUSY, not 16.79 s. */
    pins_wait_ns(639000000u);
    assert_int_equal(sim_net_level(SIM_NET_EPD_BUSY), 0);
    pins_wait_ns(2000000u);
    assert_int_equal(sim_net_level(SIM_NET_EPD_BUSY), 1);
    sim_refresh_info(&info);
    assert_int_equal(info.count, 2);
    assert_int_equal(info.fast, 1);
    assert_int_equal(info.frames, 32);
    assert_int_equal(info.frame_rate_hz, 50);
    assert_int_equal(info.duration_ns, 640000000u);
    assert_int_equal(info.dc_balanced, 1);
    assert_int_equal(info.ghost_max, 1);
    sim_panel_shown(black, red);
    /* Inside the window (bytes 1-2 of rows 10-19) the new black, outside the old. */
    assert_int_equal(black[10u * 13u + 1u], 0x0F);
    assert_int_equal(black[19u * 13u + 2u], 0x0F);
    assert_int_equal(black[10u * 13u + 0u], 0xF0);
    assert_int_equal(black[10u * 13u + 3u], 0xF0);
    assert_int_equal(black[9u * 13u + 1u], 0xF0);
    assert_int_equal(black[20u * 13u + 1u], 0xF0);
    assert_int_equal(red[15u * 13u + 1u], 0xFF);
    assert_int_equal(sim_violation_count(), 0);

    /* PLL_CONTROL 0x3A (100 Hz) halves it. */
    pins_command(0x30u);
    pins_data(0x3Au);
    fast_update(0x0Fu, 0xF0u, 0x00u);
    pins_wait_ns(330000000u);
    sim_refresh_info(&info);
    assert_int_equal(info.duration_ns, 320000000u);
    assert_int_equal(info.frame_rate_hz, 100);
    assert_int_equal(sim_net_level(SIM_NET_EPD_BUSY), 1);
    /* A value outside the table is reported. */
    pins_command(0x30u);
    pins_data(0x12u);
    fast_update(0xF0u, 0xF0u, 0x00u);
    assert_int_equal(pins_violations_matching("PLL_CONTROL 0x12 is not in"), 1);
}

/* Each fast update that drives a pixel adds to its ghost count; a full refresh clears it. */
static void test_ghost_count_grows_with_fast_updates_and_clears_on_a_full_refresh(void **state) {
    sim_refresh_info_t info;
    unsigned n;

    (void)state;
    pins_power_up();
    pins_init_controller();
    show_full(0xFFu);
    for (n = 0; n < 4u; n++) {
        fast_update(n % 2u == 0u ? 0xFFu : 0x00u, n % 2u == 0u ? 0x00u : 0xFFu, 0x00u);
        pins_wait_ns(700000000u);
    }
    sim_refresh_info(&info);
    assert_int_equal(info.ghost_max, 4);
    /* A pixel that keeps its colour is not driven by this waveform (WW and BB are ground). */
    fast_update(0xFFu, 0xFFu, 0x00u);
    pins_wait_ns(700000000u);
    sim_refresh_info(&info);
    assert_int_equal(info.ghost_max, 4);
    pins_command(0x00u);
    pins_data(0x8Fu);
    pins_command(0x92u);
    show_full(0xFFu);
    sim_refresh_info(&info);
    assert_int_equal(info.ghost_max, 0);
    assert_int_equal(sim_violation_count(), 0);
}

/* A waveform that drives white pixels towards black every time is not DC-balanced. */
static void test_unbalanced_register_waveform_is_reported(void **state) {
    uint8_t black[SIM_PLANE_BYTES];
    uint8_t red[SIM_PLANE_BYTES];
    sim_refresh_info_t info;

    (void)state;
    pins_power_up();
    pins_init_controller();
    show_full(0xFFu);
    fast_update(0xFFu, 0xFFu, 0x40u); /* WW: VDH for 31 frames */
    assert_int_equal(pins_violations_matching("not DC-balanced (VDH - VDL frames: VCOM 0, WW 31, "
                                              "BW -31, WB 31, BB 0)"),
                     1);
    pins_wait_ns(700000000u);
    sim_refresh_info(&info);
    assert_int_equal(info.dc_balanced, 0);
    /* ... and it does what it says: white stays white only outside the window. */
    sim_panel_shown(black, red);
    assert_int_equal(black[12u * 13u + 1u], 0x00);
    assert_int_equal(black[12u * 13u + 4u], 0xFF);
}

/* Red cannot be driven by a black/white waveform: a red pixel in its window is refused. */
static void test_fast_refresh_over_red_is_reported_and_red_is_kept(void **state) {
    uint8_t black[SIM_PLANE_BYTES];
    uint8_t red[SIM_PLANE_BYTES];

    (void)state;
    pins_power_up();
    pins_init_controller();
    send_filled_plane(0x10u, 0xFFu);
    send_filled_plane(0x13u, 0x7Fu); /* the first pixel of every byte red */
    pins_command(0x12u);
    pins_wait_ns(SIM_PANEL_REFRESH_NS);
    fast_update(0xFFu, 0x00u, 0x00u);
    pins_wait_ns(700000000u);
    assert_int_equal(pins_violations_matching("black/white refresh over a red pixel (8, 10)"), 1);
    sim_panel_shown(black, red);
    assert_int_equal(red[12u * 13u + 1u], 0x7F);
}

/* ---- the reference drivers' own sequences (facts 4.1, 5.1) ------------------- */

/* Two pictures with black and white in most bytes, and a red one. */
static uint8_t picture_a(unsigned i) {
    return (uint8_t)(i * 37u + 5u);
}

static uint8_t picture_b(unsigned i) {
    return (uint8_t)(i * 101u + 77u);
}

static uint8_t picture_red(unsigned i) {
    return (uint8_t)(i % 13u < 3u ? 0x0Fu : 0xFFu);
}

static uint8_t white(unsigned i) {
    (void)i;
    return 0xFFu;
}

/* The window of the tests below: x 16..47 (bytes 2-5), rows 30..69. */
#define WIN_BYTE0 2u
#define WIN_BYTES 4u
#define WIN_Y 30u
#define WIN_H 40u

static bool in_window(unsigned i) {
    unsigned row = i / 13u;
    unsigned column = i % 13u;

    return row >= WIN_Y && row < WIN_Y + WIN_H && column >= WIN_BYTE0 &&
           column < WIN_BYTE0 + WIN_BYTES;
}

static void wait_idle(unsigned max_ms) {
    unsigned waited_ms;

    for (waited_ms = 0; waited_ms < max_ms && sim_bus_level(SIM_NET_EPD_BUSY) == 0u; waited_ms++) {
        pins_wait_ns(1000000u);
    }
    assert_int_equal(sim_net_level(SIM_NET_EPD_BUSY), 1);
}

static void send_picture(uint8_t command, uint8_t (*picture)(unsigned)) {
    unsigned i;

    pins_command(command);
    for (i = 0; i < SIM_PLANE_BYTES; i++) {
        pins_data(picture(i));
    }
}

static void partial_window_command(void) {
    pins_command(0x90u);
    pins_data((uint8_t)(WIN_BYTE0 * 8u));
    pins_data((uint8_t)((WIN_BYTE0 + WIN_BYTES) * 8u - 1u));
    pins_data(0u);
    pins_data((uint8_t)WIN_Y);
    pins_data(0u);
    pins_data((uint8_t)(WIN_Y + WIN_H - 1u));
    pins_data(0x01u);
}

/* GxEPD2_213_Z19c's writeImagePrevious (0x10) / writeImageNew (0x13) of the window:
 * PARTIAL_IN, the window, the plane's bytes of the window, PARTIAL_OUT. */
static void write_window(uint8_t command, uint8_t (*picture)(unsigned)) {
    unsigned i;

    pins_command(0x91u);
    partial_window_command();
    pins_command(command);
    for (i = 0; i < SIM_PLANE_BYTES; i++) {
        if (in_window(i)) {
            pins_data(picture(i));
        }
    }
    pins_command(0x92u);
}

/* Its refresh_bw of the window: the LUT registers, PANEL_SETTING 0xBF, VCOM and data
 * interval 0xF7, PARTIAL_IN, the window, DISPLAY_REFRESH, BUSY, PARTIAL_OUT, 0x8F again. */
static void gxepd2_refresh_bw(void) {
    load_bw_luts(0x00u);
    pins_command(0x00u);
    pins_data(0xBFu);
    pins_command(0x50u);
    pins_data(0xF7u);
    pins_command(0x91u);
    partial_window_command();
    pins_command(0x12u);
    wait_idle(1000u);
    pins_command(0x92u);
    pins_command(0x00u);
    pins_data(0x8Fu);
}

/* Powered, GxEPD2's init, and picture A (no red) by a full refresh. */
static void show_picture_a(void) {
    pins_power_up();
    pins_init_controller();
    send_picture(0x10u, picture_a);
    send_picture(0x13u, white);
    pins_command(0x12u);
    wait_idle(20000u);
}

/* GxEPD2's mixed test: picture A by a full refresh, then A's window as the previous
 * picture, B's as the current one, refresh_bw: the window shows B, the rest A. */
static void test_gxepd2_refresh_bw_shows_the_new_window(void **state) {
    uint8_t black[SIM_PLANE_BYTES];
    uint8_t red[SIM_PLANE_BYTES];
    sim_refresh_info_t info;
    unsigned i;

    (void)state;
    show_picture_a();
    write_window(0x10u, picture_a);
    write_window(0x13u, picture_b);
    gxepd2_refresh_bw();
    sim_refresh_info(&info);
    assert_int_equal(info.fast, 1);
    assert_int_equal(info.count, 2);
    assert_int_equal(info.wrong_pixels, 0);
    assert_int_equal(info.wrong_pixels_total, 0);
    assert_int_equal(info.ram_unknown, 0);
    sim_panel_shown(black, red);
    for (i = 0; i < SIM_PLANE_BYTES; i++) {
        assert_int_equal(black[i], in_window(i) ? picture_b(i) : picture_a(i));
        assert_int_equal(red[i], 0xFF);
    }
    assert_int_equal(sim_violation_count(), 0);
}

/* The same refresh_bw after a DTM1 that is not the glass (the new picture in DTM1, white in
 * DTM2): each pixel is driven from its DTM1 value, not from what it shows, and the window
 * ends neither the old picture nor the new one; every pixel whose DTM1 value differed
 * from its glass is counted. */
static void test_refresh_bw_from_a_dtm1_other_than_the_glass_shows_the_wrong_picture(void **state) {
    uint8_t black[SIM_PLANE_BYTES];
    uint8_t red[SIM_PLANE_BYTES];
    sim_refresh_info_t info;
    unsigned differing = 0;
    unsigned not_new = 0;
    unsigned i;

    (void)state;
    show_picture_a();
    write_window(0x10u, picture_b);
    write_window(0x13u, white);
    gxepd2_refresh_bw();
    sim_panel_shown(black, red);
    for (i = 0; i < SIM_PLANE_BYTES; i++) {
        uint8_t a = picture_a(i);
        uint8_t b = picture_b(i);

        if (!in_window(i)) {
            assert_int_equal(black[i], a);
            continue;
        }
        /* B's black goes white (BW), B's white keeps A (WW drives nothing). */
        assert_int_equal(black[i], (uint8_t)(a | (uint8_t)~b));
        differing += (unsigned)__builtin_popcount((unsigned)(uint8_t)(a ^ b));
        not_new += black[i] != b ? 1u : 0u;
    }
    sim_refresh_info(&info);
    /* Of the window's 1,280 pixels, about half; and most of its bytes are not B. */
    assert_true(differing > 400u);
    assert_true(not_new > 100u);
    assert_int_equal(info.wrong_pixels, differing);
    assert_int_equal(info.wrong_pixels_total, differing);
    assert_int_equal(sim_violation_count(), 0);
}

/* Waveshare's EPD_2in13b_V3: its init, both planes, a full refresh, its sleep (VCOM and
 * data interval 0xF7, POWER_OFF, DEEP_SLEEP): the planes shown as sent. Then its RAM is
 * gone: a refresh_bw that writes only the new window uses unknown DTM1 bytes, flagged. */
static void test_waveshare_v3_full_refresh_then_ram_lost_in_deep_sleep(void **state) {
    uint8_t black[SIM_PLANE_BYTES];
    uint8_t red[SIM_PLANE_BYTES];
    sim_refresh_info_t info;
    unsigned i;

    (void)state;
    pins_power_up();
    pins_command(0x04u);
    wait_idle(200u);
    pins_command(0x00u);
    pins_data(0x0Fu);
    pins_data(0x89u);
    pins_command(0x61u);
    pins_data(0x68u);
    pins_data(0x00u);
    pins_data(0xD4u);
    pins_command(0x50u);
    pins_data(0x77u);
    send_picture(0x10u, picture_a);
    send_picture(0x13u, picture_red);
    pins_command(0x12u);
    wait_idle(20000u);
    pins_command(0x50u);
    pins_data(0xF7u);
    pins_command(0x02u);
    wait_idle(200u);
    pins_command(0x07u);
    pins_data(0xA5u);
    assert_int_equal(sim_panel_state(), SIM_PANEL_DEEP_SLEEP);
    sim_panel_shown(black, red);
    for (i = 0; i < SIM_PLANE_BYTES; i++) {
        assert_int_equal(black[i], picture_a(i));
        assert_int_equal(red[i], picture_red(i));
    }
    sim_refresh_info(&info);
    assert_int_equal(info.fast, 0);
    assert_int_equal(info.ram_unknown, 0);
    assert_int_equal(sim_violation_count(), 0);

    pins_reset();
    pins_init_controller();
    /* Clear the red first (a full refresh of white), then lose the RAM once more. */
    send_picture(0x10u, picture_a);
    send_picture(0x13u, white);
    pins_command(0x12u);
    wait_idle(20000u);
    pins_command(0x02u);
    wait_idle(200u);
    pins_command(0x07u);
    pins_data(0xA5u);
    pins_reset();
    pins_init_controller();
    write_window(0x13u, picture_b);
    gxepd2_refresh_bw();
    sim_refresh_info(&info);
    assert_int_equal(info.ram_unknown, WIN_BYTES * WIN_H);
    assert_int_equal(pins_violations_matching("RAM lost while unpowered or in deep sleep (160 of "
                                              "the window's bytes it uses not rewritten)"),
                     1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_init_sequence_is_decoded_from_pins, pins_boot,
                                        pins_shut_down),
        cmocka_unit_test_setup_teardown(test_il0373_needs_its_booster_and_has_its_times, pins_boot,
                                        pins_shut_down),
        cmocka_unit_test_setup_teardown(test_uc8151d_reset_rules, pins_boot, pins_shut_down),
        cmocka_unit_test_setup_teardown(test_busy_latency, pins_boot, pins_shut_down),
        cmocka_unit_test_setup_teardown(test_uc8151d_panel_setting_rules, pins_boot,
                                        pins_shut_down),
        cmocka_unit_test_setup_teardown(test_sda_is_sampled_on_the_rising_clock_edge_only,
                                        pins_boot, pins_shut_down),
        cmocka_unit_test_setup_teardown(test_full_frame_refresh_shows_the_ram_planes_after_busy,
                                        pins_boot, pins_shut_down),
        cmocka_unit_test_setup_teardown(test_partial_window_aligns_x_and_addresses_the_ram,
                                        pins_boot, pins_shut_down),
        cmocka_unit_test_setup_teardown(test_window_outside_the_panel_is_reported, pins_boot,
                                        pins_shut_down),
        cmocka_unit_test_setup_teardown(test_full_plane_overrun_is_reported_once, pins_boot,
                                        pins_shut_down),
        cmocka_unit_test_setup_teardown(test_command_or_data_while_busy, pins_boot, pins_shut_down),
        cmocka_unit_test_setup_teardown(test_data_and_refresh_before_init, pins_boot,
                                        pins_shut_down),
        cmocka_unit_test_setup_teardown(test_deep_sleep_needs_the_check_code_and_a_reset, pins_boot,
                                        pins_shut_down),
        cmocka_unit_test_setup_teardown(test_deep_sleep_with_pumps_on_is_reported, pins_boot,
                                        pins_shut_down),
        cmocka_unit_test_setup_teardown(test_ram_is_lost_when_unpowered, pins_boot, pins_shut_down),
        cmocka_unit_test_setup_teardown(test_control_pin_high_while_unpowered, pins_boot,
                                        pins_shut_down),
        cmocka_unit_test_setup_teardown(test_supply_cut_with_pumps_on_or_busy, pins_boot,
                                        pins_shut_down),
        cmocka_unit_test_setup_teardown(test_unknown_command_and_partial_byte, pins_boot,
                                        pins_shut_down),
        cmocka_unit_test_setup_teardown(test_bytes_while_reset_is_held_are_reported, pins_boot,
                                        pins_shut_down),
        cmocka_unit_test_setup_teardown(test_fast_refresh_runs_the_register_waveform_in_the_window,
                                        pins_boot, pins_shut_down),
        cmocka_unit_test_setup_teardown(
            test_ghost_count_grows_with_fast_updates_and_clears_on_a_full_refresh, pins_boot,
            pins_shut_down),
        cmocka_unit_test_setup_teardown(test_unbalanced_register_waveform_is_reported, pins_boot,
                                        pins_shut_down),
        cmocka_unit_test_setup_teardown(test_fast_refresh_over_red_is_reported_and_red_is_kept,
                                        pins_boot, pins_shut_down),
        cmocka_unit_test_setup_teardown(test_gxepd2_refresh_bw_shows_the_new_window, pins_boot,
                                        pins_shut_down),
        cmocka_unit_test_setup_teardown(
            test_refresh_bw_from_a_dtm1_other_than_the_glass_shows_the_wrong_picture, pins_boot,
            pins_shut_down),
        cmocka_unit_test_setup_teardown(test_waveshare_v3_full_refresh_then_ram_lost_in_deep_sleep,
                                        pins_boot, pins_shut_down),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
