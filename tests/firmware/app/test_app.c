/*
 * Main loop tests: the real app.c and panel driver on the simulated board's
 * core (its button, clock, sleep, and the controller model decoding the
 * pins), with a display stand-in that drives the panel like display_load()
 * and display_refresh_start()/_end() do, a link stand-in that records events,
 * and a store stand-in that records its init.
 */
#include "app.h"
#include "display.h"
#include "epd.h"
#include "hal.h"
#include "link.h"
#include "sim.h"
#include "sim_board.h"
#include "sim_panel.h"
#include "store.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#define MS 1000000ull
#define MAX_SHOWS 16u
#define FRAME_COUNT 3u

static struct {
    uint32_t show_start_ms[MAX_SHOWS];
    uint32_t show_count;
    uint8_t current;
    bool cut_power_during_show;
} fake_display;

static struct {
    uint32_t service_calls;
    uint32_t stay_awake_calls; /* link_service() returns true this many times */
    uint32_t sleeps_at_last_awake_call;
    uint32_t command_on_call; /* this link_service() call handles a command ... */
    uint16_t command_ms;      /* ... that keeps the CPU busy this long (a COMMIT's frame checks) */
    char events[64];          /* 'b' = button, '0'+index = shown, '!' = show failed */
    uint32_t event_count;
    uint8_t reset_cause;
} fake_link;

/* The modules' *_init() calls in order: 's' store, 'l' link, 'd' display. */
static char init_order[16];
static uint8_t init_calls;

static void record_init(char module) {
    if (init_calls + 1u < sizeof init_order) {
        init_order[init_calls++] = module;
    }
}

static uint32_t now_ms(void) {
    return (uint32_t)(sim_time_ns() / MS);
}

void display_init(void) {
    record_init('d');
    fake_display.current = 0u;
}

uint8_t display_frame_count(void) {
    return FRAME_COUNT;
}

uint8_t display_current(void) {
    return fake_display.current;
}

display_status_t display_wake(void) {
    return epd_power_up_start() == EPD_ERR_LOW_SUPPLY ? DISPLAY_ERR_LOW_BATTERY : DISPLAY_OK;
}

void display_sleep(void) {
    (void)epd_power_down();
}

/* display_show() in its two steps, as app.c calls them. */
display_status_t display_load_next(void) {
    epd_status_t status;

    if (fake_display.show_count < MAX_SHOWS) {
        fake_display.show_start_ms[fake_display.show_count] = now_ms();
    }
    fake_display.show_count++;
    fake_display.current = (uint8_t)((fake_display.current + 1u) % FRAME_COUNT);
    status = epd_power_up();
    if (status == EPD_OK) {
        status = epd_white_window(0, 0, EPD_WIDTH, EPD_HEIGHT);
    }
    if (fake_display.cut_power_during_show) {
        sim_board_power_fail(); /* the supply collapses here, mid-show */
    }
    if (status != EPD_OK) {
        (void)epd_power_down();
        return status == EPD_ERR_LOW_SUPPLY ? DISPLAY_ERR_LOW_BATTERY : DISPLAY_ERR_PANEL;
    }
    return DISPLAY_OK;
}

display_status_t display_refresh_start(display_status_t loaded) {
    if (loaded != DISPLAY_OK) {
        return loaded;
    }
    if (epd_refresh_start() != EPD_OK) {
        (void)epd_power_down();
        return DISPLAY_ERR_PANEL;
    }
    return DISPLAY_OK;
}

display_status_t display_refresh_end(display_status_t started) {
    epd_status_t status;

    if (started != DISPLAY_OK) {
        return started;
    }
    status = epd_refresh_wait();
    (void)epd_power_down();
    return status == EPD_OK ? DISPLAY_OK : DISPLAY_ERR_PANEL;
}

void link_init(void) {
    record_init('l');
}

void store_init(void) {
    record_init('s');
}

bool link_handled_packet;

bool link_service(void) {
    fake_link.service_calls++;
    if (fake_link.service_calls == fake_link.command_on_call) {
        hal_delay_ms(fake_link.command_ms);
        link_handled_packet = true;
        return true;
    }
    if (fake_link.stay_awake_calls > 0u) {
        fake_link.stay_awake_calls--;
        hal_delay_us(100u); /* an idle poll, as the link's */
        fake_link.sleeps_at_last_awake_call = sim_board_sleep_count();
        return true;
    }
    return false;
}

static void record_event(char event) {
    if (fake_link.event_count + 1u < sizeof fake_link.events) {
        fake_link.events[fake_link.event_count++] = event;
    }
}

void link_event_button(void) {
    record_event('b');
}

void link_event_shown(uint8_t index, uint8_t display_status) {
    /* A failed show is reported as '!' after its index. */
    record_event((char)('0' + index));
    if (display_status != DISPLAY_OK) {
        record_event('!');
    }
}

void link_set_reset_cause(uint8_t cause) {
    fake_link.reset_cause = cause;
}

static int setup(void **state) {
    (void)state;
    memset(&fake_display, 0, sizeof fake_display);
    memset(&fake_link, 0, sizeof fake_link);
    memset(init_order, 0, sizeof init_order);
    init_calls = 0u;
    assert_int_equal(sim_boot(NULL), 0);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    sim_shutdown();
    return 0;
}

static void button_at(uint32_t t_ms, uint8_t level) {
    assert_int_equal(sim_button_schedule(t_ms * MS, level), 0);
}

/* One press: down at t_ms, up at t_ms + hold_ms, each edge followed by `bounces`
 * bounces of 2 ms (1 ms the other way, 1 ms back). */
static void button_press(uint32_t t_ms, uint32_t hold_ms, uint8_t bounces) {
    uint8_t i;

    button_at(t_ms, 0u);
    for (i = 0u; i < bounces; i++) {
        button_at(t_ms + 2u * i + 1u, 1u);
        button_at(t_ms + 2u * i + 2u, 0u);
    }
    button_at(t_ms + hold_ms, 1u);
    for (i = 0u; i < bounces; i++) {
        button_at(t_ms + hold_ms + 2u * i + 1u, 0u);
        button_at(t_ms + hold_ms + 2u * i + 2u, 1u);
    }
}

/* Runs the firmware until `until_ms` (past every scripted event and the updates). */
static void run_app_until(uint32_t until_ms) {
    while (sim_run_until((uint64_t)until_ms * MS) != SIM_STOP_DEADLINE) {
    }
}

static void run_app(void) {
    run_app_until(60000u);
}

static long find_command(uint8_t command, unsigned nth) {
    sim_epd_transaction_t t;
    size_t i;

    for (i = 0; sim_epd_transaction(i, &t) == 0; i++) {
        if (t.cmd == command && nth-- == 0u) {
            return (long)i;
        }
    }
    return -1;
}

static uint64_t command_ns(long index) {
    sim_epd_transaction_t t;

    assert_true(index >= 0);
    assert_int_equal(sim_epd_transaction((size_t)index, &t), 0);
    return t.t_ns;
}

/* Asleep at the end, and never slept with the panel powered or fed a pin to it unpowered
 * (the board's own checks), every panel pin low. */
static void assert_slept_unpowered(void) {
    static const sim_net_t nets[] = {SIM_NET_EPD_SCL, SIM_NET_EPD_SDA, SIM_NET_EPD_CS,
                                     SIM_NET_EPD_DC,  SIM_NET_EPD_RST, SIM_NET_EPD_VCC};
    size_t i;

    assert_true(sim_asleep());
    for (i = 0; i < sim_violation_count(); i++) {
        print_error("violation: %s\n", sim_violation_text(i));
    }
    assert_int_equal(sim_violation_count(), 0);
    for (i = 0; i < sizeof nets / sizeof nets[0]; i++) {
        assert_int_equal(sim_net_level(nets[i]), 0);
    }
}

/* When DISPLAY_REFRESH went out, in ms. */
static uint32_t refresh_ms(void) {
    return (uint32_t)(command_ns(find_command(0x12, 0)) / MS);
}

static void test_boot_sleeps_without_showing(void **state) {
    (void)state;
    run_app_until(1000u);
    /* app_main() starts every module itself, the store (which the link and display read) first. */
    assert_string_equal(init_order, "sld");
    assert_int_equal(fake_display.show_count, 0);
    assert_int_equal(sim_board_sleep_count(), 1);
    assert_int_equal(sim_board_sleeps_with_irq_enabled(), 0);
    assert_slept_unpowered();
}

static void test_press_shows_next_frame_then_sleeps(void **state) {
    (void)state;
    button_press(100u, 150u, 0u);
    run_app();
    assert_int_equal(fake_display.show_count, 1);
    assert_string_equal(fake_link.events, "b1");
    assert_int_equal(sim_board_sleep_count(), 2);
    assert_slept_unpowered();
    /* The press is debounced (20 ms) with the panel off; then the panel's power-up (the
     * cell checked after 40 ms awake, supply, the UC8151D's three reset pulses and the 10 ms
     * after them: POWER_ON at about 181 ms), the cell checked again 30 ms into POWER_ON's 79 ms,
     * under its load (drivers/supply.h), and the load starts, not after the release; the refresh
     * starts when the load ends (on this stand-in display: the rest of POWER_ON asleep,
     * then a white page at the chip's SPI cost, 80 ms at 16 MHz), while the release (at
     * 250 ms) is latched, and waited out once the panel refreshes. The product's figure, with a
     * real frame decoded: tests/sim/test_board.py. */
    assert_in_range(fake_display.show_start_ms[0], 211u, 212u);
    assert_in_range(command_ns(find_command(0x04, 0)), 180u * MS, 182u * MS);
    assert_in_range(refresh_ms(), 340u, 342u);
}

static void test_long_hold_released_during_refresh_counts_once(void **state) {
    (void)state;
    /* Still down when the show starts; its bouncing release lands in the refresh. */
    button_press(100u, 400u, 3u);
    run_app();
    assert_int_equal(fake_display.show_count, 1);
    assert_string_equal(fake_link.events, "b1");
    /* A button held on (released at 500 ms) does not hold the refresh back: it starts
     * when the load ends, and the (bounded) wait for the release runs during it. */
    assert_in_range(fake_display.show_start_ms[0], 211u, 212u);
    assert_in_range(refresh_ms(), 340u, 342u);
}

static void test_new_press_after_long_hold_counts_if_still_down(void **state) {
    (void)state;
    button_press(100u, 400u, 3u);
    /* Pressed again during the refresh and still down when it ends. */
    button_press(5000u, 15000u, 3u);
    run_app();
    assert_int_equal(fake_display.show_count, 2);
    assert_string_equal(fake_link.events, "b1b2");
}

static void test_bouncing_press_counts_once(void **state) {
    (void)state;
    button_press(100u, 200u, 5u);
    run_app();
    assert_int_equal(fake_display.show_count, 1);
    assert_string_equal(fake_link.events, "b1");
}

/* A tactile switch may bounce for up to 20 ms, on the press and on the release. */
static void test_bounces_of_up_to_20_ms_are_one_press(void **state) {
    uint8_t bounces;

    (void)state;
    for (bounces = 1u; bounces <= 10u; bounces++) { /* 2 ms a bounce: 2 .. 20 ms */
        teardown(NULL);
        setup(NULL);
        button_press(100u, 150u, bounces);
        run_app();
        assert_int_equal(fake_display.show_count, 1);
        assert_string_equal(fake_link.events, "b1");
    }
}

/* Released, bouncing, while the CPU sleeps through POWER_ON's BUSY: every bounce wakes it,
 * and the panel still comes up. */
static void test_release_bouncing_through_power_on_shows(void **state) {
    (void)state;
    button_press(100u, 80u, 10u);
    run_app();
    assert_int_equal(fake_display.show_count, 1);
    assert_string_equal(fake_link.events, "b1");
    assert_slept_unpowered();
}

static void test_glitch_shorter_than_debounce_is_ignored(void **state) {
    (void)state;
    button_at(100u, 0u);
    button_at(103u, 1u);
    run_app();
    assert_int_equal(fake_display.show_count, 0);
    assert_int_equal(sim_board_sleep_count(), 2);
    /* The panel is powered only for a confirmed press: it never heard a command. */
    assert_int_equal(find_command(0x04, 0), -1);
    assert_int_equal(find_command(0x12, 0), -1);
    assert_slept_unpowered();
}

static void test_press_during_refresh_is_shown_once_afterwards(void **state) {
    (void)state;
    button_press(100u, 150u, 3u);
    /* A quick press well inside the 14.9 s refresh of the first frame. */
    button_press(5000u, 80u, 3u);
    run_app();
    assert_int_equal(fake_display.show_count, 2);
    assert_string_equal(fake_link.events, "b1b2");
    assert_true(fake_display.show_start_ms[1] > 100u + 14900u);
    assert_slept_unpowered();
}

static void test_sleeps_unpowered_after_every_update(void **state) {
    (void)state;
    button_press(100u, 120u, 2u);
    button_press(20000u, 120u, 2u);
    button_press(40000u, 120u, 2u);
    run_app();
    assert_int_equal(fake_display.show_count, 3);
    assert_string_equal(fake_link.events, "b1b2b0");
    assert_int_equal(sim_board_sleep_count(), 4);
    assert_slept_unpowered();
}

static void test_stuck_panel_is_reported_and_the_chip_still_sleeps_unpowered(void **state) {
    (void)state;
    sim_panel_hold_busy_low(true);
    button_press(100u, 120u, 2u);
    button_press(1000u, 120u, 2u);
    run_app();
    /* Each press gets its (failed) show and a report; nothing hangs. */
    assert_int_equal(fake_display.show_count, 2);
    assert_string_equal(fake_link.events, "b1!b2!");
    assert_int_equal(sim_board_sleep_count(), 3);
    assert_slept_unpowered();
}

static void test_link_keeps_the_chip_awake_while_busy(void **state) {
    (void)state;
    fake_link.stay_awake_calls = 5u;
    run_app_until(1000u);
    assert_int_equal(fake_link.service_calls, 6);
    assert_int_equal(fake_link.sleeps_at_last_awake_call, 0);
    assert_int_equal(sim_board_sleep_count(), 1);
}

/* The loop's pass that handles a 2 s command (a COMMIT of 8 frames) does not look at the button:
 * a quick press made and released meanwhile is shown once the command is over. */
static void test_press_released_during_a_link_command_is_shown(void **state) {
    (void)state;
    fake_link.command_on_call = 1u; /* the first pass: a command from t = 0 to 2000 ms */
    fake_link.command_ms = 2000u;
    button_press(500u, 200u, 3u);
    run_app();
    assert_int_equal(fake_display.show_count, 1);
    assert_string_equal(fake_link.events, "b1");
    assert_true(fake_display.show_start_ms[0] > 2000u);
    assert_slept_unpowered();
}

/* A glitch while the loop only polls the link (no command) is still no press. */
static void test_glitch_while_the_link_idles_is_ignored(void **state) {
    (void)state;
    fake_link.stay_awake_calls = 20000u; /* 2 s of 100 us polls on the real link */
    button_at(100u, 0u);
    button_at(103u, 1u);
    run_app();
    assert_true(fake_link.service_calls > 1u);
    assert_int_equal(fake_display.show_count, 0);
    assert_string_equal(fake_link.events, "");
}

/* Held from before a command and released during it: that release's bounce is no press. */
static void test_release_bounce_during_a_link_command_is_ignored(void **state) {
    (void)state;
    fake_link.command_on_call = 2u; /* the pass after the show: from about 17.1 s to 19.1 s */
    fake_link.command_ms = 2000u;
    button_press(100u, 18000u, 3u);
    run_app();
    assert_int_equal(fake_display.show_count, 1);
    assert_string_equal(fake_link.events, "b1");
}

/* Held through a show and released cleanly (no falling edge); a quick press during the
 * command after that show is a new press, shown. */
static void test_press_during_a_command_after_a_held_show_is_shown(void **state) {
    (void)state;
    fake_link.command_on_call = 2u; /* the pass after the show: from about 17.1 s to 19.1 s */
    fake_link.command_ms = 2000u;
    button_press(100u, 3000u, 0u);
    button_press(17600u, 200u, 3u);
    run_app();
    assert_int_equal(fake_display.show_count, 2);
    assert_string_equal(fake_link.events, "b1b2");
}

/* The mean current drawn from the supply from from_ms to to_ms (the power model's
 * charge: standby and active together), in microamps. */
static double mean_current_ua(uint32_t from_ms, uint32_t to_ms) {
    sim_power_stats_t before;
    sim_power_stats_t after;

    run_app_until(from_ms);
    sim_power_stats(&before);
    run_app_until(to_ms);
    sim_power_stats(&after);
    return (after.standby_charge_c + after.active_charge_c - before.standby_charge_c -
            before.active_charge_c) /
           ((double)(to_ms - from_ms) * 1e-3) * 1e6;
}

/* An unpowered adapter left on J1 pulls RX low: the firmware stops feeding it (RA1's
 * pull-up off, RA1 and RC1 low) and the board's standby stays within 5 uA, against the
 * 0.1-0.45 mA the pull-up and RC1's high drive into it otherwise. */
static void test_unpowered_adapter_on_j1_is_not_fed(void **state) {
    double idle_ua;
    double adapter_ua;

    (void)state;
    idle_ua = mean_current_ua(1000u, 11000u);
    sim_uart_set_adapter(SIM_ADAPTER_UNPOWERED);
    adapter_ua = mean_current_ua(12000u, 72000u);
    print_message("standby %.2f uA, with an unpowered adapter on J1 %.2f uA\n", idle_ua,
                  adapter_ua);
    assert_true(idle_ua < 1.0);
    assert_true(adapter_ua <= 5.0);
    assert_int_equal(sim_net_level(SIM_NET_UART_TX), 0);
    assert_slept_unpowered();
}

/* Powered again (or unplugged), RX rises: the lines are on again within a long sleep
 * period, and standby falls back to its figure. */
static void test_lines_come_back_when_rx_rises(void **state) {
    static const sim_adapter_t after[] = {SIM_ADAPTER_POWERED, SIM_ADAPTER_NONE};
    size_t i;

    (void)state;
    for (i = 0; i < sizeof after / sizeof after[0]; i++) {
        sim_uart_set_adapter(SIM_ADAPTER_UNPOWERED);
        run_app_until(20000u * (uint32_t)i + 5000u);
        assert_int_equal(sim_net_level(SIM_NET_UART_TX), 0);
        sim_uart_set_adapter(after[i]);
        run_app_until(20000u * (uint32_t)i + 5000u + HAL_SLEEP_LONG_MS + 100u);
        assert_int_equal(sim_net_level(SIM_NET_UART_TX), 1);
        assert_int_equal(sim_net_level(SIM_NET_UART_RX), 1);
        assert_true(mean_current_ua(20000u * (uint32_t)i + 8000u, 20000u * (uint32_t)i + 18000u) <
                    1.0);
    }
}

/* The button still works with the lines off, and the lines go off again after the show. */
static void test_press_with_an_unpowered_adapter_is_shown(void **state) {
    (void)state;
    sim_uart_set_adapter(SIM_ADAPTER_UNPOWERED);
    button_press(3000u, 120u, 2u);
    run_app_until(40000u);
    assert_int_equal(fake_display.show_count, 1);
    assert_string_equal(fake_link.events, "b1");
    assert_int_equal(sim_net_level(SIM_NET_UART_TX), 0);
    assert_slept_unpowered();
}

static void test_reboot_mid_show_starts_clean(void **state) {
    (void)state;
    button_press(100u, 150u, 0u);
    fake_display.cut_power_during_show = true;
    run_app();
    assert_int_equal(fake_display.show_count, 1);

    assert_false(sim_powered());
    /* The supply back: the board reboots, app_main() afresh. */
    fake_display.cut_power_during_show = false;
    sim_power_on();
    run_app_until(70000u);
    assert_string_equal(init_order, "sldsld");
    assert_int_equal(fake_display.show_count, 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_boot_sleeps_without_showing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_press_shows_next_frame_then_sleeps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bouncing_press_counts_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_long_hold_released_during_refresh_counts_once, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_new_press_after_long_hold_counts_if_still_down, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_bounces_of_up_to_20_ms_are_one_press, setup, teardown),
        cmocka_unit_test_setup_teardown(test_release_bouncing_through_power_on_shows, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_glitch_shorter_than_debounce_is_ignored, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_press_during_refresh_is_shown_once_afterwards, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_sleeps_unpowered_after_every_update, setup, teardown),
        cmocka_unit_test_setup_teardown(
            test_stuck_panel_is_reported_and_the_chip_still_sleeps_unpowered, setup, teardown),
        cmocka_unit_test_setup_teardown(test_link_keeps_the_chip_awake_while_busy, setup, teardown),
        cmocka_unit_test_setup_teardown(test_press_released_during_a_link_command_is_shown, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_glitch_while_the_link_idles_is_ignored, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_release_bounce_during_a_link_command_is_ignored, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_press_during_a_command_after_a_held_show_is_shown,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_reboot_mid_show_starts_clean, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unpowered_adapter_on_j1_is_not_fed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lines_come_back_when_rx_rises, setup, teardown),
        cmocka_unit_test_setup_teardown(test_press_with_an_unpowered_adapter_is_shown, setup,
                                        teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
