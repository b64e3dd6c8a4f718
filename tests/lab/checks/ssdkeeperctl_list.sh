# ssdkeeperctl list in the guest shows the emulated drives
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
ctl=$SSDK_BIN_DIR/ssdkeeperctl
[ -x "$ctl" ] || fail "$ctl is not built (build it: ./scripts/build)"
out=$(lab_run "'$ctl' --json list") || fail "ssdkeeperctl --json list: $out"
for expected in SSDKLABNVME0001 SSDKLABSATA0001 SSDKLABHDD0001 nvme0n1 '"sda"' '"sdb"'; do
    grep -qF "$expected" <<<"$out" || fail "ssdkeeperctl list lacks $expected: $out"
done
