/*
 * sim_battery.c - VDD = open-circuit voltage - load current x internal
 * resistance, against the PIC16F18326's supply rules (F device; DS40001839, the
 * trip-point minimums as the PIC16F184xx datasheets of the family list them).
 * What the model leaves out: docs/sim-fidelity.md, "The coin cell".
 */
#include "sim_battery.h"

#include "sim.h"
#include "sim_violation.h"

/* A fresh CR2032: the nominal 3.0 V the power model counts energy at, and the middle of
 * the 10-20 ohm the makers give for a fresh cell (more when cold or run down). */
#define FRESH_OPEN_CIRCUIT_V 3.0
#define FRESH_INTERNAL_OHM 15.0

/* D002: VDD min 2.3 V up to Fosc = 16 MHz, 2.5 V above. */
#define VDD_MIN_UP_TO_16MHZ_V 2.3
#define VDD_MIN_ABOVE_16MHZ_V 2.5
/* RST06: VBOR min / typ with BORV = HIGH and LOW (F device); RST07: 40 mV hysteresis. */
#define VBOR_HIGH_MIN_V 2.55
#define VBOR_HIGH_V 2.70
#define VBOR_LOW_MIN_V 2.30
#define VBOR_LOW_V 2.45
#define VBOR_HYSTERESIS_V 0.04

/* The build passes the configuration pragmas of ports/pic16f18326/main.c. */
#if defined(SIM_CONFIG_RSTOSC_HFINT32)
#define CONFIG_FOSC_HZ 32000000u
#elif defined(SIM_CONFIG_RSTOSC_HFINT1)
#define CONFIG_FOSC_HZ 1000000u
#else
#error "RSTOSC of ports/pic16f18326/main.c unknown to the simulated board"
#endif
#if defined(SIM_CONFIG_BOREN_ON) || defined(SIM_CONFIG_BOREN_SLEEP)
#define CONFIG_BOR_WHILE_RUNNING true
#else
#define CONFIG_BOR_WHILE_RUNNING false
#endif
#if defined(SIM_CONFIG_BORV_HIGH)
#define CONFIG_VBOR_MIN_V VBOR_HIGH_MIN_V
#define CONFIG_VBOR_V VBOR_HIGH_V
#else
#define CONFIG_VBOR_MIN_V VBOR_LOW_MIN_V
#define CONFIG_VBOR_V VBOR_LOW_V
#endif

static sim_supply_rules_t rules;
static double open_circuit_v;
static double internal_ohm;
static double vdd_min_running_v;
static double vdd_v;             /* at the last change of load */
static bool below_spec_reported; /* once per sag below the clock's minimum */

void sim_battery_reset(void) {
    static const sim_supply_rules_t configured = {CONFIG_FOSC_HZ, CONFIG_BOR_WHILE_RUNNING,
                                                  CONFIG_VBOR_MIN_V, CONFIG_VBOR_V};

    rules = configured;
    open_circuit_v = FRESH_OPEN_CIRCUIT_V;
    internal_ohm = FRESH_INTERNAL_OHM;
    vdd_min_running_v = open_circuit_v;
    vdd_v = open_circuit_v;
    below_spec_reported = false;
}

void sim_battery_rules(const sim_supply_rules_t *design) {
    rules = *design;
}

void sim_battery_set(double open_circuit, double resistance) {
    open_circuit_v = open_circuit;
    internal_ohm = resistance;
    vdd_v = open_circuit;
}

double sim_battery_vdd(void) {
    return vdd_v;
}

double sim_battery_vdd_min_running(void) {
    return vdd_min_running_v;
}

bool sim_battery_load(double load_a) {
    double vdd = open_circuit_v - load_a * internal_ohm;

    vdd_v = vdd;
    double vdd_min = rules.fosc_hz > 16000000u ? VDD_MIN_ABOVE_16MHZ_V : VDD_MIN_UP_TO_16MHZ_V;
    bool held_in_reset = rules.bor_while_running && vdd < rules.vbor_min_v;

    if (vdd < vdd_min_running_v) {
        vdd_min_running_v = vdd;
    }
    /* Anywhere from the lowest trip point up the CPU may still run. */
    if (vdd < vdd_min && !held_in_reset) {
        if (!below_spec_reported) {
            below_spec_reported = true;
            sim_violation("VDD %.3f V (cell %.2f V, %.1f ohm, %.1f mA) with the CPU running at"
                          " %u MHz: the datasheet asks %.1f V",
                          vdd, open_circuit_v, internal_ohm, load_a * 1e3,
                          (unsigned)(rules.fosc_hz / 1000000u), vdd_min);
        }
    } else if (vdd >= vdd_min) {
        below_spec_reported = false;
    }
    return rules.bor_while_running && vdd < rules.vbor_v;
}

bool sim_battery_bor_released(void) {
    return !rules.bor_while_running || open_circuit_v >= rules.vbor_v + VBOR_HYSTERESIS_V;
}
