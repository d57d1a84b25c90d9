/*
 * main.c - reset entry and configuration words of the real chip. XC8 reads
 * the pragmas; for SDCC, tools/pic/gen_pic_regs.py --config-from turns the same
 * lines into PIC_CONFIG_WORDS (pic_compiler.h); the host register check
 * compiles it without their effect.
 */
#include "app.h"

#include "pic_compiler.h"

/* 32 MHz from HFINTOSC x2 PLL at reset, no external clock, no clock output. */
#pragma config FEXTOSC = OFF, RSTOSC = HFINT32, CLKOUTEN = OFF, CSWEN = ON, FCMEN = OFF
/* MCLR on RA3; watchdog under software control (SWDTEN): the HAL runs it while
 * awake (64 s, cleared by the main loop: a hung loop resets the chip) and as the
 * wake-up bound of the SLEEP through a panel refresh (32 ms), off in the standby
 * SLEEP. Brown-out reset under software control (BORCON.SBOREN, on at reset):
 * armed while awake with the panel off, off in SLEEP (it would draw microamps)
 * and through an update, whose load takes a coin cell into the trip range. BORV
 * = LOW (VBOR 2.30-2.60 V, RST06): with HIGH (2.55-2.85 V) a half-used cell
 * (2.9 V, 30 ohm) browns out with the CPU merely awake. 32 MHz needs VDD >=
 * 2.5 V (DS40001839, D002): the firmware measures VDD against the FVR before
 * and during each update instead (app.c, hardware/power.md). */
#pragma config MCLRE = ON, PWRTE = ON, WDTE = SWDTEN, LPBOREN = OFF, BOREN = SBOREN, BORV = LOW
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
