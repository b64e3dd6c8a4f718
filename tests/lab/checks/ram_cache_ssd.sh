# ram cache: ssd-cache (the lab SSD caching the HDD, dm-cache) over ext4 reads faster, flushes and disables intact
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
ctl=$SSDK_BIN_DIR/ssdkeeperctl
[ -x "$ctl" ] || fail "$ctl is not built"
# Intel Smart Response style: 128 MiB of the lab SSD as a dm-cache in front of ext4 with data
# on the throttled HDD, stacked under the mounted filesystem (apply now) in "maximized" mode
# (write-back); O_DIRECT reads timed against the raw HDD, more data written, flush, disable,
# then checksums and fsck. The trap takes everything down whatever fails.
lab_run "CTL='$ctl'; . '$guest_lib/ram_cache.sh'"'
set -eu
t0=$(date +%s)
dev=$(readlink -f /dev/lab/hdd)
ssd=$(readlink -f /dev/lab/ssd)
mnt=/mnt/ssdk-ssd-cache
cache_test_begin "$dev" "$mnt"
head -c 24M /dev/urandom >"$mnt/before"
sync
(cd "$mnt" && sha256sum before >/tmp/ssdk-ssd-cache.sum)
"$CTL" cache enable "$dev" --backend ssd-cache --cache-device "$ssd" --size 128M \
    --compression none --mode write-back --apply-now --yes
src=$(findmnt -n -o SOURCE "$mnt")
case $src in /dev/mapper/ssdk-*|/dev/dm-*) ;; *) echo "mounted from $src, not the cache"; exit 1 ;; esac
findmnt -n -o OPTIONS "$mnt" | grep -q noatime || { echo "mount options were not kept"; exit 1; }
raw_start=$(date +%s%N)
dd if="$dev" of=/dev/null bs=1M count=24 skip=1024 iflag=direct status=none
raw=$((($(date +%s%N) - raw_start) / 1000000))
first=$(read_ms "$mnt/before")
# dm-cache (smq) promotes blocks to the SSD as they are read again: two passes warm it, the
# read counter of the HDD then shows how much of the next three comes from the SSD (smq
# promoted about 60 % of the file in the lab runs, then stopped: its promotion is selective).
cache_rereads "$dev" "$mnt/before"
echo "enabled at $(($(date +%s) - t0)) s"
echo "O_DIRECT read of 24 MiB through the SSD cache: first ${first} ms, best of passes 4-6 ${best} ms; the raw HDD ${raw} ms; passes 4-6 read ${dev_bytes} bytes from the HDD"
[ $((dev_bytes * 4)) -le $((3 * 3 * 24 << 20)) ] || { echo "re-reads still come from the HDD"; exit 1; }
# Under TCG the emulated SATA SSD costs CPU the loaded host may not give (raw SSD reads ran as
# slow as the throttled HDD there): the timing bar is only that re-reads beat the first read.
[ "$best" -lt "$first" ] || { echo "re-reads from the SSD were not faster than the first read"; exit 1; }
"$CTL" cache status --json | grep -q "\"hit_ratio\"" || { echo "no statistics"; exit 1; }
head -c 8M /dev/urandom >"$mnt/after"
(cd "$mnt" && sha256sum after >>/tmp/ssdk-ssd-cache.sum)
echo "reads done, 8 MiB written ($(($(date +%s) - t0)) s)"
"$CTL" cache flush "$dev"
echo "flushed ($(($(date +%s) - t0)) s)"
"$CTL" cache disable "$dev"
cache_test_end "$dev" "$mnt" /tmp/ssdk-ssd-cache.sum
echo "checksums intact, fsck clean ($(($(date +%s) - t0)) s)"
' || fail "ssd-cache in the lab VM"
