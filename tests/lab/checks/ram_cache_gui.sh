# ram cache gui: the RAM Cache page caches a mounted ext4 partition, flushes and turns it off
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
gui_test=$SSDK_BIN_DIR/test_ram_cache_lab
[ -x "$gui_test" ] || fail "$gui_test is not built (SSDK_BUILD_GUI=OFF?)"
ctl=$SSDK_BIN_DIR/ssdkeeperctl
[ -x "$ctl" ] || fail "$ctl is not built"
# Screenshots are written in the guest's /tmp and copied out when SSDK_SCREENSHOT_DIR is set
# here (the guest sees this machine's files read-only).
shots=/tmp/ssdk-ram-cache-gui-shots
# The guest script: one ext4 partition on the throttled HDD with a random and a text file,
# mounted noatime; the GUI test ticks the checkbox (apply now), reads and rewrites the files,
# flushes and unticks; then the partition must be mounted again, no dm device left, every
# checksum equal and fsck clean. The trap takes the cache down whatever fails.
status=0
lab_run --timeout 170 "TEST='$gui_test' CTL='$ctl' SHOTS='$shots' SHOOT='${SSDK_SCREENSHOT_DIR:+1}'"'
set -eu
disk=$(readlink -f /dev/lab/hdd)
mnt=/mnt/ssdk-ram-cache-gui
cleanup() {
    "$CTL" cache disable "${disk}1" >/dev/null 2>&1 || true
    umount "$mnt" 2>/dev/null || true
}
trap cleanup EXIT
echo ",768M" | sfdisk -q --wipe always --wipe-partitions always "$disk"
partx -u "$disk" 2>/dev/null || blockdev --rereadpt "$disk"
part=${disk}1
mkfs.ext4 -q -F -E lazy_itable_init=1,lazy_journal_init=1 "$part"
mkdir -p "$mnt"
mount -o noatime "$part" "$mnt"
head -c 4M /dev/urandom >"$mnt/random.bin"
seq 1 800000 | head -c 4M >"$mnt/numbers.txt"
sync
(cd "$mnt" && sha256sum random.bin numbers.txt >/tmp/ssdk-ram-cache-gui.sum)
rm -rf "$SHOTS"
mkdir -p "$SHOTS"
shots_env=
[ -z "$SHOOT" ] || shots_env="SSDK_SCREENSHOT_DIR=$SHOTS"
env QT_QPA_PLATFORM=offscreen SSDK_RAMCACHE_LAB_MOUNT="$mnt" $shots_env "$TEST" "[cycle]"
trap - EXIT
[ "$(findmnt -n -o SOURCE "$mnt")" = "$part" ] || { echo "$part is not mounted back"; exit 1; }
findmnt -n -o OPTIONS "$mnt" | grep -q noatime || { echo "mount options were not kept"; exit 1; }
! dmsetup ls | grep -q ssdk- || { echo "a dm device is left behind"; exit 1; }
(cd "$mnt" && sha256sum -c --quiet /tmp/ssdk-ram-cache-gui.sum)
umount "$mnt"
fsck.ext4 -fn "$part" >/dev/null
wipefs -q -a "$part" "$disk"
partx -d "$disk" 2>/dev/null || true
echo "mounted from $part again, checksums intact, fsck clean"
' || status=$?
copy_guest_screenshots "$shots"
[ "$status" != 77 ] || fail "the GUI test skipped in the guest, where it runs as root (see above)"
[ "$status" = 0 ] || fail "the RAM Cache page in the lab VM (exit $status)"
