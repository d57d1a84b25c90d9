/*
 * PIC HAL register check: the values hal_init() leaves in the registers,
 * the pin mapping, the interrupt routine, and the NVM unlock sequences, all
 * against the PIC16F18326 datasheet (DS40001839) rather than the HAL's macros.
 */
#include "epd.h"
#include "hal.h"
#include "pic_host.h"
#include "store_layout.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

static int setup(void **state) {
    (void)state;
    pic_host_reset();
    hal_init();
    return 0;
}

static void test_init_pins(void **state) {
    (void)state;
    /* Inputs: RA1 (UART RX), RA3 (MCLR, reads 1 anyway), RA5 (button). RA4 (BUSY)
     * is driven low while the panel is off. Everything else drives low. */
    assert_int_equal(TRISA & 0x37, 0x22);
    assert_int_equal(TRISC & 0x3F, 0x00);
    assert_int_equal(LATA & 0x37, 0x00);
    assert_int_equal(LATC & 0x3F, 0x00);
    assert_int_equal(ANSELA & 0x37, 0x00);
    assert_int_equal(ANSELC & 0x3F, 0x00);
    /* Weak pull-ups: RA5 (button to ground) and RA1 (idle-high RX). */
    assert_int_equal(WPUA & 0x37, 0x22);
    assert_int_equal(WPUC & 0x3F, 0x00);
}

static void test_init_button_interrupt_on_falling_edge(void **state) {
    (void)state;
    assert_int_equal(IOCAN & 0x3F, 0x20);
    assert_int_equal(IOCAP & 0x3F, 0x00);
    assert_int_equal(IOCAF & 0x3F, 0x00);
    assert_int_equal(PIE0 & 0x31, 0x10); /* IOCIE only */
}

static void test_init_uart_115200_via_pps(void **state) {
    uint32_t divisor;
    uint32_t baud;

    (void)state;
    assert_int_equal(RXPPS, 0x01);           /* RX from RA1 */
    assert_int_equal(RC1PPS, 0x14);          /* RC1 = TX/CK */
    assert_int_equal(TX1STA & 0xF5, 0x24);   /* TXEN, BRGH, async */
    assert_int_equal(RC1STA & 0xF8, 0x90);   /* SPEN, CREN */
    assert_int_equal(BAUD1CON & 0x1B, 0x08); /* BRG16, no WUE yet */
    assert_int_equal(PIE1 & 0x30, 0x20);     /* RCIE */
    /* BRG16 = BRGH = 1: baud = Fosc / (4 * (SP1BRG + 1)); within 1 % of 115200 at 16 MHz. */
    divisor = ((uint32_t)SP1BRGH << 8) | SP1BRGL;
    baud = HAL_FOSC_HZ / (4u * (divisor + 1u));
    assert_in_range(baud, 114048u, 116352u);
}

static void test_init_interrupts_clock_and_regulator(void **state) {
    (void)state;
    assert_int_equal(INTCON & 0xC0, 0x40);  /* PEIE; GIE waits for hal_irq_enable() */
    assert_int_equal(OSCFRQ, 0x05);         /* HFINTOSC at 16 MHz ... */
    assert_int_equal(OSCCON1, 0x60);        /* ... taken as it is, divider 1 */
    assert_int_equal(VREGCON & 0x02, 0x02); /* low-power regulator in SLEEP */
    hal_irq_enable();
    assert_int_equal(INTCON & 0x80, 0x80);
    hal_irq_disable();
    assert_int_equal(INTCON & 0x80, 0x00);
}

static void test_pin_mapping(void **state) {
    static const struct {
        hal_pin_t pin;
        uint8_t latc_mask;
    } port_c[] = {
        {HAL_PIN_EPD_SCL, 0x01}, {HAL_PIN_EPD_SDA, 0x04}, {HAL_PIN_EPD_RST, 0x08},
        {HAL_PIN_EPD_CS, 0x10},  {HAL_PIN_EPD_DC, 0x20},
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof port_c / sizeof port_c[0]; i++) {
        hal_pin_write(port_c[i].pin, 2u); /* any non-zero level is high */
        assert_int_equal(LATC & 0x3F, port_c[i].latc_mask);
        assert_int_equal(hal_pin_read(port_c[i].pin), 1);
        hal_pin_write(port_c[i].pin, 0u);
        assert_int_equal(LATC & 0x3F, 0x00);
    }
    PORTA = 0x10;
    assert_int_equal(hal_pin_read(HAL_PIN_EPD_BUSY), 1);
    assert_int_equal(hal_pin_read(HAL_PIN_BUTTON), 0);
    PORTA = 0x20;
    assert_int_equal(hal_pin_read(HAL_PIN_EPD_BUSY), 0);
    assert_int_equal(hal_pin_read(HAL_PIN_BUTTON), 1);
    /* Writes to inputs change nothing. */
    hal_pin_write(HAL_PIN_BUTTON, 1u);
    hal_pin_write(HAL_PIN_EPD_BUSY, 1u);
    assert_int_equal(LATA & 0x37, 0x00);
    assert_int_equal(TRISA & 0x37, 0x22);
}

static void test_spi_byte_ends_with_its_last_bit_on_sda_and_scl_low(void **state) {
    (void)state;
    hal_pin_write(HAL_PIN_EPD_DC, 1u);
    hal_pin_write(HAL_PIN_EPD_RST, 1u);
    hal_spi_write(0x81u);
    assert_int_equal(LATC & 0x3F, 0x3C); /* SDA (bit 0 of 0x81), CS high again, RST, DC; SCL low */
    hal_spi_write(0xFEu);
    assert_int_equal(LATC & 0x3F, 0x38); /* SDA low after the 0 bit; CS, RST and DC high */
    hal_spi_repeat(0x01u, 3u);
    assert_int_equal(LATC & 0x3F, 0x3C);
}

/* The bytes LATC's states clock out: SDA (RC2) sampled at each rise of SCL (RC0)
 * while CS (RC4) is low; `frames` counts CS low periods. */
static uint32_t decode_latc_spi(uint8_t *bytes, uint32_t capacity, uint32_t *frames) {
    uint32_t count = 0u;
    uint32_t bits = 0u;
    uint8_t value = 0u;
    uint8_t previous = pic_host.latc_state_count != 0u ? pic_host.latc_states[0] : LATC;
    uint32_t i;

    *frames = 0u;
    for (i = 1u; i <= pic_host.latc_state_count; i++) {
        uint8_t state = i < pic_host.latc_state_count ? pic_host.latc_states[i] : LATC;
        if ((previous & 0x10u) != 0u && (state & 0x10u) == 0u) {
            (*frames)++;
            bits = 0u;
        }
        if ((state & 0x10u) == 0u && (previous & 0x01u) == 0u && (state & 0x01u) != 0u) {
            value = (uint8_t)((value << 1) | ((state >> 2) & 1u));
            bits++;
            if (bits == 8u && count < capacity) {
                bytes[count++] = value;
                bits = 0u;
            }
        }
        previous = state;
    }
    return count;
}

static void test_spi_bytes_go_out_msb_first_one_chip_select_frame_each(void **state) {
    uint8_t bytes[8];
    uint32_t frames;

    (void)state;
    hal_pin_write(HAL_PIN_EPD_CS, 1u);
    pic_host.latc_state_count = 0u;
    hal_spi_write(0xA4u); /* no byte here reads the same backwards */
    hal_spi_write(0x35u);
    hal_spi_repeat(0x82u, 2u);
    assert_int_equal(decode_latc_spi(bytes, sizeof bytes, &frames), 4);
    assert_int_equal(frames, 4);
    assert_int_equal(bytes[0], 0xA4);
    assert_int_equal(bytes[1], 0x35);
    assert_int_equal(bytes[2], 0x82);
    assert_int_equal(bytes[3], 0x82);
    assert_int_equal(LATC & 0x11, 0x10); /* ends with SCL low, CS high */
}

static void test_panel_power_releases_and_drives_busy(void **state) {
    (void)state;
    hal_pin_write(HAL_PIN_EPD_PWR, 1u);
    assert_int_equal(LATA & 0x04, 0x04);
    assert_int_equal(TRISA & 0x10, 0x10); /* BUSY is an input while powered */
    hal_pin_write(HAL_PIN_EPD_PWR, 0u);
    assert_int_equal(LATA & 0x37, 0x00);
    assert_int_equal(TRISA & 0x10, 0x00); /* and driven low once unpowered */
}

static void test_button_edge_latched_by_interrupt(void **state) {
    (void)state;
    assert_false(hal_button_edge_take());
    PIR0 = 0x10; /* IOCIF */
    IOCAF = 0x20;
    PIR1 = 0x00;
    isr();
    assert_int_equal(IOCAF & 0x3F, 0x00); /* cleared, or SLEEP would return at once */
    assert_true(hal_button_edge_take());
    assert_false(hal_button_edge_take());
}

/* An edge latched while the interrupt routine runs must survive its clearing. */
static void test_an_edge_during_the_interrupt_is_not_cleared(void **state) {
    (void)state;
    PIR0 = 0x10; /* IOCIF */
    PIR1 = 0x00;
    IOCAF = 0x20;
    pic_host.iocaf_access_count = 0u;
    pic_host.iocaf_edge_at_access = 2u; /* right after the routine's first look at the flags */
    pic_host.iocaf_edge_flags = 0x10;   /* BUSY rose (IOCAF4) */
    isr();
    pic_host.iocaf_edge_at_access = 0u;
    assert_true(pic_host.iocaf_access_count >= 2u); /* it looked, then cleared */
    assert_int_equal(IOCAF & 0x3F, 0x10);           /* the new flag is left for the next pass */
    assert_true(hal_button_edge_take());
}

static void receive(uint8_t byte, uint8_t rc1sta_errors) {
    PIR0 = 0x00;
    PIR1 = 0x20; /* RCIF */
    RC1STA = (uint8_t)(0x90u | rc1sta_errors);
    RC1REG = byte;
    isr();
}

/* What the main loop checks, interrupts off, before it sleeps. */
static void test_uart_pending_sees_the_ring_and_a_byte_coming_in(void **state) {
    uint8_t byte = 0u;

    (void)state;
    assert_false(hal_uart_pending()); /* receiver idle */
    pic_host.rx_receiving = 1u;       /* a start bit seen: a byte is being shifted in */
    assert_true(hal_uart_pending());
    pic_host.rx_receiving = 0u;
    receive(0x42, 0x00);
    assert_true(hal_uart_pending()); /* taken by the interrupt, not read yet */
    assert_true(hal_uart_read(&byte));
    assert_false(hal_uart_pending());
}

static void test_uart_receive_and_errors(void **state) {
    uint8_t byte = 0u;
    uint8_t i;

    (void)state;
    assert_false(hal_uart_read(&byte));
    receive(0x42, 0x00);
    receive(0x43, 0x00);
    assert_true(hal_uart_read(&byte));
    assert_int_equal(byte, 0x42);
    assert_true(hal_uart_read(&byte));
    assert_int_equal(byte, 0x43);
    assert_false(hal_uart_read(&byte));
    assert_int_equal(hal_uart_errors_take(), 0);

    receive(0x00, 0x04); /* framing error */
    receive(0x00, 0x02); /* overrun: CREN must be cycled back on */
    assert_int_equal(RC1STA & 0x10, 0x10);
    assert_false(hal_uart_read(&byte));
    assert_int_equal(hal_uart_errors_take(), 2);
    assert_int_equal(hal_uart_errors_take(), 0);

    /* A full ring drops (and counts) what does not fit, keeps what it holds. */
    for (i = 0u; i < 70u; i++) {
        receive(i, 0x00);
    }
    assert_int_equal(hal_uart_errors_take(), 7);
    for (i = 0u; i < 63u; i++) {
        assert_true(hal_uart_read(&byte));
        assert_int_equal(byte, i);
    }
    assert_false(hal_uart_read(&byte));
}

static void test_uart_write_waits_a_bounded_time(void **state) {
    (void)state;
    PIR1 = 0x10; /* TXIF: transmit buffer empty */
    hal_uart_write(0x5A);
    assert_int_equal(TX1REG, 0x5A);
    PIR1 = 0x00; /* transmitter stuck */
    TX1REG = 0x00;
    hal_uart_write(0xA5);
    assert_int_equal(TX1REG, 0x00);
    assert_in_range(pic_host.delayed_us, 87u, 200u);
}

static void assert_unlocked_write(uint32_t nop_index, uint32_t expected_nvmcon2_count) {
    uint32_t count = pic_host.nops[nop_index].nvmcon2_count;

    assert_int_equal(count, expected_nvmcon2_count);
    assert_int_equal(pic_host.nvmcon2_writes[count - 2u], 0x55);
    assert_int_equal(pic_host.nvmcon2_writes[count - 1u], 0xAA);
    assert_int_equal(pic_host.nops[nop_index].nvmcon1 & 0x06, 0x06); /* WREN, WR */
    assert_int_equal(pic_host.nops[nop_index].gie, 0);
}

static void test_flash_row_erase_unlock_sequence(void **state) {
    (void)state;
    hal_irq_enable();
    assert_true(hal_flash_erase_row(0x3FE0));
    assert_int_equal(pic_host.nvmcon2_write_count, 2);
    assert_unlocked_write(0, 2);
    assert_int_equal(pic_host.nops[0].nvmcon1 & 0x70, 0x10); /* FREE, program flash */
    assert_int_equal(pic_host.nops[0].address, 0x3FE0);
    assert_int_equal(INTCON & 0x80, 0x80); /* interrupts back on */

    assert_false(hal_flash_erase_row(0x3FE1));
    assert_false(hal_flash_erase_row(0x4000));
    assert_int_equal(pic_host.nvmcon2_write_count, 2);
}

static void test_flash_row_write_loads_latches_then_programs(void **state) {
    uint16_t words[HAL_FLASH_ROW_WORDS];
    uint32_t i;

    (void)state;
    for (i = 0u; i < HAL_FLASH_ROW_WORDS; i++) {
        words[i] = (uint16_t)(0xC000u | (i * 0x101u)); /* bits above 14 must be dropped */
    }
    assert_true(hal_flash_write_row(0x2800, words));
    assert_int_equal(pic_host.nvmcon2_write_count, 2u * HAL_FLASH_ROW_WORDS);
    /* Two NOPs per unlock; check the first of each pair. */
    for (i = 0u; i < HAL_FLASH_ROW_WORDS; i++) {
        uint32_t nop = 2u * i;

        assert_unlocked_write(nop, 2u * (i + 1u));
        assert_int_equal(pic_host.nops[nop].address, 0x2800 + i);
        assert_int_equal(pic_host.nops[nop].data, (uint16_t)((i * 0x101u) & 0x3FFFu));
        /* LWLO: latch only, except the last word, which programs the row. */
        assert_int_equal(pic_host.nops[nop].nvmcon1 & 0x70,
                         i + 1u < HAL_FLASH_ROW_WORDS ? 0x20 : 0x00);
    }
    assert_false(hal_flash_write_row(0x2810, words));
    assert_false(hal_flash_write_row(0x2800, NULL));
}

/* The firmware's own rows: no erase or write below the frame store, whatever the caller
 * asks (not even the unlock sequence is issued), and the store's first row still works. */
static void test_flash_below_the_frame_store_is_never_erased_or_written(void **state) {
    uint16_t words[HAL_FLASH_ROW_WORDS] = {0};
    uint16_t row;

    (void)state;
    for (row = 0u; row < STORE_REGION_FIRST_ROW; row++) {
        assert_false(hal_flash_erase_row((uint16_t)(row * HAL_FLASH_ROW_WORDS)));
        assert_false(hal_flash_write_row((uint16_t)(row * HAL_FLASH_ROW_WORDS), words));
    }
    assert_int_equal(pic_host.nvmcon2_write_count, 0);
    assert_int_equal(pic_host.nop_count, 0);
    assert_true(hal_flash_erase_row(STORE_REGION_FIRST_ROW * HAL_FLASH_ROW_WORDS));
    assert_int_equal(pic_host.nvmcon2_write_count, 2);
}

static void test_flash_read_returns_14_bits(void **state) {
    (void)state;
    NVMDATH = 0xFF;
    NVMDATL = 0x34;
    assert_int_equal(hal_flash_read(0x1234), 0x3F34);
    assert_int_equal((NVMADRH << 8) | NVMADRL, 0x1234);
    assert_int_equal(NVMCON1 & 0x40, 0x00); /* program flash, not the NVM registers */
    assert_int_equal(hal_flash_read(0x4000), HAL_FLASH_ERASED);
}

static void test_sleep_arms_uart_wake_and_reenables_interrupts(void **state) {
    (void)state;
    TX1STA = 0x26; /* TRMT: nothing left to send */
    hal_irq_disable();
    hal_sleep();
    assert_int_equal(pic_host.sleep_count, 1);
    assert_int_equal(pic_host.baud1con_at_sleep & 0x02, 0x02); /* WUE */
    assert_int_equal(pic_host.gie_at_sleep, 0);
    /* Nothing cleared WUE (the button woke us): it is disarmed by hand. */
    assert_int_equal(BAUD1CON & 0x02, 0x00);
    assert_int_equal(INTCON & 0x80, 0x80);
}

static void uart_always(uint32_t sleep_index);

/* In the low-power sleep hal_init() selects, RX's falling edge must wake the CPU through
 * interrupt-on-change (IOCAN1), disarmed again once awake: RX's edges while awake are
 * the EUSART's, not interrupts. */
static void test_a_start_bit_wakes_the_cpu_in_the_sleep_mode_in_use(void **state) {
    (void)state;
    TX1STA = 0x26;
    pic_host.on_sleep = uart_always;
    hal_irq_disable();
    hal_sleep();
    assert_int_equal(pic_host.sleep_count, 1);
    assert_true(pic_host.rx_wakes_at_sleep);
    assert_int_equal(IOCAN & 0x3F, 0x20); /* the button's edge only */
    assert_int_equal(IOCAF & 0x02, 0x00); /* RX's flag gone: the interrupt sees the button's */
    assert_int_equal(BAUD1CON & 0x02, 0x00);
    assert_false(pic_host.wue_armed_while_receiving);
}

/* A start bit already seen (RCIDL = 0): no WUE, no SLEEP; the byte is received awake. */
static void test_no_sleep_while_a_byte_is_coming_in(void **state) {
    (void)state;
    TX1STA = 0x26;
    pic_host.rx_receiving = 1u;
    hal_irq_disable();
    hal_sleep();
    assert_int_equal(pic_host.sleep_count, 0);
    assert_false(pic_host.wue_armed_while_receiving);
    assert_int_equal(IOCAN & 0x3F, 0x20);
    assert_int_equal(INTCON & 0x80, 0x80);
    INTCONbits.GIE = 0;
    assert_int_equal(hal_sleep_period(), HAL_WAKE_UART); /* as a start bit that woke it */
    assert_int_equal(pic_host.sleep_count, 0);
    assert_false(pic_host.wue_armed_while_receiving);
}

/* The receiver is looked at again after the wait for the transmitter: a start bit during
 * that wait keeps the CPU awake too. */
static void test_a_start_bit_during_the_transmit_drain_keeps_the_cpu_awake(void **state) {
    (void)state;
    TX1STA = 0x24; /* TRMT low: the drain waits its bound */
    pic_host.rx_start_at_us = 50u;
    hal_irq_disable();
    hal_sleep();
    assert_int_equal(pic_host.sleep_count, 0);
    assert_false(pic_host.wue_armed_while_receiving);
    pic_host.rx_receiving = 0u;
    pic_host.rx_start_at_us = pic_host.delayed_us + 50u;
    INTCONbits.GIE = 0;
    assert_int_equal(hal_sleep_period(), HAL_WAKE_UART);
    assert_int_equal(pic_host.sleep_count, 0);
    assert_false(pic_host.wue_armed_while_receiving);
}

static void test_sleep_waits_a_bounded_time_for_the_transmitter(void **state) {
    (void)state;
    TX1STA = 0x24; /* TRMT low: a byte is still being shifted out (stuck here) */
    hal_sleep();
    assert_int_equal(pic_host.sleep_count, 1);
    /* Two byte times at 115200 Bd are 174 us; the wait is bounded a little above. */
    assert_in_range(pic_host.delayed_us, 174u, 400u);
}

/* ---- sleeping through a refresh: what wakes the chip from each SLEEP ---- */

static void wake_by_watchdog(void) {
    STATUSbits.NOT_TO = 0; /* time-out in SLEEP: a wake-up, not a reset */
}

static void wake_by_busy_rising(void) {
    STATUSbits.NOT_TO = 1;
    PORTAbits.RA4 = 1;
    IOCAFbits.IOCAF4 = 1;
    PIR0bits.IOCIF = 1;
}

static void wake_by_button(void) {
    STATUSbits.NOT_TO = 1;
    PORTAbits.RA5 = 0;
    IOCAFbits.IOCAF5 = 1;
    PIR0bits.IOCIF = 1;
}

/* RX falls: an armed interrupt-on-change latches it; the EUSART's auto-wake clears WUE on
 * the character's next rise only where the datasheet has it work, at VREGPM = 0. */
static void wake_by_uart_start_bit(void) {
    STATUSbits.NOT_TO = 1;
    if (IOCANbits.IOCAN1) {
        IOCAFbits.IOCAF1 = 1;
        PIR0bits.IOCIF = 1;
    }
    if (!VREGCONbits.VREGPM) {
        BAUD1CONbits.WUE = 0;
    }
}

static void watchdog_twice_then_busy(uint32_t sleep_index) {
    if (sleep_index < 2u) {
        wake_by_watchdog();
    } else {
        wake_by_busy_rising();
    }
}

static void watchdog_always(uint32_t sleep_index) {
    (void)sleep_index;
    wake_by_watchdog();
}

static void button_then_busy(uint32_t sleep_index) {
    if (sleep_index == 0u) {
        wake_by_button();
    } else {
        wake_by_busy_rising();
    }
}

static void uart_always(uint32_t sleep_index) {
    (void)sleep_index;
    wake_by_uart_start_bit();
}

/* The sleep with the UART's lines off (an unpowered adapter on J1), seen at each SLEEP:
 * RA1 an output without its pull-up and RC1 its latch, both low, the receiver off, the
 * watchdog at 1 s (WDTPS = 01010, 1:32768 of LFINTOSC; SWDTEN on), BORCON untouched
 * (BOREN = SLEEP: the brown-out reset is off in SLEEP by itself). RX stays low for the first looks,
 * then rises (the adapter powered). */
static uint8_t lines_off_at_every_sleep;
static uint32_t rx_high_from_sleep;

static void adapter_unpowered_until(uint32_t sleep_index) {
    lines_off_at_every_sleep &= (WPUA & 0x02) == 0x00 && (TRISA & 0x02) == 0x00 &&
                                (LATA & 0x02) == 0x00 && RC1PPS == 0x00 && (LATC & 0x02) == 0x00 &&
                                (RC1STA & 0x10) == 0x00 && (WDTCON & 0x3F) == 0x15 &&
                                BORCON == 0x80 && (IOCAN & 0x02) == 0x00 && !INTCONbits.GIE;
    wake_by_watchdog();
    PORTAbits.RA1 = sleep_index + 1u >= rx_high_from_sleep ? 1u : 0u;
}

static void test_sleep_with_the_lines_off_feeds_nothing_until_rx_rises(void **state) {
    (void)state;
    TX1STA = 0x26;
    BORCON = 0x80; /* SBOREN as it was before: left alone */
    lines_off_at_every_sleep = 1u;
    rx_high_from_sleep = 3u;
    pic_host.on_sleep = adapter_unpowered_until;
    INTCONbits.GIE = 0;
    hal_sleep_lines_off();
    assert_int_equal(pic_host.sleep_count, 3);
    assert_true(lines_off_at_every_sleep);
    assert_in_range(pic_host.delayed_us, 3u * HAL_RX_LOOK_US, 3u * HAL_RX_LOOK_US + 400u);
    /* On again as hal_init() left them, the watchdog and brown-out reset as before. */
    assert_int_equal(WPUA & 0x37, 0x22);
    assert_int_equal(TRISA & 0x37, 0x22);
    assert_int_equal(RC1PPS, 0x14);
    assert_int_equal(RC1STA & 0xF8, 0x90);
    assert_int_equal(WDTCON, 0x21);
    assert_int_equal(BORCON & 0x80, 0x80);
    assert_int_equal(INTCON & 0x80, 0x00);
}

/* The button's edge ends it at once, without a look: the lines on again. */
static void button_always(uint32_t sleep_index) {
    (void)sleep_index;
    wake_by_button();
}

static void test_the_button_ends_the_sleep_with_the_lines_off(void **state) {
    (void)state;
    TX1STA = 0x26;
    PORTAbits.RA1 = 0;
    pic_host.on_sleep = button_always;
    INTCONbits.GIE = 0;
    hal_sleep_lines_off();
    assert_int_equal(pic_host.sleep_count, 1);
    assert_int_equal(TRISA & 0x37, 0x22);
    assert_int_equal(RC1PPS, 0x14);
    assert_int_equal(IOCAF & 0x20, 0x20); /* the button's flag left for the interrupt */
}

/* Panel powered and refreshing (BUSY low), nothing left to send, WDTCON at its reset value. */
static int setup_refreshing(void **state) {
    setup(state);
    hal_pin_write(HAL_PIN_EPD_PWR, 1u);
    PORTAbits.RA4 = 0;
    TX1STA = 0x26;
    WDTCON = 0x16; /* WDTPS = 01011 (2 s), SWDTEN = 0 */
    hal_irq_enable();
    return 0;
}

static void assert_refresh_sleep_undone(void) {
    assert_int_equal(IOCAP & 0x3F, 0x00); /* BUSY's rising edge no longer wakes */
    assert_int_equal(IOCAF & 0x10, 0x00); /* nor does a flag it left */
    assert_int_equal(IOCAN & 0x3F, 0x20); /* the button's falling edge still does, RX's no more */
    assert_int_equal(WDTCON, 0x16);       /* the watchdog as it was: off */
    assert_int_equal(BAUD1CON & 0x02, 0x00);
    assert_int_equal(INTCON & 0x80, 0x80);
}

static void test_sleep_until_busy_high_wakes_on_its_rising_edge(void **state) {
    (void)state;
    pic_host.on_sleep = watchdog_twice_then_busy;
    assert_true(epd_sleep_until_idle(30000u));
    assert_int_equal(pic_host.sleep_count, 3);
    /* Interrupt-on-change: positive edge on RA4 (IOCAP4), the button's negative edge kept,
     * RX's negative edge (IOCAN1) for the SLEEP. */
    assert_int_equal(pic_host.iocap_at_sleep & 0x3F, 0x10);
    assert_int_equal(pic_host.iocan_at_sleep & 0x3F, 0x22);
    /* Watchdog on (SWDTEN) for the SLEEP, WDTPS = 00101: 1:1024 of LFINTOSC = 32 ms. */
    assert_int_equal(pic_host.wdtcon_at_sleep & 0x3F, 0x0B);
    assert_int_equal(pic_host.baud1con_at_sleep & 0x02, 0x02); /* a start bit wakes too */
    assert_true(pic_host.rx_wakes_at_sleep);
    /* GIE off from the last look at BUSY to SLEEP: a rise in between makes SLEEP a NOP. */
    assert_int_equal(pic_host.gie_at_sleep, 0);
    /* Asleep, not polling: only the short look for a wake character after BUSY's edge. */
    assert_true(pic_host.delayed_us <= 200u);
    assert_refresh_sleep_undone();
}

static void test_sleep_until_busy_high_is_bounded_by_watchdog_periods(void **state) {
    (void)state;
    pic_host.on_sleep = watchdog_always;
    assert_false(epd_sleep_until_idle(100u));
    /* 100 ms in 32 ms periods, rounded up. */
    assert_int_equal(pic_host.sleep_count, 4);
    assert_refresh_sleep_undone();
}

static void test_button_edge_during_refresh_sleep_is_latched(void **state) {
    (void)state;
    pic_host.on_sleep = button_then_busy;
    assert_true(epd_sleep_until_idle(30000u));
    /* The button woke it, it slept on until BUSY rose. */
    assert_int_equal(pic_host.sleep_count, 2);
    /* The button's flag is left to the interrupt routine, which latches the edge. */
    assert_int_equal(IOCAF & 0x20, 0x20);
    isr();
    assert_true(hal_button_edge_take());
    assert_refresh_sleep_undone();
}

static void test_uart_wake_during_refresh_sleep_keeps_the_cpu_awake(void **state) {
    (void)state;
    pic_host.on_sleep = uart_always;
    pic_host.busy_high_at_us = 5000u;
    assert_true(epd_sleep_until_idle(30000u));
    /* One SLEEP: after the host's start bit it polls awake, receiving what follows. */
    assert_int_equal(pic_host.sleep_count, 1);
    assert_in_range(pic_host.delayed_us, 5000u, 6000u);
    assert_refresh_sleep_undone();
}

static void test_uart_wake_keeps_the_bound(void **state) {
    (void)state;
    pic_host.on_sleep = uart_always;
    assert_false(epd_sleep_until_idle(100u));
    assert_int_equal(pic_host.sleep_count, 1);
    /* One 32 ms period asleep, the other 68 ms polled awake. */
    assert_in_range(pic_host.delayed_us, 68000u, 70000u);
    assert_refresh_sleep_undone();
}

/* The HAL's one SLEEP leaves the interrupt state as it found it, and says what woke it. */
static void test_one_sleep_period_keeps_the_interrupt_state_and_tells_the_cause(void **state) {
    (void)state;
    pic_host.on_sleep = watchdog_always;
    INTCONbits.GIE = 0;
    assert_int_equal(hal_sleep_period(), HAL_WAKE_WATCHDOG);
    assert_int_equal(INTCON & 0x80, 0x00);
    assert_int_equal(pic_host.gie_at_sleep, 0);
    assert_int_equal(WDTCON, 0x16); /* the watchdog as it was */
    pic_host.on_sleep = uart_always;
    INTCONbits.GIE = 1;
    assert_int_equal(hal_sleep_period(), HAL_WAKE_UART);
    assert_int_equal(INTCON & 0x80, 0x80);
    assert_int_equal(pic_host.gie_at_sleep, 0); /* off for the SLEEP itself */
    hal_busy_wake(true);
    assert_int_equal(IOCAP & 0x10, 0x10);
    IOCAFbits.IOCAF4 = 1;
    hal_busy_wake(false);
    assert_int_equal(IOCAP & 0x10, 0x00);
    assert_int_equal(IOCAF & 0x10, 0x00);
}

/* ---- supply and watchdog (DS40001839: WDT, BOR, FVR, ADC chapters) ---------------- */

static void test_the_watchdog_runs_awake_and_sleeps_with_the_standby(void **state) {
    uint8_t borcon = BORCON;

    (void)state;
    /* WDTCON: WDTPS = 10000 (1:2^21 of LFINTOSC, 64 s), SWDTEN = 1. */
    assert_int_equal(WDTCON, 0x21);
    hal_sleep();
    /* The standby SLEEP: the watchdog draws nothing; the brown-out reset is the hardware's
     * (BOREN = SLEEP: off in SLEEP, on before the CPU runs), BORCON untouched. */
    assert_int_equal(pic_host.wdtcon_at_sleep, 0x00);
    assert_int_equal(WDTCON, 0x21);
    assert_int_equal(pic_host.borcon_at_sleep, borcon);
    assert_int_equal(BORCON, borcon);
}

static void test_vdd_is_read_on_the_fvr_and_an_fvr_never_ready_reads_weak(void **state) {
    (void)state;
    /* Nothing here sets FVRRDY: the bounded wait gives up and the reading is the lowest
     * VDD, so the firmware refuses the panel; no conversion was started. */
    assert_int_equal(hal_vdd_reading(), HAL_VDD_FAILED);
    assert_int_equal(ADCON1, 0xD0); /* right justified, TAD = Fosc/16 (1 us at 16 MHz) */
    assert_int_equal(ADCON0, 0x00); /* the ADC off again */
    assert_int_equal(FVRCON, 0x00); /* the FVR off again */
}

static void test_the_reset_cause_is_told_once(void **state) {
    static const struct {
        uint8_t pcon0;
        hal_reset_t cause;
    } cases[] = {
        {0x1C, HAL_RESET_POWER_ON}, /* NOT_POR = NOT_BOR = 0 */
        {0x1E, HAL_RESET_BROWNOUT}, /* NOT_BOR = 0 */
        {0x0F, HAL_RESET_WATCHDOG}, /* NOT_RWDT = 0 */
        {0x17, HAL_RESET_MCLR},     /* NOT_RMCLR = 0 */
        {0x1B, HAL_RESET_INSTRUCTION},
        {0x9F, HAL_RESET_STACK_OVERFLOW},
        {0x5F, HAL_RESET_STACK_UNDERFLOW},
        {0x1F, HAL_RESET_NONE},
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        PCON0 = cases[i].pcon0;
        assert_int_equal(hal_reset_cause(), cases[i].cause);
        /* Every flag set back (the stack flags cleared): the next call says none. */
        assert_int_equal(PCON0, 0x1F);
        assert_int_equal(hal_reset_cause(), HAL_RESET_NONE);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_init_pins, setup),
        cmocka_unit_test_setup(test_init_button_interrupt_on_falling_edge, setup),
        cmocka_unit_test_setup(test_init_uart_115200_via_pps, setup),
        cmocka_unit_test_setup(test_init_interrupts_clock_and_regulator, setup),
        cmocka_unit_test_setup(test_pin_mapping, setup),
        cmocka_unit_test_setup(test_spi_byte_ends_with_its_last_bit_on_sda_and_scl_low, setup),
        cmocka_unit_test_setup(test_spi_bytes_go_out_msb_first_one_chip_select_frame_each, setup),
        cmocka_unit_test_setup(test_panel_power_releases_and_drives_busy, setup),
        cmocka_unit_test_setup(test_button_edge_latched_by_interrupt, setup),
        cmocka_unit_test_setup(test_an_edge_during_the_interrupt_is_not_cleared, setup),
        cmocka_unit_test_setup(test_uart_pending_sees_the_ring_and_a_byte_coming_in, setup),
        cmocka_unit_test_setup(test_uart_receive_and_errors, setup),
        cmocka_unit_test_setup(test_uart_write_waits_a_bounded_time, setup),
        cmocka_unit_test_setup(test_flash_row_erase_unlock_sequence, setup),
        cmocka_unit_test_setup(test_flash_row_write_loads_latches_then_programs, setup),
        cmocka_unit_test_setup(test_flash_below_the_frame_store_is_never_erased_or_written, setup),
        cmocka_unit_test_setup(test_flash_read_returns_14_bits, setup),
        cmocka_unit_test_setup(test_sleep_arms_uart_wake_and_reenables_interrupts, setup),
        cmocka_unit_test_setup(test_sleep_waits_a_bounded_time_for_the_transmitter, setup),
        cmocka_unit_test_setup(test_a_start_bit_wakes_the_cpu_in_the_sleep_mode_in_use, setup),
        cmocka_unit_test_setup(test_no_sleep_while_a_byte_is_coming_in, setup),
        cmocka_unit_test_setup(test_a_start_bit_during_the_transmit_drain_keeps_the_cpu_awake,
                               setup),
        cmocka_unit_test_setup(test_sleep_until_busy_high_wakes_on_its_rising_edge,
                               setup_refreshing),
        cmocka_unit_test_setup(test_sleep_until_busy_high_is_bounded_by_watchdog_periods,
                               setup_refreshing),
        cmocka_unit_test_setup(test_button_edge_during_refresh_sleep_is_latched, setup_refreshing),
        cmocka_unit_test_setup(test_uart_wake_during_refresh_sleep_keeps_the_cpu_awake,
                               setup_refreshing),
        cmocka_unit_test_setup(test_uart_wake_keeps_the_bound, setup_refreshing),
        cmocka_unit_test_setup(test_the_watchdog_runs_awake_and_sleeps_with_the_standby, setup),
        cmocka_unit_test_setup(test_vdd_is_read_on_the_fvr_and_an_fvr_never_ready_reads_weak,
                               setup),
        cmocka_unit_test_setup(test_the_reset_cause_is_told_once, setup),
        cmocka_unit_test_setup(test_sleep_with_the_lines_off_feeds_nothing_until_rx_rises, setup),
        cmocka_unit_test_setup(test_the_button_ends_the_sleep_with_the_lines_off, setup),
        cmocka_unit_test_setup(test_one_sleep_period_keeps_the_interrupt_state_and_tells_the_cause,
                               setup_refreshing),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
