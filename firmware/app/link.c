/*
 * link.c - the UART protocol, device side (docs/protocol.md, protocol.h).
 *
 * Stop-and-wait: the host sends one command and waits for its response, so
 * the device never receives while a flash row write stalls the CPU. Packets
 * are decoded as bytes arrive; only the decoded packet is held.
 */
#include "link.h"

#include "cobs.h"
#include "crc16.h"
#include "display.h"
#include "epd.h"
#include "hal.h"
#include "protocol.h"
#include "store.h"
#include "store_layout.h"
#include "store_write.h"
#include "supply.h"

/* Idle polls are 100 us apart: well inside the two bytes (174 us) the
 * EUSART's FIFO holds. */
#define LINK_POLL_US 100u
#define LINK_AWAKE_POLLS ((uint16_t)(LINK_AWAKE_MS * (1000u / LINK_POLL_US)))
/* A wake with no byte at all (the button's): listen only briefly. A host's
 * wake preamble is all there within a few byte times. */
#define LINK_LISTEN_MS 20u
#define LINK_LISTEN_POLLS ((uint16_t)(LINK_LISTEN_MS * (1000u / LINK_POLL_US)))
/* Bytes handled in one link_service() call: more than one whole packet, so
 * a steady stream cannot keep the caller from its other duties forever. */
#define LINK_BYTES_PER_SERVICE (2u * LINK_PACKET_MAX)

#define LINK_REPLY_MAX (LINK_HEADER_BYTES + LINK_INFO_PAYLOAD_BYTES + LINK_CRC_BYTES)
#define LINK_MIN_PACKET (LINK_HEADER_BYTES + LINK_CRC_BYTES)

/* Counts and lengths are 8- and 16-bit on the chip. */
HAL_STATIC_ASSERT(awake_polls_16_bits, LINK_AWAKE_MS * 1ul * (1000u / LINK_POLL_US) <= 0xFFFFul);
HAL_STATIC_ASSERT(listen_polls_16_bits, LINK_LISTEN_MS * 1ul * (1000u / LINK_POLL_US) <= 0xFFFFul);
HAL_STATIC_ASSERT(packet_fits_one_ram_bank, LINK_PACKET_MAX <= 80u);
HAL_STATIC_ASSERT(encoded_reply_fits_u8, COBS_ENCODED_MAX(LINK_REPLY_MAX) <= 0xFFu);
HAL_STATIC_ASSERT(bytes_per_service_8_bits, LINK_BYTES_PER_SERVICE <= 0xFFu);

HAL_STATIC_ASSERT(reset_codes_are_the_hal_s,
                  HAL_RESET_POWER_ON == LINK_RESET_POWER_ON &&
                      HAL_RESET_BROWNOUT == LINK_RESET_BROWNOUT &&
                      HAL_RESET_WATCHDOG == LINK_RESET_WATCHDOG &&
                      HAL_RESET_STACK_OVERFLOW == LINK_RESET_STACK_OVERFLOW &&
                      HAL_RESET_STACK_UNDERFLOW == LINK_RESET_STACK_UNDERFLOW &&
                      HAL_RESET_MCLR == LINK_RESET_MCLR &&
                      HAL_RESET_INSTRUCTION == LINK_RESET_INSTRUCTION &&
                      HAL_RESET_NONE == LINK_RESET_NONE);

/* The command being handled is the COBS decoder's buffer; its payload starts here. */
#define PAYLOAD_AT LINK_HEADER_BYTES
/* An event (type, seq, up to 3 bytes, CRC) is built at reply[EVENT_AT], after the response. */
#define EVENT_BYTES (LINK_HEADER_BYTES + 3u + LINK_CRC_BYTES)
#define EVENT_AT LINK_REPLY_MAX
/* The last response, kept whole so a retransmitted command (same bytes,
 * same CRC) is answered again without being executed twice. It outlives
 * sleep, as the upload does: a host resends after its timeout, which may be
 * longer than the awake window. INFO changes nothing and is always run
 * afresh: a host opens each session with it, so a command of an earlier
 * session is never taken for a repeat. The event after it shares the array:
 * both are reached by index, no pointer is passed around. */
static uint8_t reply[LINK_REPLY_MAX + EVENT_BYTES];
static uint8_t reply_length;
static uint16_t reply_command_crc;
static uint16_t quiet_polls;
static bool heard_since_wake;
static bool sleep_requested;
static uint8_t event_seq;
static uint8_t info_flags;  /* LINK_INFO_FLAG_* */
static uint8_t reset_cause; /* LINK_RESET_* */
bool link_handled_packet;   /* link.h */
/* The BUSY event on the wire: it is always the same packet (type, seq 0, the CRC
 * of length 4 and those two bytes, COBS, the delimiter), so it is kept whole in
 * program memory; tests/firmware/link/test_protocol.c parses it. */
static const uint8_t busy_wire[] = {0x02u, LINK_EVT_BUSY, 0x03u, 0x53u, 0x5Bu, COBS_DELIMITER};
static void answer_busy(void);

void link_init(void) {
    store_write_abort();
    cobs_decoder_reset();
    reply_length = 0;
    reply_command_crc = 0;
    quiet_polls = 0;
    heard_since_wake = false;
    sleep_requested = false;
    event_seq = 0;
    info_flags = 0u;
    reset_cause = LINK_RESET_NONE;
    (void)hal_uart_errors_take();
    epd_awake_hook = answer_busy;
}

/* value, little-endian, at reply[at]. */
static void put_u16(uint8_t at, uint16_t value) {
    reply[at] = (uint8_t)value;
    reply[(uint8_t)(at + 1u)] = (uint8_t)(value >> 8);
}

/* The little-endian u16 at cobs_packet[at]. */
static uint16_t get_u16(uint8_t at) {
    return (uint16_t)(cobs_packet[at] | ((uint16_t)cobs_packet[(uint8_t)(at + 1u)] << 8));
}

/* The CRC of a packet of packet_length decoded bytes (CRC included), over its
 * first count bytes: the length goes in first, so a packet that lost bytes is
 * checked against another length (docs/protocol.md). */
#define PACKET_CRC(bytes, count, packet_length)                                                    \
    crc16_block(crc16_update(CRC16_INIT, (packet_length)), (bytes), (count))

/* reply[at .. at+length-1] is type, seq, payload; the CRC goes after it. */
static uint8_t seal(uint8_t at, uint8_t length) {
    uint16_t crc = PACKET_CRC(&reply[at], length, (uint8_t)(length + LINK_CRC_BYTES));
    uint8_t end = (uint8_t)(at + length);

    reply[end] = (uint8_t)(crc >> 8);
    reply[(uint8_t)(end + 1u)] = (uint8_t)crc;
    return (uint8_t)(length + LINK_CRC_BYTES);
}

/* The packet of length bytes at reply[at], on the wire. */
static void transmit(uint8_t at, uint8_t length) {
    uint8_t wire[COBS_ENCODED_MAX(LINK_REPLY_MAX)];
    uint8_t count = cobs_encode(&reply[at], length, wire);
    uint8_t i;

    for (i = 0; i < count; i++) {
        hal_uart_write(wire[i]);
    }
}

static void send_event(uint8_t type, uint8_t first, uint16_t detail, uint8_t payload_length) {
    reply[EVENT_AT] = type;
    reply[EVENT_AT + 1u] = event_seq;
    event_seq++;
    reply[EVENT_AT + 2u] = first;
    put_u16(EVENT_AT + 3u, detail);
    transmit(EVENT_AT, seal(EVENT_AT, (uint8_t)(LINK_HEADER_BYTES + payload_length)));
}

void link_event_button(void) {
    send_event(LINK_EVT_BUTTON, 0, 0, 0);
}

void link_event_shown(uint8_t index, uint8_t display_status) {
    info_flags = 0u;
    if (display_status == (uint8_t)DISPLAY_ERR_LOW_BATTERY) {
        info_flags = LINK_INFO_FLAG_BATTERY_LOW;
    }
    send_event(LINK_EVT_SHOWN, index, display_status, 2u);
}

void link_set_reset_cause(uint8_t cause) {
    reset_cause = cause;
    if (cause == LINK_RESET_BROWNOUT) {
        info_flags = LINK_INFO_FLAG_BATTERY_LOW;
    }
}

/*
 * While the panel refreshes (epd_awake_hook, called when the host talks): each
 * packet the decoder closes, whole or damaged, is answered with the BUSY event
 * and not handled (shallow: this runs at the bottom of a refresh's wait), so a
 * command is never run nor answered from the copy meanwhile; the host sends it
 * again once the SHOWN event says the refresh is over. A packet still coming
 * when the refresh ends is decoded on as usual.
 */
static void answer_busy(void) {
    uint8_t byte;
    uint8_t i;

    while (hal_uart_read(&byte)) {
        if (cobs_decode_byte(byte) != COBS_MORE) {
            for (i = 0; i < sizeof busy_wire; i++) {
                hal_uart_write(busy_wire[i]);
            }
            (void)hal_uart_errors_take();
        }
    }
}

static void event_error(uint8_t code, uint16_t detail) {
    send_event(LINK_EVT_ERROR, code, detail, 3u);
}

/* Responses: built in reply[], sent, and kept for retransmissions. */
static void respond(uint8_t type, uint8_t payload_length) {
    reply[0] = type;
    reply[1] = cobs_packet[1];
    reply_length = seal(0u, (uint8_t)(LINK_HEADER_BYTES + payload_length));
    transmit(0u, reply_length);
}

static void respond_ack(void) {
    respond(LINK_RSP_ACK, 0);
}

static void respond_ack_u16(uint16_t value) {
    put_u16(2u, value);
    respond(LINK_RSP_ACK, 2u);
}

static void respond_error(uint8_t code, uint16_t detail) {
    reply[2] = code;
    put_u16(3u, detail);
    respond(LINK_RSP_ERROR, 3u);
}

/* LINK_ERR_* of each store_status_t but STORE_OK: the store's errors from
 * TOO_MANY_FRAMES to FLASH are the link's in the same order. */
#define STORE_TO_LINK_ERR (LINK_ERR_TOO_MANY_FRAMES - STORE_ERR_TOO_MANY_FRAMES)
HAL_STATIC_ASSERT(store_codes_in_order,
                  STORE_ERR_TOO_BIG + STORE_TO_LINK_ERR == LINK_ERR_TOO_BIG &&
                      STORE_ERR_BAD_STREAM + STORE_TO_LINK_ERR == LINK_ERR_BAD_STREAM &&
                      STORE_ERR_INCOMPLETE + STORE_TO_LINK_ERR == LINK_ERR_INCOMPLETE &&
                      STORE_ERR_FRAME_CRC + STORE_TO_LINK_ERR == LINK_ERR_FRAME_CRC &&
                      STORE_ERR_FLASH + STORE_TO_LINK_ERR == LINK_ERR_FLASH &&
                      STORE_ERR_FLASH + 1 == STORE_ERR_FRAME_FORMAT &&
                      STORE_ERR_FRAME_FORMAT + 1 == STORE_STATUS_COUNT &&
                      STORE_ERR_NOT_WRITING + 1 == STORE_ERR_TOO_MANY_FRAMES);

static void respond_store_error(store_status_t status, uint16_t detail) {
    uint8_t code = (uint8_t)((uint8_t)status + STORE_TO_LINK_ERR);

    if (status == STORE_ERR_NOT_WRITING) {
        code = LINK_ERR_NO_UPLOAD;
    } else if (status == STORE_ERR_FRAME_FORMAT) {
        code = LINK_ERR_FRAME_FORMAT;
    }
    respond_error(code, detail);
}

static void command_info(void) {
    reply[2] = LINK_PROTOCOL_VERSION;
    reply[3] = EPDLE_FW_VERSION_MAJOR;
    reply[4] = EPDLE_FW_VERSION_MINOR;
    reply[5] = EPDLE_FW_VERSION_PATCH;
    put_u16(6u, store_free_words());
    reply[8] = display_frame_count();
    reply[9] = display_current();
    reply[10] = STORE_MAX_FRAMES;
    reply[11] = LINK_CHUNK_MAX;
    reply[12] = info_flags;
    reply[13] = reset_cause;
    put_u16(14u, supply_last_reading());
    put_u16(16u, supply_fvr_mv());
    respond(LINK_RSP_INFO, LINK_INFO_PAYLOAD_BYTES);
}

/* The host measured VDD at the board: the FVR worked out of it and kept (supply.h). */
static void command_calibrate(uint8_t length) {
    if (length != 2u) {
        respond_error(LINK_ERR_BAD_LENGTH, length);
    } else if (supply_calibrate(get_u16(PAYLOAD_AT))) {
        respond_ack_u16(supply_fvr_mv());
    } else {
        respond_error(LINK_ERR_CALIBRATION, supply_last_reading());
    }
}

static void command_begin(uint8_t length) {
    store_status_t status;

    if (length != 3u) {
        respond_error(LINK_ERR_BAD_LENGTH, length);
        return;
    }
    status = store_write_begin(cobs_packet[PAYLOAD_AT], get_u16(PAYLOAD_AT + 1u));
    if (status == STORE_OK) {
        respond_ack_u16(store_free_words());
    } else if (status == STORE_ERR_TOO_BIG) {
        respond_store_error(status, store_free_words());
    } else {
        respond_store_error(status, STORE_MAX_FRAMES);
    }
}

static void command_chunk(uint8_t length) {
    uint16_t offset;
    store_status_t status = STORE_OK;
    uint8_t i;
    uint8_t end = (uint8_t)(PAYLOAD_AT + length);

    if (length < 3u) {
        respond_error(LINK_ERR_BAD_LENGTH, length);
        return;
    }
    if (!store_write_active()) {
        respond_error(LINK_ERR_NO_UPLOAD, 0);
        return;
    }
    offset = get_u16(PAYLOAD_AT);
    if (offset != store_write_offset()) {
        respond_error(LINK_ERR_OFFSET, store_write_offset());
        return;
    }
    for (i = PAYLOAD_AT + 2u; i < end && status == STORE_OK; i++) {
        status = store_write_byte(cobs_packet[i]);
    }
    if (status == STORE_OK) {
        respond_ack_u16(store_write_offset());
    } else {
        respond_store_error(status, store_write_offset());
    }
}

static void command_commit(void) {
    store_status_t status = store_write_commit();

    if (status == STORE_OK) {
        respond_ack();
    } else {
        respond_store_error(status, store_failed_frame());
    }
}

static void command_show(uint8_t length) {
    uint8_t index;

    if (length != 1u) {
        respond_error(LINK_ERR_BAD_LENGTH, length);
        return;
    }
    index = cobs_packet[PAYLOAD_AT];
    respond_ack();
    link_event_shown(index, (uint8_t)display_show(index));
}

static void command_clear(void) {
    store_status_t status;

    store_write_abort();
    status = store_clear();
    if (status == STORE_OK) {
        respond_ack();
    } else {
        respond_store_error(status, 0);
    }
}

static void handle_packet(uint8_t length) {
    uint8_t payload_length;
    uint16_t command_crc;

    if (length < LINK_MIN_PACKET || PACKET_CRC(cobs_packet, length, length) != 0u) {
        event_error(LINK_ERR_BAD_PACKET, length);
        return;
    }
    command_crc = get_u16((uint8_t)(length - LINK_CRC_BYTES));
    if (reply_length != 0u && command_crc == reply_command_crc && cobs_packet[1] == reply[1] &&
        cobs_packet[0] != LINK_CMD_INFO) {
        transmit(0u, reply_length);
        return;
    }
    reply_command_crc = command_crc;
    payload_length = (uint8_t)(length - LINK_MIN_PACKET);
    switch (cobs_packet[0]) {
    case LINK_CMD_INFO:
        command_info();
        break;
    case LINK_CMD_BEGIN:
        command_begin(payload_length);
        break;
    case LINK_CMD_CHUNK:
        command_chunk(payload_length);
        break;
    case LINK_CMD_COMMIT:
        command_commit();
        break;
    case LINK_CMD_SHOW:
        command_show(payload_length);
        break;
    case LINK_CMD_CLEAR:
        command_clear();
        break;
    case LINK_CMD_SLEEP:
        respond_ack();
        sleep_requested = true;
        break;
    case LINK_CMD_CALIBRATE:
        command_calibrate(payload_length);
        break;
    default:
        respond_error(LINK_ERR_UNKNOWN_CMD, cobs_packet[0]);
        break;
    }
}

/* Going to sleep: a half-received packet is abandoned; an upload in progress
 * and the last reply are kept (a host may resend after the awake window); the
 * next wake starts a fresh awake window. */
static void settle_for_sleep(void) {
    cobs_decoder_reset();
    quiet_polls = 0;
    heard_since_wake = false;
    sleep_requested = false;
}

bool link_service(void) {
    uint8_t handled = 0;
    uint16_t quiet_limit;
    uint8_t lost;
    uint8_t byte;

    while (handled < LINK_BYTES_PER_SERVICE && hal_uart_read(&byte)) {
        cobs_result_t result = cobs_decode_byte(byte);
        handled++;
        if (result == COBS_PACKET) {
            handle_packet(cobs_length);
            link_handled_packet = true;
        } else if (result == COBS_DROPPED) {
            event_error(LINK_ERR_BAD_PACKET, 0);
        }
    }
    lost = hal_uart_errors_take();
    if (lost != 0u) {
        event_error(LINK_ERR_UART, lost);
    }
    if (handled != 0u) {
        quiet_polls = 0;
        heard_since_wake = true;
    } else {
        hal_delay_us(LINK_POLL_US);
        quiet_polls++;
    }
    quiet_limit = LINK_LISTEN_POLLS;
    if (heard_since_wake) {
        quiet_limit = LINK_AWAKE_POLLS;
    }
    if (sleep_requested || quiet_polls >= quiet_limit) {
        settle_for_sleep();
        return false;
    }
    return true;
}
