#include "crc16.h"

#include "hal.h"

uint16_t crc16_update(uint16_t crc, uint8_t byte) {
    uint8_t bit;

    HAL_WORK(HAL_WORK_CRC_BYTE);
    crc ^= (uint16_t)((uint16_t)byte << 8);
    for (bit = 0; bit < 8u; bit++) {
        if ((crc & 0x8000u) != 0u) {
            crc = (uint16_t)((uint16_t)(crc << 1) ^ 0x1021u);
        } else {
            crc = (uint16_t)(crc << 1);
        }
    }
    return crc;
}

uint16_t crc16_block(uint16_t crc, const uint8_t *data, uint8_t length) {
    uint8_t i;

    for (i = 0; i < length; i++) {
        crc = crc16_update(crc, data[i]);
    }
    return crc;
}
