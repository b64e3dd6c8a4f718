# A real blktrace capture replays in ssdkeeperctl cache simulate --format blktrace
# blktrace records a loop device while dd reads 3 blocks, writes 4 and reads the 3 again
# (O_DIRECT: nothing else reaches the device), twice: once as its stream on stdout (-o -), once
# as its per-CPU files. The stream, the per-CPU files one after another on stdin and the one
# file `blkparse -d` merges them into each replay as those 10 references: 3 hits with 16
# blocks of LRU cache, the second read of each block.
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
ctl=$SSDK_BIN_DIR/ssdkeeperctl
[ -x "$ctl" ] || fail "$ctl is not built"
out=$(lab_run '
    set -e
    modprobe loop
    mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
    work=$(mktemp -d)
    truncate -s 64M "$work/disk.img"
    dev=$(losetup -f --show "$work/disk.img")
    tracer=
    trap "[ -z \"\$tracer\" ] || kill \$tracer 2>/dev/null; wait; losetup -d $dev; rm -rf $work" EXIT
    # blktrace ARGS...: runs the workload under blktrace -d $dev ARGS.
    traced() {
        blktrace -d "$dev" "$@" 2>>"$work/blktrace.log" &
        tracer=$!
        # blktrace traces once its per-CPU files exist in debugfs.
        for _ in $(seq 100); do
            [ -e "/sys/kernel/debug/block/${dev#/dev/}/trace0" ] && break
            sleep 0.1
        done
        sleep 0.5
        dd if="$dev" of=/dev/null bs=4k skip=1000 count=3 iflag=direct status=none
        dd if=/dev/zero of="$dev" bs=8k seek=50 count=2 oflag=direct status=none
        dd if="$dev" of=/dev/null bs=4k skip=1000 count=3 iflag=direct status=none
        sleep 0.5
        kill -INT $tracer
        wait $tracer
        tracer=
    }
    # replay FILE: [replay, requests, hits, unique blocks, error]; anything else also shows the
    # whole output of ssdkeeperctl and the start of FILE.
    replay() {
        result=$('"'$ctl'"' --json cache simulate --trace "$1" --format blktrace \
            --cache-blocks 16 --policy lru 2>&1) || true
        line=$(echo "$result" | jq -c "[\"replay\", .requests, .hits, .unique_blocks, .error]" \
            2>&1) || true
        echo "$line"
        if [ "$line" != "[\"replay\",10,3,7,null]" ]; then
            echo "ssdkeeperctl said: $result"
            [ "$1" = - ] || {
                ls -l "$1"
                od -A d -t x1 "$1" | head -8
                # Around the byte the error names.
                at=$(echo "$result" | grep -o "(byte [0-9]*)" | grep -o "[0-9][0-9]*" | head -1)
                [ -z "$at" ] || od -A d -t x1 -j $((at > 64 ? at - 64 : 0)) -N 192 "$1"
            }
        fi
    }
    traced -o - >"$work/stream.bin"
    replay "$work/stream.bin"
    mkdir "$work/trace"
    traced -D "$work/trace" -o cap
    echo "per-CPU files: $(ls "$work/trace" | tr "\n" " ")"
    cat "$work"/trace/cap.blktrace.* | replay -
    blkparse -i "$work/trace/cap" -d "$work/merged.bin" -O
    replay "$work/merged.bin"
') || fail "capture or replay failed: $out"
# [replay, requests, hits, unique blocks, error] of each replay
[ "$(grep -c '^\["replay",10,3,7,null\]$' <<<"$out")" = 3 ] ||
    fail "expected all three replays to show 10 requests, 3 hits, 7 blocks: $out"
