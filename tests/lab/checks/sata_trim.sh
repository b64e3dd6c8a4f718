# TRIM on the emulated SATA SSD and NVMe drive deallocates the host's sparse images
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
# SATA: ATA DATA SET MANAGEMENT (TRIM); NVMe: Dataset Management (deallocate).
# Byte ranges of a file that hold data ("start-end ..."), through SEEK_DATA/SEEK_HOLE.
data_extents() {
    python3 - "$1" <<'PY'
import os, sys
fd, pos, found = os.open(sys.argv[1], os.O_RDONLY), 0, []
while True:
    try:
        start = os.lseek(fd, pos, os.SEEK_DATA)
    except OSError:
        break
    pos = os.lseek(fd, start, os.SEEK_HOLE)
    found.append(f"{start}-{pos}")
print(" ".join(found) or "none")
PY
}
for drive in ssd:sata.img nvme:nvme.img; do
    IFS=: read -r name file <<<"$drive"
    image=$(lab images | grep "/$file\$")
    lab_run "head -c 8M /dev/urandom | dd of=/dev/lab/$name bs=1M seek=100 oflag=direct status=none" ||
        fail "writing test data to /dev/lab/$name"
    allocated=$(($(stat -c %b "$image") * 512))
    [ "$allocated" -ge $((8 << 20)) ] || fail "$file holds only $allocated bytes after writing"
    lab_run "blkdiscard /dev/lab/$name" || fail "blkdiscard /dev/lab/$name"
    # A write still in flight from an earlier check can land just after the discard: a few
    # tries, and the failure names where data is left.
    for _ in 1 2 3 4 5 6; do
        allocated=$(($(stat -c %b "$image") * 512))
        [ "$allocated" = 0 ] && break
        sleep 0.5
    done
    [ "$allocated" = 0 ] || fail "$file still holds $allocated bytes after TRIM, at: $(data_extents "$image")"
done
