# smartctl -j reads the emulated NVMe drive
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
rc=0
json=$(lab_run 'smartctl -j -x /dev/nvme0') || rc=$?
# smartctl's exit status is a bit mask; bits 0-1 mean the command line or opening the device failed.
[ $((rc & 3)) = 0 ] || fail "smartctl exit status $rc: $json"
for expected in '"protocol": "NVMe"' '"model_name": "QEMU NVMe Ctrl"' \
    '"serial_number": "SSDKLABNVME0001"' '"nvme_smart_health_information_log": {' \
    '"passed": true' '"firmware_version": "'; do
    grep -qF "$expected" <<<"$json" || fail "smartctl -j lacks $expected"
done
