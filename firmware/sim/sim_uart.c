/*
 * sim_uart.c - both directions of the serial line.
 *
 * Host -> device bytes are queued back to back at exactly 115200 baud and
 * played onto UART_RX one bit boundary at a time, so the VCD shows real
 * frames and the receiver sees each byte complete at its stop bit. A byte
 * that completes with the FIFO full is an overrun: lost and counted.
 *
 * Device -> host bytes go as on the EUSART: the firmware's write waits only
 * while TX1REG is full, the shift register then takes the byte and clocks it
 * out bit by bit on UART_TX as clock events while the CPU runs on.
 */
#include "sim_uart.h"

#include "sim.h"
#include "sim_battery.h"
#include "sim_board.h"
#include "sim_bus.h"
#include "sim_clock.h"
#include "sim_power.h"
#include "sim_violation.h"

#include <stdlib.h>
#include <string.h>

#define HOST_BAUD 115200u
#define BITS_PER_FRAME 10u /* start, 8 data, stop */

typedef struct {
    uint64_t start_ns;
    uint8_t byte;
} queued_byte_t;

/* Host -> device queue (grows as needed; the host may send whole frame sets). */
static queued_byte_t *rx_queue;
static size_t rx_head;
static size_t rx_tail;
static size_t rx_capacity;
static unsigned rx_boundary; /* next bit boundary of the head byte: 0 = start bit .. 10 = done */
static bool rx_discard;      /* the head byte's start bit woke the CPU: not received */

static uint8_t fifo[SIM_UART_FIFO_BYTES];
static unsigned fifo_count;
static uint32_t overruns;

/* Transmitter: TX1REG and the shift register (TSR) with its bit boundary. */
static struct {
    bool reg_full;
    uint8_t reg;
    bool shifting;
    uint8_t shift;
    unsigned boundary; /* of the byte in the TSR: 0 = start bit .. 10 = done */
    uint64_t start_ns;
} tx;

/* The adapter's TXD high level and how it reaches RA1 (sim.h). */
#define ADAPTER_HIGH_V 3.3
static sim_rx_path_t rx_path;
static bool rx_above_vdd_reported; /* once per boot */

/*
 * An unpowered adapter on J1 (sim.h): its TXD and RXD sit a diode above its dead supply,
 * near 0 V. RA1's weak pull-up then drives current through R2 and D1 into its TXD: D070
 * gives 120 uA typical at VDD 3.3 V with the pin at 0 V, taken in proportion to VDD (the
 * pin sits D1's 0.2-0.3 V above 0 V). RC1's idle high drives its RXD through R4 and the
 * RXD's protection diode (0.6 V) into the dead supply.
 */
#define WEAK_PULLUP_TYP_A 120e-6
#define WEAK_PULLUP_AT_V 3.3
#define R4_OHM 10000.0
#define ESD_DIODE_V 0.6
static sim_adapter_t adapter;
static bool lines_on;  /* hal_init() on: RA1 pulled up, RC1 the EUSART's TX */
static bool rx_probed; /* lines off, RA1's pull-up on for a look at RX */

/* Device -> host bytes not yet taken by the host. */
static uint8_t *tx_out;
static size_t tx_out_len;
static size_t tx_out_capacity;

void sim_uart_reset(void) {
    free(rx_queue);
    free(tx_out);
    rx_queue = NULL;
    tx_out = NULL;
    rx_head = rx_tail = rx_capacity = 0;
    tx_out_len = tx_out_capacity = 0;
    rx_boundary = 0;
    rx_discard = false;
    rx_path = SIM_RX_PATH_SCHOTTKY;
    rx_above_vdd_reported = false;
    adapter = SIM_ADAPTER_POWERED;
    sim_uart_chip_reset();
}

void sim_uart_set_rx_path(sim_rx_path_t path) {
    rx_path = path;
}

/* The adapter drives RX high (idle, a stop bit, a 1): above VDD only through R2 alone. */
static void rx_driven_high(void) {
    double vdd = sim_powered() ? sim_battery_vdd() : 0.0;

    if (rx_path == SIM_RX_PATH_RESISTOR && ADAPTER_HIGH_V > vdd && !rx_above_vdd_reported) {
        rx_above_vdd_reported = true;
        sim_violation("UART_RX driven to %.2f V through R2 with VDD at %.2f V: RA1's clamp diode "
                      "feeds VDD from the adapter (a Schottky on RX stops it)",
                      ADAPTER_HIGH_V, vdd);
    }
}

void sim_uart_chip_reset(void) {
    fifo_count = 0;
    overruns = 0;
    memset(&tx, 0, sizeof tx); /* a byte being sent is cut off: the host never sees it */
    lines_on = true;           /* as hal_init() leaves them; a chip in reset drives nothing */
    rx_probed = false;
}

/* RA1's level: the adapter's (or the pull-up's) while RA1 is an input, low while driven. */
static uint8_t rx_line_level(void) {
    if (!lines_on && !rx_probed) {
        return 0u;
    }
    return adapter == SIM_ADAPTER_UNPOWERED ? 0u : 1u;
}

static void rx_line_update(void) {
    uint8_t before = sim_bus_level(SIM_NET_UART_RX);
    uint8_t now = rx_line_level();

    sim_bus_drive(SIM_NET_UART_RX, now);
    if (before != 0u && now == 0u && lines_on && sim_powered()) {
        /* A falling edge on RX wakes a sleeping CPU as a start bit does. */
        (void)sim_board_uart_start_bit();
    }
    sim_power_update();
}

void sim_uart_set_adapter(sim_adapter_t which) {
    adapter = which;
    rx_line_update();
}

void sim_uart_lines(bool on) {
    lines_on = on;
    rx_probed = false;
    sim_bus_drive(SIM_NET_UART_TX, on ? 1u : 0u);
    rx_line_update();
}

void sim_uart_rx_probe(bool on) {
    rx_probed = on && !lines_on;
    rx_line_update();
}

double sim_uart_line_current_a(void) {
    sim_supply_t cell;
    double amps = 0.0;

    if (adapter != SIM_ADAPTER_UNPOWERED || !sim_powered()) {
        return 0.0;
    }
    sim_supply_get(&cell);
    if (lines_on || rx_probed) {
        amps += WEAK_PULLUP_TYP_A * cell.cell_v / WEAK_PULLUP_AT_V;
    }
    if (lines_on && cell.cell_v > ESD_DIODE_V) {
        amps += (cell.cell_v - ESD_DIODE_V) / R4_OHM;
    }
    return amps;
}

static uint64_t boundary_ns(const queued_byte_t *queued, unsigned boundary) {
    return queued->start_ns + ((uint64_t)boundary * 1000000000ull + HOST_BAUD / 2u) / HOST_BAUD;
}

void sim_uart_send(const uint8_t *data, size_t len) {
    size_t i;
    uint64_t start = sim_now();

    if (rx_tail > rx_head) {
        start = boundary_ns(&rx_queue[rx_tail - 1u], BITS_PER_FRAME);
        if (start < sim_now()) {
            start = sim_now();
        }
    }
    if (rx_tail + len > rx_capacity) {
        size_t live = rx_tail - rx_head;
        size_t capacity = rx_capacity == 0 ? 1024u : rx_capacity;
        queued_byte_t *grown;

        if (live > 0) {
            memmove(rx_queue, rx_queue + rx_head, live * sizeof *rx_queue);
        }
        rx_tail = live;
        rx_head = 0;
        while (capacity < live + len) {
            capacity *= 2u;
        }
        grown = realloc(rx_queue, capacity * sizeof *grown);
        if (grown == NULL) {
            return;
        }
        rx_queue = grown;
        rx_capacity = capacity;
    }
    for (i = 0; i < len; i++) {
        rx_queue[rx_tail].start_ns = start;
        rx_queue[rx_tail].byte = data[i];
        rx_tail++;
        start += (BITS_PER_FRAME * 1000000000ull + HOST_BAUD / 2u) / HOST_BAUD;
    }
}

static uint64_t tx_boundary_ns(void) {
    return tx.start_ns + (uint64_t)tx.boundary * SIM_UART_DEVICE_BIT_NS;
}

uint64_t sim_uart_next_event(void) {
    uint64_t rx_next =
        rx_head == rx_tail ? SIM_NEVER : boundary_ns(&rx_queue[rx_head], rx_boundary);
    uint64_t tx_next = tx.shifting ? tx_boundary_ns() : SIM_NEVER;

    return rx_next < tx_next ? rx_next : tx_next;
}

static void tx_out_append(uint8_t byte) {
    if (tx_out_len == tx_out_capacity) {
        size_t capacity = tx_out_capacity == 0 ? 256u : tx_out_capacity * 2u;
        uint8_t *grown = realloc(tx_out, capacity);

        if (grown == NULL) {
            return;
        }
        tx_out = grown;
        tx_out_capacity = capacity;
    }
    tx_out[tx_out_len++] = byte;
}

/* TX1REG into the shift register: its start bit begins now. */
static void tx_load(void) {
    tx.shift = tx.reg;
    tx.reg_full = false;
    tx.shifting = true;
    tx.boundary = 0u;
    tx.start_ns = sim_now();
    sim_power_update();
}

static void tx_run_events(void) {
    while (tx.shifting && tx_boundary_ns() <= sim_now()) {
        if (tx.boundary == 0u) {
            sim_bus_drive(SIM_NET_UART_TX, 0u);
        } else if (tx.boundary <= 8u) {
            sim_bus_drive(SIM_NET_UART_TX, (uint8_t)((tx.shift >> (tx.boundary - 1u)) & 1u));
        } else if (tx.boundary == 9u) {
            sim_bus_drive(SIM_NET_UART_TX, 1u);
        }
        if (tx.boundary < BITS_PER_FRAME) {
            tx.boundary++;
            continue;
        }
        tx.shifting = false;
        tx_out_append(tx.shift);
        if (tx.reg_full) {
            tx_load();
        } else {
            sim_power_update();
        }
    }
}

void sim_uart_byte_received(uint8_t byte) {
    if (fifo_count == SIM_UART_FIFO_BYTES) {
        overruns++;
        return;
    }
    fifo[fifo_count++] = byte;
    sim_board_service_interrupts();
}

void sim_uart_run_events(void) {
    tx_run_events();
    while (rx_head != rx_tail && boundary_ns(&rx_queue[rx_head], rx_boundary) <= sim_now()) {
        uint8_t byte = rx_queue[rx_head].byte;

        if (!lines_on || adapter != SIM_ADAPTER_POWERED) {
            /* RA1 driven low, or no powered adapter to send it: the byte never arrives. */
            rx_head++;
            rx_boundary = 0;
            continue;
        }
        if (rx_boundary == 0u) {
            sim_bus_drive(SIM_NET_UART_RX, 0u);
            rx_discard = !sim_board_uart_start_bit();
            sim_power_update();
        } else if (rx_boundary <= 8u) {
            sim_bus_drive(SIM_NET_UART_RX, (uint8_t)((byte >> (rx_boundary - 1u)) & 1u));
        } else if (rx_boundary == 9u) {
            sim_bus_drive(SIM_NET_UART_RX, 1u);
        }
        if (rx_boundary > 0u && sim_bus_level(SIM_NET_UART_RX) != 0u) {
            rx_driven_high();
        }
        if (rx_boundary < BITS_PER_FRAME) {
            rx_boundary++;
            continue;
        }
        rx_boundary = 0;
        rx_head++;
        sim_power_update();
        if (!rx_discard && sim_board_uart_can_receive()) {
            sim_uart_byte_received(byte);
        }
    }
}

size_t sim_uart_rx_queued(void) {
    return rx_tail - rx_head;
}

bool sim_uart_receiving(void) {
    return rx_head != rx_tail && rx_boundary > 0u;
}

bool sim_uart_active(void) {
    return tx.shifting || (rx_head != rx_tail && rx_boundary > 0u);
}

bool sim_uart_transmitting(void) {
    return tx.shifting || tx.reg_full;
}

void sim_uart_transmit(uint8_t byte) {
    /* TX1IF clear: TX1REG still holds the last byte, taken when the TSR's stop bit ends. */
    while (tx.reg_full) {
        sim_cpu_spend(tx_boundary_ns() - sim_now());
    }
    tx.reg = byte;
    tx.reg_full = true;
    if (!tx.shifting) {
        tx_load();
    }
}

size_t sim_uart_take(uint8_t *out, size_t capacity) {
    size_t n = tx_out_len < capacity ? tx_out_len : capacity;

    if (n == 0) {
        return 0;
    }
    memcpy(out, tx_out, n);
    memmove(tx_out, tx_out + n, tx_out_len - n);
    tx_out_len -= n;
    return n;
}

bool sim_uart_fifo_pop(uint8_t *byte) {
    if (fifo_count == 0) {
        return false;
    }
    *byte = fifo[0];
    fifo[0] = fifo[1];
    fifo_count--;
    return true;
}

unsigned sim_uart_fifo_count(void) {
    return fifo_count;
}

uint32_t sim_uart_overruns_take(void) {
    uint32_t taken = overruns;

    overruns = 0;
    return taken;
}
