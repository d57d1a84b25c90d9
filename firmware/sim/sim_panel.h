/*
 * sim_panel.h - model of the panel's controller, driven only by edges on the
 * board's nets (SCL SDA CS DC RST and its supply EPD_VCC). It drives EPD_BUSY
 * and records protocol violations. Two controllers share the command set
 * (facts 1.3) and differ in timing, reset and init (docs/sim-fidelity.md):
 * the UC8151D of the BOM's module (Waveshare 2.13" (B) V3) and the IL0373 of
 * its alternative (Good Display GDEW0213Z16 on a DESPI-C02).
 */
#ifndef EPDLE_SIM_PANEL_H
#define EPDLE_SIM_PANEL_H

#include "sim.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum {
    SIM_PANEL_UC8151D = 0, /* Waveshare 2.13" (B) V3: the BOM's module, the default */
    SIM_PANEL_IL0373       /* Good Display GDEW0213Z16 */
} sim_panel_controller_t;

/* BUSY times GxEPD2 measured on the UC8151D module (GxEPD2_213_Z19c, facts 4.1). */
#define SIM_UC8151D_POWER_ON_NS 79414000ull
#define SIM_UC8151D_POWER_OFF_NS 39140000ull
#define SIM_UC8151D_REFRESH_NS 16788187000ull
/* Published BUSY times of the GDEW0213Z16 (facts 1.4). */
#define SIM_IL0373_POWER_ON_NS 37000000ull
#define SIM_IL0373_POWER_OFF_NS 21000000ull
#define SIM_IL0373_REFRESH_NS 14900000000ull
/* The default controller's. */
#define SIM_PANEL_POWER_ON_NS SIM_UC8151D_POWER_ON_NS
#define SIM_PANEL_POWER_OFF_NS SIM_UC8151D_POWER_OFF_NS
#define SIM_PANEL_REFRESH_NS SIM_UC8151D_REFRESH_NS
/*
 * The UC8151D's reset (UltraChip: RST_N low at least 50 us) and what its
 * vendors do around it: Good Display's note on the upgraded UC8151D asks for
 * three reset pulses at init, and both it and Waveshare wait 10 ms after RST
 * rises before the first command.
 */
#define SIM_UC8151D_RESET_MIN_NS 50000ull
#define SIM_UC8151D_RESET_PULSES 3u
#define SIM_UC8151D_READY_NS 10000000ull

typedef enum {
    SIM_PANEL_OFF = 0,    /* supply cut */
    SIM_PANEL_IDLE,       /* powered and listening */
    SIM_PANEL_BUSY,       /* power on / power off / refresh in progress */
    SIM_PANEL_DEEP_SLEEP, /* powered, only a reset wakes it */
    SIM_PANEL_STATE_COUNT
} sim_panel_state_t;

/* Unpowered UC8151D, white display, empty transaction log. */
void sim_panel_reset(void);
/* The controller behind the pins, with its own BUSY times (call before powering it). */
void sim_panel_set_controller(sim_panel_controller_t controller);
void sim_panel_on_edge(sim_net_t net, uint8_t level);
uint64_t sim_panel_next_event(void);
void sim_panel_run_events(void);
sim_panel_state_t sim_panel_state(void);
/* The charge pumps run (POWER_ON until POWER_OFF's end, or busy): its supply must not be cut. */
bool sim_panel_pumps_on(void);

/*
 * Fault hooks for tests (sim_panel_reset() and sim_panel_set_controller()
 * restore the published times):
 * the BUSY time of POWER_ON, POWER_OFF and DISPLAY_REFRESH, and a controller
 * that holds BUSY low whatever it is told (dead, or stuck in reset).
 */
void sim_panel_set_busy_ns(uint64_t power_on_ns, uint64_t power_off_ns, uint64_t refresh_ns);
void sim_panel_hold_busy_low(bool held);
/* (sim_panel_set_busy_latency_ns() is in sim.h: the host sets it.) */

#endif /* EPDLE_SIM_PANEL_H */
