/*
 * sim_board.c - the runner: the firmware lives in its own coroutine (a
 * ucontext with its own stack); the host drives virtual time.
 *
 * The firmware gives control back when the clock reaches the host's
 * deadline, when it sleeps, when a refresh has just finished (so the host can
 * snapshot the panel) or when a power cut takes the board down. A power cut
 * abandons the coroutine; power-on starts app_main() afresh on the same
 * stack, with flash and EEPROM kept.
 */
#define _XOPEN_SOURCE 700

#include "sim_board.h"

#include "sim.h"
#include "sim_battery.h"
#include "sim_bus.h"
#include "sim_button.h"
#include "sim_clock.h"
#include "sim_firmware.h"
#include "sim_nvm.h"
#include "sim_panel.h"
#include "sim_power.h"
#include "sim_uart.h"
#include "sim_vcd.h"
#include "sim_violation.h"

#include <setjmp.h>
#include <stdlib.h>
#include <ucontext.h>

#define FIRMWARE_STACK_BYTES (256u * 1024u)
/* After a brown-out the power-up timer (PWRTE = ON) holds the reset: RST04, 65 ms typ. */
#define POWER_UP_TIMER_NS 65000000ull
/* After a watchdog reset: the oscillator's start, microseconds (no power-up timer). */
#define WATCHDOG_RESTART_NS 10000ull

static ucontext_t host_context;
static ucontext_t firmware_context;
static void *firmware_stack;

static struct {
    bool booted;
    bool powered;
    bool halted; /* app_main() returned */
    bool in_firmware;
    sim_mcu_state_t mcu;
    bool gie;
    bool iocaf;           /* IOCAF5: the button fell */
    bool ioc_busy_rising; /* IOCAP4 */
    bool iocaf_busy;      /* IOCAF4: EPD_BUSY rose */
    uint64_t watchdog_ns; /* time-out of the watchdog, SIM_NEVER while it does not run */
    sim_wake_t wake_cause;
    uint64_t deadline_ns;
    bool stop_pending;
    sim_stop_t stop;
    bool slept_with_panel_powered; /* reported once until a sleep with the panel off */
    uint32_t refreshes_seen;
    uint32_t sleeps;          /* sim_cpu_sleep()s that slept, since boot */
    uint32_t sleeps_with_gie; /* of them, with interrupts on (an edge could slip in first) */
    uint32_t hal_calls;       /* HAL calls the firmware entered since boot */
    uint32_t byte_at_call;    /* sim_uart_byte_at_hal_call(): the call, 0 = none */
    uint8_t byte_value;
    bool brownout_pending; /* the BOR tripped: reset at the next safe point */
    bool watchdog_pending; /* the awake watchdog timed out: reset at the next safe point */
    uint64_t restart_ns;   /* end of a brown-out reset, SIM_NEVER if none */
    uint32_t brownouts;
    bool supplied; /* the cell is in (false after sim_cut_power() until sim_power_on()) */
    bool sboren;   /* BORCON.SBOREN (1 at reset) */
    /* The watchdog while awake (WDTCON.SWDTEN outside SLEEP): its period, the time-out
     * (SIM_NEVER while off or asleep), when it was last cleared, the longest run. */
    uint64_t awake_watchdog_period_ns;
    uint64_t awake_watchdog_ns;
    uint64_t awake_cleared_ns;
    uint64_t awake_longest_ns;
    uint32_t watchdog_resets;
    bool hang; /* test hook: the firmware hangs at its next HAL call */
    sim_reset_t reset_cause;
} board;

static const sim_net_t mcu_driven_panel_nets[] = {SIM_NET_EPD_SCL, SIM_NET_EPD_SDA,
                                                  SIM_NET_EPD_CS,  SIM_NET_EPD_DC,
                                                  SIM_NET_EPD_RST, SIM_NET_EPD_VCC};

/* ---- coroutine -------------------------------------------------------------- */

static void yield_to_host(void) {
    swapcontext(&firmware_context, &host_context);
}

static void firmware_entry(void) {
    sim_firmware_reset();
    sim_violation("app_main() returned (it must never return)");
    board.halted = true;
    board.mcu = SIM_MCU_SLEEP;
    sim_power_update();
    for (;;) {
        yield_to_host();
    }
}

static void start_firmware(void) {
    getcontext(&firmware_context);
    firmware_context.uc_stack.ss_sp = firmware_stack;
    firmware_context.uc_stack.ss_size = FIRMWARE_STACK_BYTES;
    firmware_context.uc_link = NULL;
    makecontext(&firmware_context, firmware_entry, 0);
    board.halted = false;
    board.mcu = SIM_MCU_RUN;
    board.gie = false;
    board.iocaf = false;
    board.ioc_busy_rising = false;
    board.iocaf_busy = false;
    board.watchdog_ns = SIM_NEVER;
    board.sboren = true;
    board.awake_watchdog_period_ns = 0;
    board.awake_watchdog_ns = SIM_NEVER;
    board.hang = false;
    sim_battery_clock_reset();
    sim_uart_chip_reset();
    sim_power_update();
}

static bool firmware_runnable(void) {
    return board.powered && !board.halted &&
           (board.mcu == SIM_MCU_RUN || board.mcu == SIM_MCU_STALL);
}

static void note_refresh(void) {
    if (sim_refresh_count() != board.refreshes_seen) {
        board.refreshes_seen = sim_refresh_count();
        if (!board.stop_pending) {
            board.stop_pending = true;
            board.stop = SIM_STOP_REFRESH_DONE;
        }
    }
}

static void awake_watchdog_stop(void);
static void awake_watchdog_restart(void);

/* ---- CPU -------------------------------------------------------------------- */

sim_mcu_state_t sim_board_mcu_state(void) {
    return board.mcu;
}

void sim_cpu_spend(uint64_t ns) {
    uint64_t target = sim_now() + ns;

    if (!board.in_firmware) {
        /* Called from the host (tests driving the HAL directly): just let time pass. */
        sim_clock_run_to(target);
        return;
    }
    for (;;) {
        uint64_t limit = target < board.deadline_ns ? target : board.deadline_ns;

        sim_clock_run_to(limit);
        note_refresh();
        if (board.stop_pending || board.brownout_pending || board.watchdog_pending ||
            sim_now() >= board.deadline_ns) {
            yield_to_host(); /* after a brown-out, never resumed: the chip restarts afresh */
        }
        if (sim_now() >= target) {
            return;
        }
    }
}

void sim_cpu_stall(uint64_t ns) {
    board.mcu = SIM_MCU_STALL;
    sim_power_update();
    sim_cpu_spend(ns);
    board.mcu = SIM_MCU_RUN;
    sim_power_update();
    sim_board_service_interrupts();
}

static bool cpu_asleep(void) {
    return board.mcu == SIM_MCU_SLEEP || board.mcu == SIM_MCU_SLEEP_ON_PANEL;
}

/* ---- the watchdog while awake ------------------------------------------------ */

static void awake_watchdog_note_run(void) {
    if (board.awake_watchdog_ns != SIM_NEVER &&
        sim_now() - board.awake_cleared_ns > board.awake_longest_ns) {
        board.awake_longest_ns = sim_now() - board.awake_cleared_ns;
    }
}

/* SLEEP clears the watchdog; asleep, only the sleep's own bound runs. */
static void awake_watchdog_stop(void) {
    awake_watchdog_note_run();
    board.awake_watchdog_ns = SIM_NEVER;
}

/* Cleared (CLRWDT, a wake-up, a new setting): it counts its period from now. */
static void awake_watchdog_restart(void) {
    awake_watchdog_note_run();
    board.awake_cleared_ns = sim_now();
    board.awake_watchdog_ns = board.awake_watchdog_period_ns != 0u &&
                                      (board.mcu == SIM_MCU_RUN || board.mcu == SIM_MCU_STALL)
                                  ? sim_now() + board.awake_watchdog_period_ns
                                  : SIM_NEVER;
}

void sim_board_watchdog_awake(uint64_t period_ns) {
    board.awake_watchdog_period_ns = period_ns;
    awake_watchdog_restart();
}

void sim_board_watchdog_clear(void) {
    awake_watchdog_restart();
}

uint32_t sim_watchdog_reset_count(void) {
    return board.watchdog_resets;
}

uint64_t sim_watchdog_longest_ns(void) {
    awake_watchdog_note_run();
    return board.awake_longest_ns;
}

void sim_hang_firmware(void) {
    board.hang = true;
}

/* The sleep's watchdog is cleared on the way out of SLEEP; the awake one starts again. */
static void wake(sim_wake_t cause) {
    board.mcu = SIM_MCU_RUN;
    board.wake_cause = cause;
    board.watchdog_ns = SIM_NEVER;
    awake_watchdog_restart();
    sim_power_update();
}

/* As on the chip: with an enabled interrupt flag still set (IOC, or a received
 * byte waiting in the FIFO), SLEEP does nothing. */
static bool interrupt_pending(void) {
    return board.iocaf || board.iocaf_busy || sim_uart_fifo_count() > 0u;
}

/* The EUSART's clock stops in SLEEP: a byte still going out would be cut. */
static void check_transmitter_idle(void) {
    if (sim_uart_transmitting()) {
        sim_violation("SLEEP while the EUSART still sends: the byte is cut off");
    }
}

/* A standby SLEEP that sleeps: counted, and the panel's supply must be cut. */
static void note_standby_sleep(void) {
    board.sleeps++;
    if (board.gie) {
        board.sleeps_with_gie++;
    }
    if (sim_bus_level(SIM_NET_EPD_VCC) == 0u) {
        board.slept_with_panel_powered = false;
    } else if (!board.slept_with_panel_powered) {
        board.slept_with_panel_powered = true;
        sim_violation("SLEEP with the panel powered (EPD_VCC high): standby must cut it");
    }
}

void sim_cpu_sleep(void) {
    sim_cpu_spend(SIM_INSTRUCTION_NS);
    if (interrupt_pending()) {
        return;
    }
    check_transmitter_idle();
    note_standby_sleep();
    awake_watchdog_stop();
    board.mcu = SIM_MCU_SLEEP;
    sim_power_update();
    if (board.in_firmware) {
        yield_to_host(); /* the host resumes us once an event has woken the CPU */
    }
}

/* SLEEP with the watchdog as its bound, in `state` (an update's or standby). */
static sim_wake_t sleep_bounded(sim_mcu_state_t state, uint64_t watchdog_ns) {
    sim_cpu_spend(SIM_INSTRUCTION_NS);
    if (interrupt_pending()) {
        return SIM_WAKE_NONE;
    }
    check_transmitter_idle();
    awake_watchdog_stop();
    board.mcu = state;
    board.wake_cause = SIM_WAKE_NONE;
    board.watchdog_ns = sim_now() + watchdog_ns;
    sim_power_update();
    if (board.in_firmware) {
        yield_to_host(); /* the host resumes us once an event has woken the CPU */
    } else {
        /* Called from the host (tests driving the firmware's code directly): the events
         * until one wakes the CPU (the watchdog is one, so this ends). */
        while (board.mcu == state && board.powered) {
            sim_clock_run_to(sim_clock_next_event());
        }
    }
    return board.wake_cause;
}

sim_wake_t sim_cpu_sleep_on_panel(uint64_t watchdog_ns) {
    return sleep_bounded(SIM_MCU_SLEEP_ON_PANEL, watchdog_ns);
}

sim_wake_t sim_cpu_sleep_standby(uint64_t watchdog_ns) {
    if (!interrupt_pending()) {
        note_standby_sleep();
    }
    return sleep_bounded(SIM_MCU_SLEEP, watchdog_ns);
}

bool sim_board_sleep_watchdog_runs(void) {
    return cpu_asleep() && board.watchdog_ns != SIM_NEVER;
}

/* Supply gone, or the chip in reset: the CPU stops and every pin the MCU drove falls (the
 * panel loses its rail). A panel whose charge pumps run is cut live, whatever the cause (a
 * brown-out, the watchdog, MCLR, the cell pulled): counted as the controller model counts
 * the firmware's own cuts. */
static void go_dark(const char *cause) {
    size_t i;

    if (sim_bus_level(SIM_NET_EPD_VCC) != 0u && sim_panel_pumps_on()) {
        sim_violation("EPD_VCC cut with the charge pumps on (no POWER_OFF): %s", cause);
    }
    board.powered = false;
    board.mcu = SIM_MCU_OFF;
    board.watchdog_ns = SIM_NEVER;
    /* The panel's rail falls with the pins, whatever the cause: the controller model checks
     * that cut as any other (POWER_OFF first). */
    for (i = 0; i < sizeof mcu_driven_panel_nets / sizeof mcu_driven_panel_nets[0]; i++) {
        sim_bus_drive(mcu_driven_panel_nets[i], 0u);
    }
    sim_power_update();
}

static jmp_buf *host_power_cut;

void sim_board_catch_host_power_cut(jmp_buf *to) {
    host_power_cut = to;
}

void sim_board_power_fail(void) {
    board.supplied = false;
    go_dark("the supply failed");
    if (!board.in_firmware) {
        /* A test driving the firmware's code from the host: back to its catch point. */
        if (host_power_cut != NULL) {
            longjmp(*host_power_cut, 1);
        }
        abort();
    }
    board.stop_pending = true;
    board.stop = SIM_STOP_POWER_CUT;
    yield_to_host();
    abort(); /* an abandoned coroutine is never resumed */
}

/* ---- interrupts ------------------------------------------------------------- */

void sim_board_irq_enable(bool enabled) {
    board.gie = enabled;
    sim_board_service_interrupts();
}

bool sim_board_irq_enabled(void) {
    return board.gie;
}

void sim_board_ioc_falling_edge(void) {
    if (!board.powered) {
        return;
    }
    board.iocaf = true;
    if (cpu_asleep() && !board.halted) {
        wake(SIM_WAKE_PIN_EDGE);
    }
    sim_board_service_interrupts();
}

bool sim_board_ioc_flag_take(void) {
    bool was = board.iocaf;

    board.iocaf = false;
    board.iocaf_busy = false;
    return was;
}

void sim_board_ioc_busy_rising_enable(bool enabled) {
    board.ioc_busy_rising = enabled;
    if (!enabled) {
        board.iocaf_busy = false;
    }
}

void sim_board_busy_rising_edge(void) {
    if (!board.powered || !board.ioc_busy_rising) {
        return;
    }
    board.iocaf_busy = true;
    if (cpu_asleep() && !board.halted) {
        wake(SIM_WAKE_PIN_EDGE);
    }
    sim_board_service_interrupts();
}

uint64_t sim_board_next_event(void) {
    uint64_t next = board.watchdog_ns < board.restart_ns ? board.watchdog_ns : board.restart_ns;

    return board.awake_watchdog_ns < next ? board.awake_watchdog_ns : next;
}

void sim_board_brownout(void) {
    if (board.powered) {
        board.brownout_pending = true;
    }
}

/* Host context: the reset a brown-out trip asked for. The chip's pins let go (the
 * panel loses its supply), and it stays in reset until the cell recovers. */
static void brown_out(void) {
    board.brownout_pending = false;
    board.brownouts++;
    sim_supply_brownout_counted();
    go_dark("a brown-out reset");
    board.reset_cause = SIM_RESET_BROWNOUT;
    board.restart_ns = sim_now() + POWER_UP_TIMER_NS;
}

/* Host context: the awake watchdog's reset. The pins let go as in any reset (U2's ON
 * pin is pulled low: the panel loses its supply); the chip starts again at once. */
static void watchdog_reset(void) {
    board.watchdog_pending = false;
    board.watchdog_resets++;
    go_dark("a watchdog reset");
    board.reset_cause = SIM_RESET_WATCHDOG;
    board.restart_ns = sim_now() + WATCHDOG_RESTART_NS;
}

/* Host context: MCLR (RA3) pulled low and let go: the chip resets at once and starts again
 * (no power-up timer after MCLR). */
void sim_reset_pin(void) {
    if (!board.booted || !board.powered) {
        return;
    }
    go_dark("an MCLR reset");
    board.reset_cause = SIM_RESET_MCLR;
    board.restart_ns = sim_now() + WATCHDOG_RESTART_NS;
}

void sim_board_clock_set(uint32_t fosc_hz) {
    sim_battery_clock_set(fosc_hz);
}

sim_reset_t sim_board_reset_cause_take(void) {
    sim_reset_t cause = board.reset_cause;

    board.reset_cause = SIM_RESET_OTHER;
    return cause;
}

bool sim_board_sboren(void) {
    return board.sboren;
}

void sim_board_set_sboren(bool on) {
    board.sboren = on;
    sim_power_update();
}

bool sim_board_supplied(void) {
    return board.supplied;
}

uint32_t sim_brownout_count(void) {
    return board.brownouts;
}

void sim_board_run_events(void) {
    if (board.restart_ns <= sim_now()) {
        board.restart_ns = SIM_NEVER;
        if (sim_battery_bor_released()) {
            board.powered = true;
            start_firmware();
        } else {
            board.restart_ns = sim_now() + POWER_UP_TIMER_NS;
        }
    }
    if (board.watchdog_ns <= sim_now()) {
        board.watchdog_ns = SIM_NEVER;
        if (cpu_asleep()) {
            wake(SIM_WAKE_WATCHDOG);
        }
    }
    if (board.awake_watchdog_ns <= sim_now()) {
        awake_watchdog_stop();
        if (board.powered) {
            board.watchdog_pending = true;
        }
    }
}

void sim_board_service_interrupts(void) {
    if (board.powered && board.gie && board.mcu == SIM_MCU_RUN) {
        sim_firmware_isr();
    }
}

bool sim_board_uart_start_bit(void) {
    if (!board.powered) {
        return false;
    }
    if (cpu_asleep()) {
        if (!board.halted) {
            wake(SIM_WAKE_UART);
        }
        return false;
    }
    return true;
}

bool sim_board_uart_can_receive(void) {
    return board.powered && (board.mcu == SIM_MCU_RUN || board.mcu == SIM_MCU_STALL);
}

/* ---- interrupts between any two HAL calls -------------------------------------------- */

void sim_board_hal_call(void) {
    if ((board.brownout_pending || board.watchdog_pending) && board.in_firmware) {
        yield_to_host(); /* never resumed: the host resets the chip */
    }
    while (board.hang && board.in_firmware) {
        sim_cpu_spend(1000000u); /* until a reset abandons this coroutine */
    }
    board.hal_calls++;
    if (board.byte_at_call != 0u && board.hal_calls == board.byte_at_call) {
        board.byte_at_call = 0u;
        if (board.powered) {
            sim_uart_byte_received(board.byte_value); /* the interrupt runs now if it can */
        }
        if (!board.stop_pending) {
            board.stop_pending = true;
            board.stop = SIM_STOP_BYTE_LANDED;
        }
    }
}

uint32_t sim_board_sleep_count(void) {
    return board.sleeps;
}

uint32_t sim_board_sleeps_with_irq_enabled(void) {
    return board.sleeps_with_gie;
}

uint32_t sim_hal_call_count(void) {
    return board.hal_calls;
}

void sim_uart_byte_at_hal_call(uint32_t call, uint8_t byte) {
    board.byte_at_call = call;
    board.byte_value = byte;
}

/* ---- host API ------------------------------------------------------------------ */

int sim_boot(const char *vcd_path) {
    sim_shutdown();
    firmware_stack = malloc(FIRMWARE_STACK_BYTES);
    if (firmware_stack == NULL) {
        return -1;
    }
    sim_clock_reset();
    sim_violation_reset();
    sim_bus_reset();
    sim_panel_reset();
    sim_nvm_reset();
    sim_uart_reset();
    sim_button_reset();
    board.booted = true;
    board.powered = true;
    board.halted = false;
    board.in_firmware = false;
    board.mcu = SIM_MCU_OFF;
    board.gie = false;
    board.iocaf = false;
    board.ioc_busy_rising = false;
    board.iocaf_busy = false;
    board.watchdog_ns = SIM_NEVER;
    board.wake_cause = SIM_WAKE_NONE;
    board.deadline_ns = 0;
    board.stop_pending = false;
    board.slept_with_panel_powered = false;
    board.refreshes_seen = 0;
    host_power_cut = NULL;
    board.hal_calls = 0;
    board.byte_at_call = 0;
    board.sleeps = 0;
    board.sleeps_with_gie = 0;
    board.brownout_pending = false;
    board.watchdog_pending = false;
    board.restart_ns = SIM_NEVER;
    board.brownouts = 0;
    board.supplied = true;
    board.sboren = true;
    board.awake_watchdog_period_ns = 0;
    board.awake_watchdog_ns = SIM_NEVER;
    board.awake_cleared_ns = 0;
    board.awake_longest_ns = 0;
    board.watchdog_resets = 0;
    board.hang = false;
    board.reset_cause = SIM_RESET_POWER_ON;
    sim_power_reset();
    if (vcd_path != NULL && sim_vcd_open(vcd_path) != 0) {
        sim_shutdown();
        return -1;
    }
    start_firmware();
    return 0;
}

void sim_shutdown(void) {
    sim_vcd_close();
    sim_uart_reset();
    sim_panel_reset();
    free(firmware_stack);
    firmware_stack = NULL;
    board.booted = false;
    board.powered = false;
}

uint64_t sim_time_ns(void) {
    return sim_now();
}

sim_stop_t sim_run_until(uint64_t t_ns) {
    if (!board.booted) {
        return SIM_STOP_DEADLINE;
    }
    board.deadline_ns = t_ns;
    for (;;) {
        if (board.brownout_pending) {
            brown_out();
        } else if (board.watchdog_pending) {
            watchdog_reset();
        }
        if (board.stop_pending) {
            board.stop_pending = false;
            return board.stop;
        }
        if (sim_now() >= t_ns) {
            return SIM_STOP_DEADLINE;
        }
        if (firmware_runnable()) {
            board.in_firmware = true;
            swapcontext(&host_context, &firmware_context);
            board.in_firmware = false;
        } else {
            uint64_t next = sim_clock_next_event();

            sim_clock_run_to(next < t_ns ? next : t_ns);
            note_refresh();
        }
    }
}

int sim_asleep(void) {
    return board.powered && board.mcu == SIM_MCU_SLEEP;
}

int sim_powered(void) {
    return board.powered;
}

int sim_net_level(sim_net_t net) {
    return net < SIM_NET_COUNT ? sim_bus_level(net) : -1;
}

void sim_cut_power(void) {
    board.restart_ns = SIM_NEVER;
    board.brownout_pending = false;
    board.watchdog_pending = false;
    board.supplied = false;
    if (board.booted && board.powered) {
        go_dark("the cell was taken out");
    }
}

void sim_power_on(void) {
    if (!board.booted || board.powered) {
        return;
    }
    board.restart_ns = SIM_NEVER;
    board.supplied = true;
    sim_battery_power_restored();
    board.reset_cause = SIM_RESET_POWER_ON;
    board.powered = true;
    start_firmware();
}
