/*
 * sim_test_pins.c - pin-level helpers shared by the simulated-board tests.
 */
#include "sim_test_pins.h"

#include "sim_bus.h"
#include "sim_clock.h"

#include <stddef.h>
#include <string.h>

#define STEP_NS 125u

int pins_boot(void **state) {
    (void)state;
    return sim_boot(NULL);
}

int pins_shut_down(void **state) {
    (void)state;
    sim_shutdown();
    return 0;
}

int pins_violations_matching(const char *needle) {
    size_t i;
    int found = 0;

    for (i = 0; i < sim_violation_count(); i++) {
        found += strstr(sim_violation_text(i), needle) != NULL;
    }
    return found;
}

void pins_wait_ns(uint64_t ns) {
    sim_clock_run_to(sim_now() + ns);
}

void pins_set(sim_net_t net, uint8_t level) {
    sim_bus_drive(net, level);
    pins_wait_ns(STEP_NS);
}

void pins_spi_byte(uint8_t byte, uint8_t dc) {
    uint8_t mask;

    pins_set(SIM_NET_EPD_DC, dc);
    pins_set(SIM_NET_EPD_CS, 0u);
    for (mask = 0x80u; mask != 0u; mask >>= 1) {
        pins_set(SIM_NET_EPD_SDA, (byte & mask) != 0u);
        pins_set(SIM_NET_EPD_SCL, 1u);
        pins_set(SIM_NET_EPD_SCL, 0u);
    }
    pins_set(SIM_NET_EPD_CS, 1u);
}

void pins_command(uint8_t command) {
    pins_spi_byte(command, 0u);
}

void pins_data(uint8_t byte) {
    pins_spi_byte(byte, 1u);
}

void pins_power_up(void) {
    pins_set(SIM_NET_EPD_VCC, 1u);
    pins_wait_ns(1000000u);
    pins_set(SIM_NET_EPD_CS, 1u);
    pins_reset();
}

void pins_reset(void) {
    unsigned pulse;

    for (pulse = 0; pulse < 3u; pulse++) {
        pins_set(SIM_NET_EPD_RST, 0u);
        pins_wait_ns(60000u);
        pins_set(SIM_NET_EPD_RST, 1u);
        pins_wait_ns(60000u);
    }
    pins_wait_ns(10000000u);
}

void pins_init_controller(void) {
    unsigned waited_ms;

    pins_command(0x06u);
    pins_data(0x17u);
    pins_data(0x17u);
    pins_data(0x17u);
    pins_command(0x04u);
    /* POWER_ON: until BUSY is high again (79 ms on the UC8151D, 37 ms on the IL0373). */
    for (waited_ms = 0; waited_ms < 200u && sim_bus_level(SIM_NET_EPD_BUSY) == 0u; waited_ms++) {
        pins_wait_ns(1000000u);
    }
    pins_command(0x00u);
    pins_data(0x8Fu);
    pins_command(0x50u);
    pins_data(0x77u);
    pins_command(0x61u);
    pins_data(0x68u);
    pins_data(0x00u);
    pins_data(0xD4u);
}
