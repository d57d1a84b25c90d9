/*
 * test_sim_backfeed.c - nothing back-powers anything: a panel input (SCL SDA
 * CS DC RST) high while the panel's supply is off, and the serial adapter's
 * 3.3 V on UART_RX above VDD, are violations of the simulated board. The
 * test plays the MCU and the host on the nets (no firmware runs).
 */
#include "sim.h"
#include "sim_bus.h"
#include "sim_test_pins.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#define MS 1000000ull

/* The board needs a firmware entry point; these tests never run it. */
void app_main(void) {}

static const sim_net_t panel_inputs[] = {SIM_NET_EPD_SCL, SIM_NET_EPD_SDA, SIM_NET_EPD_CS,
                                         SIM_NET_EPD_DC, SIM_NET_EPD_RST};
#define INPUT_COUNT (sizeof panel_inputs / sizeof panel_inputs[0])

/* Every input low but `kept` (none if kept >= INPUT_COUNT), which is left as it is. */
static void inputs_low_but(size_t kept) {
    size_t i;

    for (i = 0; i < INPUT_COUNT; i++) {
        if (i != kept) {
            pins_set(panel_inputs[i], 0u);
        }
    }
}

static void expect_backfeed_of(sim_net_t net) {
    char text[64];

    snprintf(text, sizeof text, "%s high while EPD_VCC is off", sim_bus_net_name(net));
    assert_int_equal(pins_violations_matching(text), 1);
    assert_int_equal(sim_violation_count(), 1);
}

/* Each input left high as the supply is cut is named, and only it. */
static void test_each_input_high_at_the_cut(void **state) {
    size_t i;

    (void)state;
    for (i = 0; i < INPUT_COUNT; i++) {
        assert_int_equal(sim_boot(NULL), 0);
        pins_power_up();
        inputs_low_but(i);
        pins_set(panel_inputs[i], 1u);
        pins_set(SIM_NET_EPD_VCC, 0u);
        expect_backfeed_of(panel_inputs[i]);
    }
}

/* Each input driven high while the supply is off is named once per cut. */
static void test_each_input_rising_while_off(void **state) {
    size_t i;

    (void)state;
    for (i = 0; i < INPUT_COUNT; i++) {
        assert_int_equal(sim_boot(NULL), 0);
        pins_set(panel_inputs[i], 1u);
        pins_set(panel_inputs[i], 0u);
        pins_set(panel_inputs[i], 1u);
        expect_backfeed_of(panel_inputs[i]);
    }
}

/* Every input low, then the supply: nothing to report. */
static void test_all_low_before_the_cut_is_clean(void **state) {
    (void)state;
    pins_power_up();
    inputs_low_but(INPUT_COUNT);
    pins_set(SIM_NET_EPD_VCC, 0u);
    pins_wait_ns(10u * MS);
    assert_int_equal(sim_violation_count(), 0);
}

/* The host sends a byte at 3.3 V logic to a chip on a 3.0 V cell. */
static void host_sends_a_byte(void) {
    static const uint8_t byte = 0x55u;

    sim_battery_set(3.0, 15.0);
    sim_uart_send(&byte, 1u);
    pins_wait_ns(1u * MS);
    assert_int_equal(sim_net_level(SIM_NET_UART_RX), 1);
}

/* R2 alone, as the board was first drawn: RA1's clamp diode feeds VDD from the adapter. */
static void test_rx_through_r2_alone_feeds_vdd(void **state) {
    (void)state;
    sim_uart_set_rx_path(SIM_RX_PATH_RESISTOR);
    host_sends_a_byte();
    /* VDD is the cell's 3.0 V, below the adapter's 3.3 V. */
    assert_int_equal(pins_violations_matching("UART_RX driven to 3.30 V through R2 with VDD at "),
                     1);
    assert_int_equal(sim_violation_count(), 1);
}

/* Through the Schottky (the default) the adapter only pulls the line low. */
static void test_rx_through_the_schottky_is_clean(void **state) {
    (void)state;
    host_sends_a_byte();
    assert_int_equal(sim_violation_count(), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_each_input_high_at_the_cut, pins_boot, pins_shut_down),
        cmocka_unit_test_setup_teardown(test_each_input_rising_while_off, pins_boot,
                                        pins_shut_down),
        cmocka_unit_test_setup_teardown(test_all_low_before_the_cut_is_clean, pins_boot,
                                        pins_shut_down),
        cmocka_unit_test_setup_teardown(test_rx_through_r2_alone_feeds_vdd, pins_boot,
                                        pins_shut_down),
        cmocka_unit_test_setup_teardown(test_rx_through_the_schottky_is_clean, pins_boot,
                                        pins_shut_down),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
