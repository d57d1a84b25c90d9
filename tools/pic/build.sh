#!/usr/bin/env bash
# make pic: the firmware for the PIC16F18326 with SDCC pic14 and gputils, and
# the same portable code for the PIC16F1788 that gpsim simulates.
#
#   build/pic/epdle.hex .map .cod   the 16F18326 image (flash this)
#   build/pic/18326/*.o             the 16F18326 objects (gpasm 1.5.2)
#   build/pic/1788/epdle-1788.*     the 16F1788 image (gpsim), libepdle.lib
#
# Figures (per module words and RAM, program words, static RAM, stack depth)
# are those of the 16F18326 image; the last line is `words=N ram=M stack=K`.
# Fails when program words exceed WORDS_PERCENT (95) % of the flash below the frame store
# (STORE_REGION_FIRST_ROW * 32 of firmware/app/store_layout.h), static RAM
# 1,536 B, the stack 14 levels, or a RAM section cannot be placed.
# See firmware/toolchain/README.md.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${EPDLE_PIC_OUT:-$root/build/pic}"
py="${PYTHON:-$root/.venv/bin/python}"
fw="$root/firmware"
# The 16F1788 build gpsim runs is a test rig: its HAL and main.c live with the tests.
rig1788="$root/tests/firmware/pic/p16f1788"

die() {
    echo "pic: $*" >&2
    exit 1
}

start=$SECONDS
prefix="$(bash "$root/tools/pic/toolchain.sh")" || exit 1
export PATH="$prefix/bin:$PATH"
[[ -x "$py" ]] || die "no Python at $py: run make venv"
pymcu="$("$py" -c 'import os, pymcu_pic_toolchain as p; print(os.path.dirname(p.__file__))' 2> /dev/null)" ||
    die "pymcu-pic-toolchain (gpasm 1.5.2) not importable by $py: run make venv"
gpasm152="$pymcu/bin/gpasm"
inc152="$pymcu/header"
"$gpasm152" --version 2>&1 | grep -c "1\.5\.2" > /dev/null || die "$gpasm152 is not gpasm 1.5.2"
for tool in gpasm gplink gplib gpvo; do
    command -v "$tool" > /dev/null || die "$tool not found: run apt-get install -y gputils"
done
inc18326="$inc152/p16f18326.inc"
inc1788=/usr/share/gputils/header/p16f1788.inc
lkr1788=/usr/share/gputils/lkr/16f1788_g.lkr
[[ -f "$inc1788" && -f "$lkr1788" ]] || die "gputils' p16f1788.inc/16f1788_g.lkr missing: run apt-get install -y gputils"
runtime=("$prefix/share/sdcc/lib/pic14/libsdcce.lib" "$prefix/share/sdcc/lib/pic14/libce.lib")
# EPDLE_PIC_SPLIT_LOCALS=1: SDCC gives every local its own RAM section (more
# banksel instructions, but no locals section larger than a bank). A knob to
# try; the figures make pic reports are those without it.
if [[ "${EPDLE_PIC_SPLIT_LOCALS:-0}" == 1 ]]; then
    export SDCC_PIC14_SPLIT_LOCALS=1
    echo "pic: EPDLE_PIC_SPLIT_LOCALS=1: one RAM section per local (SDCC_PIC14_SPLIT_LOCALS)"
fi

rm -rf "$out"
mkdir -p "$out/gen18326" "$out/gen1788" "$out/18326/link" "$out/1788"

# The frame store's first word, from the firmware's own header.
store_expr="$(printf '#include "store_layout.h"\nSTORE_REGION_FIRST_ROW * HAL_FLASH_ROW_WORDS\n' |
    gcc -E -P -I"$fw/app" -I"$fw/hal" - | tail -1)"
store_from="$("$py" -c 'import re, sys; print(eval(re.sub(r"(\d)[uUlL]+", r"\1", sys.argv[1])))' "$store_expr")"
# The headroom kept below the frame store: 5 % (512 words). It was 10 % until the power guard,
# the fast update's second frame and the adapter's sleep took the image to 93 %.
words_percent=95
words_limit=$((store_from * words_percent / 100))
echo "$store_from" > "$out/store_from"

# Register headers and SFR definitions for SDCC, from gputils' .inc files.
"$py" "$root/tools/pic/gen_pic_regs.py" --sdcc --inc "$inc18326" --config-from "$fw/ports/pic16f18326/main.c" \
    --out "$out/gen18326/xc.h" --sdcc-source "$out/gen18326/pic_sfr.c"
"$py" "$root/tools/pic/gen_pic_regs.py" --sdcc --inc "$inc1788" --config-from "$rig1788/main.c" \
    --out "$out/gen1788/xc.h" --sdcc-source "$out/gen1788/pic_sfr.c"
"$py" "$root/tools/pic/gen_lkr.py" --inc "$inc18326" --chip 16f18326 --code-words 16384 \
    --reserve-from "$store_from" --compare-gpr "$lkr1788" --out "$out/18326/16f18326.lkr"

portable=("$fw"/drivers/*.c "$fw"/app/*.c)
includes=(-I"$fw/ports/pic16f18326" -I"$fw/hal" -I"$fw/drivers" -I"$fw/app")

# compile CHIP GEN_DIR OUT_DIR SOURCE: SDCC's assembly in OUT_DIR/<name>.asm
compile() {
    local chip="$1" gen="$2" dir="$3" src="$4" name extra=()
    name="$(basename "${src%.c}")"
    # #pragma config is XC8's; for SDCC the same lines become PIC_CONFIG_WORDS.
    [[ "$name" == main ]] && extra=(--disable-warning 115)
    sdcc -mpic14 -p"$chip" --std-c99 --no-warn-non-free "${extra[@]}" -S -I"$gen" "${includes[@]}" \
        "$src" -o "$dir/$name.asm" > "$dir/$name.log" 2>&1 || {
        cat "$dir/$name.log" >&2
        die "${src#"$root"/} does not compile with SDCC for the $chip"
    }
    if [[ -s "$dir/$name.log" ]]; then
        sed "s|^|  |" "$dir/$name.log" >&2
    fi
}

# ---- PIC16F18326 -----------------------------------------------------------------
echo "pic: SDCC $(sdcc --version | grep -o '[0-9]\+\.[0-9]\+\.[0-9]\+ #[0-9]*' | head -1) -mpic14 -p16f18326, gpasm 1.5.2; frame store from word 0x$(printf %04X "$store_from")"
d18326="$out/18326"
for src in "${portable[@]}" "$fw/ports/pic16f18326/hal_pic.c" "$fw/ports/pic16f18326/main.c" \
    "$out/gen18326/pic_sfr.c"; do
    compile 16f18326 "$out/gen18326" "$d18326" "$src"
done
echo "pic: PCLATH restores dropped where no jump needs them: $("$py" "$root/tools/pic/pagesel.py" "$d18326"/*.asm) words (tools/pic/pagesel.py)"
config_args=()
config_asm="$d18326/link/config.asm"
printf '\tlist\tp=16f1788\n\terrorlevel\t-220\n' > "$config_asm"
for asm in "$d18326"/*.asm; do
    name="$(basename "${asm%.asm}")"
    # The chip's objects: what gpasm 1.5.2 makes of SDCC's output for the 16F18326.
    "$gpasm152" -c -I "$inc152" "$asm" -o "$d18326/$name.o" > "$d18326/$name.gpasm.log" 2>&1 || {
        cat "$d18326/$name.gpasm.log" >&2
        die "gpasm 1.5.2 rejects $name.asm for the 16F18326"
    }
    # The same assembly for the link: gplink 1.4.0 has no 16F18326 (it aborts
    # on its objects), so it links them assembled for the 16F1788, the same
    # enhanced core; SFRs are symbols of pic_sfr.c at the 18326's addresses,
    # the core registers the .inc files name sit at the same addresses on
    # both. The configuration words go to config.asm (4 words; the 1788 has 2).
    sed -e 's/^\tlist\tp=16f18326$/\tlist\tp=16f1788/' \
        -e 's/^\tinclude "p16f18326.inc"$/\tinclude "p16f1788.inc"/' \
        -e '/^\t__config _CONFIG[0-9], 0x[0-9a-fA-F]*$/d' "$asm" > "$d18326/link/$name.asm"
    while read -r word value; do
        address="$(sed -n "s/^_${word#_}[[:space:]]*EQU[[:space:]]*H'\([0-9A-Fa-f]*\)'.*/0x\1/p" "$inc18326")"
        printf 'cfg_%s\tcode\t%s\n\tdw\t%s\n' "${address#0x}" "$address" "$value" >> "$config_asm"
        config_args+=(--config "$address=$value")
    done < <(sed -n 's/^\t__config \(_CONFIG[0-9]\), \(0x[0-9a-fA-F]*\)$/\1 \2/p' "$asm")
done
printf '\tend\n' >> "$config_asm"
((${#config_args[@]} == 8)) || die "main.c gives ${#config_args[@]} / 2 configuration words, the 16F18326 has 4"
for asm in "$d18326"/link/*.asm; do
    gpasm -c "$asm" -o "${asm%.asm}.o" > "${asm%.asm}.gpasm.log" 2>&1 || {
        cat "${asm%.asm}.gpasm.log" >&2
        die "gpasm 1.4.0 rejects link/$(basename "$asm")"
    }
done
"$py" "$root/tools/pic/picreport.py" --same-sections "$d18326" "$d18326"/link/*.o --check-only > /dev/null ||
    die "the 16F1788-assembled link objects differ from the 16F18326 objects"

link18326=0
gplink -m -s "$d18326/16f18326.lkr" -o "$out/epdle.hex" "$d18326"/link/*.o "${runtime[@]}" \
    > "$out/link18326.log" 2>&1 || link18326=1
if ((link18326)); then
    echo "pic: gplink could not link the 16F18326 image (build/pic/link18326.log):"
    grep -v "^warning" "$out/link18326.log" | sed 's/^/  /' | head -20
fi

# ---- PIC16F1788 (gpsim) -------------------------------------------------------------
d1788="$out/1788"
for src in "${portable[@]}" "$rig1788/hal_gpsim.c" "$rig1788/main.c" \
    "$out/gen1788/pic_sfr.c"; do
    compile 16f1788 "$out/gen1788" "$d1788" "$src"
done
"$py" "$root/tools/pic/pagesel.py" "$d1788"/*.asm > /dev/null
for asm in "$d1788"/*.asm; do
    gpasm -c "$asm" -o "${asm%.asm}.o" > "${asm%.asm}.gpasm.log" 2>&1 || {
        cat "${asm%.asm}.gpasm.log" >&2
        die "gpasm rejects $(basename "$asm") for the 16F1788"
    }
done
portable_1788=()
for src in "${portable[@]}"; do portable_1788+=("$d1788/$(basename "${src%.c}").o"); done
gplib -c "$d1788/libepdle.lib" "${portable_1788[@]}"
link1788=0
gplink -m -s "$lkr1788" -o "$d1788/epdle-1788.hex" "$d1788/main.o" "$d1788/hal_gpsim.o" \
    "$d1788/pic_sfr.o" "${portable_1788[@]}" "${runtime[@]}" > "$out/link1788.log" 2>&1 || link1788=1
if ((link1788)); then
    echo "pic: gplink could not link the 16F1788 image for gpsim (build/pic/link1788.log):"
    grep -v "^warning" "$out/link1788.log" | sed 's/^/  /' | head -20
else
    echo "pic: 16F1788 image for gpsim: build/pic/1788/epdle-1788.cod (stock 16f1788_g.lkr)"
fi

# ---- figures (16F18326) ---------------------------------------------------------------
echo "pic: built in $((SECONDS - start)) s; figures of the 16F18326 image:"
status=0
"$py" "$root/tools/pic/picreport.py" "$d18326"/link/*.o --lib "${runtime[0]}" --lib "${runtime[1]}" \
    --chip PIC16F18326 --words-limit "$words_limit" --words-percent "$words_percent" --words-region "$store_from" \
    --ram-limit 1536 --stack-limit 14 --hex "$out/epdle.hex" --store-from "$store_from" \
    --link-log "$out/link18326.log" "${config_args[@]}" > "$out/report.txt" 2> "$out/report.err" || status=$?
((link1788)) && echo "FAIL PIC16F1788: the gpsim image does not link (build/pic/link1788.log)" >> "$out/report.err"
# The figures, the failures, and the summary line last.
head -n -1 "$out/report.txt"
cat "$out/report.err" >&2
tail -n 1 "$out/report.txt"
if ((status != 0 || link1788 != 0)); then
    exit 1
fi
