/*
 * fuzz_link.c - the device's packet parser and command handling, fed with
 * arbitrary input, over a flash that may already hold a set and may lose
 * power part way.
 *
 * Input: byte 0 picks the mode, byte 1 the power cut, the rest is either
 *   raw line bytes (mode bit 0 clear): the COBS decoder, CRC check, garbage;
 *   or records [length][type][payload...] (bit 0 set) that the harness wraps
 *   as well-formed packets, so BEGIN/CHUNK/COMMIT/SHOW/CLEAR with arbitrary
 *   contents reach the store and the display; the two bytes [any][0xFF] send
 *   the previous packet again, byte for byte (a host's resend), and [any][0xFE]
 *   make the next packet lose its last byte before the delimiter (its last
 *   COBS code byte: a truncation the CRC over the length must catch).
 * Bit 1 of the mode starts from a flash that holds a committed set.
 *
 * On the simulated board: its UART at 115200 Bd, its flash, and a power cut
 * during the (byte 1 - 199)th flash operation (byte 1 >= 200), which tears
 * that row after (mode >> 2) % 33 words and leaves the next word with some of
 * its bits done (sim_set_power_cut_tear).
 *
 * Checked besides the sanitizers: the link never reads past its input in
 * unbounded time, and after any of it the store boots to a set whose every
 * frame opens and reads within bounds. fuzz_link_reached tells what the
 * input got to (the seeds' replay test, tests/firmware/link, checks that the
 * hand-made seeds of tools/gen/gen_fuzz_seeds.py reach what they are for).
 */
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cobs.h"
#include "crc16.h"
#include "fuzz_link.h"
#include "link.h"
#include "link_board.h"
#include "link_packets.h"
#include "protocol.h"
#include "sim_uart.h"
#include "store.h"
#include "store_write.h"

#define SERVICE_CALLS_PER_BYTE 4u
#define MAX_LINE_BYTES 8192u
#define RESEND_RECORD 0xFFu
#define TRUNCATE_RECORD 0xFEu
#define DRAIN_POLLS 100u

fuzz_link_reach_t fuzz_link_reached;
/* The command type of each seq of the input's packets, and the device's output. */
static uint8_t sent_type[256];
static uint8_t replies_wire[4096];
static size_t replies_length;

static uint16_t flash_with_set[HAL_FLASH_WORDS];
static int have_flash_with_set;

/* A flash image with a small committed set, made once by the store itself. */
static void build_flash_with_set(void) {
    static uint8_t stream[3 * 104];
    uint16_t length = 0;
    uint16_t words = 0;
    uint8_t frame;
    uint16_t at;

    for (frame = 0; frame < 3u; frame++) {
        uint8_t bytes[100];
        uint16_t crc;
        link_make_frame(bytes, sizeof bytes, frame);
        crc = crc16_block(CRC16_INIT, bytes, sizeof bytes);
        stream[length++] = sizeof bytes;
        stream[length++] = 0;
        stream[length++] = (uint8_t)crc;
        stream[length++] = (uint8_t)(crc >> 8);
        memcpy(&stream[length], bytes, sizeof bytes);
        length = (uint16_t)(length + sizeof bytes);
        words = (uint16_t)(words + store_frame_words(sizeof bytes));
    }
    board_fresh();
    store_init();
    if (store_write_begin(3, words) != STORE_OK) {
        abort();
    }
    for (at = 0; at < length; at = (uint16_t)(at + 100u)) {
        uint16_t left = (uint16_t)(length - at);
        uint16_t part = left < 100u ? left : 100u;
        uint16_t i;
        for (i = 0; i < part; i++) {
            if (store_write_byte(stream[at + i]) != STORE_OK) {
                abort();
            }
        }
    }
    if (store_write_commit() != STORE_OK) {
        abort();
    }
    memcpy(flash_with_set, board_flash, sizeof flash_with_set);
    have_flash_with_set = 1;
}

static void queue_packets(const uint8_t *data, size_t size) {
    uint8_t body[LINK_PACKET_MAX];
    uint8_t wire[COBS_ENCODED_MAX(LINK_PACKET_MAX)];
    uint8_t wire_length = 0;
    uint8_t seq = 1;
    size_t at = 0;
    bool truncate = false;

    while (at < size) {
        uint8_t length = data[at];
        uint16_t crc;
        at++;
        if (at < size && data[at] == RESEND_RECORD) {
            sim_uart_send(wire, wire_length);
            at++;
            continue;
        }
        if (at < size && data[at] == TRUNCATE_RECORD) {
            truncate = true;
            at++;
            continue;
        }
        if (length == 0u || length > LINK_HEADER_BYTES - 1u + LINK_PAYLOAD_MAX) {
            length = (uint8_t)(length % (LINK_PAYLOAD_MAX + 1u) + 1u);
        }
        if (length > size - at) {
            length = (uint8_t)(size - at);
        }
        if (length == 0u) {
            break;
        }
        body[0] = data[at];
        body[1] = seq;
        sent_type[seq] = body[0];
        seq++;
        memcpy(&body[2], &data[at + 1u], (size_t)length - 1u);
        at += length;
        /* The CRC covers the decoded length (docs/protocol.md), then the packet. */
        crc = crc16_block(crc16_update(CRC16_INIT, (uint8_t)(length + 3u)), body,
                          (uint8_t)(length + 1u));
        body[length + 1u] = (uint8_t)(crc >> 8);
        body[length + 2u] = (uint8_t)crc;
        wire_length = cobs_encode(body, (uint8_t)(length + 3u), wire);
        if (truncate) {
            wire[wire_length - 2u] = COBS_DELIMITER;
            wire_length--;
            truncate = false;
        }
        sim_uart_send(wire, wire_length);
    }
}

static void check_store_after_reboot(void) {
    uint8_t count;
    uint8_t index;

    store_init();
    count = store_frame_count();
    if (count > 32u) {
        abort();
    }
    for (index = 0; index < count; index++) {
        uint32_t reads = 0;
        if (!store_frame_open(index)) {
            abort(); /* boot only accepts sets whose frames all check */
        }
        while (store_frame_left() != 0u) {
            (void)store_read_byte();
            reads++;
        }
        if (reads > 2u * HAL_FLASH_WORDS) {
            abort();
        }
    }
}

/* Device -> host bytes are taken, so the line's buffer stays small; the first
 * 4 KB are kept for note_reached(). */
static void drop_replies(void) {
    uint8_t sink[256];
    size_t taken;

    while ((taken = sim_uart_take(sink, sizeof sink)) != 0u) {
        size_t room = sizeof replies_wire - replies_length;
        taken = taken < room ? taken : room;
        memcpy(&replies_wire[replies_length], sink, taken);
        replies_length += taken;
    }
}

/* What the replies show the input got to. */
static void note_reached(void) {
    static link_packet_t packets[LINK_PACKETS_MAX];
    uint8_t answered[256] = {0};
    uint8_t count = link_packets_parse(replies_wire, (uint16_t)replies_length, packets);
    uint8_t i;

    for (i = 0; i < count; i++) {
        const link_packet_t *reply = &packets[i];
        uint8_t command = sent_type[reply->seq];
        if (reply->type == LINK_EVT_ERROR && reply->payload[0] == LINK_ERR_BAD_PACKET) {
            fuzz_link_reached.bad_packet = true;
        }
        if (reply->type != LINK_RSP_ACK && reply->type != LINK_RSP_ERROR) {
            continue;
        }
        if (answered[reply->seq]++ != 0u) {
            fuzz_link_reached.cached_resend = true;
        }
        if (reply->type == LINK_RSP_ACK && command == LINK_CMD_CHUNK) {
            fuzz_link_reached.chunk_accepted = true;
        }
        if (reply->type == LINK_RSP_ACK && command == LINK_CMD_COMMIT) {
            fuzz_link_reached.commit_accepted = true;
        }
        if (reply->type == LINK_RSP_ERROR && command == LINK_CMD_COMMIT &&
            (reply->payload[0] == LINK_ERR_FRAME_FORMAT ||
             reply->payload[0] == LINK_ERR_FRAME_CRC)) {
            fuzz_link_reached.commit_refused = true;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    volatile uint32_t calls = 0;
    uint32_t limit;

    if (size < 2u) {
        return 0;
    }
    if (!have_flash_with_set) {
        build_flash_with_set();
    }
    memset(&fuzz_link_reached, 0, sizeof fuzz_link_reached);
    memset(sent_type, 0, sizeof sent_type);
    replies_length = 0;
    board_fresh();
    if ((data[0] & 2u) != 0u) {
        memcpy(board_flash, flash_with_set, sizeof flash_with_set);
    }
    store_init();
    link_init();
    if ((data[0] & 1u) != 0u) {
        queue_packets(data + 2, size - 2u);
    } else {
        sim_uart_send(data + 2, size - 2u > MAX_LINE_BYTES ? MAX_LINE_BYTES : size - 2u);
    }
    limit = SERVICE_CALLS_PER_BYTE * (uint32_t)(sim_uart_rx_queued() + 8u);
    sim_set_power_cut_tear((uint8_t)((data[0] >> 2) % 33u), (uint16_t)(data[1] * 0x2A5u));
    sim_schedule_power_cut(data[1] < 200u ? 0u : (uint32_t)(data[1] - 199u));
    if (setjmp(board_cut) == 0) {
        board_catch_cuts(true);
        while ((sim_uart_rx_queued() != 0u || hal_uart_pending()) && calls < limit) {
            (void)link_service();
            drop_replies();
            calls++;
        }
        /* The last replies finish going out (100 us a poll). */
        for (calls = 0; calls < DRAIN_POLLS; calls++) {
            (void)link_service();
            drop_replies();
        }
    }
    board_catch_cuts(false);
    drop_replies();
    note_reached();
    if (board_was_cut()) {
        board_reboot();
    } else if (sim_uart_rx_queued() != 0u) {
        abort(); /* the link stopped taking bytes */
    }
    check_store_after_reboot();
    return 0;
}
