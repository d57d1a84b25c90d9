/*
 * sim_clock.h - the board's virtual clock (ns since boot) and the dispatch
 * of scheduled events (inputs, panel BUSY, UART bits, the
 * watchdog) in time order.
 */
#ifndef EPDLE_SIM_CLOCK_H
#define EPDLE_SIM_CLOCK_H

#include <stdint.h>

#define SIM_NEVER UINT64_MAX

void sim_clock_reset(void);
uint64_t sim_now(void);
/* Earliest pending event of any model, SIM_NEVER if none. */
uint64_t sim_clock_next_event(void);
/* Move the clock forward to t_ns, applying every event due on the way in time order. */
void sim_clock_run_to(uint64_t t_ns);

#endif /* EPDLE_SIM_CLOCK_H */
