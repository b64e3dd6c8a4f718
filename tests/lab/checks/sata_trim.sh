# TRIM on the emulated SATA SSD and NVMe drive deallocates the host's sparse images
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
# SATA: ATA DATA SET MANAGEMENT (TRIM); NVMe: Dataset Management (deallocate).
# The check looks at the 8 MiB it writes, not at the whole image: Linux sends ATA TRIM as
# ranges of at most 65535 sectors, so QEMU punches the host file in pieces whose ends fall
# inside 4 KiB host blocks; such a block keeps whatever an earlier check (dm-cache
# metadata, say) left there. The test range lies between two such ends.
start=$((100 << 20)) length=$((8 << 20))
# Bytes of data between $2 and $2 + $3 in file $1, then the ranges ("start-end ...").
data_in_range() {
    python3 - "$@" <<'PY'
import os, sys
path, lo, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
fd, pos, total, found = os.open(path, os.O_RDONLY), lo, 0, []
while pos < lo + n:
    try:
        begin = os.lseek(fd, pos, os.SEEK_DATA)
    except OSError:
        break
    if begin >= lo + n:
        break
    pos = min(os.lseek(fd, begin, os.SEEK_HOLE), lo + n)
    total += pos - begin
    found.append(f"{begin}-{pos}")
print(total, " ".join(found) or "none")
PY
}
for drive in ssd:sata.img nvme:nvme.img; do
    IFS=: read -r name file <<<"$drive"
    image=$(lab images | grep "/$file\$")
    lab_run "head -c $length /dev/urandom | dd of=/dev/lab/$name bs=1M seek=$((start >> 20)) oflag=direct status=none" ||
        fail "writing test data to /dev/lab/$name"
    read -r held ranges < <(data_in_range "$image" "$start" "$length")
    [ "$held" = "$length" ] || fail "$file holds only $held of the $length bytes written ($ranges)"
    lab_run "blkdiscard /dev/lab/$name" || fail "blkdiscard /dev/lab/$name"
    read -r held ranges < <(data_in_range "$image" "$start" "$length")
    [ "$held" = 0 ] || fail "$file still holds $held bytes of the test range after TRIM, at: $ranges"
done
