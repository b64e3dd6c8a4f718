# bench --preset slc finds the exact cache cliff and drain of a QEMU burst throttle
# The SATA SSD gets a QEMU write throttle with a burst (over the lab's QMP socket): writes run
# at bps-write-max M for as long as the leaky bucket (threshold M x L, leaking at bps-write B)
# takes to fill, M*L/(M-B) seconds, then at B; idle time empties the bucket at B. That is an
# SLC cache with a known size M^2*L/(M-B) and a known drain; the slc preset must find both.
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
ctl=$SSDK_BIN_DIR/ssdkeeperctl
[ -x "$ctl" ] || fail "$ctl is not built (build it: ./scripts/build)"
qmp_socket=$SSDK_LAB_VM_DIR/qmp.sock
[ -S "$qmp_socket" ] || fail "the lab VM has no QMP socket (started by an older scripts/lab?)"
readonly max=16000000 avg=4000000 length=3

# Sets the write throttle of the SATA drive (all zeros: unthrottled); setting it resets the
# bucket, so every run starts with a full burst.
set_throttle() {
    python3 - "$qmp_socket" "$1" "$2" "$3" <<'PY'
import json, socket, sys
path, avg, peak, length = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
sock = socket.socket(socket.AF_UNIX)
sock.settimeout(10)
sock.connect(path)
stream = sock.makefile("rw")
stream.readline()  # the greeting
def execute(command, arguments=None):
    message = {"execute": command}
    if arguments is not None:
        message["arguments"] = arguments
    stream.write(json.dumps(message) + "\n")
    stream.flush()
    while True:
        reply = json.loads(stream.readline())
        if "return" in reply or "error" in reply:
            return reply
limits = {"device": "sata0", "bps": 0, "bps_rd": 0, "bps_wr": avg, "iops": 0, "iops_rd": 0,
          "iops_wr": 0}
if peak:
    limits.update({"bps_wr_max": peak, "bps_wr_max_length": length})
for reply in (execute("qmp_capabilities"), execute("block_set_io_throttle", limits)):
    if "error" in reply:
        sys.exit("QMP: " + reply["error"]["desc"])
PY
}
trap 'set_throttle 0 0 0 || true' EXIT
set_throttle "$avg" "$max" "$length" || fail "could not set the throttle over QMP"

lab_run "ssd=\$(readlink -f /dev/lab/ssd) && $ctl bench \$ssd --preset slc --size 80M \
    --burst 16M --gaps 1,2,4 --yes-destroy-data --output /tmp/slc.json >/dev/null" ||
    fail "bench --preset slc failed"
slc=$(lab_run 'jq -c .analysis.slc /tmp/slc.json') || fail "no SLC analysis: $slc"
echo "analysis: $slc"
set_throttle 0 0 0 || fail "could not lift the throttle"

# Expected: burst M for M*L/(M-B) s = 4 s -> 64 MB; then B. A 16 MiB burst after a gap g
# runs at full speed when the g*B freed in the bucket lets all of it through: g >= 3.15 s.
python3 - "$slc" "$max" "$avg" "$length" <<'PY' || fail "the SLC analysis is off: $slc"
import json, sys
slc = json.loads(sys.argv[1])
peak, avg, length = float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
cache = peak * peak * length / (peak - avg)
def near(value, expected, tolerance):
    ok = abs(value - expected) <= tolerance * expected
    print(f"{value:.4g} vs expected {expected:.4g} (±{tolerance:.0%}): {'ok' if ok else 'OFF'}")
    return ok
checks = [slc["drop_found"],
          near(slc["cache_bytes"], cache, 0.10),
          near(slc["burst_bytes_per_s"], peak, 0.10),
          near(slc["post_cache_bytes_per_s"], avg, 0.15),
          slc["recovering_gap_s"] == 4]
sys.exit(0 if all(checks) else 1)
PY
