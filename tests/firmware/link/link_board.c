#include "link_board.h"

#include "link.h"
#include "sim_uart.h"

#include <stdlib.h>

/* One byte's frame at 115200 Bd is 87 us: twice that lets a reply's last byte leave. */
#define LINE_QUIET_US 200u

jmp_buf board_cut;

static void start(void) {
    hal_init();
    hal_irq_enable();
}

void board_fresh(void) {
    if (sim_boot(NULL) != 0) {
        abort();
    }
    start();
}

void board_reboot(void) {
    sim_power_on();
    start();
}

uint16_t board_take_tx(uint8_t *out, uint16_t capacity) {
    hal_delay_us(LINE_QUIET_US);
    return (uint16_t)sim_uart_take(out, capacity);
}

uint16_t board_exchange(const uint8_t *bytes, uint16_t length, uint32_t max_calls, uint8_t *out,
                        uint16_t capacity) {
    uint32_t calls = 0;

    sim_uart_send(bytes, length);
    while ((sim_uart_rx_queued() != 0u || hal_uart_pending()) && calls < max_calls &&
           sim_powered()) {
        (void)link_service();
        calls++;
    }
    return sim_powered() ? board_take_tx(out, capacity) : 0u;
}

uint32_t board_now_us(void) {
    return (uint32_t)(sim_time_ns() / 1000u);
}

void board_catch_cuts(bool on) {
    sim_board_catch_host_power_cut(on ? &board_cut : NULL);
}

bool board_was_cut(void) {
    return !sim_powered();
}
