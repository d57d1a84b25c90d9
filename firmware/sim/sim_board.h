/*
 * sim_board.h - the chip's core as the models see it: CPU state (run,
 * stalled by a flash write, asleep, unpowered), interrupts and wake-up, and
 * the coroutine the firmware runs in.
 */
#ifndef EPDLE_SIM_BOARD_H
#define EPDLE_SIM_BOARD_H

#include <stdbool.h>
#include <stdint.h>

/* One PIC instruction at Fosc = 32 MHz (Fosc / 4 = 8 MIPS). */
#define SIM_INSTRUCTION_NS 125u

typedef enum { SIM_MCU_OFF = 0, SIM_MCU_RUN, SIM_MCU_STALL, SIM_MCU_SLEEP } sim_mcu_state_t;

sim_mcu_state_t sim_board_mcu_state(void);

/* Firmware context: time passes while the CPU runs (returns to the host at its deadline). */
void sim_cpu_spend(uint64_t ns);
/* Firmware context: CPU stalled by a flash self-write; interrupts wait until it ends. */
void sim_cpu_stall(uint64_t ns);
/* Firmware context: SLEEP. Returns after the wake-up, once the interrupt has run. */
void sim_cpu_sleep(void);
/* Firmware context: the supply collapses now; never returns. */
void sim_board_power_fail(void) __attribute__((noreturn));

/* GIE */
void sim_board_irq_enable(bool enabled);
/* Interrupt-on-change flag (IOCAF for the button): latched by hardware. */
void sim_board_ioc_falling_edge(void);
bool sim_board_ioc_flag_take(void);
/* Run the interrupt routine if something is pending and the CPU can take it. */
void sim_board_service_interrupts(void);

/* UART receiver: a start bit arrives; false if that character will not be received
 * (the CPU was asleep - the start bit woke it - or the chip is unpowered). */
bool sim_board_uart_start_bit(void);
bool sim_board_uart_can_receive(void);

/* Provided by the sim HAL: the firmware's interrupt routine. */
void hal_sim_isr(void);

#endif /* EPDLE_SIM_BOARD_H */
