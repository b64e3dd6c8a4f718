# TRIM on the emulated SATA SSD and NVMe drive deallocates the host's sparse images
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
# SATA: ATA DATA SET MANAGEMENT (TRIM); NVMe: Dataset Management (deallocate).
for drive in ssd:sata.img nvme:nvme.img; do
    IFS=: read -r name file <<<"$drive"
    image=$(lab images | grep "/$file\$")
    lab_run "head -c 8M /dev/urandom | dd of=/dev/lab/$name bs=1M seek=100 oflag=direct status=none" ||
        fail "writing test data to /dev/lab/$name"
    allocated=$(($(stat -c %b "$image") * 512))
    [ "$allocated" -ge $((8 << 20)) ] || fail "$file holds only $allocated bytes after writing"
    lab_run "blkdiscard /dev/lab/$name" || fail "blkdiscard /dev/lab/$name"
    allocated=$(($(stat -c %b "$image") * 512))
    [ "$allocated" = 0 ] || fail "$file still holds $allocated bytes after TRIM"
done
