# ram cache: at next boot via fstab and the unit's commands, power events flush and switch mode
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
ctl=$SSDK_BIN_DIR/ssdkeeperctl
[ -x "$ctl" ] || fail "$ctl is not built"
# The guest has no systemd as PID 1, so the boot is played by hand in the order systemd would:
# the unit's ExecStart (cache attach STABLE-PATH), the fstab mount, writes, power events, the
# unmount, the unit's ExecStop (cache detach). Then disable must leave fstab byte for byte as
# it was, and the data intact. The trap puts fstab back and takes everything down.
lab_run "CTL='$ctl'"'
set -eu
dev=$(readlink -f /dev/lab/hdd)
mnt=/mnt/ssdk-ram-boot
cp /etc/fstab /tmp/ssdk-fstab.orig
cleanup() {
    umount "$mnt" 2>/dev/null || true
    "$CTL" cache disable "$dev" >/dev/null 2>&1 || true
    umount "$mnt" 2>/dev/null || true
    cp /tmp/ssdk-fstab.orig /etc/fstab
}
trap cleanup EXIT
mkfs.ext4 -q -F -E lazy_itable_init=1,lazy_journal_init=1 "$dev"
mkdir -p "$mnt"
printf "%s  %s  ext4  noatime  0  2\n" "$dev" "$mnt" >>/etc/fstab
cp /etc/fstab /tmp/ssdk-fstab.before
mount "$mnt"
head -c 8M /dev/urandom >"$mnt/before"
(cd "$mnt" && sha256sum before >/tmp/ssdk-ram-boot.sum)
"$CTL" cache enable "$dev" --backend zram-writecache --size 64M --compression lz4 \
    --mode write-back --at-next-boot --power-safe --yes
line=$(grep "ssdkeeper-cache@" /etc/fstab)
case $line in /dev/mapper/ssdk-*" $mnt "*x-systemd.requires=ssdkeeper-cache@*) ;;
    *) echo "fstab line not changed as shown: $line"; exit 1 ;; esac
cmp -s /etc/fstab.ssdkeeper.bak /tmp/ssdk-fstab.before || { echo "no exact backup"; exit 1; }
[ "$(findmnt -n -o SOURCE "$mnt")" = "$dev" ] || { echo "at next boot changed the mount now"; exit 1; }
stable=$("$CTL" cache status "$dev" --json | grep -o "\"device\": \"[^\"]*\"" | head -1 | cut -d\" -f4)
echo "boot unit: $(grep -o "ssdkeeper-cache@[^ ,]*" /etc/fstab) for $stable"
# "Reboot": the filesystem is not mounted; the unit stacks the cache, fstab mounts it.
umount "$mnt"
"$CTL" cache attach "$stable"
mount "$mnt"
src=$(findmnt -n -o SOURCE "$mnt")
case $src in /dev/mapper/ssdk-*|/dev/dm-*) ;; *) echo "mounted from $src, not the cache"; exit 1 ;; esac
name=$(basename "$(grep -o "^/dev/mapper/ssdk-[^ ]*" /etc/fstab)")
dmsetup table "$name" | grep -qw writeback || { echo "not write-back after attach"; exit 1; }
head -c 8M /dev/urandom >"$mnt/after"
(cd "$mnt" && sha256sum after >>/tmp/ssdk-ram-boot.sum)
sync -f "$mnt/after"
dirty() { dmsetup status "$name" | awk "{print \$14}"; }
echo "dirty cache blocks before the battery event: $(dirty)"
"$CTL" cache power-event --on-battery
dmsetup table "$name" | grep -qw writethrough || { echo "not write-through on battery"; exit 1; }
[ "$(dirty)" = 0 ] || { echo "$(dirty) blocks still dirty after the battery event"; exit 1; }
"$CTL" cache power-event --ac
dmsetup table "$name" | grep -qw writeback || { echo "not back to write-back on mains"; exit 1; }
"$CTL" cache power-event --shutdown
dmsetup table "$name" | grep -qw writethrough || { echo "not write-through at shutdown"; exit 1; }
# Shutdown: fstab unmounts, then the unit stops.
umount "$mnt"
"$CTL" cache detach "$stable"
! dmsetup ls | grep -q ssdk- || { echo "detach left a dm device"; exit 1; }
"$CTL" cache disable "$dev"
cmp -s /etc/fstab /tmp/ssdk-fstab.before || { echo "fstab not restored exactly"; diff /tmp/ssdk-fstab.before /etc/fstab; exit 1; }
mount "$mnt"
[ "$(findmnt -n -o SOURCE "$mnt")" = "$dev" ] || { echo "$dev does not mount by its own line"; exit 1; }
(cd "$mnt" && sha256sum -c --quiet /tmp/ssdk-ram-boot.sum)
umount "$mnt"
fsck.ext4 -fn "$dev" >/dev/null
trap - EXIT
cp /tmp/ssdk-fstab.orig /etc/fstab
echo "fstab restored byte for byte, checksums intact, fsck clean"
' || fail "at next boot and power events in the lab VM"
