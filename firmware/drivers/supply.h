/*
 * supply.h - the coin cell's guard on the panel's power: VDD measured against the
 * (calibrated) FVR before the panel is powered and under its charge pumps' load.
 * epd_power_up_start(), the one place that switches the panel on, asks it on every path
 * (the button, the host's SHOW, the built-in frames).
 */
#ifndef EPDLE_SUPPLY_H
#define EPDLE_SUPPLY_H

#include <stdbool.h>
#include <stdint.h>

#include "hal.h"

/*
 * The floors (hardware/power.md, "A design that survives it"). The brown-out reset is armed
 * whenever the CPU runs (BORV = LOW: it trips anywhere from 2.30 to 2.60 V, DS40001839
 * RST06), so the CPU at 16 MHz (2.3 V, D002) never runs out of its specification; what the
 * guard keeps from happening is a brown-out while the panel is powered, which cuts it with
 * its charge pumps on.
 *   - SUPPLY_LOADED_MIN_MV: VDD at least the highest trip point SUPPLY_LOAD_MS after
 *     POWER_ON, the CPU awake (busy-waiting) on top of the charge pumps: the heaviest load
 *     of an update (a refresh with the host talking keeps the CPU awake through it);
 *   - SUPPLY_AWAKE_MIN_MV: awake with the panel off, before it is powered: a cell under it
 *     is not asked for the load at all (a spent one, 2.8 V / 50 ohm, reads about 2.72 V;
 *     a half-used one, 2.9 V / 30 ohm, about 2.86 V; a half-used one at 0 C, whose
 *     resistance the cold raises, reads lower and would trip under the load).
 * The awake reading tells the cell's voltage, hardly its resistance: a cell with a good
 * voltage and a high one (3.0 V, 43-113 ohm at 20 C) passes it, and its VDD crosses the trip
 * point under POWER_ON's load before the loaded reading: hardware/power.md, "The gap the
 * guard leaves" (which cells; the L92 pack never reaches them).
 */
#define SUPPLY_AWAKE_MIN_MV 2830u
#define SUPPLY_LOADED_MIN_MV 2600u
/* Before the awake check the CPU runs this long, whatever woke it (a press, a start bit): its
 * own load's step settles too (a half-used cell at 0 C, 54 ohm x 210 uF = 11 ms; 40 ms is
 * 3.5 of those). A busy wait. */
#define SUPPLY_AWAKE_MS 40u
/* After POWER_ON: the load's step settles with the cell's resistance and the reservoir
 * (30 ohm x 210 uF = 6.3 ms; 30 ms is nearly 5 of those), well inside POWER_ON's BUSY
 * (79 ms on the UC8151D, 37 ms on the IL0373). A busy wait: nothing ends it early. */
#define SUPPLY_LOAD_MS 30u

/* The FVR's 1x output as the host last measured it (CALIBRATE), in EEPROM: this many bytes
 * from SUPPLY_EEPROM_AT (mV low, high, and the low byte's complement). */
#define SUPPLY_EEPROM_AT 0u
#define SUPPLY_EEPROM_BYTES 3u
/* A calibration is taken only within the FVR's tolerance (+-4 %, DS40001839 FVR01) and a
 * little more. */
#define SUPPLY_FVR_MIN_MV 960u
#define SUPPLY_FVR_MAX_MV 1090u

HAL_STATIC_ASSERT(supply_floors_ordered, SUPPLY_LOADED_MIN_MV < SUPPLY_AWAKE_MIN_MV);
HAL_STATIC_ASSERT(loaded_floor_above_trip_range, SUPPLY_LOADED_MIN_MV >= 2600u);
HAL_STATIC_ASSERT(load_wait_16_bits, SUPPLY_LOAD_MS <= 0xFFFFu && SUPPLY_AWAKE_MS <= 0xFFFFu);

/* Reads the calibration (or takes the FVR's nominal 1.024 V) and sets the floors' readings. */
void supply_init(void);
/* VDD at least the floor: SUPPLY_AWAKE_MIN_MV after SUPPLY_AWAKE_MS awake, or
 * SUPPLY_LOADED_MIN_MV after SUPPLY_LOAD_MS under the load just applied (busy waits). */
bool supply_awake_ok(void);
bool supply_loaded_ok(void);
/*
 * The highest reading that proves VDD >= mv with the FVR at fvr mV: the reading truncates
 * (hal.h: floor(1024 x FVR / VDD)), so one at most floor(1024 x fvr / mv) - 1 comes from a
 * VDD of at least mv, where floor(...) itself may come from a little less. fvr < 2048,
 * mv < 16384.
 */
uint16_t supply_floor_reading(uint16_t fvr, uint16_t mv);
/* The FVR in mV the floors are computed with, and the last VDD reading (HAL_VDD_FAILED before
 * any): the host works VDD out of them (1024 x fvr / reading). */
uint16_t supply_fvr_mv(void);
uint16_t supply_last_reading(void);
/*
 * The host measured VDD (vdd_mv) at the board just now: the FVR worked out of a reading
 * taken now, kept in EEPROM and used from now on. False (nothing changed) if it falls
 * outside SUPPLY_FVR_MIN_MV..SUPPLY_FVR_MAX_MV or the EEPROM did not take it.
 */
bool supply_calibrate(uint16_t vdd_mv);

#endif /* EPDLE_SUPPLY_H */
