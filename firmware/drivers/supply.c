/*
 * supply.c - the coin cell's guard (supply.h): the two floors as ADC readings, worked
 * out once from the FVR's calibrated voltage, and the measurements against them.
 */
#include "supply.h"

static uint16_t fvr_mv;
static uint16_t awake_max_reading;
static uint16_t loaded_max_reading;
static uint16_t last_reading;

HAL_STATIC_ASSERT(fvr_products_32_bits, SUPPLY_FVR_MAX_MV *HAL_ADC_STEPS <= 0xFFFFFFFFul);

static void set_floors(uint16_t mv) {
    fvr_mv = mv;
    awake_max_reading = HAL_VDD_AT_LEAST(mv, SUPPLY_AWAKE_MIN_MV);
    loaded_max_reading = HAL_VDD_AT_LEAST(mv, SUPPLY_LOADED_MIN_MV);
}

void supply_init(void) {
    uint8_t low = hal_eeprom_read(SUPPLY_EEPROM_AT);
    uint8_t high = hal_eeprom_read(SUPPLY_EEPROM_AT + 1u);
    uint8_t check = hal_eeprom_read(SUPPLY_EEPROM_AT + 2u);
    uint16_t stored = (uint16_t)(((uint16_t)high << 8) | low);

    last_reading = HAL_VDD_FAILED;
    if ((uint8_t)(low + check) == 0xFFu && stored >= SUPPLY_FVR_MIN_MV &&
        stored <= SUPPLY_FVR_MAX_MV) {
        set_floors(stored);
    } else {
        set_floors(HAL_FVR_NOMINAL_MV); /* erased (0xFF) or damaged: the nominal value */
    }
}

/* VDD now at least the loaded floor, or the awake one. */
static bool at_least(bool loaded) {
    if (fvr_mv == 0u) {
        supply_init(); /* for a caller that did not (the driver's own tests) */
    }
    last_reading = hal_vdd_reading();
    return last_reading <= (loaded ? loaded_max_reading : awake_max_reading);
}

bool supply_awake_ok(void) {
    hal_delay_ms(SUPPLY_AWAKE_MS);
    return at_least(false);
}

bool supply_loaded_ok(void) {
    hal_delay_ms(SUPPLY_LOAD_MS);
    return at_least(true);
}

uint16_t supply_fvr_mv(void) {
    return fvr_mv;
}

uint16_t supply_last_reading(void) {
    return last_reading;
}

bool supply_calibrate(uint16_t vdd_mv) {
    uint16_t reading = hal_vdd_reading();
    /* reading = floor(1024 x FVR / VDD): the FVR at the middle of that step. */
    uint32_t mv = ((uint32_t)reading * 2u + 1u) * vdd_mv / (2u * HAL_ADC_STEPS);

    last_reading = reading;
    if (reading == HAL_VDD_FAILED || mv < SUPPLY_FVR_MIN_MV || mv > SUPPLY_FVR_MAX_MV) {
        return false;
    }
    if (!hal_eeprom_write(SUPPLY_EEPROM_AT, (uint8_t)mv) ||
        !hal_eeprom_write(SUPPLY_EEPROM_AT + 1u, (uint8_t)(mv >> 8)) ||
        !hal_eeprom_write(SUPPLY_EEPROM_AT + 2u, (uint8_t) ~(uint8_t)mv)) {
        return false;
    }
    set_floors((uint16_t)mv);
    return true;
}
