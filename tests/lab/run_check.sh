#!/usr/bin/env bash
# Runs one step of the lab test fixture (see CMakeLists.txt):
#   run_check.sh start | stop | check FILE
# Environment: SSDK_LAB (scripts/lab), SSDK_LAB_VM_DIR, SSDK_BIN_DIR (the build's bin/).
# A check is a bash file sourced here with `lab_run CMD...` (runs CMD in the guest) and
# `fail MESSAGE` and `$guest_lib` (tests/lab/guest) at hand; it exits 0 on success, 77 to skip.
set -euo pipefail
: "${SSDK_LAB:?}" "${SSDK_LAB_VM_DIR:?}" "${SSDK_BIN_DIR:?}"
lab() { "$SSDK_LAB" --dir "$SSDK_LAB_VM_DIR" "$@"; }
lab_run() { lab run --timeout 150 "$@"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
# With SSDK_SCREENSHOT_DIR set, copies every file of the guest directory $1 (screenshots a GUI
# test took in the VM) into it.
copy_guest_screenshots() {
    [ -n "${SSDK_SCREENSHOT_DIR:-}" ] || return 0
    mkdir -p "$SSDK_SCREENSHOT_DIR"
    local shot
    for shot in $(lab_run "ls $1 2>/dev/null" || true); do
        lab_run "base64 -w0 $1/$shot" | base64 -d >"$SSDK_SCREENSHOT_DIR/$shot" ||
            fail "copying $shot out of the guest"
        echo "screenshot: $SSDK_SCREENSHOT_DIR/$shot"
    done
}
# Left by `start` when the VM cannot run here (it skipped, exit 77): only then do the checks
# skip too. A VM that is not running without it went away after it started (QEMU crashed or
# was killed, or it was stopped): the checks after that fail instead of turning into skips.
start_skipped=$SSDK_LAB_VM_DIR.start-skipped
# Shell functions checks source in the guest (the guest sees the project's tree).
# shellcheck disable=SC2034 # used by the checks sourced below
guest_lib=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/guest

case ${1:-} in
    start)
        # A VM left over from a killed run is removed first.
        lab stop >/dev/null
        rm -f "$start_skipped"
        # The lifetime only ends a VM that ctest itself left behind: it must outlast the whole
        # suite, whose lab checks are spread over the run (a 1200 s lifetime killed the VM
        # under the last RAM cache check of a 1235 s run).
        started=0
        lab start --lifetime 3600 || started=$?
        [ "$started" != 77 ] || touch "$start_skipped"
        [ "$started" = 0 ] || exit "$started"
        # The guest reads the host over 9p without a page cache, so every command would load
        # its ~100 MB binary (mostly debug info) again. Debug-stripped copies are put over the
        # same paths in the guest's tmpfs overlay once; the checks call the usual paths.
        # (In the build tree: the guest sees the project's tree, not the host's /tmp.)
        local_bins=$SSDK_BIN_DIR/../lab-guest-bin
        mkdir -p "$local_bins"
        for name in ssdkeeperctl ssdkeeper-helper ssdkeeper-cached ssdkeeper test_ram_cache_lab; do
            [ -x "$SSDK_BIN_DIR/$name" ] || continue
            strip --strip-debug -o "$local_bins/$name" "$SSDK_BIN_DIR/$name"
        done
        # shellcheck disable=SC2016 # $b expands in the guest
        lab_run "set -e; for b in $local_bins/*; do"' install -m 755 "$b" '"$SSDK_BIN_DIR"'/"${b##*/}"; done'
        ;;
    stop)
        lab stop
        rm -f "$start_skipped"
        [ ! -e "$SSDK_LAB_VM_DIR" ] || fail "$SSDK_LAB_VM_DIR still exists"
        ;;
    check)
        if ! lab status >/dev/null; then
            if [ -e "$start_skipped" ]; then
                echo "SKIP: the lab VM cannot run here (see the 'lab:vm starts' test for why)" >&2
                exit 77
            fi
            # Its console's last lines, when QEMU died and left the VM directory behind.
            lab console 2>/dev/null | tail -n 30 >&2 || true
            fail "the lab VM is not running, and 'lab:vm starts' did not skip: it went away" \
                "(QEMU crashed or was killed, or the VM was stopped) or was never started"
        fi
        # shellcheck disable=SC1090
        source "$2"
        ;;
    *)
        echo "usage: $0 start|stop|check FILE" >&2
        exit 2
        ;;
esac
