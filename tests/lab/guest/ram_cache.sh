# shellcheck shell=sh
# Sourced in the guest by the RAM cache lab checks (tests/lab/checks/ram_cache_*.sh); they set
# CTL to the ssdkeeperctl to use. The guest runs checks with /bin/sh (dash): POSIX sh only.

# cache_test_begin DEV MNT: a fresh ext4 on DEV, mounted noatime at MNT. Whatever fails after
# this, the exit trap turns the cache on DEV off and unmounts MNT.
cache_test_begin() {
    # shellcheck disable=SC2064 # DEV and MNT are fixed now; $CTL expands when it runs
    trap "\"\$CTL\" cache disable '$1' >/dev/null 2>&1 || true; umount '$2' 2>/dev/null || true" EXIT
    mkfs.ext4 -q -F -E lazy_itable_init=1,lazy_journal_init=1 "$1"
    mkdir -p "$2"
    mount -o noatime "$1" "$2"
}

# cache_test_end DEV MNT SUMS: after `cache disable`, MNT is mounted from DEV again, no
# device-mapper device, /dev/mapper node or nbd attachment is left, the files listed in SUMS
# (sha256sum output, relative to MNT) are intact, and fsck finds DEV clean once unmounted.
cache_test_end() {
    trap - EXIT
    [ "$(findmnt -n -o SOURCE "$2")" = "$1" ] || { echo "$1 is not mounted back"; exit 1; }
    ! dmsetup ls 2>/dev/null | grep -q ssdk- || { echo "a dm device is left behind"; exit 1; }
    for node in /dev/mapper/ssdk-*; do
        if [ -e "$node" ]; then
            echo "$node is left behind"
            exit 1
        fi
    done
    ! grep -qs . /sys/block/nbd*/pid || { echo "an nbd device is still attached"; exit 1; }
    (cd "$2" && sha256sum -c --quiet "$3")
    umount "$2"
    fsck.ext4 -fn "$1" >/dev/null
}

# writer_start DIR: rewrites DIR/churn (1 MiB, fsync'd) over and over in the background until
# writer_stop, so a check can show that something holds while writes go on.
writer_start() {
    rm -f /tmp/ssdk-writer.stop
    (while [ ! -e /tmp/ssdk-writer.stop ]; do
        dd if=/dev/urandom of="$1/churn" bs=64k count=16 conv=fsync 2>/dev/null
    done) &
    writer_pid=$!
}

# writer_stop: stops writer_start's writer after its current dd (killing the loop would leave
# that dd holding the mount); nothing when none runs.
writer_stop() {
    [ -n "${writer_pid:-}" ] || return 0
    touch /tmp/ssdk-writer.stop
    wait "$writer_pid" 2>/dev/null || true
    writer_pid=
}

# read_ms FILE: how many milliseconds an O_DIRECT read of FILE takes.
read_ms() {
    read_ms_start=$(date +%s%N)
    dd if="$1" of=/dev/null bs=1M iflag=direct status=none
    echo $((($(date +%s%N) - read_ms_start) / 1000000))
}

# cache_rereads DEV FILE: FILE (on a cache in front of DEV) read twice more to warm the cache,
# then three times: sets best to the fastest of those three in ms and dev_bytes to what they
# read from DEV itself (its read counter: ground truth, whatever the timing).
cache_rereads() {
    read_ms "$2" >/dev/null
    read_ms "$2" >/dev/null
    cache_rereads_sectors=$(awk '{print $3}' "/sys/block/${1#/dev/}/stat")
    best=999999
    for _ in 4 5 6; do
        cache_rereads_ms=$(read_ms "$2")
        [ "$cache_rereads_ms" -lt "$best" ] && best=$cache_rereads_ms
    done
    # shellcheck disable=SC2034 # for the caller
    dev_bytes=$((($(awk '{print $3}' "/sys/block/${1#/dev/}/stat") - cache_rereads_sectors) * 512))
}
