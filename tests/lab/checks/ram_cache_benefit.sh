# ram cache gui benefit: the RAM Cache page compares a mounted partition without and with the cache
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
gui_test=$SSDK_BIN_DIR/test_ram_cache_lab
[ -x "$gui_test" ] || fail "$gui_test is not built (SSDK_BUILD_GUI=OFF?)"
ctl=$SSDK_BIN_DIR/ssdkeeperctl
[ -x "$ctl" ] || fail "$ctl is not built"
shots=/tmp/ssdk-ram-cache-benefit-shots
# SSDK_RAMCACHE_LAB_BACKEND=engine (here) compares with another RAM backend than
# zram-writecache.
backend=${SSDK_RAMCACHE_LAB_BACKEND:-zram-writecache}
# The guest script: one 256 MiB ext4 partition on the throttled HDD, mounted noatime; the GUI
# test presses "Compare with and without cache" (fio without, the cache on, fio with, the cache
# off); then the partition must be mounted from itself again, no dm device and no test file
# left, and fsck clean. The trap takes the cache down whatever fails.
status=0
lab_run --timeout 300 "TEST='$gui_test' CTL='$ctl' SHOTS='$shots' SHOOT='${SSDK_SCREENSHOT_DIR:+1}' BACKEND='$backend'"'
set -eu
disk=$(readlink -f /dev/lab/hdd)
mnt=/mnt/ssdk-ram-cache-benefit
cleanup() {
    "$CTL" cache disable "${disk}1" >/dev/null 2>&1 || true
    umount "$mnt" 2>/dev/null || true
}
trap cleanup EXIT
echo ",256M" | sfdisk -q --wipe always --wipe-partitions always "$disk"
partx -u "$disk" 2>/dev/null || blockdev --rereadpt "$disk"
part=${disk}1
# 4 KiB blocks: mkfs picks 1 KiB for a partition this small, and a filesystem with blocks
# smaller than the 4 KiB sectors of zram cannot be mounted on the cache (EXT4: bad block size).
mkfs.ext4 -q -F -b 4096 -E lazy_itable_init=1,lazy_journal_init=1 "$part"
mkdir -p "$mnt"
mount -o noatime "$part" "$mnt"
rm -rf "$SHOTS"
mkdir -p "$SHOTS"
shots_env=
[ -z "$SHOOT" ] || shots_env="SSDK_SCREENSHOT_DIR=$SHOTS"
env QT_QPA_PLATFORM=offscreen SSDK_RAMCACHE_LAB_MOUNT="$mnt" SSDK_RAMCACHE_LAB_BACKEND="$BACKEND" \
    $shots_env "$TEST" "[benefit]"
trap - EXIT
[ "$(findmnt -n -o SOURCE "$mnt")" = "$part" ] || { echo "$part is not mounted back"; exit 1; }
! dmsetup ls | grep -q ssdk- || { echo "a dm device is left behind"; exit 1; }
! ls "$mnt"/ssdkeeper-bench-* >/dev/null 2>&1 || { echo "a test file is left behind"; exit 1; }
umount "$mnt"
fsck.ext4 -fn "$part" >/dev/null
wipefs -q -a "$part" "$disk"
partx -d "$disk" 2>/dev/null || true
echo "compared, mounted from $part again, nothing left behind, fsck clean"
' || status=$?
copy_guest_screenshots "$shots"
[ "$status" != 77 ] || fail "the GUI test skipped in the guest, where it runs as root (see above)"
[ "$status" = 0 ] || fail "the RAM Cache page comparison in the lab VM (exit $status)"
