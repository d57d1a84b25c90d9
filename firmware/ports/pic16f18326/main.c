/*
 * main.c - reset entry and configuration words of the real chip. XC8 reads
 * the pragmas; for SDCC, tools/pic/gen_pic_regs.py --config-from turns the same
 * lines into PIC_CONFIG_WORDS (pic_compiler.h); the host register check
 * compiles it without their effect.
 */
#include "app.h"

#include "pic_compiler.h"

/* 1 MHz HFINTOSC at reset (hal_init() raises it to 16 MHz: hal.h, HAL_FOSC_HZ), no
 * external clock, no clock output. */
#pragma config FEXTOSC = OFF, RSTOSC = HFINT1, CLKOUTEN = OFF, CSWEN = ON, FCMEN = OFF
/* MCLR on RA3; watchdog under software control (SWDTEN): the HAL runs it while
 * awake (64 s, cleared by the main loop: a hung loop resets the chip) and as the
 * wake-up bound of the SLEEP through a panel refresh (32 ms), off in the standby
 * SLEEP. Brown-out reset on whenever the CPU runs, off in SLEEP (BOREN = SLEEP: it
 * would draw microamps there; the hardware holds every wake-up until it is ready and
 * VDD above its trip point), BORV = LOW (VBOR 2.30-2.60 V, RST06): the CPU at 16 MHz
 * needs 2.3 V (DS40001839, D002), so no moment of any path runs it below that. With
 * BORV = HIGH (2.55-2.85 V) a half-used cell (2.9 V, 30 ohm) would brown out under the
 * panel's load. The update's own measurements of VDD (drivers/supply.c) keep the panel
 * from being powered by a cell that would trip it. */
#pragma config MCLRE = ON, PWRTE = ON, WDTE = SWDTEN, LPBOREN = OFF, BOREN = SLEEP, BORV = LOW
#pragma config PPS1WAY = OFF, STVREN = ON, DEBUG = OFF
/* Low-voltage ICSP on RA0/RA1/RA3. Self-write cannot touch 0x0000-0x1FFF (WRT = HALF):
 * most of the firmware; the HAL refuses every row below the frame store (0x2800) too,
 * and the store, which the firmware rewrites at run time, lies in the writable half. */
#pragma config WRT = HALF, LVP = ON
#pragma config CP = OFF, CPD = OFF

PIC_CONFIG_WORDS

void main(void) {
    app_main();
}
