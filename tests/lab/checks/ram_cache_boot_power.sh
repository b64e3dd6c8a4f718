# ram cache: at next boot via fstab and the unit's commands, a battery event flushes and switches mode
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
ctl=$SSDK_BIN_DIR/ssdkeeperctl
[ -x "$ctl" ] || fail "$ctl is not built"
# The guest has no systemd as PID 1, so the boot is played by hand in the order systemd would:
# the unit's ExecStart (cache attach PATH, PATH unescaped from the instance fstab names), the
# fstab mount, writes, a battery event (the way back on mains is unit-tested), the unmount,
# the unit's ExecStop (cache detach). Then disable must leave fstab byte for byte as it was and the data intact. The trap
# puts fstab back and takes everything down whatever fails.
lab_run "CTL='$ctl'; . '$guest_lib/ram_cache.sh'"'
set -eu
dev=$(readlink -f /dev/lab/hdd)
mnt=/mnt/ssdk-ram-boot
cp /etc/fstab /tmp/ssdk-fstab.orig
last=$(date +%s%N)
lap() { now=$(date +%s%N); echo "$1: $(((now - last) / 1000000)) ms"; last=$now; }
cleanup() {
    writer_stop
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
"$CTL" cache enable "$dev" --backend zram-writecache --size 64M --compression lz4 \
    --mode write-back --at-next-boot --power-safe --yes
lap "mkfs, enable --at-next-boot"
line=$(grep "ssdkeeper-cache@" /etc/fstab)
case $line in /dev/mapper/ssdk-*" $mnt "*x-systemd.requires=ssdkeeper-cache@*) ;;
    *) echo "fstab line not changed as shown: $line"; exit 1 ;; esac
cmp -s /etc/fstab.ssdkeeper.bak /tmp/ssdk-fstab.before || { echo "no exact backup"; exit 1; }
unit=$(echo "$line" | grep -o "ssdkeeper-cache@[^ ,]*\.service")
instance=${unit#ssdkeeper-cache@}
instance=${instance%.service}
case $instance in *\\*) path=$(systemd-escape --unescape --path "$instance") ;;
    *) path=/$(echo "$instance" | tr - /) ;; esac
echo "boot unit $unit, ExecStart: ssdkeeperctl cache attach $path"
# "Boot": the unit stacks the cache from the journal, then fstab mounts it.
"$CTL" cache attach "$path"
lap "attach (unit ExecStart)"
mount "$mnt"
src=$(findmnt -n -o SOURCE "$mnt")
case $src in /dev/mapper/ssdk-*|/dev/dm-*) ;; *) echo "mounted from $src, not the cache"; exit 1 ;; esac
name=$(basename "$(echo "$line" | cut -d" " -f1)")
dmsetup table "$name" | grep -qw writeback || { echo "not write-back after attach"; exit 1; }
head -c 4M /dev/urandom >"$mnt/data"
(cd "$mnt" && sha256sum data >/tmp/ssdk-ram-boot.sum)
sync -f "$mnt/data"
dirty() { dmsetup status "$name" | awk "{print \$14}"; }
# Read once: dm-writecache may write some back between two reads.
before=$(dirty)
echo "dirty cache blocks before the battery event: $before"
[ "$before" -gt 0 ] || { echo "nothing dirty in write-back: the test would prove nothing"; exit 1; }
lap "mount from fstab, 4 MiB written"
# A writer keeps going through the battery event: once write-through, nothing it writes may
# stay dirty (a write between the drain and the switch once did).
writer_start "$mnt"
"$CTL" cache power-event --on-battery
lap "power-event --on-battery"
dmsetup table "$name" | grep -qw writethrough || { echo "not write-through on battery"; exit 1; }
sleep 1 # the writer writes on in write-through meanwhile
[ "$(dirty)" = 0 ] || { echo "$(dirty) blocks still dirty after the battery event"; exit 1; }
writer_stop
# "Shutdown": fstab unmounts, then the unit stops.
umount "$mnt"
"$CTL" cache detach "$path"
lap "detach (unit ExecStop)"
! dmsetup ls | grep -q ssdk- || { echo "detach left a dm device"; exit 1; }
"$CTL" cache disable "$dev"
lap "disable"
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
