/*
 * pic_host.h - the register file and XC8 builtin hooks behind the generated
 * host <xc.h>: registers are plain memory, NVMCON2 writes are logged, and every
 * NOP()/SLEEP() takes a snapshot so tests can check what the chip would see.
 */
#ifndef EPDLE_PIC_HOST_H
#define EPDLE_PIC_HOST_H

#include <stdint.h>
#include <xc.h>

#define PIC_HOST_MAX_EVENTS 256u

typedef struct {
    uint8_t nvmcon2_writes[PIC_HOST_MAX_EVENTS];
    uint32_t nvmcon2_write_count;

    /* At each NOP(): the last two NVMCON2 values, NVMCON1, GIE and the NVM address/data. */
    struct {
        uint32_t nvmcon2_count;
        uint8_t nvmcon1;
        uint8_t gie;
        uint16_t address;
        uint16_t data;
    } nops[PIC_HOST_MAX_EVENTS];
    uint32_t nop_count;

    uint32_t sleep_count;
    uint8_t baud1con_at_sleep;
    uint8_t gie_at_sleep;
    uint8_t iocap_at_sleep;
    uint8_t iocan_at_sleep;
    uint8_t wdtcon_at_sleep;
    uint8_t borcon_at_sleep;
    /* At the last SLEEP: whether a start bit on RX (RA1) wakes the CPU. DS40001839,
     * "Peripheral Usage in Sleep": the low-power sleep (VREGPM = 1) is meant for BOR,
     * WDT and interrupt-on-change wake-ups; the EUSART's auto-wake (WUE) only at
     * normal power (VREGPM = 0). */
    uint8_t rx_wakes_at_sleep;
    /* BAUD1CON is traced: its read-only RCIDL reads 0 while a byte is being shifted
     * in (rx_receiving), and wue_armed_while_receiving is set once BAUD1CON is seen
     * with WUE armed then: the datasheet's auto-wake asks for an idle receiver. */
    uint8_t rx_receiving;
    uint8_t wue_armed_while_receiving;
    /* A start bit arrives (rx_receiving set) at this many us of delay (0 = never). */
    uint64_t rx_start_at_us;
    /* Plays what wakes the chip from the n-th (0-based) SLEEP() by setting
     * registers (STATUS.TO, BAUD1CON.WUE, PORTA, IOCAF); NULL = nothing changes. */
    void (*on_sleep)(uint32_t sleep_index);
    /* LATC is traced: its value at each access, so the states it went through
     * (the last one is LATC itself) show the SPI bits clocked out on RC0/RC2. */
    uint8_t latc_states[PIC_HOST_MAX_EVENTS * 4u];
    uint32_t latc_state_count;
    /* IOCAF is traced: its n-th access (1-based, 0 = never) first ORs in these
     * flags, as an edge the port logic latches at that moment. */
    uint32_t iocaf_access_count;
    uint32_t iocaf_edge_at_access;
    uint8_t iocaf_edge_flags;
    /* RA4 (BUSY) reads high from this many us of delay on (0 = never). */
    uint64_t busy_high_at_us;

    uint64_t delayed_us;
} pic_host_t;

extern pic_host_t pic_host;

/* Registers to 0xFF (so hal_init must set every bit it relies on), log cleared. */
void pic_host_reset(void);

/* The interrupt routine of hal_pic.c (XC8's __interrupt() is empty on the host). */
void isr(void);

#endif /* EPDLE_PIC_HOST_H */
