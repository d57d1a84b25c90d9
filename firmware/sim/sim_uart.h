/*
 * sim_uart.h - the EUSART at 115200 8N1, bit by bit on UART_TX / UART_RX,
 * with the chip's 2-byte receive FIFO and its overrun.
 */
#ifndef EPDLE_SIM_UART_H
#define EPDLE_SIM_UART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Device bit time: SP1BRG = 34 with BRG16 = BRGH = 1 at 16 MHz -> 114286 baud. */
#define SIM_UART_DEVICE_BIT_NS 8750u
#define SIM_UART_FIFO_BYTES 2u

void sim_uart_reset(void);
/* Receiver state after a chip reset (FIFO empty); queued host bytes stay queued. */
void sim_uart_chip_reset(void);
uint64_t sim_uart_next_event(void);
void sim_uart_run_events(void);
/* True while a byte is on either line (for the power model). */
/* A start bit has been seen and its byte is still being shifted in (RCIDL = 0). */
bool sim_uart_receiving(void);
bool sim_uart_active(void);
/* A byte in TX1REG or being shifted out (TRMT = 0 or TX1IF = 0). */
bool sim_uart_transmitting(void);

/* Host -> device bytes queued and not yet complete (for tests that wait for them). */
size_t sim_uart_rx_queued(void);
/* A byte completes now (FIFO, overrun, the interrupt), without its line bits. */
void sim_uart_byte_received(uint8_t byte);

/* Firmware side (runs in the firmware's context). */
/* The HAL's lines towards J1 (hal_sleep_lines_off()): RA1's pull-up and RC1's TX on, or
 * both pins driven low. */
void sim_uart_lines(bool on);
/* The HAL's look at RX with the lines off: RA1 an input with its pull-up for a moment. */
void sim_uart_rx_probe(bool on);
void sim_uart_transmit(uint8_t byte);
bool sim_uart_fifo_pop(uint8_t *byte);
unsigned sim_uart_fifo_count(void);
uint32_t sim_uart_overruns_take(void);

#endif /* EPDLE_SIM_UART_H */
