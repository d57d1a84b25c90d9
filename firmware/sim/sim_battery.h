/*
 * sim_battery.h - the supply path and the chip's supply rules: the coin cell
 * (open-circuit voltage behind its internal resistance), VDD as a node with its
 * capacitance (C1, C2 and the reservoir at U2's VIN), the panel's rail behind
 * the load switch U2 (C3 and the module's input capacitance), U2's turn-on
 * ramp, and the brown-out reset at the configured trip range. The power model
 * (sim_power.c) hands it the loads in force; it integrates the network over
 * virtual time and trips the brown-out reset when VDD crosses the trip point
 * with the BOR armed.
 */
#ifndef EPDLE_SIM_BATTERY_H
#define EPDLE_SIM_BATTERY_H

#include "sim.h"

#include <stdbool.h>
#include <stdint.h>

/* How the configuration words run the brown-out reset (BOREN). */
typedef enum {
    SIM_BOR_OFF = 0,  /* BOREN = OFF */
    SIM_BOR_SOFTWARE, /* BOREN = SBOREN: BORCON.SBOREN, awake and asleep */
    SIM_BOR_AWAKE,    /* BOREN = SLEEP: on while running, off in SLEEP */
    SIM_BOR_ALWAYS    /* BOREN = ON */
} sim_bor_mode_t;

/* The chip's clock and brown-out settings. */
typedef struct {
    uint32_t fosc_hz;
    sim_bor_mode_t bor_mode;
    double vbor_min_v, vbor_typ_v, vbor_max_v; /* RST06 of the BORV chosen */
} sim_supply_rules_t;

/* What draws from the network in the states now in force (sim_power.c). */
typedef struct {
    double mcu_a;   /* the chip, at VDD */
    double panel_a; /* the panel module, at the switched rail */
    bool switch_on; /* U2's ON pin (EPD_PWR) */
    bool running;   /* the CPU runs (its clock's VDD minimum binds) */
    bool powered;   /* the chip is out of reset */
    bool sboren;    /* BORCON.SBOREN */
    bool supplied;  /* false: the supply is cut (sim_cut_power), nothing moves */
    uint8_t phase;  /* sim_supply_phase_t, for the report's minimums */
} sim_supply_load_t;

typedef enum {
    SIM_PHASE_NONE = 0,
    SIM_PHASE_SWITCH_ON, /* from U2's turn-on to the end of POWER_ON's BUSY */
    SIM_PHASE_REFRESH    /* BUSY of DISPLAY_REFRESH */
} sim_supply_phase_t;

/* rules.fosc_hz is the clock at reset (RSTOSC). Those of the real image's configuration words
 * (ports/pic16f18326/main.c, read by the build), the board's capacitors, a fresh cell. Called by
 * sim_boot(). */
void sim_battery_reset(void);
/* Tests: another design's rules. */
void sim_battery_rules(const sim_supply_rules_t *rules);

/* Integrate the network from the last call to now under `load` (the loads that
 * held over that interval). May call sim_board_brownout(). */
void sim_battery_advance(const sim_supply_load_t *load);
/* Restart the step after a change of load (the next advance follows the transient). */
void sim_battery_load_changed(void);
/* The board's brown-out reset took place (counted in the report). */
void sim_supply_brownout_counted(void);
/* The next time the network needs a step to follow a transient (SIM_NEVER once settled). */
uint64_t sim_battery_next_step(void);
/* The board powers up after a cut: the capacitors charged to the cell's voltage. */
void sim_battery_power_restored(void);

/* The CPU's clock: RSTOSC's at every reset (sim_battery_clock_reset), then as the firmware
 * sets it (OSCFRQ / OSCCON1); the VDD it needs follows it (D002). */
void sim_battery_clock_reset(void);
void sim_battery_clock_set(uint32_t fosc_hz);
/* This chip's FVR (what the ADC converts against VDD). */
double sim_fvr_v(void);

/* VDD now (what the ADC measures against the FVR). */
double sim_battery_vdd(void);
/* The cell can bring VDD back above the trip point (plus hysteresis) with the
 * chip in reset: the brown-out reset lets go. */
bool sim_battery_bor_released(void);

#endif /* EPDLE_SIM_BATTERY_H */
