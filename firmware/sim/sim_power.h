/*
 * sim_power.h - power model: time in each state of the MCU, the panel, the
 * UART and the button, times the datasheet currents of hardware/power.md.
 */
#ifndef EPDLE_SIM_POWER_H
#define EPDLE_SIM_POWER_H

#include <stdint.h>

void sim_power_reset(void);
/* Call right after any change of a power-relevant state: the time since the
 * previous call is charged to the states that held until now. */
void sim_power_update(void);
/* The supply path's next integration step, as a clock event (SIM_NEVER once settled). */
uint64_t sim_power_next_event(void);
void sim_power_run_events(void);

#endif /* EPDLE_SIM_POWER_H */
