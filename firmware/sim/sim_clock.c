/*
 * sim_clock.c - virtual time. Models never keep their own timers: each one
 * reports its next event time and is called back when the clock reaches it.
 */
#include "sim_clock.h"

#include "sim_board.h"
#include "sim_button.h"
#include "sim_panel.h"
#include "sim_power.h"
#include "sim_uart.h"

static uint64_t now_ns;

void sim_clock_reset(void) {
    now_ns = 0;
}

uint64_t sim_now(void) {
    return now_ns;
}

static uint64_t earliest(uint64_t a, uint64_t b) {
    return a < b ? a : b;
}

uint64_t sim_clock_next_event(void) {
    return earliest(earliest(earliest(sim_button_next_event(), sim_board_next_event()),
                             earliest(sim_panel_next_event(), sim_uart_next_event())),
                    sim_power_next_event());
}

void sim_clock_run_to(uint64_t t_ns) {
    uint64_t next;

    while ((next = sim_clock_next_event()) <= t_ns) {
        if (next > now_ns) {
            now_ns = next;
        }
        sim_button_run_events();
        sim_panel_run_events();
        sim_uart_run_events();
        sim_power_run_events();
        sim_board_run_events();
    }
    if (t_ns > now_ns) {
        now_ns = t_ns;
    }
}
