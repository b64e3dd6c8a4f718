# ssdkeeperctl health in the guest shows the emulated drives
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
ctl=$SSDK_BIN_DIR/ssdkeeperctl
[ -x "$ctl" ] || { echo "SKIP: $ctl is not built" >&2; exit 77; }
# Without the subcommand, `health --help` prints the top-level help ("ssdkeeperctl [OPTIONS]").
# (The help is captured first: `grep -q` closing the pipe early would fail it under pipefail.)
help=$(lab_run "'$ctl' health --help" 2>/dev/null || true)
if ! grep -q '^Usage: [^ ]*ssdkeeperctl health' <<<"$help"; then
    echo "SKIP: this ssdkeeperctl has no 'health' subcommand yet" >&2
    exit 77
fi
# `health` with no device covers every drive; if it wants a device (usage error, exit 2), each
# drive is asked for by its kernel name. Exit 1 may mean "a drive is unhealthy"; other codes
# (usage errors, crashes) are failures.
rc=0
out=$(lab_run "'$ctl' --json health") || rc=$?
if [ "$rc" = 2 ]; then
    rc=0
    out=$(lab_run "for dev in /dev/nvme0n1 \$(readlink -f /dev/lab/ssd); do
                       '$ctl' --json health \$dev || [ \$? = 1 ] || exit 2
                   done") || rc=$?
fi
[ "$rc" -le 1 ] || fail "ssdkeeperctl --json health exit $rc: $out"
for expected in SSDKLABNVME0001 SSDKLABSATA0001; do
    grep -qF "$expected" <<<"$out" || fail "ssdkeeperctl health lacks $expected: $out"
done
