/*
 * sim_bus.c - net levels and edge fan-out to the models attached to the board.
 */
#include "sim_bus.h"

#include "sim_board.h"
#include "sim_panel.h"
#include "sim_power.h"
#include "sim_vcd.h"

static uint8_t levels[SIM_NET_COUNT];

static const char *const net_names[SIM_NET_COUNT] = {
    "EPD_SCL",  "EPD_SDA", "EPD_CS", "EPD_DC",  "EPD_RST",
    "EPD_BUSY", "EPD_VCC", "BUTTON", "UART_TX", "UART_RX",
};

void sim_bus_reset(void) {
    int net;

    for (net = 0; net < SIM_NET_COUNT; net++) {
        levels[net] = 0u;
    }
    /* Idle-high lines: the button's pull-up and both UART lines (8N1 idles at mark). */
    levels[SIM_NET_BUTTON] = 1u;
    levels[SIM_NET_UART_TX] = 1u;
    levels[SIM_NET_UART_RX] = 1u;
}

uint8_t sim_bus_level(sim_net_t net) {
    return levels[net];
}

const char *sim_bus_net_name(sim_net_t net) {
    return net_names[net];
}

void sim_bus_drive(sim_net_t net, uint8_t level) {
    level = level != 0u ? 1u : 0u;
    if (levels[net] == level) {
        return;
    }
    levels[net] = level;
    sim_vcd_edge(net, level);
    sim_panel_on_edge(net, level);
    if (net == SIM_NET_EPD_VCC || net == SIM_NET_BUTTON) {
        sim_power_update();
    }
    if (net == SIM_NET_EPD_BUSY && level != 0u) {
        sim_board_busy_rising_edge();
    }
}
