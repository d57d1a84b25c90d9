/*
 * sdcc_stub_hal.c - a do-nothing hal.h and main() so SDCC can link the
 * portable firmware (drivers/ + app/) for the size report of `make size`.
 * Its own few bytes are counted too; they stand in for the real HAL's.
 */
#include "app.h"
#include "hal.h"

void hal_pin_write(hal_pin_t pin, uint8_t level) {
    (void)pin;
    (void)level;
}

void hal_spi_write(uint8_t byte) {
    (void)byte;
}

void hal_spi_repeat(uint8_t byte, uint16_t count) {
    (void)byte;
    (void)count;
}

uint8_t hal_pin_read(hal_pin_t pin) {
    (void)pin;
    return 1u;
}

void hal_delay_us(uint16_t us) {
    (void)us;
}

void hal_delay_ms(uint16_t ms) {
    (void)ms;
}

void hal_init(void) {}

void hal_irq_enable(void) {}

void hal_irq_disable(void) {}

bool hal_button_edge_take(void) {
    return false;
}

void hal_sleep(void) {}

void hal_busy_wake(bool on) {
    (void)on;
}

hal_wake_t hal_sleep_period(void) {
    return HAL_WAKE_OTHER;
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

uint16_t hal_flash_read(uint16_t word_addr) {
    (void)word_addr;
    return HAL_FLASH_ERASED;
}

bool hal_flash_erase_row(uint16_t row_addr) {
    (void)row_addr;
    return true;
}

bool hal_flash_write_row(uint16_t row_addr, const uint16_t *words) {
    (void)row_addr;
    (void)words;
    return true;
}

uint8_t hal_eeprom_read(uint8_t addr) {
    (void)addr;
    return 0xFFu;
}

bool hal_eeprom_write(uint8_t addr, uint8_t value) {
    (void)addr;
    (void)value;
    return true;
}

void main(void) {
    app_main();
}
