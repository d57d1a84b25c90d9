/*
 * sim_panel.c - the controller model (UC8151D or IL0373, sim_panel.h).
 *
 * SPI is decoded from pin edges alone: CS low frames bytes, SDA is sampled on
 * each rising SCL edge (mode 0, MSB first), DC is latched with a byte's
 * eighth bit. Commands execute as facts 1.3-1.4 describe them; BUSY is held
 * low for the published times, from a settable latency after the command on;
 * a refresh copies the two RAM planes to the displayed image when BUSY is
 * released. What each controller needs before it shows a frame:
 *   UC8151D: three reset pulses of at least 50 us since power-up or deep
 *            sleep, 10 ms after the last before the first command, then
 *            POWER_ON; a PANEL_SETTING for the three colours with the LUT
 *            from OTP (facts 4.1). GET_STATUS (0x71) is answered while busy.
 *   IL0373:  BOOSTER_SOFT_START and POWER_ON (facts 1.4).
 *
 * RAM. DTM1 (0x10) and DTM2 (0x13) write the controller's two RAM planes,
 * nothing else: the controller cannot read its glass. Both become unknown
 * when its supply is cut or it enters deep sleep (filled with noise here,
 * and each byte flagged until written again); a refresh that uses an unknown
 * byte is a violation and counted in sim_refresh_info()'s ram_unknown.
 *
 * Waveforms (UC8151D). With PANEL_SETTING's LUT-from-OTP bit (5) clear, a
 * refresh runs the panel's own three-colour waveform for its measured time:
 * DTM1 is the black/white plane, DTM2 the red one (bit 0 = ink), and both
 * whole planes are shown.
 * With it set and the black/white bit (4) set too, it runs the waveform of
 * the LUT registers 0x20 (VCOM, 44 bytes) and 0x21-0x24 (WW, BW, WB, BB, 42
 * bytes): seven groups of a level-select byte (phases A-D, two bits each from
 * the top: 00 ground, 01 VDH, 10 VDL, 11 floating), four frame counts and a
 * repeat count, at the frame rate of PLL_CONTROL (0x30). In that mode DTM1
 * holds the OLD picture and DTM2 the NEW one (facts 5.1): each pixel inside
 * the partial window (the whole panel outside PARTIAL_IN) runs the LUT of its
 * transition from its DTM1 value to its DTM2 value, whatever its glass shows;
 * VDH frames pull it black, VDL frames white, it ends on the side that got
 * more, and a pixel no frame drives keeps its glass. A pixel whose DTM1 value
 * is not what its glass showed is driven from the wrong side: the model counts
 * those (sim_refresh_info()'s wrong_pixels; the controller itself cannot know).
 * Red particles are not moved (a red pixel inside the window is a violation),
 * and each pixel counts the fast updates that drove it since the last full
 * refresh (its ghost count).
 */
#include "sim_panel.h"

#include "sim_bus.h"
#include "sim_clock.h"
#include "sim_power.h"
#include "sim_violation.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define ROW_BYTES 13u
#define PANEL_WIDTH 104u
#define PANEL_HEIGHT 212u
#define MAX_PARAMS 8u
#define LUT_COUNT 5u       /* 0x20 VCOM, 0x21 WW, 0x22 BW, 0x23 WB, 0x24 BB */
#define LUT_VCOM_BYTES 44u /* seven groups and two bytes the model ignores */
#define LUT_BYTES 42u      /* seven groups of six */
#define LUT_GROUPS 7u
#define LUT_GROUP_BYTES 6u
#define PLL_DEFAULT 0x3Cu /* 50 Hz */
#define PANEL_SETTING_LUT_FROM_REGISTERS 0x20u
#define PANEL_SETTING_BLACK_WHITE 0x10u

enum {
    CMD_PANEL_SETTING = 0x00,
    CMD_POWER_SETTING = 0x01,
    CMD_POWER_OFF = 0x02,
    CMD_POWER_OFF_SEQUENCE = 0x03,
    CMD_POWER_ON = 0x04,
    CMD_POWER_ON_MEASURE = 0x05,
    CMD_BOOSTER_SOFT_START = 0x06,
    CMD_DEEP_SLEEP = 0x07,
    CMD_DTM1 = 0x10,
    CMD_DATA_STOP = 0x11,
    CMD_DISPLAY_REFRESH = 0x12,
    CMD_DTM2 = 0x13,
    CMD_PLL_CONTROL = 0x30,
    CMD_VCOM_AND_DATA_INTERVAL = 0x50,
    CMD_LOW_POWER_DETECTION = 0x51,
    CMD_TCON_SETTING = 0x60,
    CMD_RESOLUTION_SETTING = 0x61,
    CMD_GET_STATUS = 0x71,
    CMD_PARTIAL_WINDOW = 0x90,
    CMD_PARTIAL_IN = 0x91,
    CMD_PARTIAL_OUT = 0x92,
    CMD_PROGRAM_MODE = 0xA0,
    CMD_ACTIVE_PROGRAM = 0xA1,
    CMD_READ_OTP = 0xA2,
    CMD_POWER_SAVING = 0xE3
};

#define DEEP_SLEEP_CHECK_CODE 0xA5u

typedef enum { BUSY_NONE = 0, BUSY_POWER_ON, BUSY_POWER_OFF, BUSY_REFRESH } busy_kind_t;

typedef struct {
    bool powered;
    bool in_reset;
    /* UC8151D reset rules: pulses since power-up or deep sleep, and when RST last moved */
    uint8_t reset_pulses;
    bool first_command_seen;
    uint64_t rst_fall_ns;
    uint64_t ready_ns;
    uint8_t panel_setting;
    uint8_t luts_loaded; /* bit n: LUT register 0x20 + n written */
    bool deep_sleep;
    bool booster_set;
    bool pumps_on;
    busy_kind_t busy;
    bool busy_pin_pending;  /* busy, BUSY not yet pulled low (the latency) */
    uint64_t busy_pin_ns;   /* when BUSY goes low */
    uint64_t busy_until_ns; /* when the operation ends and BUSY goes high */

    /* SPI receiver */
    uint8_t shift;
    uint8_t bits;

    /* command being received */
    bool have_command;
    uint8_t command;
    uint32_t data_count;
    uint8_t params[MAX_PARAMS];
    bool stream_overrun_reported;
    bool stream_before_init_reported;

    /* addressing */
    bool partial_mode;
    uint16_t window_x0, window_x1, window_y0, window_y1; /* pixels, inclusive */
    uint16_t resolution_w, resolution_h;                 /* 0 = never set */

    /* control nets already reported high while unpowered (one report per net per cut) */
    uint16_t backfeed_reported;

    /* waveform registers */
    uint8_t lut[LUT_COUNT][LUT_VCOM_BYTES];
    uint8_t pll;
    bool lut_overrun_reported;

    /* DTM1 and DTM2; a byte not written since the RAM was lost is unknown */
    uint8_t ram[2][SIM_PLANE_BYTES];
    bool written[2][SIM_PLANE_BYTES];
    /* the glass: black/white and red particles (not readable by the controller) */
    uint8_t shown[2][SIM_PLANE_BYTES];
    uint32_t refresh_count;
    /* the last refresh: RAM bytes it used that were unknown, pixels driven from a DTM1
     * value other than their glass; and those pixels over every refresh since boot */
    uint32_t ram_unknown;
    uint32_t wrong_pixels;
    uint32_t wrong_pixels_total;
    /* the refresh in progress or the last one (sim_refresh_info) */
    bool refresh_fast;
    bool refresh_balanced;
    uint32_t refresh_frames;
    uint32_t refresh_rate_hz;
    uint64_t refresh_ns;
    /* the window of a black/white refresh, and its drive per LUT (VDH frames - VDL frames) */
    uint16_t fast_x0, fast_x1, fast_y0, fast_y1;
    int32_t drive[LUT_COUNT];
} panel_t;

static panel_t panel;

/* Fast updates that drove each pixel since its last full refresh (kept across power cuts:
 * it is the state of the ink, not of the controller). */
static uint16_t ghost[PANEL_HEIGHT][PANEL_WIDTH];

static sim_panel_controller_t controller;

/* Fault hooks (sim_panel.h): BUSY times, and a controller that holds BUSY low. */
static uint64_t busy_ns[BUSY_REFRESH + 1] = {0, SIM_PANEL_POWER_ON_NS, SIM_PANEL_POWER_OFF_NS,
                                             SIM_PANEL_REFRESH_NS};
static bool busy_held_low;
static uint64_t busy_latency_ns;

/* What the controller drives on BUSY when nothing is in progress. */
static uint8_t idle_busy_level(void) {
    return panel.powered && !busy_held_low ? 1u : 0u;
}

static sim_epd_transaction_t *log_entries;
static size_t log_count;
static size_t log_capacity;

static const sim_net_t control_nets[] = {SIM_NET_EPD_SCL, SIM_NET_EPD_SDA, SIM_NET_EPD_CS,
                                         SIM_NET_EPD_DC, SIM_NET_EPD_RST};
#define CONTROL_NET_COUNT (sizeof control_nets / sizeof control_nets[0])

/* ---- transaction log ---------------------------------------------------- */

static void log_command(uint8_t command) {
    if (log_count == log_capacity) {
        size_t capacity = log_capacity == 0 ? 256u : log_capacity * 2u;
        sim_epd_transaction_t *grown = realloc(log_entries, capacity * sizeof *grown);

        if (grown == NULL) {
            return;
        }
        log_entries = grown;
        log_capacity = capacity;
    }
    memset(&log_entries[log_count], 0, sizeof log_entries[log_count]);
    log_entries[log_count].t_ns = sim_now();
    log_entries[log_count].cmd = command;
    log_count++;
}

static void log_data(uint8_t byte) {
    sim_epd_transaction_t *entry;
    uint32_t crc;
    int bit;

    if (log_count == 0) {
        return;
    }
    entry = &log_entries[log_count - 1u];
    if (entry->len < SIM_EPD_LOG_DATA_BYTES) {
        entry->data[entry->len] = byte;
    }
    entry->len++;
    crc = ~entry->crc32 ^ byte;
    for (bit = 0; bit < 8; bit++) {
        crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    entry->crc32 = ~crc;
}

size_t sim_epd_transaction_count(void) {
    return log_count;
}

int sim_epd_transaction(size_t index, sim_epd_transaction_t *out) {
    if (index >= log_count || out == NULL) {
        return -1;
    }
    *out = log_entries[index];
    return 0;
}

/* ---- state ---------------------------------------------------------------- */

/* Busy from the command on; the pin follows busy_latency_ns later, and the
 * operation's own time counts from there. */
static void set_busy(busy_kind_t kind, uint64_t duration_ns) {
    panel.busy = kind;
    panel.busy_pin_ns = sim_now() + busy_latency_ns;
    panel.busy_until_ns = panel.busy_pin_ns + duration_ns;
    panel.busy_pin_pending = busy_latency_ns != 0u;
    if (!panel.busy_pin_pending) {
        sim_bus_drive(SIM_NET_EPD_BUSY, 0u);
    }
    sim_power_update();
}

static void clear_busy(void) {
    panel.busy = BUSY_NONE;
    panel.busy_pin_pending = false;
    sim_bus_drive(SIM_NET_EPD_BUSY, idle_busy_level());
    sim_power_update();
}

/* The RAM's content is lost: noise, and every byte unknown until written again. */
static void forget_ram(void) {
    static uint32_t noise = 0x2545F491u;
    size_t plane;
    size_t i;

    for (plane = 0; plane < 2u; plane++) {
        for (i = 0; i < SIM_PLANE_BYTES; i++) {
            noise ^= noise << 13;
            noise ^= noise >> 17;
            noise ^= noise << 5;
            panel.ram[plane][i] = (uint8_t)noise;
        }
    }
    memset(panel.written, 0, sizeof panel.written);
}

/* Register state after a power-up or a hardware reset (the RAM is not touched here). */
static void reset_registers(void) {
    panel.deep_sleep = false;
    panel.booster_set = false;
    panel.pumps_on = false;
    panel.have_command = false;
    panel.partial_mode = false;
    panel.window_x0 = 0;
    panel.window_x1 = PANEL_WIDTH - 1u;
    panel.window_y0 = 0;
    panel.window_y1 = PANEL_HEIGHT - 1u;
    panel.resolution_w = 0;
    panel.resolution_h = 0;
    panel.panel_setting = 0;
    panel.luts_loaded = 0;
    memset(panel.lut, 0, sizeof panel.lut);
    panel.pll = PLL_DEFAULT;
    panel.shift = 0;
    panel.bits = 0;
}

/* An init starts (power-up, or deep sleep that only a reset ends): the UC8151D's count anew. */
static void init_starts(void) {
    panel.reset_pulses = 0;
    panel.first_command_seen = false;
    panel.ready_ns = 0;
}

void sim_panel_set_busy_ns(uint64_t power_on_ns, uint64_t power_off_ns, uint64_t refresh_ns) {
    busy_ns[BUSY_POWER_ON] = power_on_ns;
    busy_ns[BUSY_POWER_OFF] = power_off_ns;
    busy_ns[BUSY_REFRESH] = refresh_ns;
}

void sim_panel_set_busy_latency_ns(uint64_t latency_ns) {
    busy_latency_ns = latency_ns;
}

void sim_panel_hold_busy_low(bool held) {
    busy_held_low = held;
    if (panel.busy == BUSY_NONE) {
        sim_bus_drive(SIM_NET_EPD_BUSY, idle_busy_level());
    }
}

void sim_panel_set_controller(sim_panel_controller_t which) {
    controller = which;
    if (which == SIM_PANEL_IL0373) {
        sim_panel_set_busy_ns(SIM_IL0373_POWER_ON_NS, SIM_IL0373_POWER_OFF_NS,
                              SIM_IL0373_REFRESH_NS);
    } else {
        sim_panel_set_busy_ns(SIM_UC8151D_POWER_ON_NS, SIM_UC8151D_POWER_OFF_NS,
                              SIM_UC8151D_REFRESH_NS);
    }
}

void sim_panel_reset(void) {
    sim_panel_set_controller(SIM_PANEL_UC8151D);
    busy_held_low = false;
    busy_latency_ns = 0u;
    memset(&panel, 0, sizeof panel);
    reset_registers();
    forget_ram(); /* unpowered RAM holds nothing meaningful */
    memset(panel.shown, 0xFF, sizeof panel.shown);
    memset(ghost, 0, sizeof ghost);
    panel.refresh_balanced = true;
    free(log_entries);
    log_entries = NULL;
    log_count = 0;
    log_capacity = 0;
}

sim_panel_state_t sim_panel_state(void) {
    if (!panel.powered) {
        return SIM_PANEL_OFF;
    }
    if (panel.busy != BUSY_NONE) {
        return SIM_PANEL_BUSY;
    }
    return panel.deep_sleep ? SIM_PANEL_DEEP_SLEEP : SIM_PANEL_IDLE;
}

uint32_t sim_refresh_count(void) {
    return panel.refresh_count;
}

void sim_refresh_info(sim_refresh_info_t *out) {
    uint16_t most = 0;
    size_t x;
    size_t y;

    for (y = 0; y < PANEL_HEIGHT; y++) {
        for (x = 0; x < PANEL_WIDTH; x++) {
            most = ghost[y][x] > most ? ghost[y][x] : most;
        }
    }
    out->count = panel.refresh_count;
    out->fast = panel.refresh_fast ? 1u : 0u;
    out->dc_balanced = panel.refresh_balanced ? 1u : 0u;
    out->ghost_max = most;
    out->frames = panel.refresh_frames;
    out->frame_rate_hz = panel.refresh_rate_hz;
    out->duration_ns = panel.refresh_ns;
    out->ram_unknown = panel.ram_unknown;
    out->wrong_pixels = panel.wrong_pixels;
    out->wrong_pixels_total = panel.wrong_pixels_total;
}

void sim_panel_shown(uint8_t *black, uint8_t *red) {
    memcpy(black, panel.shown[0], SIM_PLANE_BYTES);
    memcpy(red, panel.shown[1], SIM_PLANE_BYTES);
}

void sim_panel_ram(uint8_t *black, uint8_t *red) {
    memcpy(black, panel.ram[0], SIM_PLANE_BYTES);
    memcpy(red, panel.ram[1], SIM_PLANE_BYTES);
}

bool sim_panel_pumps_on(void) {
    return panel.powered && (panel.pumps_on || panel.busy != BUSY_NONE);
}

static bool initialized(void) {
    return panel.pumps_on && (controller == SIM_PANEL_UC8151D || panel.booster_set);
}

static const char *init_steps(void) {
    return controller == SIM_PANEL_UC8151D ? "power on" : "booster soft start + power on";
}

/* ---- commands ------------------------------------------------------------ */

static bool known_command(uint8_t command) {
    switch (command) {
    case CMD_PANEL_SETTING:
    case CMD_POWER_SETTING:
    case CMD_POWER_OFF:
    case CMD_POWER_OFF_SEQUENCE:
    case CMD_POWER_ON:
    case CMD_POWER_ON_MEASURE:
    case CMD_BOOSTER_SOFT_START:
    case CMD_DEEP_SLEEP:
    case CMD_DTM1:
    case CMD_DATA_STOP:
    case CMD_DISPLAY_REFRESH:
    case CMD_DTM2:
    case CMD_PLL_CONTROL:
    case CMD_VCOM_AND_DATA_INTERVAL:
    case CMD_LOW_POWER_DETECTION:
    case CMD_TCON_SETTING:
    case CMD_RESOLUTION_SETTING:
    case CMD_GET_STATUS:
    case CMD_PARTIAL_WINDOW:
    case CMD_PARTIAL_IN:
    case CMD_PARTIAL_OUT:
    case CMD_PROGRAM_MODE:
    case CMD_ACTIVE_PROGRAM:
    case CMD_READ_OTP:
    case CMD_POWER_SAVING:
        return true;
    default:
        /* LUTs 0x20-0x24, temperature sensor 0x40-0x43, VCOM 0x80-0x82 */
        return (command >= 0x20u && command <= 0x24u) || (command >= 0x40u && command <= 0x43u) ||
               (command >= 0x80u && command <= 0x82u);
    }
}

/* ---- waveforms ------------------------------------------------------------ */

/* The UC8151's PLL_CONTROL table (frame rates in Hz); 0 = not in it. */
static uint32_t frame_rate_hz(uint8_t pll) {
    switch (pll) {
    case 0x3Fu:
        return 29u;
    case 0x3Eu:
        return 33u;
    case 0x3Du:
        return 40u;
    case 0x3Cu:
        return 50u;
    case 0x3Bu:
        return 67u;
    case 0x3Au:
        return 100u;
    case 0x39u:
        return 200u;
    default:
        return 0u;
    }
}

/*
 * Frames of the register waveform (each group lasts as long as its longest
 * LUT: the five run in step) and each LUT's drive: VDH frames less VDL frames
 * (for VCOM: above VCOM_DC less below it).
 */
static uint32_t waveform_frames(int32_t drive[LUT_COUNT]) {
    uint32_t total = 0;
    unsigned group;
    unsigned lut;
    unsigned phase;

    for (lut = 0; lut < LUT_COUNT; lut++) {
        drive[lut] = 0;
    }
    for (group = 0; group < LUT_GROUPS; group++) {
        uint32_t longest = 0;

        for (lut = 0; lut < LUT_COUNT; lut++) {
            const uint8_t *g = &panel.lut[lut][group * LUT_GROUP_BYTES];
            uint32_t repeats = g[5];
            uint32_t frames = 0;

            for (phase = 0; phase < 4u; phase++) {
                uint8_t level = (uint8_t)((g[0] >> (6u - 2u * phase)) & 0x03u);

                frames += g[1u + phase];
                if (level == 0x01u) {
                    drive[lut] += (int32_t)(g[1u + phase] * repeats);
                } else if (level == 0x02u) {
                    drive[lut] -= (int32_t)(g[1u + phase] * repeats);
                }
            }
            longest = frames * repeats > longest ? frames * repeats : longest;
        }
        total += longest;
    }
    return total;
}

/*
 * DC balance of a black/white waveform: no net drive where a pixel keeps its
 * colour (WW, BB) or on VCOM, and a pixel that goes black and back to white
 * (WB then BW) nets zero.
 */
static bool waveform_balanced(const int32_t drive[LUT_COUNT]) {
    return drive[0] == 0 && drive[1] == 0 && drive[4] == 0 && drive[2] + drive[3] == 0;
}

static void start_fast_refresh(void) {
    uint32_t rate = frame_rate_hz(panel.pll);
    uint16_t x;
    uint16_t y;

    if (rate == 0u) {
        sim_violation("PLL_CONTROL 0x%02X is not in the UC8151D's frame-rate table", panel.pll);
        rate = 50u;
    }
    panel.refresh_fast = true;
    panel.refresh_rate_hz = rate;
    panel.refresh_frames = waveform_frames(panel.drive);
    panel.refresh_ns = (uint64_t)panel.refresh_frames * 1000000000ull / rate;
    panel.refresh_balanced = waveform_balanced(panel.drive);
    if (!panel.refresh_balanced) {
        sim_violation("DISPLAY_REFRESH with a register waveform that is not DC-balanced (VDH - "
                      "VDL frames: VCOM %d, WW %d, BW %d, WB %d, BB %d)",
                      (int)panel.drive[0], (int)panel.drive[1], (int)panel.drive[2],
                      (int)panel.drive[3], (int)panel.drive[4]);
    }
    panel.fast_x0 = panel.partial_mode ? panel.window_x0 : 0u;
    panel.fast_x1 = panel.partial_mode ? panel.window_x1 : PANEL_WIDTH - 1u;
    panel.fast_y0 = panel.partial_mode ? panel.window_y0 : 0u;
    panel.fast_y1 = panel.partial_mode ? panel.window_y1 : PANEL_HEIGHT - 1u;
    for (y = panel.fast_y0; y <= panel.fast_y1; y++) {
        for (x = panel.fast_x0; x <= panel.fast_x1; x++) {
            if ((panel.shown[1][y * ROW_BYTES + x / 8u] & (0x80u >> (x % 8u))) == 0u) {
                sim_violation("black/white refresh over a red pixel (%u, %u): its particles "
                              "cannot be driven by it",
                              x, y);
                return;
            }
        }
    }
}

/*
 * What a black/white refresh leaves: each pixel of the window driven by the LUT of its
 * transition from DTM1 (OLD) to DTM2 (NEW); the glass only decides where a pixel no
 * frame drives stays, and which pixels were driven from the wrong side (counted).
 */
static void finish_fast_refresh(void) {
    uint16_t x;
    uint16_t y;

    panel.wrong_pixels = 0;
    for (y = panel.fast_y0; y <= panel.fast_y1; y++) {
        for (x = panel.fast_x0; x <= panel.fast_x1; x++) {
            size_t at = (size_t)y * ROW_BYTES + x / 8u;
            uint8_t bit = (uint8_t)(0x80u >> (x % 8u));
            bool old_white = (panel.ram[0][at] & bit) != 0u;
            bool new_white = (panel.ram[1][at] & bit) != 0u;
            int32_t drive = panel.drive[1u + (old_white ? 0u : 1u) + (new_white ? 0u : 2u)];

            if (old_white != ((panel.shown[0][at] & bit) != 0u)) {
                panel.wrong_pixels++;
            }

            if (drive > 0) {
                panel.shown[0][at] &= (uint8_t)~bit;
            } else if (drive < 0) {
                panel.shown[0][at] |= bit;
            }
            if (drive != 0 && ghost[y][x] < 0xFFFFu) {
                ghost[y][x]++;
            }
        }
    }
    panel.wrong_pixels_total += panel.wrong_pixels;
}

/* RAM bytes the refresh starting uses that are unknown: both whole planes for the OTP
 * waveform, both planes inside the window for a black/white one. */
static uint32_t unknown_bytes_used(void) {
    uint16_t x0 = panel.refresh_fast ? panel.fast_x0 / 8u : 0u;
    uint16_t x1 = panel.refresh_fast ? panel.fast_x1 / 8u : ROW_BYTES - 1u;
    uint16_t y0 = panel.refresh_fast ? panel.fast_y0 : 0u;
    uint16_t y1 = panel.refresh_fast ? panel.fast_y1 : PANEL_HEIGHT - 1u;
    uint32_t unknown = 0;
    size_t plane;
    uint16_t x;
    uint16_t y;

    for (plane = 0; plane < 2u; plane++) {
        for (y = y0; y <= y1; y++) {
            for (x = x0; x <= x1; x++) {
                unknown += panel.written[plane][(size_t)y * ROW_BYTES + x] ? 0u : 1u;
            }
        }
    }
    return unknown;
}

static void start_refresh(void) {

    if (!initialized()) {
        sim_violation("DISPLAY_REFRESH before init (%s)", init_steps());
        return;
    }
    panel.refresh_fast = false;
    panel.refresh_balanced = true;
    panel.refresh_frames = 0;
    panel.refresh_rate_hz = 0;
    panel.refresh_ns = busy_ns[BUSY_REFRESH];
    panel.wrong_pixels = 0;
    if (controller == SIM_PANEL_UC8151D) {
        uint8_t mode = panel.panel_setting &
                       (uint8_t)(PANEL_SETTING_LUT_FROM_REGISTERS | PANEL_SETTING_BLACK_WHITE);

        if (mode == PANEL_SETTING_BLACK_WHITE) {
            sim_violation("DISPLAY_REFRESH with PANEL_SETTING 0x%02X: black/white mode, the red "
                          "plane is not shown",
                          panel.panel_setting);
        } else if ((mode & PANEL_SETTING_LUT_FROM_REGISTERS) != 0u && panel.luts_loaded != 0x1Fu) {
            sim_violation("DISPLAY_REFRESH with PANEL_SETTING 0x%02X: LUT from registers, not "
                          "all of 0x20-0x24 loaded",
                          panel.panel_setting);
        } else if (mode == PANEL_SETTING_LUT_FROM_REGISTERS) {
            sim_violation("DISPLAY_REFRESH with PANEL_SETTING 0x%02X: a three-colour waveform "
                          "from the registers is not modelled",
                          panel.panel_setting);
        } else if (mode != 0u) {
            start_fast_refresh();
        }
    }
    if (panel.resolution_w != PANEL_WIDTH || panel.resolution_h != PANEL_HEIGHT) {
        sim_violation("DISPLAY_REFRESH with resolution %ux%u (the panel is 104x212)",
                      panel.resolution_w, panel.resolution_h);
    }
    panel.ram_unknown = unknown_bytes_used();
    if (panel.ram_unknown > 0) {
        sim_violation("DISPLAY_REFRESH shows RAM lost while unpowered or in deep sleep "
                      "(%u of the %s bytes it uses not rewritten)",
                      (unsigned)panel.ram_unknown, panel.refresh_fast ? "window's" : "5512");
    }
    set_busy(BUSY_REFRESH, panel.refresh_ns);
}

/* The UC8151D's vendors' reset before the first command of an init (sim_panel.h). */
static void check_reset_before(uint8_t command) {
    if (controller != SIM_PANEL_UC8151D) {
        return;
    }
    if (!panel.first_command_seen) {
        panel.first_command_seen = true;
        if (panel.reset_pulses < SIM_UC8151D_RESET_PULSES) {
            sim_violation("UC8151D: first command 0x%02X after %u reset pulse(s) (Good Display's "
                          "note on the upgraded UC8151D asks for %u at init)",
                          command, panel.reset_pulses, SIM_UC8151D_RESET_PULSES);
        }
    }
    if (sim_now() < panel.ready_ns) {
        sim_violation("UC8151D: command 0x%02X %.3f ms after reset (its vendors wait 10 ms)",
                      command, (double)(sim_now() + SIM_UC8151D_READY_NS - panel.ready_ns) / 1e6);
    }
}

static void start_command(uint8_t command) {
    check_reset_before(command);
    log_command(command);
    panel.have_command = true;
    panel.command = command;
    panel.data_count = 0;
    panel.stream_overrun_reported = false;
    panel.stream_before_init_reported = false;
    panel.lut_overrun_reported = false;

    switch (command) {
    case CMD_POWER_ON:
        set_busy(BUSY_POWER_ON, busy_ns[BUSY_POWER_ON]);
        break;
    case CMD_POWER_OFF:
        set_busy(BUSY_POWER_OFF, busy_ns[BUSY_POWER_OFF]);
        break;
    case CMD_DISPLAY_REFRESH:
        start_refresh();
        break;
    case CMD_PARTIAL_IN:
        panel.partial_mode = true;
        break;
    case CMD_PARTIAL_OUT:
        panel.partial_mode = false;
        break;
    default:
        if (!known_command(command)) {
            sim_violation("unknown command 0x%02X", command);
        }
        break;
    }
}

static void set_window(void) {
    uint16_t x0 = panel.params[0] & 0xF8u;
    uint16_t x1 = panel.params[1] | 0x07u;
    uint16_t y0 = (uint16_t)(((panel.params[2] & 0x01u) << 8) | panel.params[3]);
    uint16_t y1 = (uint16_t)(((panel.params[4] & 0x01u) << 8) | panel.params[5]);

    if (x1 >= PANEL_WIDTH || y1 >= PANEL_HEIGHT || x0 > x1 || y0 > y1) {
        sim_violation("PARTIAL_WINDOW x %u..%u y %u..%u is outside the 104x212 panel", x0, x1, y0,
                      y1);
        return;
    }
    panel.window_x0 = x0;
    panel.window_x1 = x1;
    panel.window_y0 = y0;
    panel.window_y1 = y1;
}

static void enter_deep_sleep(uint8_t check_code) {
    if (check_code != DEEP_SLEEP_CHECK_CODE) {
        sim_violation("DEEP_SLEEP with check code 0x%02X ignored (needs 0xA5)", check_code);
        return;
    }
    if (panel.pumps_on) {
        sim_violation("DEEP_SLEEP with the charge pumps on (POWER_OFF first)");
    }
    panel.deep_sleep = true;
    panel.booster_set = false;
    panel.pumps_on = false;
    init_starts();
    forget_ram();
    sim_power_update();
}

static void stream_byte(uint8_t byte, uint32_t index) {
    unsigned plane = panel.command == CMD_DTM1 ? 0u : 1u;
    uint32_t window_bytes = (uint32_t)(panel.window_x1 - panel.window_x0 + 1u) / 8u;
    uint32_t rows = (uint32_t)(panel.window_y1 - panel.window_y0 + 1u);
    uint32_t capacity = panel.partial_mode ? window_bytes * rows : SIM_PLANE_BYTES;
    uint32_t address;

    if (!initialized() && !panel.stream_before_init_reported) {
        panel.stream_before_init_reported = true;
        sim_violation("DTM%u data before init (%s)", plane + 1u, init_steps());
    }
    if (index >= capacity) {
        if (!panel.stream_overrun_reported) {
            panel.stream_overrun_reported = true;
            sim_violation("DTM%u data overruns the %s (%u bytes)", plane + 1u,
                          panel.partial_mode ? "partial window" : "plane", (unsigned)capacity);
        }
        return;
    }
    if (panel.partial_mode) {
        address = (panel.window_y0 + index / window_bytes) * ROW_BYTES + panel.window_x0 / 8u +
                  index % window_bytes;
    } else {
        address = index;
    }
    panel.ram[plane][address] = byte;
    panel.written[plane][address] = true;
}

static void data_byte(uint8_t byte) {
    uint32_t index;

    if (!panel.have_command) {
        sim_violation("data byte 0x%02X without a command", byte);
        return;
    }
    log_data(byte);
    index = panel.data_count++;
    if (index < MAX_PARAMS) {
        panel.params[index] = byte;
    }
    if (panel.command >= 0x20u && panel.command <= 0x24u) {
        unsigned lut = panel.command - 0x20u;
        unsigned size = lut == 0u ? LUT_VCOM_BYTES : LUT_BYTES;

        panel.luts_loaded |= (uint8_t)(1u << lut);
        if (index < size) {
            panel.lut[lut][index] = byte;
        } else if (!panel.lut_overrun_reported) {
            panel.lut_overrun_reported = true;
            sim_violation("LUT 0x%02X: more than its %u bytes", panel.command, size);
        }
    }
    switch (panel.command) {
    case CMD_PANEL_SETTING:
        if (index == 0u) {
            panel.panel_setting = byte;
            if (controller == SIM_PANEL_UC8151D && (byte & 0x01u) == 0u) {
                sim_violation("PANEL_SETTING 0x%02X: RST_N = 0 soft-resets the UC8151D", byte);
            }
        }
        break;
    case CMD_PLL_CONTROL:
        if (index == 0u) {
            panel.pll = byte;
        }
        break;
    case CMD_BOOSTER_SOFT_START:
        panel.booster_set = panel.booster_set || index == 2u;
        break;
    case CMD_DEEP_SLEEP:
        if (index == 0u) {
            enter_deep_sleep(byte);
        }
        break;
    case CMD_DTM1:
    case CMD_DTM2:
        stream_byte(byte, index);
        break;
    case CMD_RESOLUTION_SETTING:
        if (index == 2u) {
            panel.resolution_w = panel.params[0] & 0xF8u;
            panel.resolution_h = (uint16_t)(((panel.params[1] & 0x01u) << 8) | panel.params[2]);
        }
        break;
    case CMD_PARTIAL_WINDOW:
        if (index == 6u) {
            set_window();
        }
        break;
    default:
        break;
    }
}

static void byte_received(uint8_t byte, uint8_t dc) {
    if (panel.deep_sleep) {
        sim_violation("%s 0x%02X in deep sleep (only a reset wakes the controller)",
                      dc != 0u ? "data" : "command", byte);
        return;
    }
    if (panel.busy != BUSY_NONE) {
        if (controller == SIM_PANEL_UC8151D && dc == 0u && byte == CMD_GET_STATUS) {
            return; /* the UC8151D's status read works while busy (Waveshare polls it) */
        }
        sim_violation("%s 0x%02X while BUSY%s", dc != 0u ? "data" : "command", byte,
                      panel.busy_pin_pending ? " (the pin not low yet)" : "");
        return;
    }
    if (dc == 0u) {
        start_command(byte);
    } else {
        data_byte(byte);
    }
}

/* ---- pins ---------------------------------------------------------------- */

static void check_backfeed(sim_net_t net) {
    uint16_t bit = (uint16_t)(1u << net);

    if ((panel.backfeed_reported & bit) == 0u) {
        panel.backfeed_reported |= bit;
        sim_violation("%s high while EPD_VCC is off (back-feeds the panel)", sim_bus_net_name(net));
    }
}

static void supply_on(void) {
    panel.powered = true;
    panel.backfeed_reported = 0;
    panel.in_reset = sim_bus_level(SIM_NET_EPD_RST) == 0u;
    panel.rst_fall_ns = sim_now();
    init_starts();
    reset_registers();
    forget_ram();
    panel.busy = BUSY_NONE;
    panel.busy_pin_pending = false;
    sim_bus_drive(SIM_NET_EPD_BUSY, idle_busy_level());
}

static void supply_off(void) {
    size_t i;

    if (panel.busy != BUSY_NONE) {
        sim_violation("EPD_VCC cut while BUSY");
    } else if (panel.pumps_on) {
        sim_violation("EPD_VCC cut with the charge pumps on (no POWER_OFF)");
    }
    for (i = 0; i < CONTROL_NET_COUNT; i++) {
        if (sim_bus_level(control_nets[i]) != 0u) {
            check_backfeed(control_nets[i]);
        }
    }
    panel.powered = false;
    panel.busy = BUSY_NONE;
    panel.busy_pin_pending = false;
    reset_registers();
    forget_ram();
    sim_bus_drive(SIM_NET_EPD_BUSY, 0u);
}

static void reset_edge(uint8_t level) {
    uint64_t low_ns = sim_now() - panel.rst_fall_ns;

    if (level == 0u) {
        panel.in_reset = true;
        panel.rst_fall_ns = sim_now();
        reset_registers();
        if (panel.busy != BUSY_NONE) {
            clear_busy();
        }
    } else {
        panel.in_reset = false;
        if (controller == SIM_PANEL_UC8151D) {
            if (low_ns < SIM_UC8151D_RESET_MIN_NS) {
                sim_violation("UC8151D: RST low for %.1f us (it needs 50 us)",
                              (double)low_ns / 1e3);
            } else if (panel.reset_pulses < 0xFFu) {
                panel.reset_pulses++;
            }
            panel.ready_ns = sim_now() + SIM_UC8151D_READY_NS;
        }
    }
    sim_power_update();
}

static void clock_rise(void) {
    if (sim_bus_level(SIM_NET_EPD_CS) != 0u) {
        return;
    }
    panel.shift = (uint8_t)((panel.shift << 1) | sim_bus_level(SIM_NET_EPD_SDA));
    panel.bits++;
    if (panel.bits == 8u) {
        panel.bits = 0;
        if (panel.in_reset) {
            sim_violation("SPI byte 0x%02X while RST is low", panel.shift);
        } else {
            byte_received(panel.shift, sim_bus_level(SIM_NET_EPD_DC));
        }
    }
}

static void chip_select_edge(uint8_t level) {
    if (level != 0u && panel.bits != 0u) {
        sim_violation("CS released after %u bits of a byte", panel.bits);
    }
    panel.bits = 0;
    panel.shift = 0;
}

void sim_panel_on_edge(sim_net_t net, uint8_t level) {
    if (net == SIM_NET_EPD_VCC) {
        if (level != 0u) {
            supply_on();
        } else {
            supply_off();
        }
        sim_power_update();
        return;
    }
    if (net == SIM_NET_EPD_BUSY || net == SIM_NET_BUTTON || net == SIM_NET_UART_TX ||
        net == SIM_NET_UART_RX) {
        return;
    }
    if (!panel.powered) {
        if (level != 0u) {
            check_backfeed(net);
        }
        return;
    }
    switch (net) {
    case SIM_NET_EPD_RST:
        reset_edge(level);
        break;
    case SIM_NET_EPD_CS:
        chip_select_edge(level);
        break;
    case SIM_NET_EPD_SCL:
        if (level != 0u) {
            clock_rise();
        }
        break;
    default:
        break; /* SDA and DC are sampled, not edge-triggered */
    }
}

/* ---- BUSY timing ------------------------------------------------------------ */

uint64_t sim_panel_next_event(void) {
    if (panel.busy == BUSY_NONE) {
        return SIM_NEVER;
    }
    return panel.busy_pin_pending ? panel.busy_pin_ns : panel.busy_until_ns;
}

void sim_panel_run_events(void) {
    busy_kind_t finished = panel.busy;

    if (finished != BUSY_NONE && panel.busy_pin_pending && panel.busy_pin_ns <= sim_now()) {
        panel.busy_pin_pending = false;
        sim_bus_drive(SIM_NET_EPD_BUSY, 0u);
    }
    if (finished == BUSY_NONE || panel.busy_pin_pending || panel.busy_until_ns > sim_now()) {
        return;
    }
    switch (finished) {
    case BUSY_POWER_ON:
        panel.pumps_on = true;
        break;
    case BUSY_POWER_OFF:
        panel.pumps_on = false;
        break;
    case BUSY_REFRESH:
        if (panel.refresh_fast) {
            finish_fast_refresh();
        } else {
            memcpy(panel.shown, panel.ram, sizeof panel.shown);
            memset(ghost, 0, sizeof ghost);
        }
        panel.refresh_count++;
        break;
    default:
        break;
    }
    clear_busy();
}
