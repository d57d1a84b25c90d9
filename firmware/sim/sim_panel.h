/*
 * sim_panel.h - model of the panel's IL0373-style controller, driven only by
 * edges on the board's nets (SCL SDA CS DC RST and its supply EPD_VCC).
 * It drives EPD_BUSY and records protocol violations.
 */
#ifndef EPDLE_SIM_PANEL_H
#define EPDLE_SIM_PANEL_H

#include "sim.h"

#include <stdbool.h>
#include <stdint.h>

/* Published BUSY times of the GDEW0213Z16 (facts 1.4). */
#define SIM_PANEL_POWER_ON_NS 37000000ull
#define SIM_PANEL_POWER_OFF_NS 21000000ull
#define SIM_PANEL_REFRESH_NS 14900000000ull

typedef enum {
    SIM_PANEL_OFF = 0,    /* supply cut */
    SIM_PANEL_IDLE,       /* powered and listening */
    SIM_PANEL_BUSY,       /* power on / power off / refresh in progress */
    SIM_PANEL_DEEP_SLEEP, /* powered, only a reset wakes it */
    SIM_PANEL_STATE_COUNT
} sim_panel_state_t;

/* Unpowered controller, white display, empty transaction log. */
void sim_panel_reset(void);
void sim_panel_on_edge(sim_net_t net, uint8_t level);
uint64_t sim_panel_next_event(void);
void sim_panel_run_events(void);
/* The next supply cut comes from the whole board dying, not from the firmware. */
void sim_panel_expect_board_power_loss(void);
sim_panel_state_t sim_panel_state(void);

/*
 * Fault hooks for tests (sim_panel_reset() restores the published times):
 * the BUSY time of POWER_ON, POWER_OFF and DISPLAY_REFRESH, and a controller
 * that holds BUSY low whatever it is told (dead, or stuck in reset).
 */
void sim_panel_set_busy_ns(uint64_t power_on_ns, uint64_t power_off_ns, uint64_t refresh_ns);
void sim_panel_hold_busy_low(bool held);
/*
 * The controller is busy from the command on, but pulls BUSY low only
 * latency_ns later (0 after sim_panel_reset()); the operation's time counts
 * from there. A command in between is one sent while busy.
 */
void sim_panel_set_busy_latency_ns(uint64_t latency_ns);

#endif /* EPDLE_SIM_PANEL_H */
