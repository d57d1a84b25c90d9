/*
 * sim_button.c - scheduled button levels, kept sorted by time. A falling
 * edge is what the chip's interrupt-on-change latches.
 */
#include "sim_button.h"

#include "sim.h"
#include "sim_board.h"
#include "sim_bus.h"
#include "sim_clock.h"

#define MAX_SCHEDULED 256u

typedef struct {
    uint64_t t_ns;
    uint8_t level;
} button_event_t;

static button_event_t schedule[MAX_SCHEDULED];
static unsigned scheduled;

void sim_button_reset(void) {
    scheduled = 0;
}

int sim_button_schedule(uint64_t t_ns, uint8_t level) {
    unsigned slot;

    if (scheduled == MAX_SCHEDULED) {
        return -1;
    }
    if (t_ns < sim_now()) {
        t_ns = sim_now();
    }
    /* Stable insertion: equal times keep the order they were scheduled in. */
    slot = scheduled;
    while (slot > 0 && schedule[slot - 1].t_ns > t_ns) {
        schedule[slot] = schedule[slot - 1];
        slot--;
    }
    schedule[slot].t_ns = t_ns;
    schedule[slot].level = level != 0u ? 1u : 0u;
    scheduled++;
    return 0;
}

uint64_t sim_button_next_event(void) {
    return scheduled > 0 ? schedule[0].t_ns : SIM_NEVER;
}

void sim_button_run_events(void) {
    unsigned i;

    while (scheduled > 0 && schedule[0].t_ns <= sim_now()) {
        uint8_t level = schedule[0].level;
        uint8_t was = sim_bus_level(SIM_NET_BUTTON);

        for (i = 1; i < scheduled; i++) {
            schedule[i - 1] = schedule[i];
        }
        scheduled--;
        sim_bus_drive(SIM_NET_BUTTON, level);
        if (was == 1u && level == 0u) {
            sim_board_ioc_falling_edge();
        }
    }
}
