/*
 * sim_board.h - the chip's core as the models see it: CPU state (run,
 * stalled by a flash write, asleep, unpowered), interrupts and wake-up, and
 * the coroutine the firmware runs in.
 */
#ifndef EPDLE_SIM_BOARD_H
#define EPDLE_SIM_BOARD_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

/* One PIC instruction at the Fosc hal_init() sets, 16 MHz (Fosc / 4 = 4 MIPS). */
#define SIM_INSTRUCTION_NS 250u

/*
 * SIM_MCU_SLEEP waits for the button or the host (standby, between updates);
 * SIM_MCU_SLEEP_ON_PANEL sleeps through a panel refresh (part of an update),
 * with the watchdog running as its bound.
 */
typedef enum {
    SIM_MCU_OFF = 0,
    SIM_MCU_RUN,
    SIM_MCU_STALL,
    SIM_MCU_SLEEP,
    SIM_MCU_SLEEP_ON_PANEL
} sim_mcu_state_t;

/* What ended a sim_cpu_sleep_on_panel(). */
typedef enum {
    SIM_WAKE_NONE = 0, /* SLEEP did nothing: an enabled interrupt flag was pending */
    SIM_WAKE_WATCHDOG, /* the watchdog timed out (STATUS.TO cleared on the chip) */
    SIM_WAKE_PIN_EDGE, /* interrupt-on-change: the button fell or EPD_BUSY rose */
    SIM_WAKE_UART      /* a start bit (that character is not received) */
} sim_wake_t;

sim_mcu_state_t sim_board_mcu_state(void);

/* Firmware context: time passes while the CPU runs (returns to the host at its deadline). */
void sim_cpu_spend(uint64_t ns);
/* Firmware context: CPU stalled by a flash self-write; interrupts wait until it ends. */
void sim_cpu_stall(uint64_t ns);
/* Firmware context: SLEEP. Returns after the wake-up, once the interrupt has run. */
void sim_cpu_sleep(void);
/*
 * Firmware context: SLEEP through a panel refresh. The watchdog times out
 * watchdog_ns after SLEEP; it, an interrupt-on-change edge or a UART start
 * bit wakes the CPU. GIE is meant to be off (as on the chip, so that the flag
 * of an edge that came before SLEEP makes it return at once): the interrupt
 * routine runs once the caller turns interrupts on again.
 */
sim_wake_t sim_cpu_sleep_on_panel(uint64_t watchdog_ns);
/*
 * Firmware context: the standby SLEEP (between updates, as sim_cpu_sleep()) with the
 * watchdog as its bound: it times out watchdog_ns after SLEEP, or the button's edge or
 * a start bit wakes the CPU first. GIE as in sim_cpu_sleep_on_panel().
 */
sim_wake_t sim_cpu_sleep_standby(uint64_t watchdog_ns);
/* The CPU sleeps with the watchdog running as its bound (its current is drawn). */
bool sim_board_sleep_watchdog_runs(void);
/*
 * The brown-out reset trips (from the power model, any context): the chip resets at
 * the next safe point (a HAL call or the host's loop), stays in reset until the cell
 * recovers, and restarts after the power-up timer.
 */
void sim_board_brownout(void);
/* BORCON.SBOREN (the brown-out reset with BOREN = SBOREN); 1 at reset. */
bool sim_board_sboren(void);
void sim_board_set_sboren(bool on);
/* OSCFRQ / OSCCON1: the CPU's clock from now (RSTOSC's at every reset). */
void sim_board_clock_set(uint32_t fosc_hz);
/* The cell is in: false after a power cut until power-on. */
bool sim_board_supplied(void);
/* WDTCON outside SLEEP: the watchdog's period while awake (0: off); cleared from now. */
void sim_board_watchdog_awake(uint64_t period_ns);
/* CLRWDT. */
void sim_board_watchdog_clear(void);
/* What reset the chip last, as PCON0 tells it (read once: then SIM_RESET_OTHER). */
typedef enum {
    SIM_RESET_POWER_ON = 0,
    SIM_RESET_BROWNOUT,
    SIM_RESET_WATCHDOG,
    SIM_RESET_MCLR,
    SIM_RESET_OTHER,
    SIM_RESET_KINDS
} sim_reset_t;
sim_reset_t sim_board_reset_cause_take(void);
/* Firmware context: the supply collapses now; never returns. */
void sim_board_power_fail(void) __attribute__((noreturn));
/*
 * For tests that call the firmware's code straight from the host: a power cut
 * there longjmps to `to` (set with setjmp; NULL aborts instead), the board
 * dark until sim_power_on().
 */
void sim_board_catch_host_power_cut(jmp_buf *to);

/* GIE */
void sim_board_irq_enable(bool enabled);
bool sim_board_irq_enabled(void);
/* Interrupt-on-change flag (IOCAF for the button): latched by hardware. */
void sim_board_ioc_falling_edge(void);
/* Clears every interrupt-on-change flag, as the interrupt routine writes IOCAF = 0;
 * true if the button's was set. */
bool sim_board_ioc_flag_take(void);
/* IOCAP4: EPD_BUSY's rising edge sets a flag and wakes the CPU (disarming clears the flag). */
void sim_board_ioc_busy_rising_enable(bool enabled);
/* From the bus: EPD_BUSY went high. */
void sim_board_busy_rising_edge(void);
/* The watchdog's time-out as a clock event (SIM_NEVER while it does not run). */
uint64_t sim_board_next_event(void);
void sim_board_run_events(void);
/* Run the interrupt routine if something is pending and the CPU can take it. */
void sim_board_service_interrupts(void);

/* UART receiver: a start bit arrives; false if that character will not be received
 * (the CPU was asleep - the start bit woke it - or the chip is unpowered). */
bool sim_board_uart_start_bit(void);
bool sim_board_uart_can_receive(void);

/*
 * Every HAL function calls this first: the point between two HAL calls where
 * sim_uart_byte_at_hal_call() makes a byte arrive (and the interrupt run, if
 * it is enabled), so a race can be tried at every one of them.
 */
void sim_board_hal_call(void);

/* For tests: SLEEPs (between updates) since boot, and how many had interrupts on. */
uint32_t sim_board_sleep_count(void);
uint32_t sim_board_sleeps_with_irq_enabled(void);

#endif /* EPDLE_SIM_BOARD_H */
