/*
 * app.c - the main loop: sleep until the button or the UART wakes the chip,
 * show the next frame on a debounced press, serve the link, sleep again.
 */
#include "app.h"

#include "display.h"
#include "hal.h"
#include "link.h"

#include <stdbool.h>

/*
 * Contact bounce of a tactile switch dies out within about 10 ms; 25 ms after
 * the first edge the level is settled, and every edge of that burst is one
 * press.
 */
#define DEBOUNCE_MS 25u

/* The last loop pass showed a frame: an edge seen now was latched during it. */
static bool just_shown;
/* An edge taken just before sleeping, so it is handled instead of slept on. */
static bool edge_before_sleep;

/*
 * A fresh edge is a press if the button is still down once the bounce is over
 * (so release bounce is not a press). An edge latched during a show is a press
 * that happened while the chip was busy; it is over by now and counts once.
 */
static bool press_confirmed(bool latched_during_show) {
    hal_delay_ms(DEBOUNCE_MS);
    (void)hal_button_edge_take();
    return latched_during_show || hal_pin_read(HAL_PIN_BUTTON) == 0u;
}

static void show_next_frame(void) {
    display_status_t status;

    link_event_button();
    status = display_show_next();
    link_event_shown(display_current(), (uint8_t)status);
}

/*
 * Interrupts stay off from the last check until SLEEP, so an edge or byte that
 * arrives in between leaves its flag set and SLEEP returns at once.
 */
static void sleep_until_event(void) {
    hal_irq_disable();
    edge_before_sleep = hal_button_edge_take();
    if (!edge_before_sleep) {
        hal_sleep();
    }
    hal_irq_enable();
}

void app_main(void) {
    bool edge;
    bool latched_during_show;

    just_shown = false;
    edge_before_sleep = false;
    hal_init();
    link_init();
    hal_irq_enable();

    for (;;) {
        edge = edge_before_sleep || hal_button_edge_take();
        edge_before_sleep = false;
        latched_during_show = just_shown;
        just_shown = false;
        if (edge && press_confirmed(latched_during_show)) {
            show_next_frame();
            just_shown = true;
            continue;
        }
        if (!link_service()) {
            sleep_until_event();
        }
    }
}
