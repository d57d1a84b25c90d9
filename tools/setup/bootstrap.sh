#!/usr/bin/env bash
# Fresh-machine set-up for the README's commands: `bash tools/setup/bootstrap.sh run|test|ci`.
#
#   run   what `make run` needs: Python >= 3.11 with venv, cmake, a C compiler with the C
#         library's headers (libc6-dev)
#   test  also pkg-config and cmocka (the C unit tests)
#   test  and chromium (the web page's browser tests)
#   ci    also gputils + gpsim, gpsim-dev and glib's headers (make pic, make size, make pic-test), clang + libFuzzer (make fuzz),
#         clang-format (make lint), hunspell with its German dictionary (the language
#         lists' builder is tested against it), KiCad >= 7 for its kicad-cli (make hardware:
#         the schematic's ERC, netlist, BOM and drawing; Debian 12 has it in bookworm-backports)
#
# Whatever is missing is installed with apt-get when that is possible without asking
# (root, or sudo without a password); otherwise this stops with one line naming the
# command to run. It also notices a copied or moved checkout (a CMake cache or a .venv
# made for another path) and removes them so they are rebuilt here.
#
# EPDLE_BOOTSTRAP_INSTALL=never only reports what is missing (never installs);
# PYTHON names the interpreter (default python3), as in the Makefile.
set -euo pipefail
cd "$(dirname "$0")/../.."

target="${1:-test}"
python="${PYTHON:-python3}"
venv=.venv
host_build=build/host

say() { printf 'epdle: %s\n' "$*" >&2; }
fail() {
  say "$*"
  exit 1
}

case "$target" in
  run | test | ci) ;;
  *) fail "bootstrap: unknown target '$target' (run, test or ci)" ;;
esac

missing=()
need() { missing+=("$1"); }
have() { command -v "$1" >/dev/null 2>&1; }

# ---- what the target needs --------------------------------------------------------------

if ! have "$python"; then
  need python3
elif ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  fail "Python 3.11 or newer is needed; $python is $("$python" -V 2>&1): install python3.11 and run make PYTHON=python3.11"
elif ! "$python" -c 'import ensurepip, venv' >/dev/null 2>&1; then
  need python3-venv
fi
have cmake || need cmake
if have cc || have gcc; then
  # gcc installed without its recommended packages has no C library headers to build with.
  compiler="$(command -v cc || command -v gcc)"
  echo '#include <stdio.h>' | "$compiler" -E -x c - >/dev/null 2>&1 || need libc6-dev
else
  need gcc
fi
have make || need make

if [ "$target" != run ]; then
  have pkg-config || need pkg-config
  if ! have pkg-config || ! pkg-config --exists cmocka 2>/dev/null; then
    need libcmocka-dev
  fi
  # The web page's browser tests drive Debian's chromium (never a downloaded browser).
  [ -x /usr/bin/chromium ] || need chromium
  # Debian's sigrok-cli decodes the simulated board's VCD (its decoders come with it).
  [ -x /usr/bin/sigrok-cli ] || need sigrok-cli
fi

if [ "$target" = ci ]; then
  # make pic: gputils (gplink, gpvo) and gpsim; tools/pic/toolchain.sh builds SDCC's pic14 port
  # itself (Debian's sdcc package has none).
  have gplink || need gputils
  have gpsim || need gpsim
  # make pic-test builds a PIC16F18326 processor module for gpsim against its headers.
  [ -f /usr/include/gpsim/14bit-processors.h ] || need gpsim-dev
  [ -f /usr/include/glib-2.0/glib.h ] || need libglib2.0-dev
  have g++ || need g++
  have clang || need clang
  have clang-format || need clang-format
  # tests/solver/test_build_language_words.py asks hunspell, in UTF-8, with de_DE.
  have hunspell || need hunspell
  [ -f /usr/share/hunspell/de_DE.dic ] || need hunspell-de-de
  fuzzer_runtime=""
  if have clang; then
    fuzzer_runtime="$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null || true)"
  fi
  if [ -z "$fuzzer_runtime" ] || [ ! -f "$fuzzer_runtime" ]; then
    need libclang-rt-14-dev
  fi
  # make hardware: kicad-cli came with KiCad 7; Debian 12's own KiCad is 6.0, its backports
  # carry 9.0 (about 100 MB to download, 450 MB installed, without the part libraries:
  # the schematic embeds its symbols).
  if ! have kicad-cli; then
    if grep -qx 'VERSION_CODENAME=bookworm' /etc/os-release 2>/dev/null; then
      need kicad/bookworm-backports
    else
      need kicad
    fi
  fi
fi

# ---- install it, or say how ---------------------------------------------------------------

if [ "${#missing[@]}" -gt 0 ]; then
  packages="${missing[*]}"
  install_mode="${EPDLE_BOOTSTRAP_INSTALL:-auto}"
  runner=""
  if [ "$install_mode" != never ] && have apt-get; then
    if [ "$(id -u)" -eq 0 ]; then
      runner=""
    elif have sudo && sudo -n true 2>/dev/null; then
      runner="sudo"
    else
      runner="none"
    fi
  else
    runner="none"
  fi
  if [ "$runner" = none ]; then
    hint=""
    [[ " $packages " == *"/bookworm-backports "* ]] && hint=" (after adding bookworm-backports to apt's sources)"
    fail "missing ${packages// /, }; install them with: sudo apt-get install -y $packages$hint"
  fi
  say "installing ${packages// /, } (apt-get)"
  backports=/etc/apt/sources.list.d/bookworm-backports.sources
  if [[ " $packages " == *"/bookworm-backports "* ]] && [ ! -f "$backports" ]; then
    printf '%s\n' 'Types: deb' 'URIs: http://deb.debian.org/debian' 'Suites: bookworm-backports' \
      'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' |
      $runner tee "$backports" >/dev/null
  fi
  # The settings go through env, which sudo does not reset: no questions, and no debconf
  # notice (a fresh Debian has no apt-utils) among apt-get's errors on stderr.
  apt_get=($runner env DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes apt-get)
  if ! { "${apt_get[@]}" update -qq &&
    "${apt_get[@]}" install -y -qq --no-install-recommends $packages; } >/dev/null; then
    fail "apt-get could not install ${packages// /, }; try: sudo apt-get install -y $packages"
  fi
fi

# ---- a copied or moved checkout ------------------------------------------------------------

here="$(pwd -P)"
cache="$host_build/CMakeCache.txt"
if [ -f "$cache" ]; then
  source_dir="$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$cache")"
  if [ -n "$source_dir" ] && [ "$(cd "$source_dir" 2>/dev/null && pwd -P)" != "$here" ]; then
    say "$host_build was configured for $source_dir: rebuilding it here"
    rm -rf "$host_build"
  fi
fi
if [ -d "$venv" ]; then
  # A venv's scripts name its interpreter by absolute path; a copied one names the old path.
  shebang="$(head -n 1 "$venv/bin/pip" 2>/dev/null || true)"
  scripts_for="$(realpath -m "$(dirname "${shebang#\#!}")")"
  if [ "$scripts_for" != "$(realpath -m "$venv/bin")" ] || ! "$venv/bin/python" -c '' 2>/dev/null; then
    say "$venv was made for another checkout or interpreter: rebuilding it here"
    rm -rf "$venv"
  fi
fi
