/*
 * main.c - the reset entry of the simulated board's firmware build (the
 * chip's is ports/pic16f18326/main.c). The board calls it at power-on.
 */
#include "app.h"
#include "sim_firmware.h"

void sim_firmware_reset(void) {
    app_main();
}
