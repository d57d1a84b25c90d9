/*
 * crc16.h - CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection,
 * no final xor), the one checksum of packets and stored frames. Python's
 * binascii.crc_hqx(data, 0xFFFF) computes the same value.
 */
#ifndef EPDLE_CRC16_H
#define EPDLE_CRC16_H

#include <stdint.h>

#define CRC16_INIT 0xFFFFu

/* No table: a 512-byte one would cost more flash than it saves. */
uint16_t crc16_update(uint16_t crc, uint8_t byte);

uint16_t crc16_block(uint16_t crc, const uint8_t *data, uint8_t length);

#endif /* EPDLE_CRC16_H */
