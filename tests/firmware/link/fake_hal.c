#include "fake_hal.h"

#include <string.h>

fake_hal_t fake_hal;

void fake_hal_reset(void) {
    uint32_t i;

    memset(&fake_hal, 0, sizeof fake_hal);
    for (i = 0; i < HAL_FLASH_WORDS; i++) {
        fake_hal.flash[i] = HAL_FLASH_ERASED;
    }
    memset(fake_hal.eeprom, 0xFF, sizeof fake_hal.eeprom);
}

void fake_hal_receive(const uint8_t *data, uint16_t length) {
    uint16_t i;

    for (i = 0; i < length && fake_hal.rx_tail < FAKE_UART_QUEUE; i++) {
        fake_hal.rx[fake_hal.rx_tail] = data[i];
        fake_hal.rx_tail++;
    }
}

uint16_t fake_hal_take_tx(uint8_t *out, uint16_t capacity) {
    uint16_t count = fake_hal.tx_length < capacity ? fake_hal.tx_length : capacity;

    memcpy(out, fake_hal.tx, count);
    fake_hal.tx_length = 0;
    return count;
}

bool fake_hal_powered(void) {
    return fake_hal.power_cut_after == 0u || fake_hal.nvm_ops < fake_hal.power_cut_after;
}

/* Counts the operation; false once the power is gone. */
static bool nvm_operation(void) {
    if (!fake_hal_powered()) {
        return false;
    }
    fake_hal.nvm_ops++;
    return true;
}

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
    return 1;
}

void hal_delay_us(uint16_t us) {
    fake_hal.now_us += us;
}

void hal_delay_ms(uint16_t ms) {
    fake_hal.now_us += 1000u * ms;
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

/* BUSY reads idle here: a wait for it never sleeps. */
hal_wake_t hal_sleep_period(void) {
    return HAL_WAKE_OTHER;
}

bool hal_uart_read(uint8_t *byte) {
    if (fake_hal.rx_head == fake_hal.rx_tail) {
        return false;
    }
    *byte = fake_hal.rx[fake_hal.rx_head];
    fake_hal.rx_head++;
    return true;
}

bool hal_uart_pending(void) {
    return fake_hal.rx_head != fake_hal.rx_tail;
}

void hal_uart_write(uint8_t byte) {
    if (fake_hal.tx_length < FAKE_UART_QUEUE) {
        fake_hal.tx[fake_hal.tx_length] = byte;
        fake_hal.tx_length++;
    }
}

uint8_t hal_uart_errors_take(void) {
    uint8_t errors = fake_hal.uart_errors;

    fake_hal.uart_errors = 0;
    return errors;
}

uint16_t hal_flash_read(uint16_t word_addr) {
    if (word_addr >= HAL_FLASH_WORDS) {
        fake_hal.reads_outside_flash++;
        return HAL_FLASH_ERASED;
    }
    return fake_hal.flash[word_addr];
}

bool hal_flash_erase_row(uint16_t row_addr) {
    uint16_t i;

    if (row_addr % HAL_FLASH_ROW_WORDS != 0u || row_addr >= HAL_FLASH_WORDS || !nvm_operation()) {
        return false;
    }
    fake_hal.erase_count++;
    for (i = 0; i < HAL_FLASH_ROW_WORDS; i++) {
        fake_hal.flash[row_addr + i] = HAL_FLASH_ERASED;
    }
    return true;
}

bool hal_flash_write_row(uint16_t row_addr, const uint16_t *words) {
    uint16_t i;

    if (row_addr % HAL_FLASH_ROW_WORDS != 0u || row_addr >= HAL_FLASH_WORDS || !nvm_operation()) {
        return false;
    }
    for (i = 0; i < HAL_FLASH_ROW_WORDS; i++) {
        /* Programming only clears bits, as on the chip. */
        fake_hal.flash[row_addr + i] &= (uint16_t)(words[i] & HAL_FLASH_ERASED);
    }
    return true;
}

uint8_t hal_eeprom_read(uint8_t addr) {
    return fake_hal.eeprom[addr];
}

bool hal_eeprom_write(uint8_t addr, uint8_t value) {
    if (!nvm_operation()) {
        return false;
    }
    fake_hal.eeprom[addr] = value;
    return true;
}
