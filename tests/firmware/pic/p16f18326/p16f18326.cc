/* The PIC16F18326 for gpsim: see p16f18326.h and firmware/toolchain/README.md. */
#include "p16f18326.h"

#include "bench.h"

#include <gpsim/modules.h>
#include <gpsim/packages.h>
#include <gpsim/stimuli.h>

#include <cstdio>
#include <cstdlib>

namespace {

struct RegSpec {
    unsigned int id;
    unsigned int address;
    const char *name;
    unsigned int por;
};

/* Addresses from Microchip's p16f18326.inc (gputils). */
const RegSpec kRegs[] = {
    {P16F18326::R_PIR0, 0x010, "pir0", 0x00},
    {P16F18326::R_PIR1, 0x011, "pir1", 0x00},
    {P16F18326::R_PIE0, 0x090, "pie0", 0x00},
    {P16F18326::R_PIE1, 0x091, "pie1", 0x00},
    /* BORRDY set: the brown-out reset is ready (the model has no supply to trip it on). */
    {P16F18326::R_BORCON, 0x116, "borcon", 0x81},
    {P16F18326::R_FVRCON, 0x117, "fvrcon", 0x00},
    {P16F18326::R_ADRESL, 0x09b, "adresl", 0x00},
    {P16F18326::R_ADRESH, 0x09c, "adresh", 0x00},
    {P16F18326::R_ADCON0, 0x09d, "adcon0", 0x00},
    {P16F18326::R_ADCON1, 0x09e, "adcon1", 0x00},
    {P16F18326::R_VREGCON, 0x197, "vregcon", 0x01},
    {P16F18326::R_RC1REG, 0x199, "rc1reg", 0x00},
    {P16F18326::R_TX1REG, 0x19a, "tx1reg", 0x00},
    {P16F18326::R_SP1BRGL, 0x19b, "sp1brgl", 0x00},
    {P16F18326::R_SP1BRGH, 0x19c, "sp1brgh", 0x00},
    {P16F18326::R_RC1STA, 0x19d, "rc1sta", 0x00},
    {P16F18326::R_TX1STA, 0x19e, "tx1sta", 0x02},
    {P16F18326::R_BAUD1CON, 0x19f, "baud1con", 0x40},
    {P16F18326::R_NVMADRL, 0x891, "nvmadrl", 0x00},
    {P16F18326::R_NVMADRH, 0x892, "nvmadrh", 0x00},
    {P16F18326::R_NVMDATL, 0x893, "nvmdatl", 0x00},
    {P16F18326::R_NVMDATH, 0x894, "nvmdath", 0x00},
    {P16F18326::R_NVMCON1, 0x895, "nvmcon1", 0x00},
    {P16F18326::R_NVMCON2, 0x896, "nvmcon2", 0x00},
    {P16F18326::R_PCON0, 0x89b, "pcon0", 0x3c},
    {P16F18326::R_OSCCON1, 0x919, "osccon1", 0x00},
    {P16F18326::R_OSCCON2, 0x91a, "osccon2", 0x00},
    {P16F18326::R_OSCCON3, 0x91b, "osccon3", 0x00},
    {P16F18326::R_OSCSTAT1, 0x91c, "oscstat1", 0x00},
    {P16F18326::R_OSCEN, 0x91d, "oscen", 0x00},
    {P16F18326::R_OSCFRQ, 0x91f, "oscfrq", 0x05},
    {P16F18326::R_RXPPS, 0xe24, "rxpps", 0x15},
    {P16F18326::R_RC1PPS, 0xea1, "rc1pps", 0x00},
};

/* NVMCON1 */
const unsigned int RD = 1u << 0, WR = 1u << 1, WREN = 1u << 2, WRERR = 1u << 3, FREE = 1u << 4,
                   LWLO = 1u << 5, NVMREGS = 1u << 6;
/* RC1STA, TX1STA, BAUD1CON */
const unsigned int OERR = 1u << 1, FERR = 1u << 2, CREN = 1u << 4, SPEN = 1u << 7;
const unsigned int TRMT = 1u << 1, BRGH = 1u << 2, SYNC = 1u << 4, TXEN = 1u << 5;
const unsigned int WUE = 1u << 1, BRG16 = 1u << 3, RCIDL = 1u << 6;
/* PIR1/PIE1, PIR0/PIE0 */
const unsigned int TXIF = 1u << 4, RCIF = 1u << 5, IOCIF = 1u << 4;
const unsigned int PIR0_WRITABLE = 0x21u; /* TMR0IF, INTF; IOCIF is read-only */

/* FVRCON, ADCON0, ADCON1 */
const unsigned int FVREN = 1u << 7, FVRRDY = 1u << 6, ADFVR_1X = 1u;
const unsigned int ADON = 1u << 0, ADGO = 1u << 1, CHS_FVR = 0x3fu << 2, ADFM = 1u << 7;
/* The bench's VDD: a fresh CR2032 (the supply itself is the simulated board's model). */
const double BENCH_VDD = 3.0;

/* Row erase and row write: Tpew, and the EEPROM byte write Tdew (electrical specs). */
const double FLASH_OP_S = 2.5e-3;
const double EEPROM_WRITE_S = 4.0e-3;

} // namespace

/* ---- small classes ------------------------------------------------------------------ */

Sfr18326::Sfr18326(P16F18326 *cpu, const char *name, unsigned int id)
    : sfr_register(cpu, name, name), id(id), chip(cpu) {}

void Sfr18326::put(unsigned int new_value) {
    chip->reg_put(id, new_value & 0xff);
}

unsigned int Sfr18326::get() {
    return chip->reg_get(id);
}

IocRelay::IocRelay(P16F18326 *cpu) : INTCON_14_PIR(cpu, "iocrelay", "IOC to PIR0"), chip(cpu) {}

void IocRelay::set_rbif(bool) {
    chip->iocif_update();
}

void IocRelay::aocxf_val(IOCxF *, unsigned int) {
    chip->iocif_update();
}

int PirSet18326::interrupt_status() {
    return chip->pending_interrupts();
}

WatchedLatch::WatchedLatch(P16F18326 *cpu, const char *name, PortRegister *port, unsigned int mask,
                           int port_index)
    : PicLatchRegister(cpu, name, name, port, mask), chip(cpu), port_index(port_index) {}

void WatchedLatch::put(unsigned int new_value) {
    PicLatchRegister::put(new_value);
    chip->latch_changed(port_index);
}

WatchedTris::WatchedTris(P16F18326 *cpu, const char *name, PicPortRegister *port, unsigned int mask)
    : PicTrisRegister(cpu, name, "", port, false, mask), chip(cpu) {}

void WatchedTris::put(unsigned int new_value) {
    unsigned int before = value.get();
    PicTrisRegister::put(new_value);
    chip->tris_changed(0, before, value.get());
}

void WatchedLatch::setbit(unsigned int bit, char state) {
    PicLatchRegister::setbit(bit, state);
    chip->latch_changed(port_index);
}

void PinWatch::setSinkState(char state) {
    chip->pin_changed(port, bit, state == '1' || state == 'W');
}

void ChipTimer::callback() {
    chip->timer(kind);
}

TrackingPC::TrackingPC(Module *cpu) : Program_Counter("pc", "Program Counter", cpu) {}

void TrackingPC::note() {
    if (value > highest && value < memory_size) {
        highest = value;
    }
}
void TrackingPC::increment() {
    Program_Counter::increment();
    note();
}
void TrackingPC::skip() {
    Program_Counter::skip();
    note();
}
void TrackingPC::jump(unsigned int a) {
    Program_Counter::jump(a);
    note();
}
void TrackingPC::interrupt(unsigned int a) {
    Program_Counter::interrupt(a);
    note();
}
void TrackingPC::computed_goto(unsigned int a) {
    Program_Counter::computed_goto(a);
    note();
}
void TrackingPC::new_address(unsigned int a) {
    Program_Counter::new_address(a);
    note();
}

/* ---- the processor ------------------------------------------------------------------ */

P16F18326::P16F18326(const char *name, const char *desc)
    : _14bit_e_processor(name, desc), pir_set(this), ioc_relay(this),
      ansela(this, "ansela", "Analog select A"), anselc(this, "anselc", "Analog select C"),
      odcona(this, "odcona", "Open drain A"), odconc(this, "odconc", "Open drain C"),
      slrcona(this, "slrcona", "Slew rate A"), slrconc(this, "slrconc", "Slew rate C"),
      inlvla(this, "inlvla", "Input level A"), inlvlc(this, "inlvlc", "Input level C"),
      nvm_timer(this, T_NVM), rx_timer(this, T_RX), tx_timer(this, T_TX) {
    /* The program counter that records the highest address executed. */
    delete pc;
    tracking_pc = new TrackingPC(this);
    pc = tracking_pc;
    pc->set_trace_command();

    for (unsigned int i = 0; i < R_COUNT; i++) {
        regs[i] = nullptr;
    }
    for (const RegSpec &spec : kRegs) {
        regs[spec.id] = new Sfr18326(this, spec.name, spec.id);
    }
    m_iocap = new IOC(this, "iocap", "IOC positive edge A", 0x3f);
    m_iocan = new IOC(this, "iocan", "IOC negative edge A", 0x3f);
    m_iocaf = new IOCxF(this, "iocaf", "IOC flags A", 0x3f);
    m_ioccp = new IOC(this, "ioccp", "IOC positive edge C", 0x3f);
    m_ioccn = new IOC(this, "ioccn", "IOC negative edge C", 0x3f);
    m_ioccf = new IOCxF(this, "ioccf", "IOC flags C", 0x3f);
    m_porta =
        new PicPortIOCRegister(this, "porta", "", &ioc_relay, m_iocap, m_iocan, m_iocaf, 8, 0x3f);
    m_portc =
        new PicPortIOCRegister(this, "portc", "", &ioc_relay, m_ioccp, m_ioccn, m_ioccf, 8, 0x3f);
    m_trisa = new WatchedTris(this, "trisa", m_porta, 0x37);
    m_trisc = new PicTrisRegister(this, "trisc", "", m_portc, false, 0x3f);
    m_lata = new WatchedLatch(this, "lata", m_porta, 0x37, 0);
    m_latc = new WatchedLatch(this, "latc", m_portc, 0x3f, 1);
    m_wpua = new WPU(this, "wpua", "Weak pull-up A", m_porta, 0x3f);
    m_wpuc = new WPU(this, "wpuc", "Weak pull-up C", m_portc, 0x3f);
    for (int i = 0; i < 256; i++) {
        eeprom[i] = 0xff;
    }
    for (int i = 0; i < 32; i++) {
        latches[i] = 0x3fff;
    }
}

P16F18326::~P16F18326() {
    delete bench;
}

Processor *P16F18326::construct(const char *name) {
    P16F18326 *p = new P16F18326(name, "PIC16F18326 (epdle model)");
    p->create();
    p->create_invalid_registers();
    p->create_symbols();
    return p;
}

void P16F18326::create() {
    /* The 14-pin package: RA5..RA0 on pins 2..7 and 13..11, RC5..RC0 on 5..10. */
    package = new Package(14);
    package->assign_pin(1, nullptr);  /* VDD */
    package->assign_pin(14, nullptr); /* VSS */
    const int a_pins[6] = {13, 12, 11, 4, 3, 2};
    const int c_pins[6] = {10, 9, 8, 7, 6, 5};
    for (int i = 0; i < 6; i++) {
        package->assign_pin(
            a_pins[i],
            m_porta->addPin(new IO_bi_directional_pu(("ra" + std::to_string(i)).c_str()), i));
        package->assign_pin(
            c_pins[i],
            m_portc->addPin(new IO_bi_directional_pu(("rc" + std::to_string(i)).c_str()), i));
    }
    set_mclr_pin(4);

    pic_processor::create();
    create_sfr_map();
    tracking_pc->memory_size = program_memory_size();
    set_frequency(fosc);

    /* PORT pins feed the EUSART receiver (through RXPPS) and the bench. */
    for (int port = 0; port < 2; port++) {
        for (int bit = 0; bit < 6; bit++) {
            PinWatch *w = new PinWatch(this, port, bit);
            watches.push_back(w);
            (port ? m_portc : m_porta)->addSink(w, bit);
        }
    }
    const char *scenario = std::getenv("EPDLE_BENCH_SCENARIO");
    if (scenario && *scenario) {
        bench = new Bench(this, scenario, std::getenv("EPDLE_BENCH_LOG"));
    }
}

void P16F18326::create_sfr_map() {
    _14bit_e_processor::create_sfr_map();
    /* The core's PCON sits at 0x96 on the older enhanced parts; here PCON0 is at 0x89B. */
    remove_sfr_register(&pcon);
    /* All seven PCLATH bits (program memory is 16 K words). */
    pclath->mValidBits = 0x7f;

    /* General purpose RAM: 80 bytes in banks 0..24, 32 in bank 25 (2,048 B with common RAM). */
    add_file_registers(0x20, 0x7f, 0x00);
    for (unsigned int bank = 1; bank <= 24; bank++) {
        add_file_registers(bank * 0x80 + 0x20, bank * 0x80 + 0x6f, 0x00);
    }
    add_file_registers(25 * 0x80 + 0x20, 25 * 0x80 + 0x3f, 0x00);
    /* Common RAM 0x70..0x7F is the same 16 bytes in all 32 banks. */
    for (unsigned int bank = 1; bank < 32; bank++) {
        alias_file_registers(0x70, 0x7f, bank * 0x80);
    }

    add_sfr_register(m_porta, 0x00c);
    add_sfr_register(m_portc, 0x00e);
    add_sfr_register(m_trisa, 0x08c, RegisterValue(0x3f, 0));
    add_sfr_register(m_trisc, 0x08e, RegisterValue(0x3f, 0));
    add_sfr_register(m_lata, 0x10c);
    add_sfr_register(m_latc, 0x10e);
    add_sfr_registerR(&ansela, 0x18c, RegisterValue(0x37, 0));
    add_sfr_registerR(&anselc, 0x18e, RegisterValue(0x3f, 0));
    add_sfr_register(m_wpua, 0x20c, RegisterValue(0x00, 0));
    add_sfr_register(m_wpuc, 0x20e, RegisterValue(0x00, 0));
    add_sfr_registerR(&odcona, 0x28c, RegisterValue(0, 0));
    add_sfr_registerR(&odconc, 0x28e, RegisterValue(0, 0));
    add_sfr_registerR(&slrcona, 0x30c, RegisterValue(0x37, 0));
    add_sfr_registerR(&slrconc, 0x30e, RegisterValue(0x3f, 0));
    add_sfr_registerR(&inlvla, 0x38c, RegisterValue(0x3f, 0));
    add_sfr_registerR(&inlvlc, 0x38e, RegisterValue(0x3f, 0));
    add_sfr_registerR(m_iocap, 0x391, RegisterValue(0, 0));
    add_sfr_registerR(m_iocan, 0x392, RegisterValue(0, 0));
    add_sfr_registerR(m_iocaf, 0x393, RegisterValue(0, 0));
    add_sfr_registerR(m_ioccp, 0x397, RegisterValue(0, 0));
    add_sfr_registerR(m_ioccn, 0x398, RegisterValue(0, 0));
    add_sfr_registerR(m_ioccf, 0x399, RegisterValue(0, 0));
    m_iocaf->set_intcon(&ioc_relay);
    m_ioccf->set_intcon(&ioc_relay);
    for (const RegSpec &spec : kRegs) {
        add_sfr_registerR(regs[spec.id], spec.address, RegisterValue(spec.por, 0));
    }
    /* INTCON here: GIE, PEIE and INTEDG only. */
    intcon_reg.write_mask = 0xc1;
    intcon_reg.set_pir_set(get_pir_set());
}

void P16F18326::create_config_memory() {
    m_configMemory = new ConfigMemory(this, 11);
    /* The four words are kept in config_words[] by set_config_word (below). */
}

/*
 * CONFIG1..4 at 0x8007..0x800A (p16f18326.inc): RSTOSC, WDTE, BOREN/BORV, MCLRE, STVREN,
 * WRT, LVP, CP. What each one does in this model is listed in the toolchain README.
 */
bool P16F18326::set_config_word(unsigned int address, unsigned int word) {
    if (address < 0x8007 || address > 0x800a) {
        return false;
    }
    config_words[address - 0x8007] = word & 0x3fff;
    if (address == 0x8007) {
        unsigned int rstosc = (word >> 4) & 7u;
        fosc = rstosc == 0 ? 32e6 : rstosc == 6 ? 1e6 : rstosc >= 4 ? 31e3 : 32e6;
        set_frequency(fosc);
    } else if (address == 0x8008) {
        wdt_flag = (word >> 2) & 3u;
        wdt_configure();
        stack->STVREN = (word >> 12) & 1u;
    }
    if (address == 0x8008 || address == 0x8009) {
        /* RA3 is MCLR with MCLRE = 1, or with LVP = 1 whatever MCLRE says. */
        if ((config_words[1] & 1u) || (config_words[2] & 0x2000u)) {
            assignMCLRPin(mclr_pin);
        } else {
            unassignMCLRPin();
        }
    }
    if (bench) {
        bench->config_word(address, word);
    }
    return true;
}

void P16F18326::set_out_of_range_pm(unsigned int address, unsigned int value) {
    if (address >= 0x8007 && address <= 0x800a) {
        set_config_word(address, value);
    } else if (address >= 0xf000 && address < 0xf100) {
        eeprom[address - 0xf000] = value & 0xff;
    }
}

PinModule *P16F18326::pin(int port_index, int bit) {
    return &(*(port_index ? m_portc : m_porta))[bit];
}

/* The flash as the loaded image left it, copied once, at the first NVM access. */
void P16F18326::load_flash() {
    if (!flash.empty()) {
        return;
    }
    flash.assign(0x4000, 0x3fff);
    for (unsigned int a = 0; a < 0x4000; a++) {
        instruction *i = program_memory[a];
        if (i && i->isa() != instruction::INVALID_INSTRUCTION) {
            flash[a] = i->get_opcode() & 0x3fff;
        }
    }
}

uint16_t P16F18326::flash_word(unsigned int address) {
    load_flash();
    return address < 0x4000 ? flash[address] : 0x3fff;
}

/* ---- interrupts and sleep ------------------------------------------------------------ */

void P16F18326::iocif_update() {
    unsigned int flags = m_iocaf->value.get() | m_ioccf->value.get();
    unsigned int pir0 = regs[R_PIR0]->value.get();
    unsigned int next = flags ? (pir0 | IOCIF) : (pir0 & ~IOCIF);
    regs[R_PIR0]->value.put(next);
    if (flags && (regs[R_PIE0]->value.get() & IOCIF)) {
        intcon_reg.peripheral_interrupt(false);
    }
}

void P16F18326::raise(unsigned int reg, unsigned int bit) {
    regs[reg]->value.put(regs[reg]->value.get() | bit);
    unsigned int enable = reg == R_PIR0 ? R_PIE0 : R_PIE1;
    if (regs[enable]->value.get() & bit) {
        intcon_reg.peripheral_interrupt(false);
    }
}

int P16F18326::pending_interrupts() {
    return ((regs[R_PIR0]->value.get() & regs[R_PIE0]->value.get() & 0x31u) |
            (regs[R_PIR1]->value.get() & regs[R_PIE1]->value.get())) != 0;
}

void P16F18326::enter_sleep() {
    /* VREGPM = 1: the low-power regulator in SLEEP. Only the WDT, BOR and IOC are meant to
     * wake the chip from it (datasheet, "Peripheral Usage in Sleep"): the EUSART's clock
     * and receiver are off, so its auto-wake never sees the start bit. */
    sleeping_low_power = (regs[R_VREGCON]->value.get() & 0x02u) != 0;
    sleep_count++;
    if (bench) {
        bench->sleep_changed(true);
    }
    _14bit_e_processor::enter_sleep();
}

void P16F18326::exit_sleep() {
    /* gpsim's port model asks to wake on any enabled IOC edge; the chip wakes only when an
     * enabled flag is set (IOCIE for IOC), which the flag handlers above re-check. */
    if (!is_sleeping()) {
        return;
    }
    if (!pending_interrupts() && !wdt_waking) {
        return;
    }
    wdt_waking = false;
    sleeping_low_power = false;
    if (bench) {
        bench->sleep_changed(false);
    }
    _14bit_e_processor::exit_sleep();
}

void P16F18326::wdt_configure() {
    /* WDTE (CONFIG2<3:2>): 00 off, 01 SWDTEN (WDTCON's bit runs it: swdten_active()),
     * 10 on while awake, 11 on. Its own prescaler: 2^WDTPS ms, not TMR0's. */
    wdt.initialize(wdt_flag >= 2u, false);
}

bool P16F18326::exit_wdt_sleep() {
    /* A watchdog time-out in SLEEP wakes the CPU (and clears TO) instead of resetting. */
    wdt_waking = _14bit_e_processor::exit_wdt_sleep();
    return wdt_waking;
}

void P16F18326::reset(RESET_TYPE r) {
    rx_count = 0;
    rx_busy = false;
    tx_bits_left = 0;
    tx_buffer_full = false;
    unlock_state = 0;
    nvm_pending_op = 0;
    for (int i = 0; i < 32; i++) {
        latches[i] = 0x3fff;
    }
    _14bit_e_processor::reset(r);
    wdt_configure();
    if (r == POR_RESET || r == MCLR_RESET) {
        set_frequency(fosc);
    }
    if (bench) {
        bench->chip_reset((int)r);
    }
}

/* ---- registers ----------------------------------------------------------------------- */

unsigned int P16F18326::reg_get(unsigned int id) {
    Sfr18326 *r = regs[id];
    unsigned int v = r->value.get();
    switch (id) {
    case R_RC1REG:
        if (rx_count > 0) {
            v = rx_fifo[0] & 0xff;
            rx_fifo[0] = rx_fifo[1];
            rx_count--;
            r->value.put(v);
        }
        /* RCIF stays while the FIFO holds a byte; a wake-up's RCIF (WUE) goes with the read. */
        if (rx_count == 0 || (regs[R_BAUD1CON]->value.get() & WUE)) {
            regs[R_PIR1]->value.put(regs[R_PIR1]->value.get() & ~RCIF);
        }
        return v;
    case R_RC1STA: {
        unsigned int ferr = (rx_count > 0 && (rx_fifo[0] & 0x100u)) ? FERR : 0u;
        return (v & ~FERR) | ferr;
    }
    case R_TX1STA:
        return (v & ~TRMT) | ((tx_bits_left == 0 && !tx_buffer_full) ? TRMT : 0u);
    case R_BAUD1CON:
        return (v & ~RCIDL) | (rx_busy ? 0u : RCIDL);
    case R_PIR1: {
        unsigned int txif = ((regs[R_TX1STA]->value.get() & TXEN) && !tx_buffer_full) ? TXIF : 0u;
        return (v & ~TXIF) | txif;
    }
    case R_OSCSTAT1:
        return 0x7fu & ~0x04u; /* every oscillator ready (the model has no start-up times) */
    default:
        return v;
    }
}

void P16F18326::reg_put(unsigned int id, unsigned int v) {
    Sfr18326 *r = regs[id];
    unsigned int old = r->value.get();
    switch (id) {
    case R_PIR0:
        r->value.put((old & ~PIR0_WRITABLE) | (v & PIR0_WRITABLE));
        return;
    case R_PIR1:
        /* RCIF and TXIF are read-only; the rest of PIR1 is not modelled. */
        r->value.put((old & (RCIF | TXIF)) | (v & ~(RCIF | TXIF)));
        return;
    case R_PIE0:
    case R_PIE1:
        r->value.put(v);
        if (pending_interrupts()) {
            intcon_reg.peripheral_interrupt(false);
        }
        return;
    case R_NVMCON1: {
        /* WR and RD can only be set; WRERR only cleared by software. */
        unsigned int next =
            (v & (NVMREGS | LWLO | FREE | WREN)) | (old & (WR | RD)) | (old & v & WRERR);
        r->value.put(next);
        if ((v & RD) && !(old & (RD | WR))) {
            unsigned int a = (regs[R_NVMADRH]->value.get() << 8) | regs[R_NVMADRL]->value.get();
            unsigned int data;
            if (next & NVMREGS) {
                data = (a >= 0x7000 && a < 0x7100)    ? eeprom[a - 0x7000]
                       : (a >= 0x0007 && a <= 0x000a) ? config_words[a - 7]
                                                      : 0x3fff;
            } else {
                data = flash_word(a & 0x3fff);
            }
            regs[R_NVMDATL]->value.put(data & 0xff);
            regs[R_NVMDATH]->value.put((data >> 8) & 0x3f);
        }
        if ((v & WR) && !(old & WR)) {
            nvm_start();
        }
        return;
    }
    case R_NVMCON2:
        unlock_state = (v == 0x55) ? 1 : (v == 0xaa && unlock_state == 1) ? 2 : 0;
        return;
    case R_NVMADRH:
        r->value.put(v & 0x7f);
        return;
    case R_NVMDATH:
        r->value.put(v & 0x3f);
        return;
    case R_TX1REG:
        r->value.put(v);
        if (!(regs[R_TX1STA]->value.get() & TXEN) || !(regs[R_RC1STA]->value.get() & SPEN)) {
            return;
        }
        if (tx_buffer_full) {
            return; /* overwrites nothing: the datasheet says the write is ignored */
        }
        tx_buffer = v;
        tx_buffer_full = true;
        if (tx_bits_left == 0) {
            tx_load();
        }
        return;
    case R_RC1STA:
        r->value.put((v & ~(OERR | FERR)) | (old & OERR));
        if (!(v & CREN)) {
            r->value.put(r->value.get() & ~OERR); /* clearing CREN clears OERR */
        }
        if (!(v & SPEN) || !(v & CREN)) {
            rx_busy = false; /* a sample still scheduled finds it idle and stops */
        }
        return;
    case R_BAUD1CON:
        r->value.put((v & ~RCIDL) | (old & RCIDL));
        return;
    case R_OSCCON1:
    case R_OSCFRQ:
        r->value.put(v);
        clock_update();
        return;
    case R_FVRCON:
        /* Ready at once (TFVRS, 25 us, is the firmware's wait). */
        r->value.put((v & ~FVRRDY) | ((v & FVREN) ? FVRRDY : 0u));
        return;
    case R_ADCON0:
        r->value.put(v & ~ADGO);
        if ((v & ADGO) && (v & ADON)) {
            adc_convert(v & CHS_FVR);
        }
        return;
    case R_RXPPS:
        r->value.put(v & 0x1f);
        return;
    case R_RC1PPS:
        r->value.put(v & 0x1f);
        return;
    default:
        r->value.put(v);
        return;
    }
}

/* One conversion, done at once (its 12 TAD are not counted): the FVR buffer at 1x against
 * VDD, else 0; ADRESH:ADRESL as ADFM justifies them. */
void P16F18326::adc_convert(unsigned int channel) {
    unsigned int fvr = regs[R_FVRCON]->value.get();
    unsigned int result = 0;
    if (channel == CHS_FVR && (fvr & FVREN) && (fvr & 3u) == ADFVR_1X) {
        result = (unsigned int)(1023.0 * 1.024 / BENCH_VDD + 0.5);
    }
    if (regs[R_ADCON1]->value.get() & ADFM) {
        regs[R_ADRESH]->value.put(result >> 8);
        regs[R_ADRESL]->value.put(result & 0xffu);
    } else {
        regs[R_ADRESH]->value.put(result >> 2);
        regs[R_ADRESL]->value.put((result & 3u) << 6);
    }
}

void P16F18326::clock_update() {
    /* NOSC (OSCCON1<6:4>): 000 HFINTOSC with 2x PLL, 110 HFINTOSC, 101 LFINTOSC;
     * NDIV (<3:0>) divides by 2^n; HFFRQ (OSCFRQ<3:0>) sets HFINTOSC. */
    static const double hf[] = {1e6, 2e6, 4e6, 8e6, 12e6, 16e6, 32e6, 32e6};
    unsigned int osccon1 = regs[R_OSCCON1]->value.get();
    unsigned int nosc = (osccon1 >> 4) & 7u;
    unsigned int ndiv = osccon1 & 0x0fu;
    double base = hf[regs[R_OSCFRQ]->value.get() & 7u];
    double f = nosc == 0 ? base * 2 : nosc == 6 ? base : nosc == 5 ? 31e3 : fosc;
    if (f > 32e6) {
        f = 32e6;
    }
    f /= (double)(1u << (ndiv > 9 ? 9 : ndiv));
    if (f != fosc) {
        if (bench) {
            bench->clock_changed(f); /* before: the bench keeps time at the old rate */
        }
        fosc = f;
        set_frequency(fosc);
    }
}

/* ---- NVM ---------------------------------------------------------------------------- */

void P16F18326::nvm_start() {
    unsigned int con = regs[R_NVMCON1]->value.get();
    int unlocked = unlock_state == 2;
    unlock_state = 0;
    if (!(con & WREN) || !unlocked) {
        /* Without WREN or the 55h/AAh sequence, WR does nothing (and WRERR says so). */
        regs[R_NVMCON1]->value.put((con & ~WR) | WRERR);
        if (bench) {
            bench->nvm_event("refused", 0, con);
        }
        return;
    }
    unsigned int a = (regs[R_NVMADRH]->value.get() << 8) | regs[R_NVMADRL]->value.get();
    unsigned int data = (regs[R_NVMDATH]->value.get() << 8) | regs[R_NVMDATL]->value.get();
    if (con & NVMREGS) {
        if (a >= 0x7000 && a < 0x7100 && !(con & FREE)) {
            /* The EEPROM byte write runs on while the CPU executes; WR clears at the end. */
            nvm_pending_op = 3;
            nvm_pending_addr = a;
            regs[R_NVMCON1]->value.put(con | WR);
            get_cycles().set_break(get_cycles().get() +
                                       (guint64)(EEPROM_WRITE_S / get_cycles().seconds_per_cycle()),
                                   &nvm_timer);
        } else {
            regs[R_NVMCON1]->value.put((con & ~WR) | WRERR);
        }
        return;
    }
    a &= 0x3fff;
    /* WRT (CONFIG3<1:0>): 11 off, 10 0000-01FF, 01 0000-1FFF, 00 all. */
    unsigned int wrt = config_words[2] & 3u;
    unsigned int protected_below = wrt == 3 ? 0 : wrt == 2 ? 0x200 : wrt == 1 ? 0x2000 : 0x4000;
    if (a < protected_below) {
        regs[R_NVMCON1]->value.put((con & ~WR) | WRERR);
        if (bench) {
            bench->nvm_event("protected", a, con);
        }
        return;
    }
    load_flash();
    if (!(con & FREE) && (con & LWLO)) {
        latches[a & 31u] = data & 0x3fff; /* a latch load: one cycle, no stall */
        regs[R_NVMCON1]->value.put(con & ~WR);
        return;
    }
    if (!(con & FREE)) {
        latches[a & 31u] = data & 0x3fff;
    }
    nvm_pending_op = (con & FREE) ? 1 : 2;
    nvm_pending_addr = a & ~31u;
    regs[R_NVMCON1]->value.put(con | WR);
    /* The CPU stalls until the row operation ends (its clock keeps counting). */
    get_cycles().set_break(
        get_cycles().get() + (guint64)(FLASH_OP_S / get_cycles().seconds_per_cycle()), &nvm_timer);
    bp.set_pm_write();
    pm_write();
}

void P16F18326::nvm_finish() {
    unsigned int op = nvm_pending_op;
    unsigned int row = nvm_pending_addr;
    nvm_pending_op = 0;
    if (op == 1 || op == 2) {
        for (unsigned int i = 0; i < 32; i++) {
            unsigned int a = row + i;
            /* Programming only clears bits: an unerased word keeps its zeros. */
            uint16_t next = op == 1 ? 0x3fff : (uint16_t)(flash[a] & latches[i]);
            flash[a] = next;
            pma->put_opcode(a, next);
            if (op == 2) {
                latches[i] = 0x3fff;
            }
        }
        bp.clear_pm_write();
        if (bench) {
            bench->nvm_event(op == 1 ? "erase" : "write", row, 0);
        }
    } else if (op == 3) {
        eeprom[nvm_pending_addr - 0x7000] = regs[R_NVMDATL]->value.get() & 0xff;
    }
    regs[R_NVMCON1]->value.put(regs[R_NVMCON1]->value.get() & ~WR);
}

/* ---- EUSART ------------------------------------------------------------------------- */

unsigned int P16F18326::bit_cycles() {
    /* Baud = Fosc / (k (n + 1)) with k = 4 (BRG16 and BRGH), 16 (one of them) or 64:
     * in instruction cycles (Fosc / 4) a bit is k (n + 1) / 4 of them. */
    unsigned int n = regs[R_SP1BRGL]->value.get();
    bool brg16 = regs[R_BAUD1CON]->value.get() & BRG16;
    bool brgh = regs[R_TX1STA]->value.get() & BRGH;
    if (brg16) {
        n |= regs[R_SP1BRGH]->value.get() << 8;
    }
    unsigned int k = (brg16 && brgh) ? 4 : (brg16 || brgh) ? 16 : 64;
    unsigned int c = k * (n + 1) / 4;
    return c ? c : 1;
}

PinModule *P16F18326::rx_pin() {
    unsigned int sel = regs[R_RXPPS]->value.get();
    unsigned int port = (sel >> 3) & 3u, bit = sel & 7u;
    if (bit > 5 || (port != 0 && port != 2)) {
        return nullptr;
    }
    return pin(port == 2 ? 1 : 0, bit);
}

bool P16F18326::tx_routed() {
    /* TX reaches the bench's line only on RC1 with RC1PPS = TX (10100) and RC1 an output. */
    return regs[R_RC1PPS]->value.get() == 0x14 && !(m_trisc->value.get() & 0x02) &&
           !(anselc.value.get() & 0x02);
}

void P16F18326::pin_changed(int port_index, int bit, bool level) {
    PinModule *rx = rx_pin();
    if (rx && rx == pin(port_index, bit)) {
        rx_edge(level);
    }
}

void P16F18326::rx_edge(bool level) {
    bool falling = rx_level && !level;
    rx_level = level;
    unsigned int rcsta = regs[R_RC1STA]->value.get();
    unsigned int baud = regs[R_BAUD1CON]->value.get();
    if (!(rcsta & SPEN)) {
        return;
    }
    if (baud & WUE) {
        /* Auto-wake: a falling edge sets RCIF (and wakes the CPU if RCIE); the next rising
         * edge clears WUE. No character is received. In the low-power sleep mode the
         * EUSART is not running and sees nothing. */
        if (is_sleeping() && sleeping_low_power) {
            if (bench && falling) {
                bench->note("rx edge unseen: low-power sleep");
            }
            return;
        }
        if (falling) {
            raise(R_PIR1, RCIF);
        } else if (level && (regs[R_PIR1]->value.get() & RCIF)) {
            regs[R_BAUD1CON]->value.put(baud & ~WUE);
        }
        return;
    }
    if (!(rcsta & CREN) || rx_busy || !falling || is_sleeping()) {
        return; /* asleep without WUE the receiver has no clock */
    }
    rx_busy = true;
    rx_bit_index = 0;
    rx_shift = 0;
    /* Sample each bit at its middle: the start bit half a bit from now. */
    get_cycles().set_break(get_cycles().get() + bit_cycles() / 2, &rx_timer);
}

void P16F18326::rx_sample() {
    if (!rx_busy) {
        return;
    }
    if (is_sleeping()) {
        rx_busy = false; /* the clock stopped mid-character */
        return;
    }
    bool level = rx_level;
    if (rx_bit_index == 0) {
        if (level) {
            rx_busy = false; /* a glitch, not a start bit */
            return;
        }
    } else if (rx_bit_index <= 8) {
        rx_shift |= (level ? 1u : 0u) << (rx_bit_index - 1);
    } else {
        rx_busy = false;
        unsigned int ferr = level ? 0u : 0x100u;
        if (rx_count == 2) {
            regs[R_RC1STA]->value.put(regs[R_RC1STA]->value.get() | OERR);
            if (bench) {
                bench->note("rx overrun");
            }
        } else if (!(regs[R_RC1STA]->value.get() & OERR)) {
            rx_fifo[rx_count++] = (uint16_t)(rx_shift | ferr);
            raise(R_PIR1, RCIF);
        }
        return;
    }
    rx_bit_index++;
    get_cycles().set_break(get_cycles().get() + bit_cycles(), &rx_timer);
}

void P16F18326::tx_load() {
    tx_shift = (tx_buffer << 1) | 0x200u; /* start bit, 8 data bits LSB first, stop bit */
    tx_buffer_full = false;
    tx_bits_left = 10;
    if (bench && tx_routed()) {
        bench->tx_byte(tx_buffer & 0xff);
    }
    get_cycles().set_break(get_cycles().get() + bit_cycles(), &tx_timer);
}

void P16F18326::tx_bit() {
    if (is_sleeping()) {
        /* The shift register stops in SLEEP; it goes on after the wake-up. */
        get_cycles().set_break(get_cycles().get() + bit_cycles(), &tx_timer);
        return;
    }
    tx_shift >>= 1;
    if (--tx_bits_left > 0) {
        get_cycles().set_break(get_cycles().get() + bit_cycles(), &tx_timer);
    } else if (tx_buffer_full) {
        tx_load();
    }
}

void P16F18326::timer(int kind) {
    if (kind == T_RX) {
        rx_sample();
    } else if (kind == T_TX) {
        tx_bit();
    } else {
        nvm_finish();
    }
}

void P16F18326::latch_changed(int port_index) {
    if (bench) {
        bench->latch_changed(port_index);
    }
}

void P16F18326::tris_changed(int port_index, unsigned int before, unsigned int after) {
    if (bench) {
        bench->tris_changed(port_index, before, after);
    }
}

/* ---- registration ------------------------------------------------------------------- */

static ProcessorConstructor pP16F18326(P16F18326::construct, "__16F18326", "pic16f18326",
                                       "p16f18326", "16f18326");

static Module_Types available_modules[] = {{{nullptr, nullptr}, nullptr}};

extern "C" Module_Types *get_mod_list() {
    return available_modules;
}
