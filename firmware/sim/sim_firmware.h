/*
 * sim_firmware.h - the firmware as the simulated board enters it: the
 * board's only calls into the firmware, the chip's two entry points. The sim
 * port provides them (firmware/ports/sim/): main.c the reset entry, hal_sim.c
 * the interrupt routine, as on the chip main.c and hal_pic.c do.
 */
#ifndef EPDLE_SIM_FIRMWARE_H
#define EPDLE_SIM_FIRMWARE_H

/* Reset: runs the firmware from the start (app_main()); it must never return. */
void sim_firmware_reset(void);
/* The interrupt vector: run whenever an interrupt is pending and GIE is set. */
void sim_firmware_isr(void);

#endif /* EPDLE_SIM_FIRMWARE_H */
