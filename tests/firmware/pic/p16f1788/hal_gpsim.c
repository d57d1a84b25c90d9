/*
 * hal_gpsim.c - hal.h on the PIC16F1788 as gpsim runs it (make pic): the
 * chip's own pins, SPI bit-banging and flash self-read, so the portable code
 * runs on the real instruction set; no board behind it.
 *
 * Same pins as firmware/ports/pic16f18326/ (EPD_* on PORTC, EPD_PWR RA2,
 * BUSY RA4, BUTTON RA5). The panel is always idle (BUSY reads 1), the button never
 * pressed, the UART silent, VDD a fresh cell's. Delays and sleeps take no CPU time: they add the
 * time asked for to hal_gpsim_waited_us, so cycle counts measured in gpsim
 * are the firmware's own work. hal_gpsim_spi_bytes and hal_gpsim_spi_sum count
 * the bytes clocked out.
 */
#include "hal.h"
#include "pic_compiler.h"
#include "pic_spi.h"

volatile uint16_t hal_gpsim_spi_bytes;
volatile uint16_t hal_gpsim_spi_sum;
volatile uint16_t hal_gpsim_waited_ms;
volatile uint16_t hal_gpsim_waited_us;

void hal_init(void) {
    INTCONbits.GIE = 0;
    LATA = 0x00u;
    LATC = 0x00u;
    ANSELA = 0x00u;
    ANSELC = 0x00u;
    TRISA = _TRISA_TRISA4_MASK | _TRISA_TRISA5_MASK;
    TRISC = 0x00u;
}

void hal_pin_write(hal_pin_t pin, uint8_t level) {
    uint8_t bit = level != 0u ? 1u : 0u;

    switch (pin) {
        PIC_PANEL_LATC_CASES(bit)
    case HAL_PIN_EPD_PWR:
        LATAbits.LATA2 = bit;
        break;
    default:
        break;
    }
}

/*
 * The byte just framed, counted for the test in assembly: a 16-bit count and
 * sum in 10 cycles (SDCC's C for the two volatile sums took about 40, which the
 * SPI figures of docs/pic-cycles.md then carried). WREG holds the byte.
 */
#define GPSIM_COUNT_BYTE(byte)                                                                     \
    do {                                                                                           \
        WREG = (byte);                                                                             \
        __asm__(                                                                                   \
            "banksel _hal_gpsim_spi_sum\n addwf _hal_gpsim_spi_sum, f\n btfsc 0x03, 0\n"           \
            " incf _hal_gpsim_spi_sum + 1, f\n banksel _hal_gpsim_spi_bytes\n"                     \
            " incf _hal_gpsim_spi_bytes, f\n btfsc 0x03, 2\n incf _hal_gpsim_spi_bytes + 1, f");   \
    } while (0)

/* The chip's framed byte (pic_spi.h), counted for the test. */
void hal_spi_write(uint8_t byte) {
    SPI_FRAME(byte);
    GPSIM_COUNT_BYTE(byte);
}

/* As the chip's HAL: the frame written out in the loop. */
void hal_spi_repeat(uint8_t byte, uint16_t count) {
    for (; count != 0u; count--) {
        SPI_FRAME(byte);
        GPSIM_COUNT_BYTE(byte);
    }
}

uint8_t hal_pin_read(hal_pin_t pin) {
    switch (pin) {
    case HAL_PIN_EPD_BUSY:
    case HAL_PIN_BUTTON:
        return 1u; /* panel idle, button released */
    case HAL_PIN_EPD_SCL:
        return LATCbits.LATC0;
    case HAL_PIN_EPD_SDA:
        return LATCbits.LATC2;
    case HAL_PIN_EPD_CS:
        return LATCbits.LATC4;
    case HAL_PIN_EPD_DC:
        return LATCbits.LATC5;
    case HAL_PIN_EPD_RST:
        return LATCbits.LATC3;
    case HAL_PIN_EPD_PWR:
        return LATAbits.LATA2;
    default:
        return 0u;
    }
}

void hal_delay_us(uint16_t us) {
    hal_gpsim_waited_us += us;
}

void hal_delay_ms(uint16_t ms) {
    hal_gpsim_waited_ms += ms;
}

void hal_irq_enable(void) {
    INTCONbits.GIE = 1;
}

void hal_irq_disable(void) {
    INTCONbits.GIE = 0;
}

bool hal_button_edge_take(void) {
    return false;
}

void hal_sleep(void) {}

void hal_busy_wake(bool on) {
    (void)on;
}

/* BUSY reads idle here: a wait for it never sleeps. */
hal_wake_t hal_sleep_period(void) {
    return HAL_WAKE_OTHER;
}

/* No adapter is modelled here: RX idles high (the UART is silent), so the sleep with the
 * lines off returns at its first look, as the chip's would. */
void hal_sleep_lines_off(void) {}

uint8_t hal_uart_rx_level(void) {
    return 1u;
}

/* A fresh cell behind VDD (3.0 V) and the nominal FVR: no supply is modelled here. */
uint16_t hal_vdd_reading(void) {
    return (uint16_t)(HAL_FVR_NOMINAL_MV * HAL_ADC_STEPS / 3000u);
}

hal_reset_t hal_reset_cause(void) {
    return HAL_RESET_POWER_ON;
}

/* An erased EEPROM that takes nothing: the FVR stays nominal. */
uint8_t hal_eeprom_read(uint8_t addr) {
    (void)addr;
    return 0xFFu;
}

bool hal_eeprom_write(uint8_t addr, uint8_t value) {
    (void)addr;
    (void)value;
    return false;
}

void hal_watchdog_clear(void) {
    CLRWDT();
}

bool hal_uart_read(uint8_t *byte) {
    (void)byte;
    return false;
}

bool hal_uart_pending(void) {
    return false;
}

void hal_uart_write(uint8_t byte) {
    (void)byte;
}

uint8_t hal_uart_errors_take(void) {
    return 0u;
}

/* Program flash through EEADR/EEDAT/EECON1 (EEPGD = 1), the 1788's NVM. */
uint16_t hal_flash_read(uint16_t word_addr) {
    if (word_addr >= HAL_FLASH_WORDS) {
        return HAL_FLASH_ERASED;
    }
    EEADRH = (uint8_t)(word_addr >> 8);
    EEADRL = (uint8_t)(word_addr & 0xFFu);
    EECON1 = _EECON1_EEPGD_MASK;
    EECON1bits.RD = 1;
    NOP();
    NOP();
    return (uint16_t)(((uint16_t)(EEDATH & 0x3Fu) << 8) | EEDATL);
}

static void nvm_unlock_and_start(void) {
    uint8_t interrupts_were_on = INTCONbits.GIE;

    INTCONbits.GIE = 0;
    EECON2 = 0x55u;
    EECON2 = 0xAAu;
    EECON1bits.WR = 1;
    NOP();
    NOP();
    INTCONbits.GIE = interrupts_were_on;
}

bool hal_flash_erase_row(uint16_t row_addr) {
    if (!HAL_FLASH_ROW_WRITABLE(row_addr)) {
        return false;
    }
    EEADRH = (uint8_t)(row_addr >> 8);
    EEADRL = (uint8_t)(row_addr & 0xFFu);
    EECON1 = _EECON1_EEPGD_MASK | _EECON1_FREE_MASK | _EECON1_WREN_MASK;
    nvm_unlock_and_start();
    EECON1 = 0x00u;
    return true;
}

bool hal_flash_write_row(uint16_t row_addr, const uint16_t *words) {
    uint8_t i;

    if (!HAL_FLASH_ROW_WRITABLE(row_addr)) {
        return false;
    }
    EECON1 = _EECON1_EEPGD_MASK | _EECON1_LWLO_MASK | _EECON1_WREN_MASK;
    for (i = 0u; i < HAL_FLASH_ROW_WORDS; i++) {
        EEADRH = (uint8_t)((uint16_t)(row_addr + i) >> 8);
        EEADRL = (uint8_t)((row_addr + i) & 0xFFu);
        EEDATL = (uint8_t)(words[i] & 0xFFu);
        EEDATH = (uint8_t)((words[i] >> 8) & 0x3Fu);
        if (i == HAL_FLASH_ROW_WORDS - 1u) {
            EECON1bits.LWLO = 0;
        }
        nvm_unlock_and_start();
    }
    EECON1 = 0x00u;
    return true;
}
