# ram cache: kill -9 of ssdkeeper-cached under a mounted ext4, recover, reattach, synced data intact, fsck clean
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
ctl=$SSDK_BIN_DIR/ssdkeeperctl
[ -x "$ctl" ] || fail "$ctl is not built"
# Issue 6, safety: ext4 on the HDD mounted through the engine in write-back; a file written and
# synced (the NBD FLUSH makes the daemon write it back), another written but not synced; the
# daemon is killed with SIGKILL while it holds a request. `cache status` says so, `cache
# disable` recovers (the dead /dev/nbdN is disconnected, its filesystem unmounted, the HDD
# mounted back, ext4 replays its journal), fsck is clean; the cache is attached again under the
# mounted filesystem (a new daemon over the same HDD) and the synced file reads back intact.
lab_run "CTL='$ctl'; . '$guest_lib/ram_cache.sh'"'
set -eu
t0=$(date +%s)
dev=$(readlink -f /dev/lab/hdd)
mnt=/mnt/ssdk-ram-kill
cache_test_begin "$dev" "$mnt"
"$CTL" cache enable "$dev" --backend engine --size 32M --compression lz4 \
    --mode write-back --apply-now --yes >/dev/null
case $(findmnt -n -o SOURCE "$mnt") in /dev/nbd*) ;; *) echo "not mounted from the cache"; exit 1 ;; esac
head -c 8M /dev/urandom >"$mnt/synced"
sync
(cd "$mnt" && sha256sum synced >/tmp/ssdk-ram-kill.sum)
# Written through to the daemon (O_DIRECT) but never flushed: write-back keeps it in RAM.
dd if=/dev/urandom of="$mnt/unsynced" bs=1M count=4 oflag=direct status=none
pid=$(python3 -c "import glob,json; print(json.load(open(glob.glob(\"/var/lib/ssdkeeper/cache/*.json\")[0]))[\"cache\"][\"resources\"][\"pid\"])")
# The daemon dies with requests in flight: stopped, a write is queued to it and a sync waits
# for that, then it is killed. The kernel never gets their replies (it sets no timeout), so
# disable must detach /dev/nbdN before it unmounts (an unmount first waited forever).
kill -STOP "$pid"
head -c 1M /dev/urandom >"$mnt/in-flight"
sync &
syncer=$!
sleep 1
kill -9 "$pid"
for i in $(seq 50); do [ -e "/proc/$pid" ] && sleep 0.1; done
echo "ssdkeeper-cached (pid $pid) killed ($(($(date +%s) - t0)) s)"
"$CTL" cache status "$dev" | grep "is not running (killed or crashed)" ||
    { echo "cache status does not say the daemon is gone"; exit 1; }
"$CTL" cache disable "$dev"
[ "$(findmnt -n -o SOURCE "$mnt")" = "$dev" ] || { echo "$dev is not mounted back"; exit 1; }
wait "$syncer" || true
umount "$mnt"
fsck.ext4 -fn "$dev" >/dev/null
mount -o noatime "$dev" "$mnt"
echo "recovered: mounted from $dev again, fsck clean ($(($(date +%s) - t0)) s)"
"$CTL" cache enable "$dev" --backend engine --size 32M --compression lz4 \
    --mode write-back --apply-now --yes >/dev/null
case $(findmnt -n -o SOURCE "$mnt") in /dev/nbd*) ;; *) echo "not mounted from the cache again"; exit 1 ;; esac
newpid=$(python3 -c "import glob,json; print(json.load(open(glob.glob(\"/var/lib/ssdkeeper/cache/*.json\")[0]))[\"cache\"][\"resources\"][\"pid\"])")
[ "$newpid" != "$pid" ] && [ -e "/proc/$newpid" ] || { echo "no new daemon serves the cache"; exit 1; }
(cd "$mnt" && sha256sum -c --quiet /tmp/ssdk-ram-kill.sum)
echo "reattached (ssdkeeper-cached pid $newpid): the synced file reads back intact through the cache ($(($(date +%s) - t0)) s)"
"$CTL" cache disable "$dev"
cache_test_end "$dev" "$mnt" /tmp/ssdk-ram-kill.sum
echo "synced data intact, fsck clean ($(($(date +%s) - t0)) s)"
' || fail "daemon kill in the lab VM"
