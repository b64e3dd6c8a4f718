# ram cache: bcache refuses ext4 holding data, attaches a RAM (zram) cache set to a bcache backing device with the sequential cutoff and writeback percent asked for, flushes and detaches intact with both put back
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
ctl=$SSDK_BIN_DIR/ssdkeeperctl
[ -x "$ctl" ] || fail "$ctl is not built"
# bcache keeps its superblock where a filesystem starts, so it cannot cache a partition that
# holds ext4 without reformatting it: the backend refuses, the data stays intact. The
# path bcache does support: an empty partition formatted with make-bcache -B (the step the
# user takes), ext4 with data on /dev/bcacheN, mounted; the backend adds a cache set on a zram
# device under the mounted filesystem (apply now), O_DIRECT re-reads come from RAM, flush,
# disable detaches the set; checksums and fsck. The cache is enabled with --sequential-cutoff 0
# --writeback-percent 20: sysfs shows both while it runs (and `cache status` reports them), the
# values from before once it is off. The trap takes everything down.
lab_run "CTL='$ctl'; . '$guest_lib/ram_cache.sh'"'
set -eu
t0=$(date +%s)
dev=$(readlink -f /dev/lab/hdd)
mnt=/mnt/ssdk-bcache
bdev=
cleanup() {
    writer_stop
    [ -z "$bdev" ] || "$CTL" cache disable "$bdev" >/dev/null 2>&1 || true
    umount "$mnt" 2>/dev/null || true
    for stop in /sys/block/bcache*/bcache/stop; do [ -e "$stop" ] && echo 1 >"$stop"; done
    sleep 1
    wipefs -q -a "$dev" 2>/dev/null || true
}
trap cleanup EXIT
mkfs.ext4 -q -F -E lazy_itable_init=1,lazy_journal_init=1 "$dev"
mkdir -p "$mnt"
mount -o noatime "$dev" "$mnt"
head -c 4M /dev/urandom >"$mnt/kept"
(cd "$mnt" && sha256sum kept >/tmp/ssdk-bcache-kept.sum)
umount "$mnt"
if "$CTL" cache enable "$dev" --backend bcache --size 64M 2>/tmp/ssdk-bcache.err; then
    echo "bcache took a partition holding ext4"; exit 1
fi
grep -q "cannot cache it without reformatting" /tmp/ssdk-bcache.err || { cat /tmp/ssdk-bcache.err; exit 1; }
fsck.ext4 -fn "$dev" >/dev/null
mount -o ro "$dev" "$mnt"
(cd "$mnt" && sha256sum -c --quiet /tmp/ssdk-bcache-kept.sum)
umount "$mnt"
echo "refused over ext4 with data, which stays intact ($(($(date +%s) - t0)) s)"
wipefs -q -a "$dev"
make-bcache -B --block 4k "$dev" >/dev/null
echo "$dev" >/sys/fs/bcache/register
for i in $(seq 50); do [ -e "/sys/block/${dev#/dev/}/bcache/dev" ] && break; sleep 0.1; done
bdev=/dev/$(basename "$(readlink -f "/sys/block/${dev#/dev/}/bcache/dev")")
mkfs.ext4 -q -F -E lazy_itable_init=1,lazy_journal_init=1 "$bdev"
mount -o noatime "$bdev" "$mnt"
head -c 16M /dev/urandom >"$mnt/data"
sync
(cd "$mnt" && sha256sum data >/tmp/ssdk-bcache.sum)
knobs=/sys/block/${bdev#/dev/}/bcache
old_cutoff=$(cat "$knobs/sequential_cutoff")
old_percent=$(cat "$knobs/writeback_percent")
"$CTL" cache enable "$bdev" --backend bcache --size 64M --compression lz4 \
    --mode write-back --sequential-cutoff 0 --writeback-percent 20 --apply-now --yes
[ "$(findmnt -n -o SOURCE "$mnt")" = "$bdev" ] || { echo "$bdev is not mounted"; exit 1; }
[ -e "/sys/block/${bdev#/dev/}/bcache/cache" ] || { echo "no cache set attached"; exit 1; }
# bcache prints sizes with a unit and one decimal: 0 may read "0.0k".
cutoff=$(cat "$knobs/sequential_cutoff")
percent=$(cat "$knobs/writeback_percent")
case "$cutoff" in
0 | 0.0k) ;;
*) echo "sequential_cutoff is $cutoff, not 0"; exit 1 ;;
esac
[ "$percent" = 20 ] || { echo "writeback_percent is $percent, not 20"; exit 1; }
"$CTL" --json cache status "$bdev" | python3 -c "
import json, sys
stats = json.load(sys.stdin)[\"caches\"][0][\"stats\"]
tuning = (stats[\"sequential_cutoff\"], stats[\"writeback_percent\"])
sys.exit(0 if tuning == (0, 20) else \"cache status reports %s, not (0, 20)\" % (tuning,))
"
echo "sequential_cutoff $cutoff and writeback_percent $percent while enabled (were $old_cutoff and $old_percent)"
zram=$(python3 -c "import glob,json; print(json.load(open(glob.glob(\"/var/lib/ssdkeeper/cache/*.json\")[0]))[\"cache\"][\"resources\"][\"zram\"][0])")
# O_DIRECT reads of the file in 64 KiB pieces in a scattered order: the first pass, then three
# re-reads and the bytes the HDD read during them. bcache keeps 1 MiB reads out of the cache
# (in the lab runs most of them counted as bypassed or uncached misses, with the re-reads
# going to the HDD), so the pieces are the size of a random read a cache is for.
python3 - "$mnt/data" "${dev#/dev/}" >/tmp/ssdk-bcache.times <<"PY"
import mmap, os, sys, time
path, disk = sys.argv[1:3]
piece = 64 << 10
pieces = (16 << 20) // piece
buf = mmap.mmap(-1, piece)
def read_ms():
    fd = os.open(path, os.O_RDONLY | os.O_DIRECT)
    start = time.monotonic()
    for i in range(pieces):
        os.preadv(fd, [buf], (i * 97 % pieces) * piece)
    os.close(fd)
    return int((time.monotonic() - start) * 1000)
def hdd_sectors():
    return int(open("/sys/block/%s/stat" % disk).read().split()[2])
first = read_ms()
before = hdd_sectors()
best = min(read_ms() for _ in range(3))
print(first, best, (hdd_sectors() - before) * 512)
PY
read -r first best hdd_bytes </tmp/ssdk-bcache.times
# bcache folds its hit counters into stats_total on a timer, which a busy guest runs late.
for i in $(seq 30); do
    hits=$(cat "/sys/block/${bdev#/dev/}/bcache/stats_total/cache_hits")
    [ "$hits" -gt 0 ] && break
    sleep 1
done
echo "O_DIRECT 64 KiB reads of 16 MiB through $bdev: first ${first} ms, best of the next three ${best} ms; re-reads read ${hdd_bytes} bytes from the HDD; bcache hits ${hits} ($(($(date +%s) - t0)) s)"
[ $((hdd_bytes * 10)) -le $((3 * 16 << 20)) ] || { echo "re-reads reached the HDD"; exit 1; }
[ "$hits" -gt 0 ] || { echo "bcache counted no cache hits"; exit 1; }
[ $((best * 3)) -le "$first" ] || { echo "re-reads from RAM were not 3x faster than the first read"; exit 1; }
grep -q "\[writeback\]" "/sys/block/${bdev#/dev/}/bcache/cache_mode" || { echo "not in write-back"; exit 1; }
head -c 8M /dev/urandom >"$mnt/after"
(cd "$mnt" && sha256sum after >>/tmp/ssdk-bcache.sum)
# To write-through while a writer keeps going: nothing may be dirty once the switch returns.
writer_start "$mnt"
"$CTL" cache mode "$bdev" write-through
dirty=$(cat "/sys/block/${bdev#/dev/}/bcache/dirty_data")
writer_stop
case "$dirty" in
0 | 0.0k) ;;
*) echo "$dirty still dirty after the switch to write-through"; exit 1 ;;
esac
grep -q "\[writethrough\]" "/sys/block/${bdev#/dev/}/bcache/cache_mode" || { echo "not in write-through"; exit 1; }
echo "switched to write-through under writes, nothing dirty ($(($(date +%s) - t0)) s)"
"$CTL" cache flush "$bdev"
"$CTL" cache disable "$bdev"
[ "$(findmnt -n -o SOURCE "$mnt")" = "$bdev" ] || { echo "$bdev is not mounted back"; exit 1; }
[ ! -e "/sys/block/${bdev#/dev/}/bcache/cache" ] || { echo "the cache set is still attached"; exit 1; }
[ ! -e "/sys/block/zram$zram" ] || { echo "zram$zram is left"; exit 1; }
[ "$(cat "$knobs/sequential_cutoff")" = "$old_cutoff" ] ||
    { echo "sequential_cutoff is $(cat "$knobs/sequential_cutoff") after disable, not $old_cutoff"; exit 1; }
[ "$(cat "$knobs/writeback_percent")" = "$old_percent" ] ||
    { echo "writeback_percent is $(cat "$knobs/writeback_percent") after disable, not $old_percent"; exit 1; }
(cd "$mnt" && sha256sum -c --quiet /tmp/ssdk-bcache.sum)
umount "$mnt"
fsck.ext4 -fn "$bdev" >/dev/null
bdev=
echo "checksums intact, fsck clean ($(($(date +%s) - t0)) s)"
' || fail "bcache in the lab VM"
