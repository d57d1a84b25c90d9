#!/usr/bin/env bash
# The README's Quick start on a fresh Debian 12: a minbase bookworm (debootstrap) given
# only what the README assumes (python3, gcc, cmake; git and make to clone and run), then
# in clones of this repository a scripted `make run`, `make test` and `make run` again,
# each timed; then a one-shot suggest's latency on Debian's own Python.
#
#   sudo bash tools/setup/fresh_debian_check.sh [ROOT_DIR] [REV]
#
# ROOT_DIR (default /var/tmp/epdle-fresh) is made, or removed and made again when an
# earlier run made it. REV (default HEAD) is the commit cloned: uncommitted changes are
# not part of the check. Needs root, debootstrap (installed with apt-get if missing) and
# the network (Debian's mirror, PyPI). Takes minutes (make test installs chromium and
# runs every test), so it is not part of .ci/run. Logs and times go to ROOT_DIR.log/;
# the exit code is 0 only when every command passed.
#
# EPDLE_MIRROR names another Debian mirror; EPDLE_FRESH_NO_RECOMMENDS=1 installs the
# given packages without their recommended ones (gcc then comes without libc6-dev).
set -euo pipefail

root="${1:-/var/tmp/epdle-fresh}"
rev="${2:-HEAD}"
mirror="${EPDLE_MIRROR:-http://deb.debian.org/debian}"
repo="$(cd "$(dirname "$0")/../.." && pwd -P)"
logs="$root.log"

say() { printf 'fresh-check: %s\n' "$*" >&2; }
fail() {
  say "$*"
  exit 1
}

[ "$(id -u)" -eq 0 ] || fail "needs root (debootstrap and chroot): sudo bash $0 $*"
commit="$(git -C "$repo" rev-parse --verify "$rev^{commit}")" || fail "no commit $rev in $repo"
if ! command -v debootstrap >/dev/null 2>&1; then
  say "installing debootstrap (apt-get)"
  apt-get install -y -qq debootstrap >/dev/null || fail "could not install debootstrap"
fi

mounted=()
cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount -l "${mounted[i]}" 2>/dev/null || true
  done
}
trap cleanup EXIT

mount_in() { # mount_in TARGET MOUNT-ARGS...
  mkdir -p "$1"
  mount "${@:2}" "$1"
  mounted+=("$1")
}

# A clean login environment: nothing of this machine's PATH, venvs or EPDLE_* settings.
network_env=()
in_root() {
  chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${network_env[@]}" "$@"
}

# `timed NAME COMMAND...`: runs it, logs its output to $logs/NAME.log, records the time.
timed() {
  local name="$1" start end status=0
  shift
  say "$name ..."
  start="$(date +%s)"
  "$@" >"$logs/$name.log" 2>&1 || status=$?
  end="$(date +%s)"
  printf '%-20s %5s s   exit %s\n' "$name" "$((end - start))" "$status" | tee -a "$logs/times.txt" >&2
  return "$status"
}

marker="$root/.epdle-fresh-check"
if [ -e "$root" ]; then
  [ -e "$marker" ] || fail "$root exists and was not made by this script: name another directory"
  findmnt -R "$root" >/dev/null 2>&1 && fail "$root has file systems mounted: unmount them first"
  rm -rf --one-file-system "$root"
fi
mkdir -p "$root"
touch "$marker"
rm -rf "$logs"
mkdir -p "$logs"
say "commit $commit, logs in $logs"

timed debootstrap debootstrap --variant=minbase bookworm "$root" "$mirror" ||
  fail "debootstrap failed (see $logs/debootstrap.log)"

mount_in "$root/proc" -t proc proc
mount_in "$root/sys" -t sysfs sys
mount_in "$root/dev" --bind /dev
mount_in "$root/dev/pts" --bind /dev/pts
mount_in "$root/dev/shm" -t tmpfs shm # chromium's shared memory
cp /etc/resolv.conf "$root/etc/resolv.conf"

# What the README assumes, as a user would install it: with the recommended packages
# (libc6-dev comes with gcc that way), or EPDLE_FRESH_NO_RECOMMENDS=1 for without.
given=(python3 gcc cmake git make)
[ "${EPDLE_FRESH_NO_RECOMMENDS:-}" = 1 ] && given=(--no-install-recommends "${given[@]}")
timed given in_root bash -c "apt-get update -qq &&
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${given[*]}" ||
  fail "installing ${given[*]} failed (see $logs/given.log)"
in_root python3 -V >>"$logs/given.log" 2>&1

# This machine's network, not the project's needs: when it trusts certificate
# authorities beyond Debian's (a TLS-inspecting proxy), pip in the chroot is given this
# machine's bundle; the chroot's own trust store is left as Debian made it.
if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
  say "pip in the chroot trusts this machine's certificate authorities (a proxy's)"
  cp /etc/ssl/certs/ca-certificates.crt "$root/etc/fresh-check-ca.pem"
  network_env=(PIP_CERT=/etc/fresh-check-ca.pem)
fi

# Clones made with the fresh machine's own git from the repository's object store.
mount_in "$root/src.git" --bind -o ro "$(git -C "$repo" rev-parse --path-format=absolute --git-common-dir)"
clone() { # clone NAME: /root/NAME at the commit
  timed "clone-$1" in_root bash -c "git -c safe.directory='*' clone -q --no-checkout /src.git /root/$1 &&
    git -C /root/$1 checkout -q --detach $commit" || fail "git clone failed (see $logs/clone-$1.log)"
}

# `make run` with stdin not a terminal: a game, the button, the candidates, quit.
play_script='salet bbybb
press
candidates
undo
quit'
status=0
make_run() { # make_run NAME CLONE
  if ! timed "$1" in_root make -C "/root/$2" run <<<"$play_script"; then
    status=1
  elif ! ls "$root/root/$2/out/play/"panel-*.png >/dev/null 2>&1; then
    say "$1 wrote no panel picture in /root/$2/out/play/"
    status=1
  elif grep -q '^Traceback' "$logs/$1.log"; then
    say "$1 printed a traceback (see $logs/$1.log)"
    status=1
  fi
}

# In the README's order: `make run` first, on the machine as given (it must need nothing
# the tests need), then `make test` in a clone of its own, then `make run` there again.
clone run-first
make_run make-run-first run-first
clone epdle
timed make-test in_root make -C /root/epdle test || status=1
make_run make-run-after-test epdle

# A one-shot suggest on Debian's own Python 3.11, whole processes as `epdle bench
# --latency --processes` times them (issue 14: p90 at most 150 ms); three runs of each
# size, for the machine may be busy. Each log holds the run's JSON line.
for turns in 16 24; do
  for run in 1 2 3; do
    timed "latency-$turns-$run" in_root /root/epdle/.venv/bin/epdle bench --latency \
      --processes "$turns" --json || status=1
  done
done

say "times:"
cat "$logs/times.txt" >&2
say "latency (ms):"
for log in "$logs"/latency-*.log; do
  printf '%s %s\n' "$(basename "$log" .log)" "$(tail -n 1 "$log")" >&2
done
if [ "$status" -eq 0 ]; then
  say "passed: make run and make test on a fresh Debian 12"
else
  say "FAILED: see the logs in $logs"
fi
exit "$status"
