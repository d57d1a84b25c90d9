/*
 * link_board_main.c - the board's firmware entry for the link tests, which
 * call the firmware's code themselves: the coroutine never runs it. (The
 * fuzzers link the real app.c instead.)
 */
#include "app.h"
#include "hal.h"

void app_main(void) {
    for (;;) {
        hal_sleep();
    }
}
