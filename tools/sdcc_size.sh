#!/usr/bin/env bash
# Size report of the portable firmware (every .c of firmware/drivers/ and
# firmware/app/), compiled by SDCC for an 8-bit core (STM8: SDCC's pic14 port
# is too weak to be a useful yardstick) and linked against a do-nothing HAL.
# Static RAM = DATA + INITIALIZED areas (the stack is not static); code = every
# flash area (CODE, CONST, HOME, GSINIT, GSFINAL, INITIALIZER).
# The last line reads `ram=<bytes> code=<bytes>`; exits non-zero on a
# compile or link error, or when static RAM exceeds the budget.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${SDCC_OUT:-$root/build/sdcc}"
ram_budget=1024
cflags=(-mstm8 --std-c99 --opt-code-size
        -I"$root/firmware/hal" -I"$root/firmware/drivers" -I"$root/firmware/app")

command -v sdcc > /dev/null || { echo "sdcc_size: sdcc not found (apt install sdcc)" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out"

shopt -s nullglob
sources=("$root"/firmware/drivers/*.c "$root"/firmware/app/*.c)
rels=()
for src in "${sources[@]}" "$root/firmware/toolchain/sdcc_stub_hal.c"; do
    rel="$out/$(basename "${src%.c}").rel"
    if ! sdcc "${cflags[@]}" -c "$src" -o "$rel" > "$out/compile.log" 2>&1; then
        echo "sdcc_size: ${src#"$root"/} does not compile with SDCC:" >&2
        cat "$out/compile.log" >&2
        exit 1
    fi
    rels+=("$rel")
done

# sdcc wants the module holding main() first.
stub="${rels[-1]}"
unset 'rels[-1]'
sdcc -mstm8 --out-fmt-ihx -o "$out/epdle.ihx" "$stub" "${rels[@]}" > "$out/link.log" 2>&1 || {
    cat "$out/link.log" >&2
    exit 1
}
if grep -q "Undefined Global" "$out/link.log"; then
    echo "sdcc_size: unresolved symbols:" >&2
    grep "Undefined Global" "$out/link.log" >&2
    exit 1
fi

# Per module: "A <area> size <hex> ..." lines of each .rel.
printf '%-18s %8s %8s %8s\n' module code const ram
for rel in "${rels[@]}" "$stub"; do
    awk -v name="$(basename "${rel%.rel}")" '
        function hex(s,    i, n) {
            n = 0
            for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789ABCDEF", toupper(substr(s, i, 1))) - 1
            return n
        }
        $1 == "A" { size = hex($4) }
        $1 == "A" && ($2 == "CODE" || $2 == "HOME" || $2 == "GSINIT" || $2 == "GSFINAL" || $2 == "INITIALIZER") { code += size }
        $1 == "A" && $2 == "CONST" { konst += size }
        $1 == "A" && ($2 == "DATA" || $2 == "INITIALIZED") { ram += size }
        END { printf "%-18s %8d %8d %8d\n", name, code, konst, ram }' "$rel"
done

# Totals from the linker map: "<AREA> <addr> <size> = <n>. bytes" (an area may be listed twice).
read -r ram code < <(awk '
    $4 == "=" && $6 == "bytes" && !seen[$1]++ {
        n = $5; sub(/\.$/, "", n)
        if ($1 == "DATA" || $1 == "INITIALIZED") ram += n
        if ($1 == "CODE" || $1 == "CONST" || $1 == "HOME" || $1 == "GSINIT" || $1 == "GSFINAL" || $1 == "INITIALIZER") code += n
    }
    END { print ram + 0, code + 0 }' "$out/epdle.map")

echo "total (linked, sdcc $(sdcc --version | head -1 | grep -o '[0-9]\+\.[0-9]\+\.[0-9]\+'), -mstm8): static RAM ${ram} B of ${ram_budget} B budget, code ${code} B"
if (( ram > ram_budget )); then
    echo "sdcc_size: static RAM ${ram} B exceeds the ${ram_budget} B budget" >&2
    echo "ram=${ram} code=${code}"
    exit 1
fi
echo "ram=${ram} code=${code}"
