/*
 * sim_vcd.c - VCD writer, 1 ns timescale, one 1-bit wire per net.
 */
#include "sim_vcd.h"

#include "sim_bus.h"
#include "sim_clock.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

static FILE *vcd_file;
static uint64_t stamped_ns;
static bool stamped;

/* Letters, not the punctuation VCD also allows: '#' and '$' confuse line-based readers. */
static char net_id(sim_net_t net) {
    return (char)('A' + (int)net);
}

int sim_vcd_open(const char *path) {
    int net;

    sim_vcd_close();
    vcd_file = fopen(path, "w");
    if (vcd_file == NULL) {
        return -1;
    }
    fprintf(vcd_file, "$version epdle simulated board $end\n$timescale 1ns $end\n"
                      "$scope module board $end\n");
    for (net = 0; net < SIM_NET_COUNT; net++) {
        fprintf(vcd_file, "$var wire 1 %c %s $end\n", net_id((sim_net_t)net),
                sim_bus_net_name((sim_net_t)net));
    }
    fprintf(vcd_file, "$upscope $end\n$enddefinitions $end\n#%" PRIu64 "\n$dumpvars\n", sim_now());
    for (net = 0; net < SIM_NET_COUNT; net++) {
        fprintf(vcd_file, "%u%c\n", sim_bus_level((sim_net_t)net), net_id((sim_net_t)net));
    }
    fprintf(vcd_file, "$end\n");
    stamped_ns = sim_now();
    stamped = true;
    return 0;
}

void sim_vcd_edge(sim_net_t net, uint8_t level) {
    if (vcd_file == NULL) {
        return;
    }
    if (!stamped || sim_now() != stamped_ns) {
        stamped_ns = sim_now();
        stamped = true;
        fprintf(vcd_file, "#%" PRIu64 "\n", stamped_ns);
    }
    fputc(level != 0u ? '1' : '0', vcd_file);
    fputc(net_id(net), vcd_file);
    fputc('\n', vcd_file);
}

void sim_vcd_close(void) {
    if (vcd_file == NULL) {
        return;
    }
    if (sim_now() != stamped_ns) {
        fprintf(vcd_file, "#%" PRIu64 "\n", sim_now());
    }
    fclose(vcd_file);
    vcd_file = NULL;
    stamped = false;
}
