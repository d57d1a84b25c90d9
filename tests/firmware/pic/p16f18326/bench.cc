/* The desk around the chip: see bench.h. */
#include "bench.h"

#include "p16f18326.h"

#include <gpsim/breakpoints.h>
#include <gpsim/gpsim_time.h>
#include <gpsim/stimuli.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace {

const double HOST_BAUD = 115200.0;
/* BUSY low times of the BOM module's UC8151D (GxEPD2's measurements; docs/sim-fidelity.md). */
const double POWER_ON_S = 0.079414, POWER_OFF_S = 0.03914, REFRESH_S = 16.788187;
/* Its reset (firmware/sim/sim_panel.h): RST low 50 us or more, three pulses since power-up
 * before the first command, 10 ms after the last. */
const double RESET_MIN_S = 50e-6, READY_S = 0.010;
/* Its waveform registers (firmware/sim/sim_panel.c, facts 4.1): PANEL_SETTING's bits 5
 * (LUT from registers) and 4 (black/white); PLL_CONTROL's frame rates; five LUTs of seven
 * groups of 6 bytes (a level select, four frame counts, a repeat count). */
const uint8_t PSR_REG = 0x20, PSR_BW = 0x10, PLL_DEFAULT = 0x3C;
const unsigned LUT_GROUPS = 7, LUT_GROUP_BYTES = 6;
const unsigned char PLL_HZ[][2] = {{0x3F, 29}, {0x3E, 33},  {0x3D, 40}, {0x3C, 50},
                                   {0x3B, 67}, {0x3A, 100}, {0x39, 200}};
const int RESET_PULSES = 3;
/* BUSY falls this long after a command that makes the controller busy (BUSY_DELAY_US). */
const unsigned DEFAULT_BUSY_DELAY_US = 1000;
const unsigned char GET_STATUS = 0x71;
enum { SCL = 0, SDA = 2, RST = 3, CS = 4, DC = 5 };
enum { PWR = 2, BUSY_PIN = 4, BUTTON = 5, RX = 1, MCLR_PIN = 3 };
const char *const PANEL_INPUTS[][2] = {
    {"0", "EPD_SCL"}, {"2", "EPD_SDA"}, {"3", "EPD_RST"}, {"4", "EPD_CS"}, {"5", "EPD_DC"}};

} // namespace

Bench::Bench(P16F18326 *cpu, const char *scenario, const char *log_path) : chip(cpu) {
    out = log_path ? std::fopen(log_path, "w") : stdout;
    if (!out) {
        out = stdout;
    }
    std::ifstream in(scenario);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        Step s;
        if (!(words >> s.op) || s.op[0] == '#') {
            continue;
        }
        std::getline(words, s.arg);
        size_t first = s.arg.find_first_not_of(' ');
        s.arg = first == std::string::npos ? "" : s.arg.substr(first);
        steps.push_back(s);
    }
    if (steps.empty()) {
        log("error", std::string("no steps in ") + scenario);
    }
    const char *delay = std::getenv("EPDLE_BENCH_BUSY_DELAY_US");
    busy_delay_us = delay ? (unsigned)std::strtoul(delay, nullptr, 10) : DEFAULT_BUSY_DELAY_US;
    log("busy_delay_us", std::to_string(busy_delay_us));
    /* First step on the first cycle: the lines idle high, the button released. */
    get_cycles().set_break(1, this);
}

Bench::~Bench() {
    if (out && out != stdout) {
        std::fclose(out);
    }
}

void Bench::log(const char *kind, const std::string &text) {
    uint64_t c = get_cycles().get();
    std::fprintf(out, "%llu %.9f %s %s\n", (unsigned long long)c, now_s(), kind, text.c_str());
    std::fflush(out);
}

double Bench::now_s() {
    uint64_t c = get_cycles().get();
    return time_base + (double)(c - time_cycle) * get_cycles().seconds_per_cycle();
}

void Bench::note(const char *what) {
    log("note", what);
}

void Bench::drive(int port, int bit, bool level) {
    /* No stimulus node on the pin: force its driven state, as gpsim's UI does. */
    chip->pin(port, bit)->getPin().forceDrivenState(level ? '1' : '0');
}

void Bench::schedule_s(double seconds) {
    uint64_t delta = (uint64_t)(seconds / get_cycles().seconds_per_cycle());
    deadline = get_cycles().get() + (delta ? delta : 1);
    get_cycles().set_break(deadline, this);
}

/* One break serves everything: the UART's next bit, the end of BUSY, the step's wait. */
void Bench::callback() {
    uint64_t now = get_cycles().get();
    if (!started) {
        started = true;
        drive(0, RX, true);
        drive(0, BUTTON, true);
        drive(0, MCLR_PIN, true);
        drive(0, BUSY_PIN, false);
        next_step();
        return;
    }
    if (uart_active && now >= uart_next) {
        uart_next_bit();
    }
    if (busy && busy_pin_pending && now >= busy_pin_at) {
        busy_pin_pending = false;
        drive(0, BUSY_PIN, false);
        log("busy", "low");
    }
    if (busy && !busy_pin_pending && now >= busy_end) {
        busy = false;
        drive(0, BUSY_PIN, powered);
        log("busy", "0");
    }
    switch (waiting) {
    case TIME:
    case REPLY:
        if (waiting == REPLY && replies_seen > replies_at_step) {
            waiting = NONE;
            next_step();
        } else if (now >= deadline) {
            if (waiting == REPLY) {
                log("timeout", "reply");
            }
            waiting = NONE;
            next_step();
        }
        break;
    case UART:
        if (!uart_active) {
            waiting = NONE;
            next_step();
        }
        break;
    case PRESS:
        if (now >= deadline) {
            drive(0, BUTTON, true);
            log("button", "up");
            waiting = NONE;
            next_step();
        }
        break;
    case MCLR:
        if (now >= deadline) {
            drive(0, MCLR_PIN, true);
            log("mclr", "up");
            waiting = NONE;
            next_step();
        }
        break;
    default:
        break;
    }
    /* Re-arm for the earliest thing still pending. */
    uint64_t next = 0;
    auto consider = [&](bool on, uint64_t at) {
        if (on && at > now && (next == 0 || at < next)) {
            next = at;
        }
    };
    consider(uart_active, uart_next);
    consider(busy && busy_pin_pending, busy_pin_at);
    consider(busy && !busy_pin_pending, busy_end);
    consider(waiting == TIME || waiting == REPLY || waiting == PRESS || waiting == MCLR, deadline);
    if (next) {
        get_cycles().set_break(next, this);
    }
}

void Bench::next_step() {
    while (step_index < steps.size()) {
        const Step &s = steps[step_index++];
        if (s.op == "mark") {
            log("mark", s.arg);
        } else if (s.op == "wait") {
            waiting = TIME;
            schedule_s(std::atof(s.arg.c_str()) / 1000.0);
            return;
        } else if (s.op == "send") {
            tx_queue.clear();
            for (size_t i = 0; i + 1 < s.arg.size(); i += 2) {
                tx_queue.push_back((uint8_t)std::strtoul(s.arg.substr(i, 2).c_str(), nullptr, 16));
            }
            log("send", s.arg);
            tx_pos = 0;
            bit_index = 0;
            uart_active = !tx_queue.empty();
            uart_next = get_cycles().get() + 1;
            waiting = UART;
            get_cycles().set_break(uart_next, this);
            return;
        } else if (s.op == "reply") {
            waiting = REPLY;
            replies_at_step = replies_seen;
            schedule_s(std::atof(s.arg.c_str()) / 1000.0);
            return;
        } else if (s.op == "press") {
            drive(0, BUTTON, false);
            log("button", "down");
            waiting = PRESS;
            schedule_s(std::atof(s.arg.c_str()) / 1000.0);
            return;
        } else if (s.op == "mclr") {
            drive(0, MCLR_PIN, false);
            log("mclr", "down");
            waiting = MCLR;
            schedule_s(0.001);
            return;
        } else if (s.op == "rx") {
            /* What holds the line between the host's bytes: 1 a powered adapter (idle
             * high), 0 an unpowered one left on J1 (held low by its protection diodes). */
            rx_idle_high = s.arg != "0";
            drive(0, RX, rx_idle_high);
            log("rx", rx_idle_high ? "1" : "0");
        } else if (s.op == "peek") {
            unsigned int address = (unsigned int)std::strtoul(s.arg.c_str(), nullptr, 16);
            char text[48];
            std::snprintf(text, sizeof text, "%03x=%02x", address,
                          chip->registers[address & 0xfffu]->get_value());
            log("peek", text);
        } else if (s.op == "end") {
            break;
        } else {
            log("error", "unknown step " + s.op);
        }
    }
    char text[96];
    std::snprintf(text, sizeof text, "highest_pc=0x%04x sleeps=%llu", chip->highest_pc(),
                  (unsigned long long)chip->sleep_count);
    log("end", text);
    step_index = steps.size();
    get_bp().halt();
}

void Bench::uart_next_bit() {
    /* 8N1, LSB first, at the host's 115200 Bd (the chip's BRG gives 114286 at 16 MHz). */
    uint8_t byte = tx_queue[tx_pos];
    bool level = bit_index == 0 ? false : bit_index <= 8 ? ((byte >> (bit_index - 1)) & 1u) : true;
    drive(0, RX, level);
    bit_index++;
    if (bit_index == 10) {
        bit_index = 0;
        tx_pos++;
        if (tx_pos == tx_queue.size()) {
            uart_active = false;
        }
    }
    /* Bit edges from the start of the byte, so the rate does not drift with rounding. */
    uart_next =
        get_cycles().get() + (uint64_t)(1.0 / HOST_BAUD / get_cycles().seconds_per_cycle() + 0.5);
}

void Bench::tx_byte(unsigned int byte) {
    char text[8];
    std::snprintf(text, sizeof text, "%02x", byte);
    log("tx", text);
    if (byte == 0) {
        replies_seen++;
        if (waiting == REPLY) {
            get_cycles().set_break(get_cycles().get() + 1, this);
        }
    }
}

uint64_t Bench::cycles_in(double seconds) {
    return (uint64_t)(seconds / get_cycles().seconds_per_cycle());
}

/* Busy from the command on; BUSY falls busy_delay_us later, and the time counts from there. */
void Bench::busy_for(double seconds, const char *why) {
    busy = true;
    busy_pin_at = get_cycles().get() + cycles_in(busy_delay_us * 1e-6);
    busy_end = busy_pin_at + cycles_in(seconds);
    busy_pin_pending = busy_delay_us != 0;
    if (!busy_pin_pending) {
        drive(0, BUSY_PIN, false);
    }
    log("busy", why);
    get_cycles().set_break(busy_pin_pending ? busy_pin_at : busy_end, this);
}

/* The UC8151D's reset before the first command of an init, and the 10 ms after it. */
void Bench::check_reset_before(unsigned command) {
    char text[96];
    if (!first_command_seen) {
        first_command_seen = true;
        if (reset_pulses < RESET_PULSES) {
            std::snprintf(text, sizeof text, "first command 0x%02x after %d reset pulse(s), not %d",
                          command, reset_pulses, RESET_PULSES);
            log("violation", text);
        }
    }
    if (get_cycles().get() < ready_at) {
        std::snprintf(text, sizeof text, "command 0x%02x within 10 ms of the reset", command);
        log("violation", text);
    }
}

/* A panel input high while the panel's supply is off feeds it through its clamp diodes. */
void Bench::check_inputs_unpowered(unsigned int high) {
    for (const auto &input : PANEL_INPUTS) {
        if ((high >> std::atoi(input[0])) & 1u) {
            log("violation", std::string(input[1]) + " high while the panel is unpowered");
        }
    }
}

/* RA1 turned into an input reads the line as the host side holds it (gpsim keeps a level
 * forced on a pin while the chip drove it, but does not apply it when the pin turns). */
void Bench::tris_changed(int port, unsigned int before, unsigned int after) {
    unsigned int rx_bit = 1u << RX;
    if (port == 0 && !(before & rx_bit) && (after & rx_bit) && !uart_active) {
        IOPIN &pin = chip->pin(0, RX)->getPin();
        pin.forceDrivenState('Z'); /* not forced, then forced again: applied now */
        pin.forceDrivenState(rx_idle_high ? '1' : '0');
    }
}

void Bench::latch_changed(int port) {
    unsigned int lat = chip->latch(port);
    unsigned int tris = chip->tris(port);
    if (port == 0) {
        bool pwr = ((lat & ~tris) >> PWR) & 1u;
        if (pwr != powered) {
            powered = pwr;
            log("power", pwr ? "on" : "off");
            if (powered) {
                panel_setting = 0x0F;
                pll = PLL_DEFAULT;
                std::memset(lut, 0, sizeof lut);
                reset_pulses = 0;
                first_command_seen = false;
                ready_at = 0;
                rst_fell_at = get_cycles().get();
            } else {
                check_inputs_unpowered(last_latc);
            }
            if (!busy) {
                drive(0, BUSY_PIN, powered);
            }
        }
        return;
    }
    unsigned int out = lat & ~tris;
    unsigned int rose = out & ~last_latc;
    unsigned int fell = ~out & last_latc;
    last_latc = out;
    if (!powered) {
        check_inputs_unpowered(rose);
    }
    if ((fell >> RST) & 1u) {
        rst_fell_at = get_cycles().get();
    }
    if (((rose >> RST) & 1u) && powered) {
        if (get_cycles().get() - rst_fell_at < cycles_in(RESET_MIN_S)) {
            log("violation", "RST low for less than 50 us");
        } else {
            reset_pulses++;
        }
        ready_at = get_cycles().get() + cycles_in(READY_S);
    }
    if ((fell >> CS) & 1u) {
        shift = 0;
        bits = 0;
    }
    if ((rose >> CS) & 1u) {
        if (bits != 0) {
            log("spi_partial", std::to_string(bits));
        }
        bits = 0;
    }
    if (((rose >> SCL) & 1u) && !((out >> CS) & 1u)) {
        shift = (uint8_t)((shift << 1) | ((out >> SDA) & 1u));
        if (++bits == 8) {
            bits = 0;
            bool data = (out >> DC) & 1u;
            char text[16];
            std::snprintf(text, sizeof text, "%c%02x", data ? 'd' : 'c', shift);
            log("spi", text);
            if (data) {
                register_data(shift);
            } else {
                command = shift;
                data_index = 0;
                check_reset_before(shift);
                if (busy && shift != GET_STATUS) {
                    log("violation", busy_pin_pending ? "command while BUSY (the pin not low yet)"
                                                      : "command while BUSY");
                }
                if (shift == 0x04) {
                    busy_for(POWER_ON_S, "power_on");
                } else if (shift == 0x02) {
                    busy_for(POWER_OFF_S, "power_off");
                } else if (shift == 0x12) {
                    busy_for(refresh_seconds(), "refresh");
                }
            }
        }
    }
}

void Bench::sleep_changed(bool asleep) {
    log("sleep", asleep ? (chip->low_power_sleep() ? "enter low-power" : "enter normal") : "exit");
}

void Bench::chip_reset(int type) {
    log("reset", std::to_string(type));
}

void Bench::clock_changed(double hz) {
    /* A wait in progress keeps its length in seconds: its deadline, counted in cycles of
     * the old rate, is counted again in cycles of the new one (4 clocks a cycle). */
    uint64_t c = get_cycles().get();
    bool timed = waiting == TIME || waiting == REPLY || waiting == PRESS || waiting == MCLR;
    double left_s = timed && deadline > c ? (double)(deadline - c) * get_cycles().seconds_per_cycle()
                                          : -1.0;
    time_base = now_s();
    time_cycle = c;
    log("fosc", std::to_string((long long)hz));
    if (left_s >= 0.0) {
        uint64_t delta = (uint64_t)(left_s * hz / 4.0);
        deadline = c + (delta ? delta : 1);
        get_cycles().set_break(deadline, this);
    }
}

void Bench::config_word(unsigned int address, unsigned int word) {
    char text[32];
    std::snprintf(text, sizeof text, "%04x=%04x", address, word);
    log("config", text);
}

void Bench::nvm_event(const char *what, unsigned int address, unsigned int con) {
    char text[64];
    std::snprintf(text, sizeof text, "%s %04x %02x", what, address, con);
    log("nvm", text);
}

void Bench::register_data(uint8_t value) {
    if (command == 0x00 && data_index == 0) {
        panel_setting = value;
    } else if (command == 0x30 && data_index == 0) {
        pll = value;
    } else if (command >= 0x20 && command <= 0x24 && data_index < sizeof lut[0]) {
        lut[command - 0x20][data_index] = value;
    }
    data_index++;
}

/*
 * The OTP's three-colour waveform takes its measured time; a register waveform (PANEL_SETTING
 * with both bits) its frames at PLL_CONTROL's rate: each group as long as its longest LUT
 * (the five run in step), (A + B + C + D) frames times the repeat count.
 */
double Bench::refresh_seconds() {
    if ((panel_setting & (PSR_REG | PSR_BW)) != (PSR_REG | PSR_BW)) {
        return REFRESH_S;
    }
    unsigned hz = 0;
    for (const auto &entry : PLL_HZ) {
        if (entry[0] == pll) {
            hz = entry[1];
        }
    }
    if (hz == 0) {
        log("violation", "PLL_CONTROL not in the UC8151D's frame-rate table");
        hz = 50;
    }
    unsigned long frames = 0;
    for (unsigned group = 0; group < LUT_GROUPS; group++) {
        unsigned long longest = 0;
        for (const auto &table : lut) {
            const uint8_t *g = &table[group * LUT_GROUP_BYTES];
            unsigned long n = (unsigned long)(g[1] + g[2] + g[3] + g[4]) * g[5];
            longest = n > longest ? n : longest;
        }
        frames += longest;
    }
    char text[64];
    std::snprintf(text, sizeof text, "%lu frames at %u Hz", frames, hz);
    log("waveform", text);
    return (double)frames / hz;
}
