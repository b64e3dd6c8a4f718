# ram cache: zram-writecache over ext4 on the HDD reads faster, flushes and disables intact
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
ctl=$SSDK_BIN_DIR/ssdkeeperctl
[ -x "$ctl" ] || fail "$ctl is not built"
# The guest script: ext4 with data on the throttled HDD, the cache stacked under the mounted
# filesystem (apply now), O_DIRECT reads timed, more data written in write-back, flush,
# disable, then checksums and fsck. The trap takes everything down whatever fails.
lab_run "CTL='$ctl'; . '$guest_lib/ram_cache.sh'"'
set -eu
dev=$(readlink -f /dev/lab/hdd)
mnt=/mnt/ssdk-ram-cache
cache_test_begin "$dev" "$mnt"
head -c 24M /dev/urandom >"$mnt/before"
sync
(cd "$mnt" && sha256sum before >/tmp/ssdk-ram-cache.sum)
"$CTL" cache enable "$dev" --backend zram-writecache --size 128M --compression lz4 \
    --mode write-back --apply-now --yes
src=$(findmnt -n -o SOURCE "$mnt")
case $src in /dev/mapper/ssdk-*|/dev/dm-*) ;; *) echo "mounted from $src, not the cache"; exit 1 ;; esac
findmnt -n -o OPTIONS "$mnt" | grep -q noatime || { echo "mount options were not kept"; exit 1; }
first=$(read_ms "$mnt/before")
# dm-cache (smq) promotes blocks into the zram device as they are read again: two passes warm
# it, then the read counter of the HDD (ground truth, whatever the timing) shows how much of
# the next three still comes from the HDD. A timing bar alone failed a clean CI run at 1.49x
# against 1.5x (earlier runs: 1.95x to 3.2x).
cache_rereads "$dev" "$mnt/before"
echo "O_DIRECT read of 24 MiB through the cache: first ${first} ms, best of passes 4-6 ${best} ms; passes 4-6 read ${dev_bytes} bytes from the HDD"
[ $((dev_bytes * 4)) -le $((3 * 3 * 24 << 20)) ] || { echo "re-reads still come from the HDD"; exit 1; }
[ "$best" -lt "$first" ] || { echo "re-reads from RAM were not faster than the first read"; exit 1; }
"$CTL" cache status --json | grep -q "\"hit_ratio\"" || { echo "no statistics"; exit 1; }
head -c 8M /dev/urandom >"$mnt/after"
(cd "$mnt" && sha256sum after >>/tmp/ssdk-ram-cache.sum)
"$CTL" cache flush "$dev"
"$CTL" cache disable "$dev"
cache_test_end "$dev" "$mnt" /tmp/ssdk-ram-cache.sum
echo "checksums intact, fsck clean"
' || fail "zram-writecache in the lab VM"
