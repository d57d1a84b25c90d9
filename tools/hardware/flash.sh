#!/usr/bin/env bash
# Program the PIC16F18326 with MPLAB IPE's command-line tool (ipecmd) and a Microchip
# programmer on the ICSP header J2: `make flash` (hardware/flashing.md).
#
#   HEX=FILE     the image to write (default build/pic/epdle.hex, from make pic; or a
#                device image with frames from `epdle merge`)
#   TOOL=CODE    ipecmd's tool code: PK4 (PICkit 4, the default), PK5 (MPLAB PICkit 5),
#                SNAP (MPLAB Snap), or another code `ipecmd -?` lists
#   POWER=...    who powers the board while it is programmed:
#                  a voltage (default 3.3; 2.3-3.7 V: the PIC16F18326's floor, the panel's
#                  top): the
#                  programmer, with the cell switched off (SW2 at OFF);
#                  cell: the board's own cells (SW2 at BATT), for a programmer that cannot
#                  power its target (the Snap's default);
#                  none: a bench supply on J2 pins 2 and 3 (SW2 at OFF).
#   IPECMD=PATH  ipecmd.sh / ipecmd.exe (default: on PATH, else the newest under
#                /opt/microchip/mplabx or /Applications/microchip/mplabx)
#   DRY_RUN=1    check the settings and print the command instead of running it
#
# Written for bash 3.2 (macOS) too: no bash 4 features, and every expansion of a possibly
# empty array guarded as ${name[@]+...} (bash 3.2 calls it unbound under set -u).
set -euo pipefail
cd "$(dirname "$0")/../.."

VDD_MIN=2.3 # PIC16F18326 (not the LF part's 1.8-3.6 V): DS40001839, D001
# The chip takes 5.5 V, but the board's VDD reaches the panel module through U2, and the
# panel's supply is 3.7 V at most: the board's range is the chip's floor to the panel's top.
VDD_MAX=3.7

fail() {
  printf 'flash: %s\n' "$*" >&2
  exit 1
}

# True when $1 is a decimal number within [$2, $3].
within() {
  awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v + 0 == v && v >= lo && v <= hi) }'
}

# The last target voltage a programmer's output names ("... 3.02 V", "VDD: 3.02"), or nothing.
reported_vdd() {
  grep -i -E '(volt|vdd)' "$1" | grep -o -E '[0-9]+\.[0-9]+ ?V?' | tail -n 1 | tr -d ' V' || true
}

hex="${HEX:-build/pic/epdle.hex}"
tool="${TOOL:-PK4}"
case "$tool" in
  *[!A-Za-z0-9]* | "") fail "TOOL=$tool is not a tool code such as PK4, PK5 or SNAP" ;;
esac
# The MPLAB Snap has no target supply: the board powers itself.
powers_target=yes
case "$tool" in
  SNAP | snap | Snap) powers_target=no ;;
esac
if [ "$powers_target" = yes ]; then
  power="${POWER:-3.3}"
else
  power="${POWER:-cell}"
fi

[ -f "$hex" ] || fail "no image at $hex: run make pic (or give HEX=device.hex from epdle merge)"

power_args=()
case "$power" in
  cell | none) ;;
  *[!0-9.]* | "") fail "POWER=$power: give a voltage (3.3), cell or none" ;;
  *)
    within "$power" 0 "$VDD_MAX" ||
      fail "POWER=$power V is above the panel's $VDD_MAX V maximum (the board's VDD reaches it through U2): give $VDD_MIN-$VDD_MAX V"
    within "$power" "$VDD_MIN" "$VDD_MAX" ||
      fail "POWER=$power V is outside the PIC16F18326's $VDD_MIN V minimum: give $VDD_MIN-$VDD_MAX V"
    [ "$powers_target" = yes ] ||
      fail "TOOL=$tool cannot power the board: POWER=cell (SW2 at BATT) or POWER=none (a bench supply on J2 pins 2/3)"
    power_args=("-W$power")
    ;;
esac

ipecmd="${IPECMD:-}"
if [ -z "$ipecmd" ]; then
  ipecmd="$(command -v ipecmd.sh || command -v ipecmd || true)"
fi
if [ -z "$ipecmd" ]; then
  ipecmd="$(ls -1 /opt/microchip/mplabx/*/mplab_platform/mplab_ipe/ipecmd.sh \
    /Applications/microchip/mplabx/*/mplab_platform/mplab_ipe/ipecmd.sh 2>/dev/null |
    LC_ALL=C sort | tail -n 1 || true)"
fi

# -P device, -TP tool, -F image, -M program every memory, -Y verify, -W power the target,
# -OL release the chip from reset afterwards so it starts.
command=("${ipecmd:-ipecmd.sh}" "-P16F18326" "-TP$tool" "-F$hex" -M -Y ${power_args[@]+"${power_args[@]}"} -OL)
if [ "${DRY_RUN:-0}" = 1 ]; then
  printf '%s\n' "${command[*]}"
  exit 0
fi
[ -n "$ipecmd" ] || fail "ipecmd not found: install MPLAB IPE (part of MPLAB X) or give IPECMD=/path/to/ipecmd.sh"

case "$power" in
  cell)
    printf '%s\n' "flash: the board runs from its cell: SW2 at BATT, the UART adapter unplugged," \
      "flash: the programmer on J2 (its pin 1 to J2 pin 1); it reads VDD on pin 2 and drives nothing there" >&2
    ;;
  none)
    printf 'flash: the board runs from the supply on J2 pins 2/3 ($VDD_MIN-$VDD_MAX V): SW2 must be OFF\n' >&2
    ;;
  *)
    printf 'flash: the programmer powers the board at %s V: the cell switch SW2 must be OFF\n' "$power" >&2
    ;;
esac

log="$(mktemp "${TMPDIR:-/tmp}/flash.XXXXXX")"
trap 'rm -f "$log"' EXIT
status=0
"${command[@]}" 2>&1 | tee "$log" || status=$?
# The voltage the programmer read on J2 pin 2, when its output names one.
vdd="$(reported_vdd "$log")"
if [ -n "$vdd" ] && ! within "$vdd" "$VDD_MIN" "$VDD_MAX"; then
  fail "the programmer read VDD = $vdd V, outside the board's $VDD_MIN-$VDD_MAX V (the chip's minimum, the panel's maximum): check the cells (SW2 at BATT) or the supply"
fi
[ "$status" = 0 ] || fail "ipecmd failed (exit $status): see its output above and hardware/bringup.md step 2"
