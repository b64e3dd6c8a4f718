# modprobe dm-writecache nbd bcache zram and the other lab modules succeed
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
lab_run 'modprobe -a dm-writecache nbd bcache zram' || fail "modprobe dm-writecache nbd bcache zram"
lab_run 'modprobe -a dm-cache brd scsi_debug loop' || fail "modprobe dm-cache brd scsi_debug loop"
# Loaded, and live: their device nodes exist.
lab_run 'for module in dm_mod dm_writecache dm_cache nbd bcache zram brd scsi_debug loop nvme ahci; do
             test -d /sys/module/$module || { echo "module $module is not loaded"; exit 1; }
         done
         for node in /dev/mapper/control /dev/nbd0 /dev/zram0 /dev/ram0; do
             test -b $node -o -c $node || { echo "$node is missing"; exit 1; }
         done' || fail "modules or their device nodes are missing"
