/* link.c through its UART: commands, retransmissions, damage, sleep. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cobs.h"
#include "epd.h"
#include "fake_display.h"
#include "link.h"
#include "link_board.h"
#include "link_packets.h"
#include "sim_uart.h"
#include "store.h"
#include "store_layout.h"
#include "store_write.h"

static uint8_t wire[8192];
static link_packet_t replies[LINK_PACKETS_MAX];
static uint8_t frame_bytes[3][700];
static const uint16_t frame_lengths[3] = {650, 700, 322};
static uint8_t stream[3 * 704];
static uint16_t stream_length;

static int fresh(void **state) {
    const uint8_t *frames[3] = {frame_bytes[0], frame_bytes[1], frame_bytes[2]};
    uint16_t i;
    (void)state;

    board_fresh();
    fake_display_reset();
    store_init();
    link_init();
    for (i = 0; i < 3u; i++) {
        link_make_frame(frame_bytes[i], frame_lengths[i], (uint8_t)(i * 5u));
    }
    stream_length = link_set_stream(frames, frame_lengths, 3, stream);
    return 0;
}

/* Send bytes at 115200 Bd and run the link until they are used up; the device's packets. */
static uint8_t exchange(const uint8_t *bytes, uint16_t length) {
    uint16_t out_length =
        board_exchange(bytes, length, 4u * (uint32_t)length + 1000u, wire, (uint16_t)sizeof wire);

    return link_packets_parse(wire, out_length, replies);
}

static uint8_t command(uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t length) {
    uint8_t bytes[COBS_ENCODED_MAX(LINK_PACKET_MAX)];
    uint16_t count = link_packet_build(type, seq, payload, length, bytes);
    return exchange(bytes, count);
}

static uint16_t u16_at(const uint8_t *at) {
    return (uint16_t)(at[0] | (at[1] << 8));
}

static void expect_ack(uint8_t found, uint8_t seq) {
    assert_int_equal(found, 1);
    assert_int_equal(replies[0].type, LINK_RSP_ACK);
    assert_int_equal(replies[0].seq, seq);
}

static void expect_error(uint8_t found, uint8_t code) {
    assert_int_equal(found, 1);
    assert_int_equal(replies[0].type, LINK_RSP_ERROR);
    assert_int_equal(replies[0].payload[0], code);
}

static uint8_t begin_payload[3];

static void begin_upload(uint8_t seq) {
    uint16_t words = link_set_words(frame_lengths, 3);
    begin_payload[0] = 3;
    begin_payload[1] = (uint8_t)words;
    begin_payload[2] = (uint8_t)(words >> 8);
    expect_ack(command(LINK_CMD_BEGIN, seq, begin_payload, 3), seq);
}

static uint8_t send_chunk(uint8_t seq, uint16_t offset) {
    uint8_t payload[LINK_PAYLOAD_MAX];
    uint16_t left = (uint16_t)(stream_length - offset);
    uint16_t part = left > LINK_CHUNK_MAX ? LINK_CHUNK_MAX : left;

    payload[0] = (uint8_t)offset;
    payload[1] = (uint8_t)(offset >> 8);
    memcpy(&payload[2], &stream[offset], part);
    return command(LINK_CMD_CHUNK, seq, payload, (uint8_t)(part + 2u));
}

static void upload_all(uint8_t first_seq) {
    uint16_t offset = 0;
    uint8_t seq = first_seq;

    begin_upload(seq++);
    while (offset < stream_length) {
        expect_ack(send_chunk(seq, offset), seq);
        offset = u16_at(replies[0].payload);
        seq++;
    }
    expect_ack(command(LINK_CMD_COMMIT, seq, NULL, 0), seq);
}

static void info_reports_version_capacity_and_frames(void **state) {
    uint8_t found;
    (void)state;
    found = command(LINK_CMD_INFO, 7, NULL, 0);
    assert_int_equal(found, 1);
    assert_int_equal(replies[0].type, LINK_RSP_INFO);
    assert_int_equal(replies[0].seq, 7);
    assert_int_equal(replies[0].payload_length, LINK_INFO_PAYLOAD_BYTES);
    assert_int_equal(replies[0].payload[0], LINK_PROTOCOL_VERSION);
    assert_int_equal(u16_at(&replies[0].payload[4]), STORE_DATA_WORDS);
    assert_int_equal(replies[0].payload[6], 0);
    assert_int_equal(replies[0].payload[8], STORE_MAX_FRAMES);
    assert_int_equal(replies[0].payload[9], LINK_CHUNK_MAX);
}

static void an_upload_becomes_the_set_and_shows(void **state) {
    (void)state;
    upload_all(1);
    assert_int_equal(command(LINK_CMD_INFO, 50, NULL, 0), 1);
    assert_int_equal(replies[0].payload[6], 3);
    assert_int_equal(command(LINK_CMD_SHOW, 51, (const uint8_t[]){1}, 1), 2);
    assert_int_equal(replies[0].type, LINK_RSP_ACK);
    assert_int_equal(replies[1].type, LINK_EVT_SHOWN);
    assert_int_equal(replies[1].payload[0], 1);
    assert_int_equal(replies[1].payload[1], DISPLAY_OK);
    assert_int_equal(fake_display.last_length, frame_lengths[1]);
    assert_memory_equal(fake_display.last_bytes, frame_bytes[1], frame_lengths[1]);
}

static void a_retransmitted_chunk_is_answered_but_not_applied_twice(void **state) {
    uint16_t after_first;
    (void)state;
    begin_upload(1);
    expect_ack(send_chunk(2, 0), 2);
    after_first = u16_at(replies[0].payload);
    expect_ack(send_chunk(2, 0), 2);
    assert_int_equal(u16_at(replies[0].payload), after_first);
    assert_int_equal(store_write_offset(), after_first);
}

static void a_chunk_at_the_wrong_offset_names_the_expected_one(void **state) {
    (void)state;
    begin_upload(1);
    expect_ack(send_chunk(2, 0), 2);
    expect_error(send_chunk(3, 448), LINK_ERR_OFFSET);
    assert_int_equal(u16_at(&replies[0].payload[1]), LINK_CHUNK_MAX);
    expect_ack(send_chunk(4, LINK_CHUNK_MAX), 4);
}

static void a_corrupted_packet_gets_an_error_event_and_changes_nothing(void **state) {
    uint8_t bytes[COBS_ENCODED_MAX(LINK_PACKET_MAX)];
    uint16_t count;
    uint8_t found;
    (void)state;

    upload_all(1);
    count = link_packet_build(LINK_CMD_CLEAR, 90, NULL, 0, bytes);
    bytes[1] ^= 0x40u;
    found = exchange(bytes, count);
    assert_int_equal(found, 1);
    assert_int_equal(replies[0].type, LINK_EVT_ERROR);
    assert_int_equal(replies[0].payload[0], LINK_ERR_BAD_PACKET);
    assert_int_equal(store_frame_count(), 3);
}

static void a_truncated_packet_is_dropped_and_the_next_one_works(void **state) {
    uint8_t bytes[2 * COBS_ENCODED_MAX(LINK_PACKET_MAX)];
    uint16_t count;
    uint16_t second;
    uint8_t found;
    (void)state;

    count = link_packet_build(LINK_CMD_INFO, 3, NULL, 0, bytes);
    /* Keep the first half of the packet, then the host starts over. */
    count = (uint16_t)(count / 2u);
    bytes[count++] = 0;
    second = link_packet_build(LINK_CMD_INFO, 4, NULL, 0, &bytes[count]);
    found = exchange(bytes, (uint16_t)(count + second));
    assert_int_equal(found, 2);
    assert_int_equal(replies[0].type, LINK_EVT_ERROR);
    assert_int_equal(replies[1].type, LINK_RSP_INFO);
    assert_int_equal(replies[1].seq, 4);
}

/* Run one damaged copy of a command; true if the device answered it as a command. */
static bool answered_as_a_command(const uint8_t *bytes, uint16_t count) {
    uint8_t found = exchange(bytes, count);
    uint8_t i;

    for (i = 0; i < found; i++) {
        if (replies[i].type != LINK_EVT_ERROR) {
            return true;
        }
    }
    return false;
}

/* Every truncation (the delimiter early) and every single lost byte of one command. */
static void no_damaged_copy_passes(const uint8_t *bytes, uint16_t count) {
    uint8_t copy[COBS_ENCODED_MAX(LINK_PACKET_MAX)];
    uint16_t length;
    uint16_t at;

    for (length = 1; length + 1u < count; length++) {
        memcpy(copy, bytes, length);
        copy[length] = 0;
        assert_false(answered_as_a_command(copy, (uint16_t)(length + 1u)));
    }
    for (at = 0; at + 1u < count; at++) {
        memcpy(copy, bytes, at);
        memcpy(&copy[at], &bytes[at + 1u], (size_t)(count - at - 1u));
        assert_false(answered_as_a_command(copy, (uint16_t)(count - 1u)));
    }
}

static void no_truncation_nor_lost_byte_is_taken_for_a_command(void **state) {
    static const uint8_t types[] = {LINK_CMD_INFO, LINK_CMD_BEGIN, LINK_CMD_CHUNK, LINK_CMD_COMMIT,
                                    LINK_CMD_SHOW, LINK_CMD_CLEAR, LINK_CMD_SLEEP};
    static const uint8_t lengths[] = {0, 3, LINK_PAYLOAD_MAX, 0, 1, 0, 0};
    uint8_t payload[LINK_PAYLOAD_MAX];
    uint8_t bytes[COBS_ENCODED_MAX(LINK_PACKET_MAX)];
    uint8_t kind;
    uint8_t i;
    (void)state;

    for (i = 0; i < LINK_PAYLOAD_MAX; i++) {
        payload[i] = (uint8_t)(i + 1u);
    }
    for (kind = 0; kind < sizeof types; kind++) {
        uint16_t ending_in_zero = 0;
        uint16_t seq;
        for (seq = 1; seq < 256u; seq++) {
            uint16_t count =
                link_packet_build(types[kind], (uint8_t)seq, payload, lengths[kind], bytes);
            /* A last code byte of 1: the decoded packet ends in 0x00, the CRC's low byte. */
            bool last_zero = bytes[count - 2u] == 1u;
            if (!last_zero && seq != 1u) {
                continue;
            }
            ending_in_zero = (uint16_t)(ending_in_zero + last_zero);
            no_damaged_copy_passes(bytes, count);
            /* Whole, it is a command. */
            assert_true(answered_as_a_command(bytes, count));
            link_init();
        }
        assert_true(ending_in_zero > 0u);
    }
}

/* The panel refreshes: the driver's wait calls the link's hook every millisecond. */
static uint8_t during_a_refresh(const uint8_t *bytes, uint16_t length) {
    uint16_t ms;

    sim_uart_send(bytes, length);
    for (ms = 0; ms < 100u; ms++) {
        epd_awake_hook();
        hal_delay_ms(1u);
    }
    return link_packets_parse(wire, board_take_tx(wire, (uint16_t)sizeof wire), replies);
}

static void every_packet_during_a_refresh_is_answered_busy_and_not_run(void **state) {
    uint8_t bytes[3 * COBS_ENCODED_MAX(LINK_PACKET_MAX) + 4u] = {0, 0, 0, 0};
    uint16_t count = 4u; /* a wake preamble */
    uint8_t found;
    uint8_t i;
    (void)state;

    assert_non_null(epd_awake_hook);
    count = (uint16_t)(count + link_packet_build(LINK_CMD_INFO, 3, NULL, 0, &bytes[count]));
    count = (uint16_t)(count + link_packet_build(LINK_CMD_CLEAR, 4, NULL, 0, &bytes[count]));
    /* Garbage ended by a delimiter is a packet too, as far as a busy device knows. */
    bytes[count++] = 0x55;
    bytes[count++] = 0;
    found = during_a_refresh(bytes, count);
    assert_int_equal(found, 3);
    for (i = 0; i < found; i++) {
        assert_int_equal(replies[i].type, LINK_EVT_BUSY);
        assert_int_equal(replies[i].seq, 0);
        assert_int_equal(replies[i].payload_length, 0);
    }
    /* Nothing was run, nothing is left for after the refresh; the next command works. */
    assert_int_equal(exchange(NULL, 0), 0);
    assert_int_equal(command(LINK_CMD_INFO, 5, NULL, 0), 1);
    assert_int_equal(replies[0].type, LINK_RSP_INFO);
}

static void a_packet_cut_by_the_refresh_leaves_the_decoder_clean(void **state) {
    uint8_t bytes[COBS_ENCODED_MAX(LINK_PACKET_MAX)];
    uint16_t count = link_packet_build(LINK_CMD_INFO, 6, NULL, 0, bytes);
    (void)state;

    /* Its first half before the refresh, the rest during it. */
    (void)exchange(bytes, 3);
    assert_int_equal(during_a_refresh(&bytes[3], (uint16_t)(count - 3u)), 1);
    assert_int_equal(replies[0].type, LINK_EVT_BUSY);
    assert_int_equal(command(LINK_CMD_INFO, 7, NULL, 0), 1);
    assert_int_equal(replies[0].type, LINK_RSP_INFO);
}

static void unknown_and_misused_commands_get_clear_errors(void **state) {
    (void)state;
    expect_error(command(0x33, 1, NULL, 0), LINK_ERR_UNKNOWN_CMD);
    expect_error(send_chunk(2, 0), LINK_ERR_NO_UPLOAD);
    expect_error(command(LINK_CMD_COMMIT, 3, NULL, 0), LINK_ERR_NO_UPLOAD);
    expect_error(command(LINK_CMD_SHOW, 4, NULL, 0), LINK_ERR_BAD_LENGTH);
    expect_error(command(LINK_CMD_BEGIN, 5, (const uint8_t[]){40, 1, 0}, 3),
                 LINK_ERR_TOO_MANY_FRAMES);
    expect_error(command(LINK_CMD_BEGIN, 6, (const uint8_t[]){2, 0xFF, 0xFF}, 3), LINK_ERR_TOO_BIG);
    assert_int_equal(u16_at(&replies[0].payload[1]), STORE_DATA_WORDS);
}

static void commit_before_the_last_chunk_is_incomplete(void **state) {
    (void)state;
    begin_upload(1);
    expect_ack(send_chunk(2, 0), 2);
    expect_error(command(LINK_CMD_COMMIT, 3, NULL, 0), LINK_ERR_INCOMPLETE);
    assert_int_equal(store_frame_count(), 0);
}

static void clear_empties_the_set(void **state) {
    (void)state;
    upload_all(1);
    expect_ack(command(LINK_CMD_CLEAR, 77, NULL, 0), 77);
    assert_int_equal(store_frame_count(), 0);
}

static void the_link_sleeps_after_a_quiet_spell_and_keeps_the_upload(void **state) {
    uint32_t started;
    uint32_t calls = 0;
    uint16_t after_first;
    (void)state;
    begin_upload(1);
    expect_ack(send_chunk(2, 0), 2);
    after_first = u16_at(replies[0].payload);
    started = board_now_us();
    while (link_service() && calls < 100000u) {
        calls++;
    }
    assert_true(board_now_us() - started >= LINK_AWAKE_MS * 1000u);
    assert_true(board_now_us() - started < (LINK_AWAKE_MS + 100u) * 1000u);
    /* The next wake starts a fresh awake window; a host that resends the chunk
     * whose ACK it lost gets that ACK from the copy, and the upload goes on. */
    assert_true(link_service());
    expect_ack(send_chunk(2, 0), 2);
    assert_int_equal(u16_at(replies[0].payload), after_first);
    assert_int_equal(store_write_offset(), after_first);
    expect_ack(send_chunk(3, after_first), 3);
}

static void info_is_never_answered_from_the_copy(void **state) {
    (void)state;
    /* payload[6]: frames. The same INFO (seq 5) before and after the state changed. */
    assert_int_equal(command(LINK_CMD_INFO, 5, NULL, 0), 1);
    assert_int_equal(replies[0].payload[6], 0);
    upload_all(6);
    fake_display.current = 2;
    assert_int_equal(command(LINK_CMD_INFO, 5, NULL, 0), 1);
    assert_int_equal(replies[0].payload[6], 3);
    assert_int_equal(replies[0].payload[7], 2);
    fake_display.current = 1;
    assert_int_equal(command(LINK_CMD_INFO, 5, NULL, 0), 1);
    assert_int_equal(replies[0].payload[7], 1);
}

static void a_wake_without_a_byte_listens_only_briefly(void **state) {
    uint32_t calls = 0;
    (void)state;
    while (link_service() && calls < 100000u) {
        calls++;
    }
    assert_true(board_now_us() >= 10000u);
    assert_true(board_now_us() <= 50000u);
}

static void sleep_command_acks_then_sleeps(void **state) {
    (void)state;
    expect_ack(command(LINK_CMD_SLEEP, 9, NULL, 0), 9);
    /* exchange() ran link_service until the input was used up; the call
     * that handled SLEEP returned false, and the next one is awake again. */
    assert_true(link_service());
}

static void garbage_never_changes_the_set(void **state) {
    uint8_t noise[4096];
    uint32_t seed = 12345u;
    uint16_t i;
    uint32_t calls = 0;
    (void)state;

    upload_all(1);
    for (i = 0; i < sizeof noise; i++) {
        seed = seed * 1103515245u + 12345u;
        noise[i] = (uint8_t)(seed >> 16);
    }
    (void)exchange(noise, sizeof noise);
    while (link_service() && calls < 100000u) {
        calls++;
    }
    assert_true(calls < 100000u);
    store_init();
    assert_int_equal(store_frame_count(), 3);
    assert_int_equal(command(LINK_CMD_SHOW, 200, (const uint8_t[]){2}, 1), 2);
    assert_memory_equal(fake_display.last_bytes, frame_bytes[2], frame_lengths[2]);
}

static void events_carry_their_payload(void **state) {
    uint16_t length;
    uint8_t found;
    (void)state;
    link_event_button();
    link_event_shown(4, DISPLAY_ERR_BAD_FRAME);
    length = board_take_tx(wire, (uint16_t)sizeof wire);
    found = link_packets_parse(wire, length, replies);
    assert_int_equal(found, 2);
    assert_int_equal(replies[0].type, LINK_EVT_BUTTON);
    assert_int_equal(replies[1].type, LINK_EVT_SHOWN);
    assert_int_equal(replies[1].seq, (uint8_t)(replies[0].seq + 1u));
    assert_int_equal(replies[1].payload[0], 4);
    assert_int_equal(replies[1].payload[1], DISPLAY_ERR_BAD_FRAME);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(info_reports_version_capacity_and_frames, fresh),
        cmocka_unit_test_setup(an_upload_becomes_the_set_and_shows, fresh),
        cmocka_unit_test_setup(a_retransmitted_chunk_is_answered_but_not_applied_twice, fresh),
        cmocka_unit_test_setup(a_chunk_at_the_wrong_offset_names_the_expected_one, fresh),
        cmocka_unit_test_setup(a_corrupted_packet_gets_an_error_event_and_changes_nothing, fresh),
        cmocka_unit_test_setup(a_truncated_packet_is_dropped_and_the_next_one_works, fresh),
        cmocka_unit_test_setup(no_truncation_nor_lost_byte_is_taken_for_a_command, fresh),
        cmocka_unit_test_setup(every_packet_during_a_refresh_is_answered_busy_and_not_run, fresh),
        cmocka_unit_test_setup(a_packet_cut_by_the_refresh_leaves_the_decoder_clean, fresh),
        cmocka_unit_test_setup(unknown_and_misused_commands_get_clear_errors, fresh),
        cmocka_unit_test_setup(commit_before_the_last_chunk_is_incomplete, fresh),
        cmocka_unit_test_setup(clear_empties_the_set, fresh),
        cmocka_unit_test_setup(the_link_sleeps_after_a_quiet_spell_and_keeps_the_upload, fresh),
        cmocka_unit_test_setup(info_is_never_answered_from_the_copy, fresh),
        cmocka_unit_test_setup(a_wake_without_a_byte_listens_only_briefly, fresh),
        cmocka_unit_test_setup(sleep_command_acks_then_sleeps, fresh),
        cmocka_unit_test_setup(garbage_never_changes_the_set, fresh),
        cmocka_unit_test_setup(events_carry_their_payload, fresh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
