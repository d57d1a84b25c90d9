/*
 * main.c - reset entry and configuration words of the real chip. XC8 reads
 * the pragmas; for SDCC, tools/gen_pic_regs.py --config-from turns the same
 * lines into PIC_CONFIG_WORDS (pic_compiler.h); the host register check
 * compiles it without their effect.
 */
#include "app.h"

#include "pic_compiler.h"

/* 32 MHz from HFINTOSC x2 PLL at reset, no external clock, no clock output. */
#pragma config FEXTOSC = OFF, RSTOSC = HFINT32, CLKOUTEN = OFF, CSWEN = ON, FCMEN = OFF
/* MCLR on RA3; watchdog under software control (SWDTEN, off at reset): the HAL
 * runs it only as the wake-up bound of the SLEEP through a panel refresh, never
 * as a reset; brown-out reset while running only, so it draws nothing in SLEEP.
 * BORV = HIGH: 32 MHz needs VDD >= 2.5 V (DS40001839, D002), and the high trip
 * point (VBOR 2.55 V at least, RST06) holds the CPU in reset below that; the
 * low one (2.30 V at least) would let it run down to 2.3 V, the 16 MHz floor. */
#pragma config MCLRE = ON, PWRTE = ON, WDTE = SWDTEN, LPBOREN = OFF, BOREN = SLEEP, BORV = HIGH
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
