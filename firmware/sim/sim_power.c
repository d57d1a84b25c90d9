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

/* The controller's command bytes whose BUSY the supply report tells apart. */
#define EPD_CMD_POWER_ON 0x04u
#define EPD_CMD_DISPLAY_REFRESH 0x12u

#define SUPPLY_V 3.0

/* PIC16F18326 (hardware/power.md, "MCU") */
/* HFINTOSC 16 MHz, VDD 3.0 V: 1.5 mA typ, the D101 (IDD_HFO16) of the PIC16F18326's F-part
 * siblings, whose 32 MHz figure (2.7 mA) matches the 2.6 mA hardware/power.md gives this
 * part at 32 MHz. */
#define MCU_RUN_A 1.5e-3
#define MCU_SLEEP_A 0.4e-6   /* IPD base, WDT/BOR/FVR off, VREGPM = 1 */
#define WATCHDOG_A 0.8e-6    /* WDT on (sleeping through a refresh): LFINTOSC and counter */
#define PULLUP_HELD_A 100e-6 /* weak pull-up sinking into the pressed button */
/* The panel module behind the load switch (hardware/power.md, "Currents the model uses") */
#define PANEL_BUSY_A 8.0e-3       /* refresh / charge pumps ramping */
#define PANEL_IDLE_A 1.0e-3       /* powered and receiving data (estimate, see power.md) */
#define PANEL_DEEP_SLEEP_A 5e-6   /* deep sleep */
#define SWITCH_OFF_LEAK_A 0.02e-6 /* TPS22860 off: VIN + VBIAS leakage */

static sim_power_stats_t stats;

/* What the panel's BUSY is for (the command that started it), and the switch-on phase. */
static uint8_t busy_command;
static bool switching_on;
static sim_supply_load_t last_load;

/* The states in force since last_ns (the interval not yet charged). */
static uint64_t last_ns;
static sim_mcu_state_t last_mcu;
static sim_panel_state_t last_panel;
static bool last_held;
static bool last_uart;
static bool last_standby_watchdog; /* a standby SLEEP bounded by the watchdog */
static double last_lines_a;        /* what the UART's lines feed an unpowered adapter */

static void note_states(void) {
    last_ns = sim_now();
    last_mcu = sim_board_mcu_state();
    last_panel = sim_panel_state();
    last_held = sim_bus_level(SIM_NET_BUTTON) == 0u;
    last_uart = sim_uart_active();
    last_standby_watchdog = sim_board_sleep_watchdog_runs();
    last_lines_a = sim_uart_line_current_a();
}

void sim_power_reset(void) {
    memset(&stats, 0, sizeof stats);
    memset(&last_load, 0, sizeof last_load);
    stats.supply_v = SUPPLY_V;
    busy_command = 0u;
    switching_on = false;
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

static double mcu_current(sim_mcu_state_t mcu, bool held) {
    double pull_up = held ? PULLUP_HELD_A : 0.0;

    switch (mcu) {
    case SIM_MCU_RUN:
    case SIM_MCU_STALL:
        return MCU_RUN_A + pull_up;
    case SIM_MCU_SLEEP:
        return MCU_SLEEP_A + (last_standby_watchdog ? WATCHDOG_A : 0.0) + pull_up;
    case SIM_MCU_SLEEP_ON_PANEL:
        return MCU_SLEEP_A + WATCHDOG_A + pull_up;
    default:
        return 0.0;
    }
}

/* The command whose BUSY has just begun, and the switch-on phase (U2's turn-on to the end
 * of POWER_ON's BUSY). */
static void note_phase(sim_panel_state_t before, sim_panel_state_t now) {
    sim_epd_transaction_t last;
    size_t count;

    if (now == SIM_PANEL_OFF) {
        switching_on = false;
    } else if (before == SIM_PANEL_OFF) {
        switching_on = true;
    }
    if (now == SIM_PANEL_BUSY && before != SIM_PANEL_BUSY) {
        count = sim_epd_transaction_count();
        busy_command = count != 0u && sim_epd_transaction(count - 1u, &last) == 0 ? last.cmd : 0u;
    } else if (now != SIM_PANEL_BUSY && before == SIM_PANEL_BUSY &&
               busy_command == EPD_CMD_POWER_ON) {
        switching_on = false;
    }
}

/* The loads of the states now in force, for the supply path. */
static sim_supply_load_t supply_load(void) {
    sim_supply_load_t load;

    memset(&load, 0, sizeof load);
    load.mcu_a = mcu_current(last_mcu, last_held) + (last_mcu != SIM_MCU_OFF ? last_lines_a : 0.0);
    load.switch_on = sim_bus_level(SIM_NET_EPD_VCC) != 0u;
    load.panel_a = load.switch_on ? panel_current(last_panel) : PANEL_DEEP_SLEEP_A;
    load.running = last_mcu == SIM_MCU_RUN || last_mcu == SIM_MCU_STALL;
    load.powered = sim_powered() != 0;
    load.sboren = sim_board_sboren();
    load.supplied = sim_board_supplied();
    load.phase = switching_on ? SIM_PHASE_SWITCH_ON
                 : last_panel == SIM_PANEL_BUSY && busy_command == EPD_CMD_DISPLAY_REFRESH
                     ? SIM_PHASE_REFRESH
                     : SIM_PHASE_NONE;
    return load;
}

void sim_power_update(void) {
    uint64_t elapsed = sim_now() - last_ns;
    double current;

    if (elapsed > 0) {
        double seconds = (double)elapsed * 1e-9;

        current = panel_current(last_panel) + (last_held ? PULLUP_HELD_A : 0.0) + last_lines_a;
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
            stats.standby_charge_c +=
                (current + MCU_SLEEP_A + (last_standby_watchdog ? WATCHDOG_A : 0.0)) * seconds;
        } else if (last_mcu == SIM_MCU_SLEEP_ON_PANEL) {
            stats.active_ns += elapsed;
            stats.active_charge_c += (current + MCU_SLEEP_A + WATCHDOG_A) * seconds;
        } else if (last_mcu != SIM_MCU_OFF) {
            stats.active_ns += elapsed;
            stats.active_charge_c += (current + MCU_RUN_A) * seconds;
        }
    }
    sim_battery_advance(&last_load);
    {
        sim_panel_state_t before = last_panel;
        sim_supply_load_t load;

        note_states();
        note_phase(before, last_panel);
        load = supply_load();
        if (memcmp(&load, &last_load, sizeof load) != 0) {
            last_load = load;
            sim_battery_load_changed();
        }
    }
}

uint64_t sim_power_next_event(void) {
    return sim_battery_next_step();
}

void sim_power_run_events(void) {
    if (sim_battery_next_step() <= sim_now()) {
        sim_power_update();
    }
}

void sim_power_stats(sim_power_stats_t *out) {
    sim_power_update();
    *out = stats;
}
