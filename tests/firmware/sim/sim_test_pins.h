/*
 * sim_test_pins.h - drive the board's nets straight from a test, the way a
 * firmware would, so the panel model is checked from pin edges alone.
 */
#ifndef EPDLE_SIM_TEST_PINS_H
#define EPDLE_SIM_TEST_PINS_H

#include "sim.h"

#include <stdint.h>

/* cmocka fixtures: a fresh board (no firmware runs unless the test advances the board). */
int pins_boot(void **state);
int pins_shut_down(void **state);
/* How many of the board's violations contain `needle`. */
int pins_violations_matching(const char *needle);
/* Let ns of virtual time pass (events due on the way are applied). */
void pins_wait_ns(uint64_t ns);
/* Set a net and let one instruction time pass, like hal_pin_write. */
void pins_set(sim_net_t net, uint8_t level);
/* One byte over bit-banged SPI mode 0, MSB first, CS around the byte. */
void pins_spi_byte(uint8_t byte, uint8_t dc);
void pins_command(uint8_t command);
void pins_data(uint8_t byte);
/* Supply on and three reset pulses (either controller listens 10 ms after the last). */
void pins_power_up(void);
/* Three reset pulses of 60 us, then the 10 ms the UC8151D's vendors wait. */
void pins_reset(void);
/* An init either controller takes: BOOSTER_SOFT_START (the UC8151D's defaults), POWER_ON
 * and its BUSY time, PANEL_SETTING 0x8F, VCOM and data interval, resolution. */
void pins_init_controller(void);

#endif /* EPDLE_SIM_TEST_PINS_H */
