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
 * as a reset; brown-out reset while running only, so it draws nothing in SLEEP. */
#pragma config MCLRE = ON, PWRTE = ON, WDTE = SWDTEN, LPBOREN = OFF, BOREN = SLEEP, BORV = LOW
#pragma config PPS1WAY = OFF, STVREN = ON, DEBUG = OFF
/* Low-voltage ICSP on RA0/RA1/RA3; the frame store rewrites upper flash at run time. */
#pragma config WRT = OFF, LVP = ON
#pragma config CP = OFF, CPD = OFF

PIC_CONFIG_WORDS

void main(void) {
    app_main();
}
