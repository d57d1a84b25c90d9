/*
 * sim_battery.h - the coin cell behind VDD and the chip's supply rules: the
 * cell's internal resistance makes VDD sag under the load the power model
 * computes, the brown-out reset holds the CPU in reset below its trip point,
 * and a CPU running below the lowest VDD its clock allows is a violation.
 */
#ifndef EPDLE_SIM_BATTERY_H
#define EPDLE_SIM_BATTERY_H

#include <stdbool.h>
#include <stdint.h>

/* The chip's clock and brown-out settings. */
typedef struct {
    uint32_t fosc_hz;
    bool bor_while_running; /* BOREN = ON or SLEEP */
    double vbor_min_v;      /* the lowest trip point the datasheet allows (RST06 min) */
    double vbor_v;          /* where the model trips (RST06 typ) */
} sim_supply_rules_t;

/* Those of the real image's configuration words (ports/pic16f18326/main.c, read
 * by the build), and a fresh cell. Called by sim_boot(). */
void sim_battery_reset(void);
/* Tests: another design's rules. */
void sim_battery_rules(const sim_supply_rules_t *rules);

/*
 * From the power model, at every change of state with the CPU running: the
 * load now drawn. Records the lowest VDD while running and a violation when
 * the CPU may run below its clock's minimum; true if the brown-out reset
 * trips (the board then resets the chip).
 */
bool sim_battery_load(double load_a);
/* The cell can bring VDD back above the trip point (plus hysteresis) with the
 * chip in reset: the brown-out reset lets go. */
bool sim_battery_bor_released(void);
/* VDD now (under the load of the last sim_battery_load()). */
double sim_battery_vdd(void);

#endif /* EPDLE_SIM_BATTERY_H */
