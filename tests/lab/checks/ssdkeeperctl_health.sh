# ssdkeeperctl health in the guest shows the emulated drives
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
ctl=$SSDK_BIN_DIR/ssdkeeperctl
[ -x "$ctl" ] || fail "$ctl is not built"
# Each emulated SSD by its kernel name, as JSON: exit 0 (good) or 1 (a drive that is not
# healthy); any other code (usage error, crash) fails the check. The report must name the
# drive's serial and carry a verdict.
for dev in /dev/nvme0n1 /dev/lab/ssd; do
    rc=0
    out=$(lab_run "'$ctl' --json health \$(readlink -f $dev)") || rc=$?
    [ "$rc" -le 1 ] || fail "ssdkeeperctl --json health $dev: exit $rc: $out"
    grep -qE 'SSDKLAB(NVME|SATA)0001' <<<"$out" || fail "ssdkeeperctl health $dev lacks its serial: $out"
    grep -qE '"verdict": *"(good|caution|bad|unknown)"' <<<"$out" ||
        fail "ssdkeeperctl health $dev has no verdict: $out"
done
