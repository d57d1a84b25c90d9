/*
 * sim_button.h - the push button: host-scheduled levels on the BUTTON net.
 */
#ifndef EPDLE_SIM_BUTTON_H
#define EPDLE_SIM_BUTTON_H

#include <stdint.h>

void sim_button_reset(void);
uint64_t sim_button_next_event(void);
void sim_button_run_events(void);

#endif /* EPDLE_SIM_BUTTON_H */
