#!/usr/bin/env bash
# Program the PIC16F18326 with MPLAB IPE's command-line tool (ipecmd) and a Microchip
# programmer on the ICSP header J2: `make flash` (hardware/flashing.md).
#
#   HEX=FILE     the image to write (default build/pic/epdle.hex, from make pic; or a
#                device image with frames from `epdle merge`)
#   TOOL=CODE    ipecmd's tool code: PK4 (PICkit 4, the default), PK5 (MPLAB PICkit 5), or
#                the code `ipecmd -?` lists for an MPLAB Snap
#   POWER=VOLTS  the programmer powers the board at this voltage (default 3.3); POWER=none
#                when the board has its own supply. Never with the cell switched on.
#   IPECMD=PATH  ipecmd.sh / ipecmd.exe (default: on PATH, else the newest under
#                /opt/microchip/mplabx)
#   DRY_RUN=1    print the command instead of running it
set -euo pipefail
cd "$(dirname "$0")/.."

hex="${HEX:-build/pic/epdle.hex}"
tool="${TOOL:-PK4}"
power="${POWER:-3.3}"

fail() {
  printf 'flash: %s\n' "$*" >&2
  exit 1
}

[ -f "$hex" ] || fail "no image at $hex: run make pic (or give HEX=device.hex from epdle merge)"
case "$tool" in
  *[!A-Za-z0-9]* | "") fail "TOOL=$tool is not a tool code such as PK4 or PK5" ;;
esac
case "$power" in
  none) power_args=() ;;
  *[!0-9.]* | "") fail "POWER=$power: give a voltage (3.3) or none" ;;
  *)
    awk -v v="$power" 'BEGIN { exit !(v >= 1.8 && v <= 3.6) }' ||
      fail "POWER=$power V is outside the PIC16F18326's 1.8-3.6 V"
    power_args=("-W$power")
    ;;
esac

ipecmd="${IPECMD:-}"
if [ -z "$ipecmd" ]; then
  ipecmd="$(command -v ipecmd.sh || command -v ipecmd || true)"
fi
if [ -z "$ipecmd" ]; then
  ipecmd="$(ls -1 /opt/microchip/mplabx/*/mplab_platform/mplab_ipe/ipecmd.sh 2>/dev/null | sort -V | tail -n 1 || true)"
fi

# -P device, -TP tool, -F image, -M program every memory, -Y verify, -W power the target,
# -OL release the chip from reset afterwards so it starts.
command=("${ipecmd:-ipecmd.sh}" "-P16F18326" "-TP$tool" "-F$hex" -M -Y "${power_args[@]}" -OL)
if [ "${DRY_RUN:-0}" = 1 ]; then
  printf '%s\n' "${command[*]}"
  exit 0
fi
[ -n "$ipecmd" ] || fail "ipecmd not found: install MPLAB IPE (part of MPLAB X) or give IPECMD=/path/to/ipecmd.sh"
if [ "$power" != none ]; then
  printf 'flash: the programmer powers the board at %s V: the cell switch SW2 must be OFF\n' "$power" >&2
fi
exec "${command[@]}"
