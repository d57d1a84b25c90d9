/*
 * sim_bus.h - the board's nets. Every change of level is an edge stamped
 * with the clock and shown to the attached models (panel, VCD, power).
 */
#ifndef EPDLE_SIM_BUS_H
#define EPDLE_SIM_BUS_H

#include "sim.h"

#include <stdint.h>

void sim_bus_reset(void);
uint8_t sim_bus_level(sim_net_t net);
/* Drive net to level (0 or 1); no edge if it already has that level. */
void sim_bus_drive(sim_net_t net, uint8_t level);
const char *sim_bus_net_name(sim_net_t net);

#endif /* EPDLE_SIM_BUS_H */
