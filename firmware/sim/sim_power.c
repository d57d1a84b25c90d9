/*
 * sim_power.c - integrates supply current over virtual time.
 *
 * Currents are typical values at VDD = 3.0 V; each one is cited in
 * hardware/power.md. "Standby" is every moment the MCU sleeps between updates
 * (whatever the panel does then is counted, so a panel left powered shows up
 * there); "active" is every moment of an update: the MCU runs, stalls on a
 * flash write, or sleeps through a panel refresh.
 */
#include "sim_power.h"

#include "sim.h"
#include "sim_battery.h"
#include "sim_board.h"
#include "sim_bus.h"
#include "sim_clock.h"
#include "sim_panel.h"
#include "sim_uart.h"

#include <stdbool.h>
#include <string.h>

#define SUPPLY_V 3.0

/* PIC16F18326 (hardware/power.md, "MCU") */
#define MCU_RUN_A 2.6e-3     /* HFINTOSC 32 MHz, VDD 3.0 V */
#define MCU_SLEEP_A 0.4e-6   /* IPD base, WDT/BOR/FVR off, VREGPM = 1 */
#define WATCHDOG_A 0.8e-6    /* WDT on (sleeping through a refresh): LFINTOSC and counter */
#define PULLUP_HELD_A 100e-6 /* weak pull-up sinking into the pressed button */
/* Panel (GDEW0213Z16 / IL0373) behind the load switch (hardware/power.md, "Panel") */
#define PANEL_BUSY_A 8.0e-3       /* refresh / charge pumps ramping */
#define PANEL_IDLE_A 1.0e-3       /* powered and receiving data (estimate, see power.md) */
#define PANEL_DEEP_SLEEP_A 5e-6   /* deep sleep */
#define SWITCH_OFF_LEAK_A 0.02e-6 /* TPS22860 off: VIN + VBIAS leakage */

static sim_power_stats_t stats;

/* The states in force since last_ns (the interval not yet charged). */
static uint64_t last_ns;
static sim_mcu_state_t last_mcu;
static sim_panel_state_t last_panel;
static bool last_held;
static bool last_uart;

static void note_states(void) {
    last_ns = sim_now();
    last_mcu = sim_board_mcu_state();
    last_panel = sim_panel_state();
    last_held = sim_bus_level(SIM_NET_BUTTON) == 0u;
    last_uart = sim_uart_active();
}

void sim_power_reset(void) {
    memset(&stats, 0, sizeof stats);
    stats.supply_v = SUPPLY_V;
    sim_battery_reset();
    note_states();
}

static double panel_current(sim_panel_state_t state) {
    switch (state) {
    case SIM_PANEL_IDLE:
        return PANEL_IDLE_A;
    case SIM_PANEL_BUSY:
        return PANEL_BUSY_A;
    case SIM_PANEL_DEEP_SLEEP:
        return PANEL_DEEP_SLEEP_A;
    default:
        return SWITCH_OFF_LEAK_A;
    }
}

/* With the CPU running (the supply rules bind only then): the load the cell delivers in
 * the states now in force. */
static void check_supply(void) {
    if (last_mcu == SIM_MCU_RUN || last_mcu == SIM_MCU_STALL) {
        double load = panel_current(last_panel) + (last_held ? PULLUP_HELD_A : 0.0) + MCU_RUN_A;

        if (sim_battery_load(load)) {
            sim_board_brownout();
        }
    }
}

void sim_power_update(void) {
    uint64_t elapsed = sim_now() - last_ns;
    double current;

    if (elapsed > 0) {
        double seconds = (double)elapsed * 1e-9;

        current = panel_current(last_panel) + (last_held ? PULLUP_HELD_A : 0.0);
        switch (last_mcu) {
        case SIM_MCU_RUN:
            stats.mcu_run_ns += elapsed;
            break;
        case SIM_MCU_STALL:
            stats.mcu_stall_ns += elapsed;
            break;
        case SIM_MCU_SLEEP:
        case SIM_MCU_SLEEP_ON_PANEL:
            stats.mcu_sleep_ns += elapsed;
            break;
        default:
            stats.mcu_off_ns += elapsed;
            current = 0.0; /* no supply, nothing drawn */
            break;
        }
        switch (last_panel) {
        case SIM_PANEL_IDLE:
            stats.panel_idle_ns += elapsed;
            break;
        case SIM_PANEL_BUSY:
            stats.panel_busy_ns += elapsed;
            break;
        case SIM_PANEL_DEEP_SLEEP:
            stats.panel_deep_sleep_ns += elapsed;
            break;
        default:
            stats.panel_off_ns += elapsed;
            break;
        }
        stats.button_held_ns += last_held ? elapsed : 0u;
        stats.uart_active_ns += last_uart ? elapsed : 0u;
        if (last_mcu == SIM_MCU_SLEEP) {
            stats.standby_ns += elapsed;
            stats.standby_charge_c += (current + MCU_SLEEP_A) * seconds;
        } else if (last_mcu == SIM_MCU_SLEEP_ON_PANEL) {
            stats.active_ns += elapsed;
            stats.active_charge_c += (current + MCU_SLEEP_A + WATCHDOG_A) * seconds;
        } else if (last_mcu != SIM_MCU_OFF) {
            stats.active_ns += elapsed;
            stats.active_charge_c += (current + MCU_RUN_A) * seconds;
        }
    }
    note_states();
    check_supply();
}

void sim_power_stats(sim_power_stats_t *out) {
    sim_power_update();
    *out = stats;
}
