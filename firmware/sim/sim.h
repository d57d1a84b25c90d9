/*
 * sim.h - C API of the simulated board (libepdle_sim.so), used by epdle.sim
 * through ctypes. One board per process: the firmware's globals are the
 * chip's RAM, so there is exactly one chip.
 *
 * Time is virtual, in nanoseconds from sim_boot(). The host advances it with
 * sim_run_until(); the firmware runs in its own coroutine in between.
 */
#ifndef EPDLE_SIM_H
#define EPDLE_SIM_H

#include <stddef.h>
#include <stdint.h>

/* Board nets, in VCD order; 1 = high. */
typedef enum {
    SIM_NET_EPD_SCL = 0,
    SIM_NET_EPD_SDA,
    SIM_NET_EPD_CS,
    SIM_NET_EPD_DC,
    SIM_NET_EPD_RST,
    SIM_NET_EPD_BUSY,
    SIM_NET_EPD_VCC,
    SIM_NET_BUTTON,
    SIM_NET_UART_TX,
    SIM_NET_UART_RX,
    SIM_NET_COUNT
} sim_net_t;

/* Why sim_run_until() returned. */
typedef enum {
    SIM_STOP_DEADLINE = 0,     /* the clock reached the requested time */
    SIM_STOP_REFRESH_DONE = 1, /* a panel refresh just finished (image changed) */
    SIM_STOP_POWER_CUT = 2,    /* an injected power cut took the board down */
    SIM_STOP_BYTE_LANDED = 3   /* the byte of sim_uart_byte_at_hal_call() has landed */
} sim_stop_t;

#define SIM_PLANE_BYTES 2756u
#define SIM_EPD_LOG_DATA_BYTES 16u

/* One decoded controller transaction: a command byte and its data bytes. */
typedef struct {
    uint64_t t_ns;
    uint8_t cmd;
    uint32_t len;
    uint8_t data[SIM_EPD_LOG_DATA_BYTES]; /* first min(len, 16) data bytes */
} sim_epd_transaction_t;

/* Per-state times and charges of the power model. mcu_sleep_ns is all time
 * asleep; standby is sleep between updates, active everything else while powered
 * (the CPU running, stalled, or asleep through a refresh). */
typedef struct {
    uint64_t mcu_run_ns, mcu_stall_ns, mcu_sleep_ns, mcu_off_ns;
    uint64_t panel_off_ns, panel_idle_ns, panel_busy_ns, panel_deep_sleep_ns;
    uint64_t uart_active_ns, button_held_ns;
    uint64_t standby_ns, active_ns;
    double standby_charge_c, active_charge_c;
    double supply_v;
} sim_power_stats_t;

/* Fresh board (flash and EEPROM erased), firmware reset at t = 0. vcd_path may be NULL. */
int sim_boot(const char *vcd_path);
/* Tear everything down (closes the VCD). A later sim_boot() starts over. */
void sim_shutdown(void);

uint64_t sim_time_ns(void);
sim_stop_t sim_run_until(uint64_t t_ns);

/* Inputs, scheduled on the virtual clock. */
/* 0, or -1 if too many levels are already pending. */
int sim_button_schedule(uint64_t t_ns, uint8_t level);
void sim_uart_send(const uint8_t *data, size_t len);
size_t sim_uart_take(uint8_t *out, size_t capacity);

/* Board state. */
/* 1 while the CPU sleeps waiting for the button or the host (between updates);
 * sleeping through a panel refresh is part of an update and does not count. */
int sim_asleep(void);
int sim_powered(void);
int sim_net_level(sim_net_t net);
uint32_t sim_refresh_count(void);
void sim_panel_shown(uint8_t *black, uint8_t *red);
void sim_panel_ram(uint8_t *black, uint8_t *red);

/* Violations of the panel protocol, the power rules and the NVM rules. */
size_t sim_violation_count(void);
const char *sim_violation_text(size_t index);

/* Decoded controller transactions since boot. */
size_t sim_epd_transaction_count(void);
int sim_epd_transaction(size_t index, sim_epd_transaction_t *out);

/* Power cuts and non-volatile memory. */
/* Cut the supply as the Nth NVM write/erase from now starts (0 cancels). */
void sim_schedule_power_cut(uint32_t after_nvm_ops);
/*
 * Where a cut flash row erase or write stops: `words_done` words of the row
 * (0..32) are done, and the next word has only the bits of `partial_bits`
 * done (erased to 1 or programmed to 0), the rest as they were. Until the
 * next reset the default is 16 words and no partial word.
 */
void sim_set_power_cut_tear(uint8_t words_done, uint16_t partial_bits);
/* Cut the supply now; the firmware stops wherever it is. */
void sim_cut_power(void);
/* Reboot a dark board: app_main() afresh, flash and EEPROM kept. */
void sim_power_on(void);
uint32_t sim_nvm_op_count(void);
uint32_t sim_flash_erase_count(void);
uint32_t sim_flash_row_erase_count(uint16_t row);
uint16_t sim_flash_peek(uint16_t word_addr);
void sim_flash_poke(uint16_t word_addr, uint16_t value);
uint8_t sim_eeprom_peek(uint8_t addr);
void sim_eeprom_poke(uint8_t addr, uint8_t value);

void sim_power_stats(sim_power_stats_t *out);

/*
 * The coin cell (firmware/sim/sim_battery.c): VDD = open-circuit voltage - load x
 * internal resistance. sim_boot() starts with a fresh CR2032 (3.0 V, 15 ohm); set a
 * cold or run-down one after it. Below the brown-out trip point of the configuration
 * words the chip resets (the supply stays: it restarts once the cell recovers);
 * the CPU running below its clock's lowest VDD is a violation.
 */
void sim_battery_set(double open_circuit_v, double internal_ohm);
/* The lowest VDD with the CPU running since boot. */
double sim_battery_vdd_min_running(void);
/* Brown-out resets since boot. */
uint32_t sim_brownout_count(void);

/*
 * Races at any point of the firmware: the HAL calls it has entered since
 * boot, and a received byte that completes (its start and data bits unseen,
 * the FIFO and RCIF set) just as it enters HAL call number `call`, so the
 * interrupt runs there if it is enabled, or its flag waits if not; then
 * sim_run_until() returns SIM_STOP_BYTE_LANDED. One byte at a time; 0 cancels.
 */
uint32_t sim_hal_call_count(void);
void sim_uart_byte_at_hal_call(uint32_t call, uint8_t byte);

#endif /* EPDLE_SIM_H */
