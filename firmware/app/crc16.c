#include "crc16.h"

#include "hal.h"

/*
 * A byte at a time without a table: with x = (crc >> 8) ^ byte and then
 * x ^= x >> 4, the new crc is (crc << 8) ^ (x << 12) ^ (x << 5) ^ x, here
 * worked out per byte of the result, so every shift is a constant 8-bit one.
 */
uint16_t crc16_update(uint16_t crc, uint8_t byte) {
    uint8_t x = (uint8_t)((uint8_t)(crc >> 8) ^ byte);
    uint8_t high;
    uint8_t low;

    HAL_WORK(HAL_WORK_CRC_BYTE);
    x = (uint8_t)(x ^ (uint8_t)(x >> 4));
    high = (uint8_t)((uint8_t)crc ^ (uint8_t)(x << 4) ^ (uint8_t)(x >> 3));
    low = (uint8_t)((uint8_t)(x << 5) ^ x);
    return (uint16_t)((uint16_t)((uint16_t)high << 8) | low);
}

/* data is in RAM on the chip (HAL_RAM: no runtime call a byte). */
uint16_t crc16_block(uint16_t crc, const uint8_t *data_in, uint8_t length) {
    const HAL_RAM uint8_t *data = (const HAL_RAM uint8_t *)data_in;
    uint8_t i;

    for (i = 0; i < length; i++) {
        crc = crc16_update(crc, data[i]);
    }
    return crc;
}
