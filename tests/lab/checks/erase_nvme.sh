# ssdkeeperctl erase formats the emulated NVMe namespace and the verification proves it
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
# The NVMe path as users run it: ssdkeeperctl → helper → libnvme Format NVM (SES 1) on QEMU's
# controller. QEMU 7.2 implements Format NVM but neither Sanitize (SANICAP 0) nor cryptographic
# erase (FNA bit 2): those are listed as unavailable with the reason and refused clearly.
# Ground truth: the guest reads zeroes back, and the host's sparse image holds no data blocks.
ctl=$SSDK_BIN_DIR/ssdkeeperctl
[ -x "$ctl" ] || fail "$ctl is not built (build it: ./scripts/build)"
image=$(lab images | grep '/nvme.img$')
model="QEMU NVMe Ctrl"
lab_run 'head -c 4M /dev/urandom | dd of=/dev/nvme0n1 bs=1M oflag=direct status=none &&
         head -c 1M /dev/urandom | dd of=/dev/nvme0n1 bs=1M seek=700 oflag=direct status=none' ||
    fail "writing test data"
allocated=$(($(stat -c %b "$image") * 512))
[ "$allocated" -ge $((5 << 20)) ] || fail "host image holds only $allocated bytes after writing"

listed=$(lab_run "'$ctl' --json erase /dev/nvme0n1 --list 2>/dev/null") || fail "erase --list: $listed"
method() { jq -r --arg m "$1" '.methods[] | select(.method == $m) | "\(.available) \(.reason)"' <<<"$listed"; }
[ "$(jq -r .auto <<<"$listed")" = nvme-format ] || fail "auto is not nvme-format: $listed"
[ "$(jq -r .confirmation <<<"$listed")" = "$model" ] || fail "confirmation word: $listed"
[[ $(method nvme-format) == "true"* ]] || fail "nvme-format unavailable: $(method nvme-format)"
[ "$(method nvme-sanitize-block)" = "false the controller does not support sanitize block erase (SANICAP bit 1)" ] ||
    fail "nvme-sanitize-block: $(method nvme-sanitize-block)"
[[ $(method nvme-format-crypto) == "false the controller does not support cryptographic erase"* ]] ||
    fail "nvme-format-crypto: $(method nvme-format-crypto)"

# Sanitize, asked for by name: a clear refusal, and the data is untouched.
rc=0
out=$(lab_run "'$ctl' erase /dev/nvme0n1 --method nvme-sanitize-block --confirm '$model' --yes-destroy-data") || rc=$?
[ "$rc" != 0 ] || fail "sanitize on QEMU's controller succeeded: $out"
grep -qF "nvme-sanitize-block is not available: the controller does not support sanitize" <<<"$out" ||
    fail "sanitize refusal unclear: $out"
lab_run 'cmp -s -n 4194304 /dev/nvme0n1 /dev/zero' && fail "the refused sanitize changed the data"

# The erase: auto → Format NVM, verified by reading a spread of blocks, with a certificate.
cert=$(lab_run "'$ctl' --json erase /dev/nvme0n1 --method auto --confirm '$model' --yes-destroy-data \
                --certificate /tmp/nvme-cert.json 2>/dev/null") || fail "erase: $cert"
[ "$(jq -r .method <<<"$cert")" = nvme-format ] || fail "method: $cert"
[ "$(jq -r .verification.passed <<<"$cert")" = true ] || fail "verification: $cert"
[ "$(jq -r .verification.zeros <<<"$cert")" = 64 ] || fail "not all 64 samples read zero: $cert"
[ "$(jq -r .device.serial <<<"$cert")" = SSDKLABNVME0001 ] || fail "certificate identity: $cert"
lab_run 'test -s /tmp/nvme-cert.json && grep -q "Verified: PASSED" /tmp/nvme-cert.json.txt' ||
    fail "certificate files"
lab_run 'cmp -n 4194304 /dev/nvme0n1 /dev/zero &&
         cmp -n 1048576 /dev/zero /dev/nvme0n1 --ignore-initial=0:734003200' ||
    fail "the namespace does not read zeroes after the erase"
allocated=$(($(stat -c %b "$image") * 512))
[ "$allocated" = 0 ] || fail "host image still holds $allocated bytes after the erase"
# The journal says the erase completed.
journal=$(lab_run 'cat /var/lib/ssdkeeper/erase/QEMU_NVMe_Ctrl-SSDKLABNVME0001.json') ||
    fail "no erase journal"
[ "$(jq -r .state <<<"$journal")" = completed ] || fail "journal: $journal"
