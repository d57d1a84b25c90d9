/*
 * protocol.h - the host <-> device UART protocol: the numbers both ends
 * share. The prose spec is docs/protocol.md; host/epdle/link/protocol.py
 * mirrors these values and a test checks it against this file.
 *
 * Wire: 115200 8N1. Every packet is COBS-encoded and ends with 0x00.
 * Decoded packet: type (1), seq (1), payload (0..LINK_PAYLOAD_MAX),
 * CRC-16/CCITT-FALSE, big-endian, of the decoded packet's length (one byte,
 * the CRC's two included; not sent) then type..payload: the CRC run over the
 * length and the whole decoded packet is 0, and a packet that lost bytes is
 * checked against another length. Multi-byte payload fields are little-endian.
 */
#ifndef EPDLE_PROTOCOL_H
#define EPDLE_PROTOCOL_H

/* 2: the CRC covers the packet's length (1 did not: a packet could lose a byte and pass).
 * 3: INFO carries the last reset's cause and the supply (VDD reading, FVR); CALIBRATE. */
#define LINK_PROTOCOL_VERSION 3u

#define EPDLE_FW_VERSION_MAJOR 0u
#define EPDLE_FW_VERSION_MINOR 1u
#define EPDLE_FW_VERSION_PATCH 0u

/* ---- framing ----------------------------------------------------------- */

#define LINK_HEADER_BYTES 2u /* type, seq */
#define LINK_CRC_BYTES 2u
/* Set-stream bytes in one CHUNK: the whole decoded packet (6 + 74 bytes) fills
 * one 80-byte RAM bank of the PIC, the largest object its linker can place. */
#define LINK_CHUNK_MAX 74u
#define LINK_PAYLOAD_MAX (2u + LINK_CHUNK_MAX) /* CHUNK: offset + data */
#define LINK_PACKET_MAX (LINK_HEADER_BYTES + LINK_PAYLOAD_MAX + LINK_CRC_BYTES)

/*
 * A sleeping device loses the character whose start bit wakes it: hosts send
 * this many 0x00 (idle delimiters) first, then wait LINK_WAKE_MS.
 */
#define LINK_WAKE_PREAMBLE_BYTES 4u
#define LINK_WAKE_MS 5u

/* The device stays awake this long after the last byte it received. */
#define LINK_AWAKE_MS 1500u

/* ---- host -> device commands (seq 1..255, chosen by the host) ---------- */

#define LINK_CMD_INFO 0x01u   /* -> LINK_RSP_INFO */
#define LINK_CMD_BEGIN 0x02u  /* count u8, flash_words u16 -> ACK */
#define LINK_CMD_CHUNK 0x03u  /* offset u16, data[1..LINK_CHUNK_MAX] -> ACK next_offset u16 */
#define LINK_CMD_COMMIT 0x04u /* -> ACK (after every frame read back and CRC-checked) */
#define LINK_CMD_SHOW 0x05u   /* index u8 -> ACK, later LINK_EVT_SHOWN */
#define LINK_CMD_CLEAR 0x06u  /* -> ACK: commits an empty set (built-in frames show) */
#define LINK_CMD_SLEEP 0x07u  /* -> ACK, then the device sleeps at once */
/* vdd_mv u16 (VDD at the board as the host measured it just now) -> ACK fvr_mv u16 */
#define LINK_CMD_CALIBRATE 0x08u

/* ---- device -> host responses (seq = the command's) -------------------- */

#define LINK_RSP_ACK 0x80u   /* command-specific payload (CHUNK: next offset u16) */
#define LINK_RSP_ERROR 0x81u /* code u8, detail u16 */
/* protocol u8, version major/minor/patch u8, capacity_words u16, frames u8,
 * current u8, max_frames u8, chunk_max u8, flags u8 (LINK_INFO_FLAG_*),
 * reset_cause u8 (LINK_RESET_*), vdd_reading u16 (the last VDD measurement: VDD =
 * 1024 x fvr_mv / vdd_reading; 1023 before any), fvr_mv u16 (the FVR the device counts
 * with: the calibration, else 1024) */
#define LINK_RSP_INFO 0x82u
#define LINK_INFO_PAYLOAD_BYTES 16u
#define LINK_INFO_FLAG_BATTERY_LOW 0x01u /* the cell was too weak for the last update */
/* What reset the chip last (PCON0), as INFO's reset_cause: hal_reset_t's values. */
#define LINK_RESET_POWER_ON 0u
#define LINK_RESET_BROWNOUT 1u
#define LINK_RESET_WATCHDOG 2u
#define LINK_RESET_STACK_OVERFLOW 3u
#define LINK_RESET_STACK_UNDERFLOW 4u
#define LINK_RESET_MCLR 5u
#define LINK_RESET_INSTRUCTION 6u
#define LINK_RESET_NONE 7u

/* ---- device events (unsolicited; seq = the device's event counter) ----- */

#define LINK_EVT_BUTTON 0xC0u /* no payload */
#define LINK_EVT_SHOWN 0xC1u  /* index u8, display status u8 (display_status_t) */
#define LINK_EVT_ERROR 0xC2u  /* code u8, detail u16 */
/* No payload, seq 0: the panel refreshes and the packet that just ended was not
 * handled (any packet: its CRC is not checked); send it again once SHOWN came. */
#define LINK_EVT_BUSY 0xC3u

/* ---- error codes (LINK_RSP_ERROR, LINK_EVT_ERROR) ---------------------- */

#define LINK_ERR_BAD_PACKET 0x01u      /* event: a packet failed its CRC or framing */
#define LINK_ERR_UNKNOWN_CMD 0x02u     /* detail: the type */
#define LINK_ERR_BAD_LENGTH 0x03u      /* payload length wrong for the command */
#define LINK_ERR_NO_UPLOAD 0x04u       /* CHUNK/COMMIT without BEGIN */
#define LINK_ERR_OFFSET 0x05u          /* detail: the offset the device expects */
#define LINK_ERR_TOO_MANY_FRAMES 0x06u /* detail: max frames */
#define LINK_ERR_TOO_BIG 0x07u         /* detail: free flash words */
#define LINK_ERR_BAD_STREAM 0x08u      /* frame header inconsistent with BEGIN */
#define LINK_ERR_INCOMPLETE 0x09u      /* COMMIT before all bytes/frames arrived */
#define LINK_ERR_FRAME_CRC 0x0Au       /* detail: index of the frame that failed */
#define LINK_ERR_FLASH 0x0Bu           /* a row did not read back as written */
#define LINK_ERR_UART 0x0Cu            /* event: bytes lost; detail: how many */
#define LINK_ERR_FRAME_FORMAT 0x0Du    /* detail: index of the frame that does not decode */
#define LINK_ERR_CALIBRATION 0x0Eu     /* CALIBRATE refused (FVR out of range); detail: reading */

#endif /* EPDLE_PROTOCOL_H */
