/*
 * app.c - the main loop: sleep until the button or the UART wakes the chip,
 * show the next frame on a debounced press, serve the link, sleep again.
 */
#include "app.h"

#include "display.h"
#include "hal.h"
#include "link.h"
#include "store.h"

#include <stdbool.h>

/*
 * Contact bounce of a tactile switch dies out within about 10 ms; 20 ms after
 * an edge the level is settled, and every edge of that burst is one press.
 */
#define DEBOUNCE_MS 20u
/*
 * The release bounces too, and the interrupt latches those falling edges like
 * a press. The release and its bounce are waited out as the (15 s) refresh
 * starts, so those edges are not taken for a press made during it; the wait
 * is bounded, for a button held down.
 */
#define RELEASE_WAIT_MS 150u

HAL_STATIC_ASSERT(release_wait_fits_u8, RELEASE_WAIT_MS <= 0xFFu); /* an 8-bit loop counts it */
HAL_STATIC_ASSERT(debounce_fits_u16, DEBOUNCE_MS <= 0xFFFFu);

/* The last loop pass showed a frame: an edge seen now was latched during it. */
static bool just_shown;
/* The button was still down when that frame's refresh started (its release came later). */
static bool held_through_show;
/* An edge taken just before sleeping, so it is handled instead of slept on. */
static bool edge_before_sleep;

/*
 * The panel is already powering up meanwhile (display_wake()): a glitch costs
 * one power-up and power-down, a press 20 ms less to its refresh.
 *
 * A fresh edge is a press if the button is still down once the bounce is over
 * (so a glitch or release bounce is not a press). An edge latched during a
 * show is a press made while the chip was busy, unless the button was held
 * into that show: then the edge may be its release bounce, and only a button
 * that is down again now proves a new press.
 */
static bool press_confirmed(bool latched_during_show) {
    bool down;

    hal_delay_ms(DEBOUNCE_MS);
    (void)hal_button_edge_take();
    down = hal_pin_read(HAL_PIN_BUTTON) == 0u;
    if (latched_during_show) {
        return down || !held_through_show;
    }
    return down;
}

/* True once the button is up and its release bounce is over; false if still held. */
static bool wait_for_release(void) {
    uint8_t waited_ms;

    for (waited_ms = 0u; waited_ms < RELEASE_WAIT_MS; waited_ms++) {
        if (hal_pin_read(HAL_PIN_BUTTON) != 0u) {
            hal_delay_ms(DEBOUNCE_MS); /* the release bounces as long as the press */
            (void)hal_button_edge_take();
            return true;
        }
        hal_delay_ms(1u);
    }
    return false;
}

/*
 * The frame goes to the panel while the button is released, and the refresh
 * starts as soon as it is there: the release and its bounce are waited out
 * while the panel refreshes, so their edges do not count as a press, and they
 * add nothing to the press to refresh time.
 */
static void show_next_frame(void) {
    display_status_t status;

    link_event_button();
    status = display_refresh_start(display_load_next());
    held_through_show = !wait_for_release();
    status = display_refresh_end(status);
    link_event_shown(display_current(), (uint8_t)status);
}

/*
 * Interrupts stay off from the last check until SLEEP, so an edge or byte that
 * arrives in between leaves its flag set and SLEEP returns at once. An edge or
 * a byte the interrupt already took (during the link's last poll) is handled
 * instead of slept on: a byte slept on would make the host's next start bit
 * the wake-up character, and lose it.
 */
static void sleep_until_event(void) {
    hal_irq_disable();
    edge_before_sleep = hal_button_edge_take();
    if (!edge_before_sleep && !hal_uart_pending()) {
        hal_sleep();
    }
    hal_irq_enable();
}

void app_main(void) {
    bool edge;
    bool latched_during_show;

    just_shown = false;
    held_through_show = false;
    edge_before_sleep = false;
    hal_init();
    store_init();
    link_init();
    display_init();
    hal_irq_enable();

    for (;;) {
        edge = edge_before_sleep || hal_button_edge_take();
        edge_before_sleep = false;
        latched_during_show = just_shown;
        just_shown = false;
        if (edge) {
            /* The panel's power-up (37 ms of POWER_ON) runs through the debounce. */
            display_wake();
            if (press_confirmed(latched_during_show)) {
                show_next_frame();
                just_shown = true;
                continue;
            }
            display_sleep();
        }
        if (!link_service()) {
            sleep_until_event();
        }
    }
}
