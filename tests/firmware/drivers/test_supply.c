/*
 * test_supply.c - the cell's guard (drivers/supply.h) on the simulated board's core: which
 * ADC reading proves which VDD, and the FVR's calibration kept in EEPROM.
 */
#include "hal.h"
#include "sim.h"
#include "supply.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

/* The firmware coroutine never runs here: the tests call the guard themselves. */
void app_main(void) {
    for (;;) {
        hal_sleep();
    }
}

static int setup(void **state) {
    (void)state;
    assert_int_equal(sim_boot(NULL), 0);
    hal_init();
    supply_init();
    return 0;
}

static int teardown(void **state) {
    (void)state;
    sim_shutdown();
    return 0;
}

/* The ADC's transfer (DS40001839, ADC chapter): 1 LSB = VREF+ / 1024, truncated: the FVR
 * against VDD reads floor(1024 x FVR / VDD). */
static uint16_t adc_reading(uint32_t fvr_mv, uint32_t vdd_mv) {
    return (uint16_t)(fvr_mv * 1024u / vdd_mv);
}

/* A reading at most supply_floor_reading(fvr, mv) comes from no VDD under mv, and every VDD
 * 16 mV (two to three steps) above mv gives one. The 8-bit macro before (255 x 1.024 V /
 * mv, rounded, against ADRESH) let 2.731 V through for 2.75 V and 2.621 V for 2.63 V. */
static void test_the_floor_reading_admits_no_vdd_below_the_floor(void **state) {
    static const uint16_t floors_mv[] = {2600u, 2630u, 2750u, SUPPLY_AWAKE_MIN_MV, 3000u};
    static const uint16_t fvrs_mv[] = {SUPPLY_FVR_MIN_MV, 983u, 1024u, 1065u, SUPPLY_FVR_MAX_MV};
    size_t f;
    size_t r;
    uint32_t vdd;

    (void)state;
    for (f = 0; f < sizeof floors_mv / sizeof floors_mv[0]; f++) {
        for (r = 0; r < sizeof fvrs_mv / sizeof fvrs_mv[0]; r++) {
            uint16_t max = supply_floor_reading(fvrs_mv[r], floors_mv[f]);

            assert_int_equal(max, fvrs_mv[r] * 1024u / floors_mv[f] - 1u);
            for (vdd = floors_mv[f] - 100u; vdd < floors_mv[f]; vdd++) {
                assert_true(adc_reading(fvrs_mv[r], vdd) > max);
            }
            for (vdd = floors_mv[f] + 16u; vdd < floors_mv[f] + 100u; vdd++) {
                assert_true(adc_reading(fvrs_mv[r], vdd) <= max);
            }
        }
    }
}

/* The host's VDD gives the FVR to within a millivolt or two (the reading's step at 3 V is
 * 3 mV of VDD, 1 mV of FVR); it is kept in EEPROM and read back by the next boot. A VDD that
 * puts the FVR out of its tolerance changes nothing. */
static void test_a_calibration_is_worked_out_kept_and_read_back(void **state) {
    (void)state;
    assert_int_equal(supply_fvr_mv(), HAL_FVR_NOMINAL_MV);
    sim_fvr_set(1.060);
    sim_battery_set(3.0, 0.001);
    hal_delay_ms(10u);
    assert_true(supply_calibrate(3000u));
    assert_in_range(supply_fvr_mv(), 1059u, 1061u);
    assert_false(supply_calibrate(2000u)); /* the FVR would be 1.41 V */
    assert_false(supply_calibrate(60000u));
    assert_in_range(supply_fvr_mv(), 1059u, 1061u);
    supply_init();
    assert_in_range(supply_fvr_mv(), 1059u, 1061u);
    /* A damaged record (its check byte) is not taken: the nominal FVR. */
    sim_eeprom_poke(SUPPLY_EEPROM_AT + 2u, 0x00u);
    supply_init();
    assert_int_equal(supply_fvr_mv(), HAL_FVR_NOMINAL_MV);
}

/* The checks with the FVR 4 % high: uncalibrated the cell reads 4 % low and a good one is
 * refused; calibrated it is taken. */
static void test_the_checks_count_with_the_calibrated_fvr(void **state) {
    (void)state;
    sim_fvr_set(1.024 * 1.04);
    sim_battery_set(2.9, 0.001);
    assert_false(supply_awake_ok()); /* reads about 2.79 V */
    assert_true(supply_calibrate(2900u));
    assert_true(supply_awake_ok());
    assert_true(supply_loaded_ok());
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_floor_reading_admits_no_vdd_below_the_floor),
        cmocka_unit_test_setup_teardown(test_a_calibration_is_worked_out_kept_and_read_back, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_the_checks_count_with_the_calibrated_fvr, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
