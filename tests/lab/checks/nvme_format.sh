# nvme format zeroes the emulated NVMe namespace
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
# Ground truth on both sides: the guest reads zeroes back, and the host's sparse image holds
# no data blocks any more (Format NVM deallocates the whole namespace).
image=$(lab images | grep '/nvme.img$')
lab_run 'head -c 4M /dev/urandom | dd of=/dev/nvme0n1 bs=1M oflag=direct status=none &&
         head -c 1M /dev/urandom | dd of=/dev/nvme0n1 bs=1M seek=512 oflag=direct status=none' ||
    fail "writing test data"
lab_run 'cmp -s -n 4194304 /dev/nvme0n1 /dev/zero' && fail "the random data reads as zeroes"
allocated=$(($(stat -c %b "$image") * 512))
[ "$allocated" -ge $((5 << 20)) ] || fail "host image holds only $allocated bytes after writing"
lab_run 'nvme format /dev/nvme0n1 --ses=0 --force' || fail "nvme format"
lab_run 'cmp -n 8388608 /dev/nvme0n1 /dev/zero &&
         cmp -n 1048576 /dev/zero /dev/nvme0n1 --ignore-initial=0:536870912' ||
    fail "the namespace does not read zeroes after the format"
allocated=$(($(stat -c %b "$image") * 512))
[ "$allocated" = 0 ] || fail "host image still holds $allocated bytes after the format"
