/* CRC-16 and COBS: known values, round trips, damaged input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cobs.h"
#include "crc16.h"

static void crc16_matches_the_ccitt_false_check_value(void **state) {
    const uint8_t check[] = "123456789";
    (void)state;
    assert_int_equal(crc16_block(CRC16_INIT, check, 9), 0x29B1);
}

static void crc16_over_data_and_its_big_endian_crc_is_zero(void **state) {
    uint8_t data[6] = {0x01, 0x02, 0xFE, 0x00};
    uint16_t crc = crc16_block(CRC16_INIT, data, 4);
    (void)state;
    data[4] = (uint8_t)(crc >> 8);
    data[5] = (uint8_t)crc;
    assert_int_equal(crc16_block(CRC16_INIT, data, 6), 0);
}

static uint8_t decode_all(const uint8_t *wire, uint8_t length, uint8_t *out, cobs_result_t *last) {
    uint8_t i;

    cobs_decoder_reset();
    *last = COBS_MORE;
    for (i = 0; i < length; i++) {
        cobs_result_t result = cobs_decode_byte(wire[i]);
        if (result != COBS_MORE) {
            *last = result;
        }
    }
    memcpy(out, cobs_packet, cobs_length);
    return cobs_length;
}

static void cobs_round_trips_zeros_and_runs(void **state) {
    uint8_t data[COBS_CAPACITY];
    uint8_t wire[COBS_ENCODED_MAX(COBS_CAPACITY)];
    uint8_t back[COBS_CAPACITY];
    cobs_result_t result;
    uint8_t i;
    uint8_t wire_length;
    (void)state;

    for (i = 0; i < COBS_CAPACITY; i++) {
        data[i] = (uint8_t)((i % 7u == 0u) ? 0u : i);
    }
    data[COBS_CAPACITY - 1u] = 0;
    wire_length = cobs_encode(data, COBS_CAPACITY, wire);
    assert_int_equal(wire[wire_length - 1], 0);
    for (i = 0; i + 1u < wire_length; i++) {
        assert_int_not_equal(wire[i], 0);
    }
    assert_int_equal(decode_all(wire, wire_length, back, &result), COBS_CAPACITY);
    assert_int_equal(result, COBS_PACKET);
    assert_memory_equal(back, data, COBS_CAPACITY);
}

static void cobs_encodes_the_textbook_example(void **state) {
    const uint8_t data[] = {0x11, 0x22, 0x00, 0x33};
    const uint8_t expected[] = {0x03, 0x11, 0x22, 0x02, 0x33, 0x00};
    uint8_t wire[8];
    (void)state;
    assert_int_equal(cobs_encode(data, 4, wire), 6);
    assert_memory_equal(wire, expected, 6);
}

static void cobs_ignores_preamble_delimiters(void **state) {
    const uint8_t wire[] = {0x00, 0x00, 0x00, 0x03, 0x11, 0x22, 0x00};
    uint8_t back[250];
    cobs_result_t result;
    (void)state;
    assert_int_equal(decode_all(wire, sizeof wire, back, &result), 2);
    assert_int_equal(result, COBS_PACKET);
}

static void cobs_drops_a_truncated_block(void **state) {
    /* The code byte promises 4 data bytes, the delimiter comes after 2. */
    const uint8_t wire[] = {0x05, 0x11, 0x22, 0x00};
    uint8_t back[250];
    cobs_result_t result;
    (void)state;
    decode_all(wire, sizeof wire, back, &result);
    assert_int_equal(result, COBS_DROPPED);
}

static void cobs_drops_a_packet_larger_than_the_buffer(void **state) {
    uint8_t i;
    cobs_result_t result = COBS_MORE;
    (void)state;

    cobs_decoder_reset();
    cobs_decode_byte(COBS_CAPACITY + 2u);
    for (i = 0; i < COBS_CAPACITY + 1u; i++) {
        assert_int_equal(cobs_decode_byte(0x55), COBS_MORE);
    }
    result = cobs_decode_byte(0);
    assert_int_equal(result, COBS_DROPPED);
    /* The next packet decodes normally. */
    cobs_decode_byte(2);
    cobs_decode_byte(0x42);
    assert_int_equal(cobs_decode_byte(0), COBS_PACKET);
    assert_int_equal(cobs_length, 1);
    assert_int_equal(cobs_packet[0], 0x42);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(crc16_matches_the_ccitt_false_check_value),
        cmocka_unit_test(crc16_over_data_and_its_big_endian_crc_is_zero),
        cmocka_unit_test(cobs_round_trips_zeros_and_runs),
        cmocka_unit_test(cobs_encodes_the_textbook_example),
        cmocka_unit_test(cobs_ignores_preamble_delimiters),
        cmocka_unit_test(cobs_drops_a_truncated_block),
        cmocka_unit_test(cobs_drops_a_packet_larger_than_the_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
