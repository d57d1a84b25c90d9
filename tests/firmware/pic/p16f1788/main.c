/*
 * main.c - reset entry and configuration words of the PIC16F1788 build that
 * gpsim runs (make pic): the portable firmware on the same enhanced core as
 * the PIC16F18326, which gpsim 0.31 does not simulate. Not a board.
 */
#include "app.h"
#include "pic_compiler.h"

/* INTOSC (its clock is not what is measured here: gpsim_test.py counts cycles and converts
 * them at the PIC16F18326's 16 MHz), watchdog off, stack overflow resets. */
#pragma config FOSC = INTOSC, WDTE = OFF, PWRTE = ON, MCLRE = ON, CP = OFF, CPD = OFF
#pragma config BOREN = OFF, CLKOUTEN = OFF, IESO = OFF, FCMEN = OFF
#pragma config WRT = OFF, VCAPEN = OFF, PLLEN = ON, STVREN = ON, BORV = LO, LPBOR = OFF
#pragma config DEBUG = OFF, LVP = ON

PIC_CONFIG_WORDS

void main(void) {
    app_main();
}
