# the HDD-like disk is rotational and throttled
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
[ "$(lab_run 'cat /sys/block/$(basename $(readlink -f /dev/lab/hdd))/queue/rotational')" = 1 ] ||
    fail "the HDD is not rotational"
# 16 MiB at the 20 MB/s limit take at least 0.8 s, whatever the host's speed.
start=$(date +%s%N)
lab_run 'head -c 16M /dev/zero | tr "\0" x | dd of=/dev/lab/hdd bs=1M oflag=direct status=none' ||
    fail "writing to the HDD"
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
[ "$elapsed_ms" -ge 800 ] || fail "16 MiB written in ${elapsed_ms} ms: the throttle is not active"
