/*
 * app.c - the main loop: sleep until the button or the UART wakes the chip,
 * show the next frame on a debounced press, serve the link, sleep again.
 */
#include "app.h"

#include "display.h"
#include "hal.h"
#include "link.h"
#include "store.h"
#include "supply.h"

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
 * is bounded, for a button held down. The CPU sleeps through it a watchdog
 * period at a time (an edge ends one sooner): awake, its 1.5 mA on top of the
 * panel's 8 mA would take a half-used cell's VDD about 45 mV nearer the brown-out
 * trip (hardware/power.md, "A design that survives it").
 */
#define RELEASE_WAIT_PERIODS 16u

HAL_STATIC_ASSERT(release_wait_fits_u8, RELEASE_WAIT_PERIODS <= 0xFFu); /* an 8-bit loop */
HAL_STATIC_ASSERT(period_outlasts_bounce, HAL_SLEEP_PERIOD_MS > DEBOUNCE_MS);
HAL_STATIC_ASSERT(debounce_fits_u16, DEBOUNCE_MS <= 0xFFFFu);

/*
 * The last loop pass kept the chip from the button (it showed a frame, or the link ran a
 * command: a COMMIT of 8 frames takes about 2 s) and the button was up as that work began
 * (for a show: once its refresh had started): an edge latched meanwhile is a press made
 * while the chip was busy, even if the button is up again by now. With the button held
 * into that work the edge may be its release bounce, and only a button that is down again
 * proves a new press.
 */
static bool busy_edge_is_press;
/* An edge taken just before sleeping, so it is handled instead of slept on. */
static bool edge_before_sleep;

/*
 * A fresh edge is a press if the button is still down once the bounce is over
 * (so a glitch or release bounce is not a press), or if it was latched while
 * the chip was busy (busy_edge_is_press).
 */
static bool press_confirmed(void) {
    hal_delay_ms(DEBOUNCE_MS);
    (void)hal_button_edge_take();
    return busy_edge_is_press || hal_pin_read(HAL_PIN_BUTTON) == 0u;
}

/*
 * Waits until the button is up and a whole watchdog period (longer than the bounce)
 * passed without an edge; busy_edge_is_press once it is, not if it is still held or the
 * host talks (its bytes are not slept on: the refresh's wait stays awake for them).
 */
static void wait_for_release(void) {
    uint8_t periods;
    uint8_t up;
    hal_wake_t wake;

    busy_edge_is_press = false;
    periods = RELEASE_WAIT_PERIODS;
    do {
        hal_irq_disable();
        up = hal_pin_read(HAL_PIN_BUTTON);
        wake = hal_sleep_period();
        hal_irq_enable(); /* the interrupt routine latches the edge that woke the CPU */
        if (wake == HAL_WAKE_WATCHDOG) {
            if (up != 0u) {
                (void)hal_button_edge_take();
                busy_edge_is_press = true;
                return;
            }
        } else if (wake != HAL_WAKE_OTHER) {
            return; /* HAL_WAKE_UART */
        }
    } while (--periods != 0u);
}

/*
 * A confirmed press: the panel powered (display_wake(): the cell checked before and under
 * the panel's load, drivers/supply.h) while the frame is opened, then the frame shown; a
 * weak cell is refused there and reported (the SHOWN event's status). True if a frame was
 * shown.
 * The frame goes to the panel while the button is released, and the refresh starts as
 * soon as it is there: the release and its bounce are waited out while the panel
 * refreshes, so their edges do not count as a press, and they add nothing to the press
 * to refresh time.
 */
static bool update(void) {
    display_status_t status;

    link_event_button();
    status = display_wake();
    if (status == DISPLAY_ERR_LOW_BATTERY) {
        /* Refused: the frame stays the next one. */
        link_event_shown(display_current(), (uint8_t)status);
        return false;
    }
    status = display_refresh_start(display_load_next());
    wait_for_release();
    status = display_refresh_end(status);
    link_event_shown(display_current(), (uint8_t)status);
    return true;
}

/*
 * An unpowered USB-serial adapter left on J1 holds RX low through its protection diodes
 * and drains the cell through RA1's pull-up and RC1's idle high (0.1-0.45 mA: weeks of a
 * cell). A line idle and low longer than any character (a 0x00 is low for 9 bits, 78 us)
 * is such an adapter: the standby SLEEP is then hal_sleep_lines_off() (nothing flows, no
 * pin floats; RX looked at about once a second), until RX is high again (a powered
 * adapter, or none) or the button is pressed. A host that starts talking then is heard
 * within about a second (its first bytes may be lost: the host retries).
 */
#define RX_HELD_LOW_US 1000u

HAL_STATIC_ASSERT(rx_held_low_outlasts_a_character, RX_HELD_LOW_US > 100u);
HAL_STATIC_ASSERT(rx_held_low_fits_u16, RX_HELD_LOW_US <= 0xFFFFu);

/*
 * Interrupts stay off from the last check until SLEEP, so an edge or byte that
 * arrives in between leaves its flag set and SLEEP returns at once. An edge or
 * a byte the interrupt already took (during the link's last poll) is handled
 * instead of slept on: a byte slept on would make the host's next start bit
 * the wake-up character, and lose it. RX is looked at twice, RX_HELD_LOW_US apart, with
 * interrupts on: a byte that starts meanwhile is received, and then pending.
 */
static void sleep_until_event(void) {
    uint8_t rx = hal_uart_rx_level();

    if (rx == 0u) {
        hal_delay_us(RX_HELD_LOW_US);
        rx = hal_uart_rx_level();
    }
    hal_irq_disable();
    edge_before_sleep = hal_button_edge_take();
    if (!edge_before_sleep && !hal_uart_pending()) {
        if (rx == 0u) {
            hal_sleep_lines_off();
        } else {
            hal_sleep();
        }
    }
    hal_irq_enable();
}

void app_main(void) {
    bool edge;
    uint8_t up;

    busy_edge_is_press = false;
    edge_before_sleep = false;
    hal_init();
    supply_init();
    store_init();
    link_init();
    display_init();
    link_set_reset_cause((uint8_t)hal_reset_cause()); /* INFO says it; a brown-out: battery low */
    hal_irq_enable();

    for (;;) {
        hal_watchdog_clear();
        edge = edge_before_sleep || hal_button_edge_take();
        edge_before_sleep = false;
        if (edge && press_confirmed() && update()) {
            continue; /* busy_edge_is_press as the refresh's wait_for_release() left it */
        }
        up = hal_pin_read(HAL_PIN_BUTTON);
        link_handled_packet = false;
        if (!link_service()) {
            link_handled_packet = false; /* a SLEEP command: an edge from now on finds it idle */
            sleep_until_event();
        }
        busy_edge_is_press = link_handled_packet && up != 0u;
    }
}
