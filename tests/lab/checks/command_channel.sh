# command channel returns output and exit codes
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
# Output comes back byte for byte (stdout and stderr merged), the exit code is the command's,
# a timed-out command gives 124 and does not confuse the next command, and the guest runs
# Debian's kernel over this machine's userland.
rc=0
out=$(lab_run 'echo hello; echo oops >&2; exit 3') || rc=$?
[ "$rc" = 3 ] || fail "exit code $rc, expected 3"
[ "$out" = $'hello\noops' ] || fail "output '$out'"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
lab_run "printf 'no newline'" >"$scratch/exact"
if [ "$(cat "$scratch/exact")" != "no newline" ] || [ "$(stat -c %s "$scratch/exact")" != 10 ]; then
    fail "output without a final newline changed: $(od -c "$scratch/exact")"
fi
lab_run 'printf "a\n\n"' >"$scratch/exact"
[ "$(stat -c %s "$scratch/exact")" = 3 ] || fail "blank lines changed: $(od -c "$scratch/exact")"

out=$(lab_run "printf '%s|' \"it's\" '\$HOME' 'two words'")
[ "$out" = "it's|\$HOME|two words|" ] || fail "quoting changed the command: '$out'"

rc=0
lab run --timeout 2 'sleep 4; echo late' >/dev/null 2>&1 || rc=$?
[ "$rc" = 124 ] || fail "a timed-out command gave $rc, expected 124"
out=$(lab_run 'echo next')
[ "$out" = next ] || fail "the command after a timeout got '$out'"

guest_kernel=$(lab_run 'uname -r')
[[ $guest_kernel == *-amd64 ]] || fail "guest kernel '$guest_kernel' is not Debian's"
[ "$guest_kernel" != "$(uname -r)" ] || fail "guest runs the host's kernel"
lab_run "test -x '$SSDK_BIN_DIR/../CMakeCache.txt' -o -f '$SSDK_BIN_DIR/../CMakeCache.txt'" ||
    fail "the host's build tree is not visible in the guest"
lab_run 'touch /usr/ssdk-lab-overlay-probe && test -f /usr/ssdk-lab-overlay-probe' ||
    fail "the guest's root is not writable (tmpfs overlay)"
[ ! -e /usr/ssdk-lab-overlay-probe ] || fail "a guest write reached the host's root filesystem"
