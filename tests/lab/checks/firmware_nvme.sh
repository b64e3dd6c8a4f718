# ssdkeeperctl firmware reads the emulated NVMe slot log and refuses what QEMU cannot do
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
# Ground truth: the raw log and identify bytes nvme-cli reads in the guest, and QEMU's answer
# to a raw Firmware Image Download.
ctl=$SSDK_BIN_DIR/ssdkeeperctl
[ -x "$ctl" ] || fail "$ctl is not built (build it: ./scripts/build)"
help=$(lab_run "'$ctl' firmware --help" 2>/dev/null || true)
if ! grep -q '^Usage: [^ ]*ssdkeeperctl firmware' <<<"$help"; then
    fail "this ssdkeeperctl has no 'firmware' subcommand"
fi
json=$(lab_run "'$ctl' --json firmware /dev/lab/nvme") || fail "ssdkeeperctl firmware: $json"
echo "$json"
# nvme-cli's raw bytes (-b) of the slot log (03h) and Identify Controller, read independently.
fwlog=$(lab_run 'nvme get-log /dev/nvme0 --log-id=3 --log-len=512 -b | base64 -w0') ||
    fail "nvme get-log 3"
idctrl=$(lab_run 'nvme id-ctrl /dev/nvme0 -b | base64 -w0') || fail "nvme id-ctrl"
python3 - "$json" "$fwlog" "$idctrl" <<'PY' || fail "firmware info disagrees with nvme-cli: $json"
import base64, json, sys
info = json.loads(sys.argv[1])
fwlog, idctrl = (base64.b64decode(a) for a in sys.argv[2:4])
log = info["slot_log"]
assert info["serial"] == "SSDKLABNVME0001", info["serial"]
assert log["active_slot"] == fwlog[0] & 7, (log, fwlog[:8])
frs1 = fwlog[8:16].decode().strip(" \0")
assert log["slots"][0]["revision"] == frs1, (log, frs1)
assert info["revision"] == idctrl[64:72].decode().strip(" \0"), info["revision"]
frmw, oacs = idctrl[260], idctrl[256]
assert info["nvme"]["slots"] == (frmw >> 1) & 7, (info["nvme"], frmw)
assert info["nvme"]["slot1_read_only"] == bool(frmw & 1)
assert info["nvme"]["download_commit_supported"] == bool(oacs & 4)
assert info["nvme"]["fwug"] == idctrl[319]
path = next(p for p in info["update_paths"] if p["id"] == "nvme-image")
assert path["available"] == bool(oacs & 4), path
print("slot log:", log, "| nvme-image path:", path["available"], path["reason"])
PY
lab_run 'head -c 8192 /dev/urandom > /tmp/ssdk-fw.bin' || fail "writing a test image"
rc=0
out=$(lab_run "'$ctl' firmware update /dev/lab/nvme --image /tmp/ssdk-fw.bin --slot 2 \
               --action replace --yes 2>&1") || rc=$?
echo "$out"
if grep -q '"download_commit_supported": false' <<<"$json"; then
    # QEMU's controller clears OACS bit 2: the update must be refused before any command.
    [ "$rc" = 1 ] || fail "firmware update exit $rc (expected a refusal): $out"
    grep -q 'does not support Firmware Download and Commit' <<<"$out" ||
        fail "the refusal does not say why: $out"
    # And QEMU indeed rejects a raw Firmware Image Download.
    raw=$(lab_run 'nvme fw-download /dev/nvme0 --fw=/tmp/ssdk-fw.bin 2>&1') &&
        fail "QEMU accepted a firmware download: $raw"
    echo "nvme fw-download: $raw"
    grep -qiE 'invalid.*(opcode|command)|INVALID_OPCODE|Invalid Field' <<<"$raw" ||
        fail "QEMU's rejection of fw-download is not an invalid-command status: $raw"
else
    # A controller that takes the commands: the download and commit either complete or
    # fail with a named NVMe status, never silently.
    [ "$rc" = 0 ] || grep -qE 'Firmware|NVMe status|Invalid' <<<"$out" ||
        fail "firmware update failed without a status: $out"
fi
# The SATA SSD: DOWNLOAD MICROCODE facts come from libata's IDENTIFY copy; compare with the
# words themselves, and model and revision with IDENTIFY words 27-46 and 23-26.
sata=$(lab_run "'$ctl' --json firmware /dev/lab/ssd") || fail "ssdkeeperctl firmware ssd: $sata"
idtext=$(lab_run 'disk=$(basename "$(readlink -f /dev/lab/ssd)")
                  path=$(readlink -f "/sys/block/$disk"); port=${path#*/ata}; port=${port%%/*}
                  cat "/sys/class/ata_device/dev$port.0/id"') || fail "reading the ssd's id"
python3 - "$sata" "$idtext" <<'PY' || fail "ATA firmware facts disagree with IDENTIFY: $sata"
import json, sys
info = json.loads(sys.argv[1])
words = [int(w, 16) for w in sys.argv[2].split()]
assert len(words) == 256, len(words)
valid = lambda w: (w & 0xC000) == 0x4000
fw = "".join(chr(w >> 8) + chr(w & 0xFF) for w in words[23:27]).strip()
assert info["revision"] == fw, (info["revision"], fw)
model = "".join(chr(w >> 8) + chr(w & 0xFF) for w in words[27:47]).strip()
assert info["model"] == model, (info["model"], model)  # the whole model, not sysfs's 16 chars
mc = info["ata_microcode"]
assert mc is not None, info["ata_error"]
assert mc["supported"] == (valid(words[83]) and bool(words[83] & 1)), (mc, hex(words[83]))
assert mc["segmented"] == (mc["supported"] and valid(words[119]) and bool(words[119] & 0x10))
path = next(p for p in info["update_paths"] if p["id"] == "ata-microcode")
assert not path["available"], path
print("sata:", info["model"], fw, "| microcode:", mc, "|", path["reason"])
PY
