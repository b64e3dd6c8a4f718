# trim verify and quick-format verification reach the emulated SATA SSD and NVMe drive
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
# Real DSM/TRIM (SATA) and Dataset Management deallocate (NVMe) from ext4 in the guest down
# to the host's sparse images: `trim verify` must say "reached", and the host must see the
# image's allocated blocks shrink by what the trimmed file held. Then the quick format with
# --verify-trim: mkfs.ext4 discards (reached; the image shrinks again) — on the SATA SSD;
# mkfs.vfat does not (not-reached, blkdiscard offered) — on the NVMe drive. (--discard-first
# and the other formatters are covered on loop lab drives by the integration tests.)
ctl=$SSDK_BIN_DIR/ssdkeeperctl
[ -x "$ctl" ] || fail "$ctl is not built (build it: ./scripts/build)"
allocated() { echo $(($(stat -c %b "$1") * 512)); }
for drive in ssd:sata.img:ext4 nvme:nvme.img:vfat; do
    IFS=: read -r name file fs <<<"$drive"
    image=$(lab images | grep "/$file\$")
    dev=$(lab_run "readlink -f /dev/lab/$name")
    part=${dev}1
    [[ $dev == *nvme* ]] && part=${dev}p1
    # No lazy inode-table init: it would write in the background while the image is measured.
    lab_run "blkdiscard $dev && echo ',256M' | sfdisk -q $dev && partx -u $dev &&
             mkfs.ext4 -q -b 4096 -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 $part &&
             mkdir -p /mnt/$name && mount $part /mnt/$name &&
             head -c 8M /dev/urandom > /mnt/$name/old && sync && rm /mnt/$name/old && sync" ||
        fail "preparing ext4 on $part"
    before=$(allocated "$image")
    [ "$before" -ge $((8 << 20)) ] || fail "$file holds only $before bytes with the file written"
    out=$(lab_run "'$ctl' --json trim verify /mnt/$name --blocks 64 2>/dev/null") ||
        fail "trim verify $name: $out"
    [ "$(jq -r .result <<<"$out")" = reached ] || fail "trim verify on $name: $out"
    [ "$(jq -r .after.markers <<<"$out")" = 0 ] || fail "markers left on $name: $out"
    after=$(allocated "$image")
    # (8 MiB were freed; the drive's granularity may keep a few blocks.)
    [ "$after" -le $((before - (7 << 20))) ] ||
        fail "$file shrank only from $before to $after bytes after trim verify"

    # Data to sample, then the quick format.
    lab_run "head -c 4M /dev/urandom > /mnt/$name/data && umount /mnt/$name" ||
        fail "writing data on $part"
    before=$(allocated "$image")
    out=$(lab_run "'$ctl' --json format $part --fs $fs --quick --verify-trim --yes-destroy-data \
                   2>/dev/null") || fail "format $fs on $part: $out"
    after=$(allocated "$image")
    if [ "$fs" = ext4 ]; then
        [ "$(jq -r .result <<<"$out")" = reached ] || fail "ext4 quick format on $name: $out"
        [ "$(jq -r .kept <<<"$out")" = 0 ] || fail "ext4 left sampled blocks with old data: $out"
        [ "$after" -le $((before - (3 << 20))) ] ||
            fail "$file shrank only from $before to $after bytes after mkfs.ext4"
    else
        [ "$(jq -r .result <<<"$out")" = not-reached ] || fail "vfat quick format: $out"
        [ "$(jq -r .offer_blkdiscard <<<"$out")" = true ] || fail "vfat: no blkdiscard offer: $out"
        [ "$after" -ge $((before - (1 << 20))) ] ||
            fail "$file shrank from $before to $after bytes although mkfs.vfat does not discard"
    fi
done
