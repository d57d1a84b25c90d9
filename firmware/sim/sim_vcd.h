/*
 * sim_vcd.h - Value Change Dump of every net (GTKWave, PulseView, sigrok).
 */
#ifndef EPDLE_SIM_VCD_H
#define EPDLE_SIM_VCD_H

#include "sim.h"

#include <stdint.h>

/* Header and the initial level of every net at the current time; 0 on success. */
int sim_vcd_open(const char *path);
void sim_vcd_edge(sim_net_t net, uint8_t level);
/* Stamps the final time (so viewers show the tail) and closes the file. */
void sim_vcd_close(void);

#endif /* EPDLE_SIM_VCD_H */
