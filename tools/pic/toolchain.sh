#!/usr/bin/env bash
# SDCC's pic14 port and its enhanced-core runtime, built from Debian's pinned
# source package and cached outside the tree.
#
#   tools/pic/toolchain.sh      -> prints the install prefix (last line)
#
# Install prefix: $EPDLE_SDCC_PIC14, default ~/.cache/epdle/sdcc-4.2.0-pic14
# (bin/sdcc, share/sdcc/include/pic14/pic14devices.txt with the 16F18326,
# share/sdcc/lib/pic14/libsdcce.lib and libce.lib). A stamp file written
# last marks a complete install: a second run only checks it.
#
# Debian 12's sdcc package has no pic14 port, so the source package
# (`apt-get source sdcc=4.2.0+dfsg-1`, needs a bookworm deb-src entry) is
# configured with pic14 only. Its device/lib/pic14 has no non-free device
# headers: libsdcc (enhanced) builds whole, libc all but two serial-port
# helpers (strmmssp.c, strmusart.c); libce.lib is made of what builds (it
# holds __memcpy, which struct copies call).
#
# Missing pieces stop the script with ONE line: what is missing and the
# command that fixes it. As root it fixes them itself (deb-src entry,
# apt-get install of the build dependencies), as CI on a fresh Debian 12.
set -euo pipefail

SDCC_DEB_VERSION="4.2.0+dfsg-1"
SDCC_UPSTREAM="4.2.0+dfsg"
# Bump when the recipe below changes what ends up in the prefix.
RECIPE=2

cache="${XDG_CACHE_HOME:-$HOME/.cache}/epdle"
prefix="${EPDLE_SDCC_PIC14:-$cache/sdcc-4.2.0-pic14}"
stamp="$prefix/.epdle-toolchain"
want_stamp="sdcc=$SDCC_DEB_VERSION recipe=$RECIPE"
jobs="${EPDLE_JOBS:-2}"

die() {
    echo "toolchain: $*" >&2
    exit 1
}

if [[ -f "$stamp" && "$(cat "$stamp")" == "$want_stamp" && -x "$prefix/bin/sdcc" ]]; then
    echo "$prefix"
    exit 0
fi

is_root=false
[[ "$(id -u)" == 0 ]] && is_root=true
sudo_hint="sudo "
$is_root && sudo_hint=""

# ---- build dependencies ---------------------------------------------------
missing=()
need_cmd() { command -v "$1" > /dev/null 2>&1 || missing+=("$2"); }
need_file() { [[ -e "$1" ]] || missing+=("$2"); }
need_cmd gcc gcc
need_cmd g++ g++
need_cmd make make
need_cmd bison bison
need_cmd flex flex
need_cmd makeinfo texinfo
need_cmd dpkg-source dpkg-dev
need_cmd apt-get apt
need_cmd gpasm gputils
need_cmd gplib gputils
need_cmd gplink gputils
need_file /usr/include/boost/version.hpp libboost-dev
need_file /usr/include/zlib.h zlib1g-dev
if ((${#missing[@]})); then
    mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
    if $is_root && command -v apt-get > /dev/null; then
        echo "toolchain: installing build dependencies: ${missing[*]}" >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            "${missing[@]}" > /dev/null ||
            die "apt-get install failed: run apt-get update && apt-get install -y ${missing[*]}"
    else
        die "missing build dependencies ${missing[*]}: run ${sudo_hint}apt-get install -y ${missing[*]}"
    fi
fi

# ---- source package ---------------------------------------------------------
src_cache="$cache/src"
dsc="$src_cache/sdcc_${SDCC_DEB_VERSION}.dsc"
mkdir -p "$src_cache"
have_source() {
    [[ -f "$dsc" && -f "$src_cache/sdcc_${SDCC_UPSTREAM}.orig.tar.xz" &&
        -f "$src_cache/sdcc_${SDCC_DEB_VERSION}.debian.tar.xz" ]]
}
src_known() { apt-cache showsrc sdcc 2> /dev/null | grep -c "^Version: $SDCC_DEB_VERSION\$" > /dev/null; }
src_entry=/etc/apt/sources.list.d/epdle-src.sources
if ! have_source; then
    if ! src_known; then
        if $is_root; then
            echo "toolchain: adding the deb-src entry $src_entry" >&2
            printf '%s\n' "Types: deb-src" "URIs: http://deb.debian.org/debian" "Suites: bookworm" \
                "Components: main" "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" > "$src_entry"
            apt-get update -qq > /dev/null 2>&1 ||
                die "apt-get update failed (no network?): check that http://deb.debian.org is reachable, then run apt-get update"
        fi
        src_known || die "no deb-src entry for bookworm (apt-get source sdcc=$SDCC_DEB_VERSION needs one): run ${sudo_hint}sh -c 'printf \"Types: deb-src\\nURIs: http://deb.debian.org/debian\\nSuites: bookworm\\nComponents: main\\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\\n\" > $src_entry && apt-get update'"
    fi
    (cd "$src_cache" && apt-get source --download-only -qq "sdcc=$SDCC_DEB_VERSION" > "$src_cache/download.log" 2>&1) ||
        die "cannot download the sdcc $SDCC_DEB_VERSION source package (no network?): check that http://deb.debian.org is reachable, then run: cd $src_cache && apt-get source --download-only sdcc=$SDCC_DEB_VERSION"
    have_source || die "apt-get source gave no sdcc_${SDCC_DEB_VERSION}.dsc in $src_cache: see $src_cache/download.log"
fi

# ---- build -------------------------------------------------------------------
log="$cache/sdcc-4.2.0-pic14.build.log"
work="$cache/build-sdcc"
rm -rf "$work" "$prefix"
mkdir -p "$work"
: > "$log"
echo "toolchain: building SDCC $SDCC_DEB_VERSION (pic14 only) into $prefix, log $log" >&2
start=$SECONDS
fail() { die "$1 failed: see the end of $log"; }

dpkg-source --no-check -x "$dsc" "$work/sdcc" >> "$log" 2>&1 || fail "dpkg-source -x"
src="$work/sdcc"
disabled=(mcs51 z80 z180 r2k r2ka r3ka sm83 tlcs90 ez80_z80 z80n ds390 ds400 pic16 hc08 s08 stm8
          pdk13 pdk14 pdk15 mos6502 mos65c02)
flags=()
for port in "${disabled[@]}"; do flags+=("--disable-$port-port"); done
(
    cd "$src"
    ./configure --prefix="$prefix" --enable-pic14-port "${flags[@]}" \
        --disable-ucsim --disable-sdcdb --disable-device-lib --disable-non-free
) >> "$log" 2>&1 || fail "configure"
make -C "$src" -j"$jobs" >> "$log" 2>&1 || fail "make (sdcc)"
make -C "$src" install >> "$log" 2>&1 || fail "make install (sdcc)"
"$prefix/bin/sdcc" -v 2>&1 | grep -q pic14 || die "the built sdcc has no pic14 port: see $log"

# The 16F18326: same shape as the 16F18325 entry, 16K words and 2 KB RAM
# (program/data/eeprom/config words per DS40001839 and gputils' p16f18326.inc).
devices="$prefix/share/sdcc/include/pic14/pic14devices.txt"
if ! grep -q "^processor 16f18326" "$devices"; then
    cat >> "$devices" << 'EOF'

# Added by epdle tools/pic/toolchain.sh (copied from 16f18325: 16K words, 2 KB RAM).
processor 16f18326, 16lf18326
	program		16K
	data		2048
	eeprom		256
	enhanced	1
	io		12
	maxram		0xfff
	bankmsk		0xf80
	config		0x8007 0x8008 0x8009 0x800a
	regmap		0xf80 0x00 0x01 0x02 0x03 0x04 0x05 0x06 0x07 0x08 0x09 0x0a 0x0b
	memmap		0x20 0x6f 0x000
	memmap		0x70 0x7f 0xf80
EOF
fi

# Runtime: the tarball's timestamps would make make rerun autotools; -k
# because libc's strmmssp.c/strmusart.c need non-free headers.
rt="$src/device/lib/pic14"
(
    export PATH="$prefix/bin:$PATH"
    cd "$rt"
    ./configure EARCH=16f1788 ARCH=16f877 >> "$log" 2>&1 || exit 1
    make -k -j"$jobs" AUTOHEADER=true ACLOCAL=true AUTOMAKE=true AUTOCONF=true >> "$log" 2>&1 || true
) || fail "configure (device/lib/pic14)"
[[ -f "$rt/libsdcc/enhanced/libsdcce.a" ]] || fail "make (libsdcc/enhanced)"
libdir="$prefix/share/sdcc/lib/pic14"
mkdir -p "$libdir"
cp "$rt/libsdcc/enhanced/libsdcce.a" "$libdir/libsdcce.lib"
shopt -s nullglob
libce_objs=("$rt"/libc/libce_a-*.o)
((${#libce_objs[@]} >= 80)) || fail "make (libc, enhanced objects)"
rm -f "$libdir/libce.lib"
gplib -c "$libdir/libce.lib" "${libce_objs[@]}" >> "$log" 2>&1 || fail "gplib (libce.lib)"
gplib -s "$libdir/libce.lib" 2> /dev/null | grep -c "___memcpy" > /dev/null || fail "libce.lib without ___memcpy"

rm -rf "$work"
echo "$want_stamp" > "$stamp"
echo "toolchain: built in $((SECONDS - start)) s" >&2
echo "$prefix"
