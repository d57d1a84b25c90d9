/*
 * supply.c - the coin cell's guard (supply.h): the two floors as ADC readings, worked
 * out once from the FVR's calibrated voltage, and the measurements against them.
 */
#include "supply.h"

static uint16_t fvr_mv;
static uint16_t awake_max_reading;
static uint16_t loaded_max_reading;
static uint16_t last_reading;

/*
 * The arithmetic in 16 bits (the 8-bit core has no divider; 32-bit library routines would
 * cost some 500 words of flash). Both results are exact floors.
 *
 * floor(fvr x 1024 / mv), fvr < 2048 and mv < 32768: a restoring division whose dividend's
 * bits (fvr's 11, then 10 zeros) are shifted in one at a time; the remainder stays under mv.
 */
static uint16_t times_1024_over(uint16_t fvr, uint16_t mv) {
    uint16_t remainder = 0u;
    uint16_t quotient = 0u;
    uint16_t mask = 0x400u; /* fvr's bits, highest first; then the zeros */
    uint8_t bit;

    for (bit = 21u; bit != 0u; bit--) {
        remainder <<= 1;
        if ((fvr & mask) != 0u) {
            remainder |= 1u;
        }
        mask >>= 1;
        quotient <<= 1;
        if (remainder >= mv) {
            remainder -= mv;
            quotient |= 1u;
        }
    }
    return quotient;
}

/* floor(steps x mv / 2048), steps < 2048 and mv < 16384: halved once a bit of steps, its
 * lowest first (each floor of a half is the floor of the whole). */
static uint16_t times_over_2048(uint16_t steps, uint16_t mv) {
    uint16_t sum = 0u;
    uint8_t bit;

    for (bit = 11u; bit != 0u; bit--) {
        if ((steps & 1u) != 0u) {
            sum += mv;
        }
        steps >>= 1;
        sum >>= 1;
    }
    return sum;
}

/* The VDD a calibration may give (5.5 V is the chip's most): the sums above stay in 16 bits. */
#define SUPPLY_CALIBRATE_MAX_MV 5501u
HAL_STATIC_ASSERT(sums_in_16_bits, SUPPLY_AWAKE_MIN_MV < 16384u && SUPPLY_FVR_MAX_MV < 2048u &&
                                       SUPPLY_CALIBRATE_MAX_MV < 16384u);

uint16_t supply_floor_reading(uint16_t fvr, uint16_t mv) {
    return (uint16_t)(times_1024_over(fvr, mv) - 1u);
}

static void set_floors(uint16_t mv) {
    fvr_mv = mv;
    awake_max_reading = supply_floor_reading(mv, SUPPLY_AWAKE_MIN_MV);
    loaded_max_reading = supply_floor_reading(mv, SUPPLY_LOADED_MIN_MV);
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
    uint16_t max_reading = awake_max_reading;

    if (loaded) {
        max_reading = loaded_max_reading;
    }
    last_reading = hal_vdd_reading();
    return last_reading <= max_reading;
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
    uint16_t mv;

    last_reading = reading;
    if (reading == HAL_VDD_FAILED || vdd_mv >= SUPPLY_CALIBRATE_MAX_MV) {
        return false;
    }
    /* reading = floor(1024 x FVR / VDD): the FVR at the middle of that step. */
    mv = times_over_2048((uint16_t)((reading << 1) | 1u), vdd_mv);
    if (mv < SUPPLY_FVR_MIN_MV || mv > SUPPLY_FVR_MAX_MV) {
        return false;
    }
    if (!hal_eeprom_write(SUPPLY_EEPROM_AT, (uint8_t)mv) ||
        !hal_eeprom_write(SUPPLY_EEPROM_AT + 1u, (uint8_t)(mv >> 8)) ||
        !hal_eeprom_write(SUPPLY_EEPROM_AT + 2u, (uint8_t) ~(uint8_t)mv)) {
        return false;
    }
    set_floors(mv);
    return true;
}
