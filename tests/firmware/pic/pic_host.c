/* pic_host.c - see pic_host.h. */
#include "pic_host.h"

#include <string.h>

volatile uint8_t pic_sfr[PIC_SFR_SPACE];
pic_host_t pic_host;

static uint8_t traced_sink;

void pic_host_reset(void) {
    memset((void *)pic_sfr, 0xFF, sizeof pic_sfr);
    memset(&pic_host, 0, sizeof pic_host);
}

volatile uint8_t *pic_host_traced_access(uint16_t address) {
    if (address == NVMCON2_ADDRESS && pic_host.nvmcon2_write_count < PIC_HOST_MAX_EVENTS) {
        return &pic_host.nvmcon2_writes[pic_host.nvmcon2_write_count++];
    }
    if (address == LATC_ADDRESS) {
        if (pic_host.latc_state_count < sizeof pic_host.latc_states) {
            pic_host.latc_states[pic_host.latc_state_count++] = pic_sfr[LATC_ADDRESS];
        }
        return &pic_sfr[LATC_ADDRESS];
    }
    if (address == BAUD1CON_ADDRESS) {
        pic_sfr[BAUD1CON_ADDRESS] = (uint8_t)((pic_sfr[BAUD1CON_ADDRESS] & ~_BAUD1CON_RCIDL_MASK) |
                                              (pic_host.rx_receiving ? 0u : _BAUD1CON_RCIDL_MASK));
        if ((pic_sfr[BAUD1CON_ADDRESS] & _BAUD1CON_WUE_MASK) != 0u && pic_host.rx_receiving) {
            pic_host.wue_armed_while_receiving = 1u;
        }
        return &pic_sfr[BAUD1CON_ADDRESS];
    }
    if (address == IOCAF_ADDRESS) {
        pic_host.iocaf_access_count++;
        if (pic_host.iocaf_access_count == pic_host.iocaf_edge_at_access) {
            pic_sfr[IOCAF_ADDRESS] |= pic_host.iocaf_edge_flags;
        }
        return &pic_sfr[IOCAF_ADDRESS];
    }
    return &traced_sink;
}

void pic_host_nop(void) {
    uint32_t n = pic_host.nop_count;

    if (n < PIC_HOST_MAX_EVENTS) {
        pic_host.nops[n].nvmcon2_count = pic_host.nvmcon2_write_count;
        pic_host.nops[n].nvmcon1 = NVMCON1;
        pic_host.nops[n].gie = INTCONbits.GIE;
        pic_host.nops[n].address = (uint16_t)((NVMADRH << 8) | NVMADRL);
        pic_host.nops[n].data = (uint16_t)((NVMDATH << 8) | NVMDATL);
        pic_host.nop_count++;
    }
    /* A flash operation stalls the CPU until done. */
    NVMCON1bits.WR = 0;
}

void pic_host_sleep(void) {
    pic_host.sleep_count++;
    pic_host.baud1con_at_sleep = BAUD1CON;
    pic_host.gie_at_sleep = INTCONbits.GIE;
    pic_host.iocap_at_sleep = IOCAP;
    pic_host.iocan_at_sleep = IOCAN;
    pic_host.wdtcon_at_sleep = WDTCON;
    pic_host.borcon_at_sleep = BORCON;
    pic_host.rx_wakes_at_sleep = ((IOCAN & _IOCAN_IOCAN1_MASK) != 0u && PIE0bits.IOCIE) ||
                                 (BAUD1CONbits.WUE && !VREGCONbits.VREGPM && RC1STAbits.SPEN);
    if (pic_host.on_sleep != NULL) {
        pic_host.on_sleep(pic_host.sleep_count - 1u);
    }
}

void pic_host_delay_us(uint32_t us) {
    pic_host.delayed_us += us;
    if (pic_host.busy_high_at_us != 0u && pic_host.delayed_us >= pic_host.busy_high_at_us) {
        PORTAbits.RA4 = 1;
    }
    if (pic_host.rx_start_at_us != 0u && pic_host.delayed_us >= pic_host.rx_start_at_us) {
        pic_host.rx_receiving = 1u;
    }
}
