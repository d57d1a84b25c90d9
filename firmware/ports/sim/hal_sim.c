/*
 * hal_sim.c - hal.h on the simulated board: what the PIC's peripherals do,
 * with each access charged the time it takes on the chip.
 *
 * The interrupt routine mirrors the PIC HAL's: it clears the button's
 * interrupt-on-change flag into a software flag and moves received bytes
 * from the EUSART's 2-byte FIFO into a ring buffer. It runs where time
 * passes, and at the entry of any HAL call where a test makes a byte arrive
 * (sim_board_hal_call()).
 */
#include "hal.h"

#include "sim.h"
#include "sim_battery.h"
#include "sim_board.h"
#include "sim_bus.h"
#include "sim_firmware.h"
#include "sim_nvm.h"
#include "sim_uart.h"

/* As in ports/pic16f18326: a 64-byte ring that keeps one slot free (63 bytes). */
#define UART_RING_BYTES 64u
#define NVM_ACCESS_INSTRUCTIONS 6u /* NVMADR/NVMCON set-up and the read itself */
#define WATCHDOG_PERIOD_NS ((uint64_t)HAL_SLEEP_PERIOD_MS * 1000000u)
#define WATCHDOG_LONG_NS ((uint64_t)HAL_SLEEP_LONG_MS * 1000000u)
#define SLEEP_SETUP_INSTRUCTIONS 4u /* WDTCON and IOCAP set and restored */
/* A VDD measurement as ports/pic16f18326 makes it: FVRRDY, the FVR's settling (TFVRS,
 * 25 us) and one conversion (about 12 TAD of 1 us), a few instructions around them. */
#define VDD_READING_NS 45000u

/* As ports/pic16f18326: 1 us polls of TRMT, more than two 10-bit frames. */
#define TX_DRAIN_POLLS 200u
/*
 * What the firmware's code costs on the instruction set, in instruction cycles
 * (250 ns at 16 MHz): SDCC 4.2 pic14, measured in gpsim by make pic-test
 * (docs/pic-cycles.md). The SPI costs come from the shipped image on the PIC16F18326
 * model (docs/pic-image.md: the bytes' spacing at the pins): a page-fill byte
 * (hal_spi_repeat) 58 cycles apart, a decoded pixel byte 193 apart, of which 130 are the
 * decoder's, leaving 63 for epd_data (the framed hal_spi_write; the 16F1788 rig measured
 * 74 and 70 with its HAL's 12-cycle byte count). Decoding `text` takes
 * 829,207 cycles for 270 frame bytes in and 4,268 pixel bytes out, `checkerboard` 1,006,939 for 286
 * and 5,512: 130 a pixel byte and 1,020 a frame byte (which predicts `noise`, 6,238 in and 5,512
 * out, 2.6 % high), of which 82 are the store's unpacking (a frame's open: 191 a byte, less 109 of
 * CRC). A CRC byte is charged that 109 wherever it is computed: crc16_block over a packet in RAM
 * takes 91 a byte (docs/pic-cycles.md), 18 less, on the link's few bytes a packet. A
 * frame_skip() in one step (no transition in its bytes) is charged 110: its longest path in
 * SDCC's listing is 88 instructions, 94 cycles with its call, return and taken branches, and
 * the caller's row loop 12 more (the skips that take bytes one at a time are charged as
 * pixel bytes, and the codes they read as frame bytes).
 */
#define SPI_BYTE_CYCLES 63u
#define SPI_REPEAT_BYTE_CYCLES 58u
static const uint16_t work_cycles[HAL_WORK_KINDS] = {
    130u, /* HAL_WORK_DECODED_BYTE */
    938u, /* HAL_WORK_CODED_BYTE (1,020 less the store's 82) */
    82u,  /* HAL_WORK_STORED_BYTE */
    109u, /* HAL_WORK_CRC_BYTE */
    110u, /* HAL_WORK_SKIP */
};
/* A framed SPI byte's pin edges at the chip's pace: eight bits of three steps each. */
#define SPI_STEP_CYCLES (SPI_REPEAT_BYTE_CYCLES / 24u)

static const sim_net_t pin_nets[HAL_PIN_COUNT] = {
    SIM_NET_EPD_SCL, SIM_NET_EPD_SDA,  SIM_NET_EPD_CS,  SIM_NET_EPD_DC,
    SIM_NET_EPD_RST, SIM_NET_EPD_BUSY, SIM_NET_EPD_VCC, SIM_NET_BUTTON,
};

/* The firmware's RAM of this module (written by the ISR and the HAL calls). */
static volatile bool button_edge;
static volatile uint8_t uart_ring[UART_RING_BYTES];
static volatile uint8_t uart_head;
static volatile uint8_t uart_count;
static volatile uint8_t uart_lost;

static void spend_instructions(unsigned count) {
    sim_cpu_spend((uint64_t)count * SIM_INSTRUCTION_NS);
}

static bool is_output(hal_pin_t pin) {
    return pin != HAL_PIN_EPD_BUSY && pin != HAL_PIN_BUTTON;
}

static void count_lost(uint32_t bytes) {
    uint32_t total = (uint32_t)uart_lost + bytes;

    uart_lost = total > 255u ? 255u : (uint8_t)total;
}

void sim_firmware_isr(void) {
    uint8_t byte;

    if (sim_board_ioc_flag_take()) {
        button_edge = true;
    }
    while (sim_uart_fifo_pop(&byte)) {
        if (uart_count == UART_RING_BYTES - 1u) {
            count_lost(1u);
            continue;
        }
        uart_ring[(uint8_t)((uart_head + uart_count) % UART_RING_BYTES)] = byte;
        uart_count++;
    }
    count_lost(sim_uart_overruns_take());
}

void hal_init(void) {
    hal_pin_t pin;

    sim_board_hal_call();

    sim_board_irq_enable(false);
    button_edge = false;
    uart_head = 0;
    uart_count = 0;
    uart_lost = 0;
    (void)sim_board_ioc_flag_take();
    for (pin = HAL_PIN_EPD_SCL; pin < HAL_PIN_COUNT; pin++) {
        if (is_output(pin)) {
            sim_bus_drive(pin_nets[pin], 0u);
        }
    }
    sim_uart_lines(true);
    sim_board_watchdog_awake((uint64_t)HAL_WATCHDOG_AWAKE_MS * 1000000u);
    sim_board_clock_set(HAL_FOSC_HZ); /* OSCFRQ, OSCCON1 */
    spend_instructions(40u);
}

void hal_pin_write(hal_pin_t pin, uint8_t level) {
    sim_board_hal_call();
    if (pin < HAL_PIN_COUNT && is_output(pin)) {
        sim_bus_drive(pin_nets[pin], level);
    }
    spend_instructions(1u);
}

void hal_work(hal_work_t work) {
    if (work < HAL_WORK_KINDS) {
        spend_instructions(work_cycles[work]);
    }
}

static void spi_frame(uint8_t byte, unsigned cycles) {
    uint8_t mask;

    sim_bus_drive(SIM_NET_EPD_CS, 0u);
    spend_instructions(cycles - 24u * SPI_STEP_CYCLES);
    for (mask = 0x80u; mask != 0u; mask >>= 1) {
        /* The chip clears SDA and sets it again for a 1; the net only sees the result. */
        sim_bus_drive(SIM_NET_EPD_SDA, (byte & mask) != 0u ? 1u : 0u);
        spend_instructions(SPI_STEP_CYCLES);
        sim_bus_drive(SIM_NET_EPD_SCL, 1u);
        spend_instructions(SPI_STEP_CYCLES);
        sim_bus_drive(SIM_NET_EPD_SCL, 0u);
        spend_instructions(SPI_STEP_CYCLES);
    }
    sim_bus_drive(SIM_NET_EPD_CS, 1u);
}

void hal_spi_write(uint8_t byte) {
    sim_board_hal_call();
    spi_frame(byte, SPI_BYTE_CYCLES);
}

void hal_spi_repeat(uint8_t byte, uint16_t count) {
    sim_board_hal_call();
    for (; count != 0u; count--) {
        spi_frame(byte, SPI_REPEAT_BYTE_CYCLES);
    }
}

uint8_t hal_pin_read(hal_pin_t pin) {
    uint8_t level;

    sim_board_hal_call();
    level = pin < HAL_PIN_COUNT ? sim_bus_level(pin_nets[pin]) : 0u;

    spend_instructions(1u);
    return level;
}

void hal_delay_us(uint16_t us) {
    sim_board_hal_call();
    sim_cpu_spend((uint64_t)us * 1000u);
}

void hal_delay_ms(uint16_t ms) {
    sim_board_hal_call();
    sim_cpu_spend((uint64_t)ms * 1000000u);
}

void hal_irq_enable(void) {
    sim_board_hal_call();
    sim_board_irq_enable(true);
    spend_instructions(1u);
}

void hal_irq_disable(void) {
    sim_board_hal_call();
    sim_board_irq_enable(false);
    spend_instructions(1u);
}

bool hal_button_edge_take(void) {
    sim_board_hal_call();
    /* The ISR only runs at a HAL call's entry or where time passes: this read-and-clear is atomic.
     */
    bool taken = button_edge;

    button_edge = false;
    spend_instructions(4u);
    return taken;
}

/* As the chip's HAL: the EUSART stops in SLEEP, so the last bytes leave first (bounded). */
static void uart_drain_transmitter(void) {
    uint8_t polls;

    for (polls = 0u; sim_uart_transmitting() && polls < TX_DRAIN_POLLS; polls++) {
        sim_cpu_spend(1000u);
    }
}

/* As ports/pic16f18326: no SLEEP while a byte is coming in (RCIDL = 0 after the drain). */
void hal_sleep(void) {
    sim_board_hal_call();
    uart_drain_transmitter();
    if (!sim_uart_receiving()) {
        sim_cpu_sleep();
    }
    /* As the PIC HAL does after SLEEP: interrupts are on again. */
    sim_board_irq_enable(true);
}

void hal_busy_wake(bool on) {
    sim_board_hal_call();
    sim_board_ioc_busy_rising_enable(on);
    spend_instructions(2u);
}

/* As ports/pic16f18326: WDTCON set and restored around one SLEEP, GIE as it was. */
hal_wake_t hal_sleep_period(void) {
    bool enabled;
    sim_wake_t woke;

    sim_board_hal_call();
    uart_drain_transmitter();
    if (sim_uart_receiving()) {
        return HAL_WAKE_UART;
    }
    enabled = sim_board_irq_enabled();

    sim_board_irq_enable(false);
    spend_instructions(SLEEP_SETUP_INSTRUCTIONS);
    woke = sim_cpu_sleep_on_panel(WATCHDOG_PERIOD_NS);
    spend_instructions(SLEEP_SETUP_INSTRUCTIONS);
    sim_board_irq_enable(enabled);
    return woke == SIM_WAKE_WATCHDOG ? HAL_WAKE_WATCHDOG
           : woke == SIM_WAKE_UART   ? HAL_WAKE_UART
                                     : HAL_WAKE_OTHER;
}

/*
 * As ports/pic16f18326: the last byte sent, the lines off (sim_uart_lines), SLEEPs bounded by the
 * watchdog (WDTPS for HAL_SLEEP_LONG_MS), each followed by a look at RX with its pull-up
 * (sim_uart_rx_probe), until RX reads high or something else woke the CPU; the lines on again.
 */
void hal_sleep_lines_off(void) {
    sim_board_hal_call();
    uart_drain_transmitter();
    sim_uart_lines(false);
    spend_instructions(SLEEP_SETUP_INSTRUCTIONS + 4u); /* CREN, RC1PPS, WPUA, TRISA */
    while (sim_cpu_sleep_standby(WATCHDOG_LONG_NS) == SIM_WAKE_WATCHDOG) {
        spend_instructions(SLEEP_SETUP_INSTRUCTIONS);
        sim_uart_rx_probe(true);
        sim_cpu_spend((uint64_t)HAL_RX_LOOK_US * 1000u);
        if (sim_bus_level(SIM_NET_UART_RX) != 0u) {
            break;
        }
        sim_uart_rx_probe(false);
    }
    sim_uart_lines(true);
    spend_instructions(SLEEP_SETUP_INSTRUCTIONS + 4u);
}

/* As the ADC converts it: the FVR buffer against VDD, 10 bits, truncated (1 LSB = VDD / 1024),
 * at most full scale; the FVR at this chip's own voltage (sim_fvr_set). */
uint16_t hal_vdd_reading(void) {
    double vdd;
    double reading;

    sim_board_hal_call();
    sim_cpu_spend(VDD_READING_NS);
    vdd = sim_battery_vdd();
    reading = vdd > 0.0 ? sim_fvr_v() * (double)HAL_ADC_STEPS / vdd : (double)HAL_VDD_FAILED;
    return reading >= (double)HAL_VDD_FAILED ? (uint16_t)HAL_VDD_FAILED : (uint16_t)reading;
}

hal_reset_t hal_reset_cause(void) {
    static const hal_reset_t causes[SIM_RESET_KINDS] = {
        HAL_RESET_POWER_ON, HAL_RESET_BROWNOUT, HAL_RESET_WATCHDOG, HAL_RESET_MCLR, HAL_RESET_NONE};

    sim_board_hal_call();
    spend_instructions(12u);
    return causes[sim_board_reset_cause_take()];
}

uint8_t hal_eeprom_read(uint8_t addr) {
    sim_board_hal_call();
    spend_instructions(NVM_ACCESS_INSTRUCTIONS);
    return sim_nvm_eeprom_read(addr);
}

bool hal_eeprom_write(uint8_t addr, uint8_t value) {
    bool ok;

    sim_board_hal_call();
    spend_instructions(NVM_ACCESS_INSTRUCTIONS);
    ok = sim_nvm_eeprom_write(addr, value); /* the write's time, WR polled meanwhile */
    return ok && sim_nvm_eeprom_read(addr) == value;
}

void hal_watchdog_clear(void) {
    sim_board_hal_call();
    sim_board_watchdog_clear();
    spend_instructions(1u);
}

bool hal_uart_read(uint8_t *byte) {
    bool got = false;

    sim_board_hal_call();

    spend_instructions(4u);
    if (byte == 0) {
        return false;
    }
    if (uart_count > 0u) {
        *byte = uart_ring[uart_head];
        uart_head = (uint8_t)((uart_head + 1u) % UART_RING_BYTES);
        uart_count--;
        got = true;
    }
    return got;
}

bool hal_uart_pending(void) {
    sim_board_hal_call();
    spend_instructions(2u);
    return uart_count > 0u || sim_uart_receiving();
}

void hal_uart_write(uint8_t byte) {
    sim_board_hal_call();
    spend_instructions(3u); /* TX1IF test, the write to TX1REG */
    sim_uart_transmit(byte);
}

uint8_t hal_uart_errors_take(void) {
    uint8_t lost;

    sim_board_hal_call();

    count_lost(sim_uart_overruns_take());
    lost = uart_lost;
    uart_lost = 0;
    return lost;
}

uint8_t hal_uart_rx_level(void) {
    sim_board_hal_call();
    spend_instructions(2u);
    return sim_bus_level(SIM_NET_UART_RX);
}

uint16_t hal_flash_read(uint16_t word_addr) {
    sim_board_hal_call();
    spend_instructions(NVM_ACCESS_INSTRUCTIONS);
    return sim_nvm_flash_read(word_addr);
}

bool hal_flash_erase_row(uint16_t row_addr) {
    sim_board_hal_call();
    spend_instructions(NVM_ACCESS_INSTRUCTIONS);
    return HAL_FLASH_ROW_WRITABLE(row_addr) && sim_nvm_flash_erase_row(row_addr);
}

bool hal_flash_write_row(uint16_t row_addr, const uint16_t *words) {
    sim_board_hal_call();
    /* Loading the 32 write latches: a few instructions per word. */
    spend_instructions(NVM_ACCESS_INSTRUCTIONS + 4u * HAL_FLASH_ROW_WORDS);
    return HAL_FLASH_ROW_WRITABLE(row_addr) && sim_nvm_flash_write_row(row_addr, words);
}
