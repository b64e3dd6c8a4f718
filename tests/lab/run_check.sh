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
# Shell functions checks source in the guest (the guest sees the project's tree).
# shellcheck disable=SC2034 # used by the checks sourced below
guest_lib=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/guest

case ${1:-} in
    start)
        # A VM left over from a killed run is removed first.
        lab stop >/dev/null
        # The lifetime only ends a VM that ctest itself left behind: it must outlast the whole
        # suite, whose lab checks are spread over the run (a 1200 s lifetime killed the VM
        # under the last RAM cache check of a 1235 s run).
        lab start --lifetime 3600
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
        [ ! -e "$SSDK_LAB_VM_DIR" ] || fail "$SSDK_LAB_VM_DIR still exists"
        ;;
    check)
        if ! lab status >/dev/null; then
            echo "SKIP: the lab VM is not running (see the 'lab:vm starts' test for why)" >&2
            exit 77
        fi
        # shellcheck disable=SC1090
        source "$2"
        ;;
    *)
        echo "usage: $0 start|stop|check FILE" >&2
        exit 2
        ;;
esac
