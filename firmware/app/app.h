/*
 * app.h - the firmware's main loop: sleep, wake on button or UART, show the
 * next frame, sleep again with the panel unpowered.
 */
#ifndef EPDLE_APP_H
#define EPDLE_APP_H

/*
 * Entry point after reset (called by each port's main.c: ports/pic16f18326/,
 * ports/sim/). Never returns. Every module's state is set
 * here by its *_init(), so the simulator can reboot by calling it again.
 */
void app_main(void);

#endif /* EPDLE_APP_H */
