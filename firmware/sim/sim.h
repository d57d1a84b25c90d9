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
    uint32_t crc32;                       /* CRC-32 (zlib's) of all len data bytes */
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

/*
 * The panel's controller is busy from a command that makes it so (POWER_ON,
 * POWER_OFF, DISPLAY_REFRESH) on, but pulls BUSY low only latency_ns later
 * (0 at boot); the operation's time counts from there. A command in between
 * is one sent while busy.
 */
void sim_panel_set_busy_latency_ns(uint64_t latency_ns);

/*
 * How the serial adapter's TXD (3.3 V logic) reaches RA1 (UART RX). Through
 * R2 (1 kOhm) alone, as the board was first drawn, a high level above VDD
 * drives current through RA1's clamp diode into VDD (the cell, or the whole
 * chip with the cell switched off): a violation. Through a Schottky diode
 * (cathode at the adapter) with the pin pulled up to VDD, the adapter can
 * only pull the line low: the default, the board as now drawn.
 */
typedef enum { SIM_RX_PATH_SCHOTTKY = 0, SIM_RX_PATH_RESISTOR } sim_rx_path_t;
void sim_uart_set_rx_path(sim_rx_path_t path);

/*
 * What is on J1: a powered adapter (the default: its TXD idles high, bytes sent with
 * sim_uart_send() arrive), an unpowered one left plugged in (its TXD and RXD held near
 * 0 V by its protection diodes: RX reads low, and RA1's pull-up and RC1's idle high drive
 * current into it, drawn from the cell), or none (RX follows RA1's pull-up). A change to
 * a low RX wakes a sleeping CPU as a start bit does.
 */
typedef enum { SIM_ADAPTER_POWERED = 0, SIM_ADAPTER_UNPOWERED, SIM_ADAPTER_NONE } sim_adapter_t;
void sim_uart_set_adapter(sim_adapter_t adapter);
/* The current the UART's lines drive into the adapter now (A), at the cell's voltage. */
double sim_uart_line_current_a(void);

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
/* MCLR (RA3) pulled low and let go: a reset with the supply kept. */
void sim_reset_pin(void);
/* This chip's FVR buffer at 1x (1.024 V nominal, +-4 % from part to part): what the ADC
 * converts against VDD. 1.024 at boot. */
void sim_fvr_set(double volts);
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
 * The supply path (firmware/sim/sim_battery.c): the coin cell (open-circuit voltage
 * behind its internal resistance), VDD as a node with C1, C2 and the reservoir at
 * U2's VIN, the panel's rail behind U2 with C3 and the module's input capacitance,
 * integrated over virtual time. sim_boot() starts with a fresh CR2032 (3.0 V,
 * 15 ohm) and the board's capacitors; set a cold or run-down cell after it. Below
 * the brown-out trip point, with the BOR armed as the configuration words (and
 * BORCON.SBOREN) say, the chip resets (the supply stays: it restarts once VDD is
 * back above the trip point); the CPU running below its clock's lowest VDD is a
 * violation.
 */
void sim_battery_set(double open_circuit_v, double internal_ohm);
/*
 * The cells the design was chosen from (hardware/power.md, "The cell by numbers"): each one's
 * open-circuit voltage and internal resistance after `used` (0 .. 1) of its rated capacity,
 * by its makers' curves at 20 C, set as sim_battery_set() would (-1: unknown cell or share),
 * and its rating: capacity, self-discharge, continuous and pulse current.
 */
typedef enum {
    SIM_CELL_CR2032 = 0,
    SIM_CELL_CR2450,
    SIM_CELL_2XAAA_ALKALINE,
    SIM_CELL_2XAAA_LITHIUM,
    SIM_CELL_KINDS
} sim_cell_t;
typedef struct {
    double capacity_mah;
    double self_discharge_per_year; /* share of the capacity */
    double continuous_ma, pulse_ma; /* the makers' largest recommended; 0: none known */
} sim_cell_rating_t;
int sim_cell_set(sim_cell_t cell, double used);
int sim_cell_rating(sim_cell_t cell, sim_cell_rating_t *out);
/* The lowest VDD with the CPU running since boot. */
double sim_battery_vdd_min_running(void);
/* Brown-out resets since boot. */
uint32_t sim_brownout_count(void);

typedef struct {
    double cell_v, cell_ohm;
    double reservoir_uf; /* at U2's VIN, besides C1 (0.1 uF) and C2 (10 uF) */
    double panel_uf;     /* the module's input capacitance, besides C3 (1 uF) */
} sim_supply_t;
void sim_supply_get(sim_supply_t *out);
void sim_supply_set(const sim_supply_t *in);

/* Where in the configured trip range (RST06 min / typ / max) the simulated chip trips. */
typedef enum { SIM_BOR_TRIP_MIN = 0, SIM_BOR_TRIP_TYP, SIM_BOR_TRIP_MAX } sim_bor_trip_t;
void sim_bor_trip_select(sim_bor_trip_t which);
double sim_bor_trip_v(void);
/* The highest trip point of the configured range (0 with the BOR off). */
double sim_bor_trip_max_v(void);

/* Since sim_supply_report_start() (or boot): the lowest VDD from U2's turn-on to the
 * end of POWER_ON's BUSY, during DISPLAY_REFRESH's BUSY, with the brown-out reset
 * armed, and with the CPU running (INFINITY if none); in the first two phases, the
 * least margin of VDD over the floor in use at that moment and that floor (INFINITY if
 * none); the charge drawn from the cell; the brown-out resets. The floor in use, with
 * the chip out of reset: the highest trip point of the brown-out reset's range while it
 * is armed (a chip may trip anywhere in it), and never less than the clock's minimum
 * VDD (D002), asleep too: through an update the CPU wakes at every watchdog period, on
 * BUSY's rise, the button's edge or a start bit, and then runs at whatever VDD is. */
typedef struct {
    double min_vdd_switch_on, min_vdd_refresh, min_vdd_bor_armed, min_vdd_running;
    double margin_switch_on_v, margin_refresh_v, floor_switch_on_v, floor_refresh_v;
    double charge_c;
    uint32_t brownouts;
    /* The time the CPU ran below the lowest VDD its clock allows (D002), not held in reset. */
    uint64_t cpu_out_of_spec_ns;
} sim_supply_report_t;
void sim_supply_report_start(void);
void sim_supply_report(sim_supply_report_t *out);

/* Watchdog resets (a time-out with the CPU awake) since boot. */
uint32_t sim_watchdog_reset_count(void);
/* The longest the CPU ran with the awake watchdog on and not cleared, since boot. */
uint64_t sim_watchdog_longest_ns(void);
/* Fault hook for tests: the firmware hangs at its next HAL call (a loop that never
 * clears the watchdog) until the chip resets. */
void sim_hang_firmware(void);

/*
 * Races at any point of the firmware: the HAL calls it has entered since
 * boot, and a received byte that completes (its start and data bits unseen,
 * the FIFO and RCIF set) just as it enters HAL call number `call`, so the
 * interrupt runs there if it is enabled, or its flag waits if not; then
 * sim_run_until() returns SIM_STOP_BYTE_LANDED. One byte at a time; 0 cancels.
 */
uint32_t sim_hal_call_count(void);
void sim_uart_byte_at_hal_call(uint32_t call, uint8_t byte);

/*
 * The panel's last refresh (firmware/sim/sim_panel.c): its kind (0 = the OTP
 * waveform, 1 = a black/white waveform from the LUT registers), how long BUSY
 * is charged for it, the waveform's frames and frame rate (register waveforms
 * only), whether it is DC-balanced (always 1 for the OTP waveform), and the
 * largest ghost count: the fast updates that drove a pixel since its last
 * full refresh. What the controller cannot know, counted by the model: the
 * RAM bytes the refresh used that were unknown (lost with the supply or in
 * deep sleep, not written since), and the pixels a black/white refresh drove
 * from a DTM1 (OLD) value other than what their glass showed (wrong_pixels;
 * wrong_pixels_total over every refresh since boot).
 */
typedef struct {
    uint32_t count;
    uint8_t fast;
    uint8_t dc_balanced;
    uint16_t ghost_max;
    uint32_t frames;
    uint32_t frame_rate_hz;
    uint64_t duration_ns;
    uint32_t ram_unknown;
    uint32_t wrong_pixels;
    uint32_t wrong_pixels_total;
} sim_refresh_info_t;
void sim_refresh_info(sim_refresh_info_t *out);

#endif /* EPDLE_SIM_H */
