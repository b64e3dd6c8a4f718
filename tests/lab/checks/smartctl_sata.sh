# smartctl -j reads the emulated SATA SSD and HDD through AHCI
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
for disk in ssd:SSDKLABSATA0001:"SSDK Lab SATA SSD":0 hdd:SSDKLABHDD0001:"SSDK Lab HDD":7200; do
    IFS=: read -r name serial model rotation <<<"$disk"
    rc=0
    json=$(lab_run "smartctl -j -x /dev/lab/$name") || rc=$?
    # Bit 2 (some SMART command failed) is set: QEMU lacks the extended logs -x asks for.
    [ $((rc & 3)) = 0 ] || fail "smartctl /dev/lab/$name exit status $rc: $json"
    for expected in '"protocol": "ATA"' "\"model_name\": \"$model\"" \
        "\"serial_number\": \"$serial\"" '"firmware_version": "LAB1"' \
        "\"rotation_rate\": $rotation" '"ata_smart_attributes": {' '"passed": true'; do
        grep -qF "$expected" <<<"$json" || fail "smartctl -j /dev/lab/$name lacks $expected"
    done
done
json=$(lab_run 'smartctl -j -i /dev/lab/ssd')
grep -A1 -F '"trim": {' <<<"$json" | grep -qF '"supported": true' ||
    fail "the SATA SSD does not report TRIM: $json"
