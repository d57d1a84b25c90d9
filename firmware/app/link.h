/*
 * link.h - the UART protocol, device side (spec: docs/protocol.md).
 */
#ifndef EPDLE_LINK_H
#define EPDLE_LINK_H

#include <stdbool.h>
#include <stdint.h>

void link_init(void);

/*
 * Process every received byte and complete packet (commands may write flash
 * or show frames). Returns true while the device should stay awake: a packet
 * is half received or the host was heard from recently (bounded by a
 * timeout counted in calls/ms inside, never forever).
 */
bool link_service(void);
/* Set by a link_service() call that handled a packet (a command may have kept the CPU
 * from the button for seconds: a COMMIT checks every frame, a SHOW refreshes the panel);
 * the caller clears it. */
extern bool link_handled_packet;

/* Device events sent to the host (best effort, no ack expected). */
void link_event_button(void);
/* The SHOWN event; its status says whether the cell was too weak (DISPLAY_ERR_LOW_BATTERY)
 * or strong enough again (any other), and INFO's battery flag follows it. */
/* What reset the chip (hal_reset_t, read once at boot): INFO says it; a brown-out also
 * sets the battery flag. */
void link_event_shown(uint8_t index, uint8_t display_status);
void link_set_reset_cause(uint8_t cause);

#endif /* EPDLE_LINK_H */
