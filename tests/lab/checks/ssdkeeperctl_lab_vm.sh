# ssdkeeperctl lab vm run and status drive the running VM
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
ctl=$SSDK_BIN_DIR/ssdkeeperctl
[ -x "$ctl" ] || fail "$ctl is not built (build it: ./scripts/build)"
rc=0
out=$("$ctl" lab vm --dir "$SSDK_LAB_VM_DIR" run -- 'echo from guest: $(uname -r)'\; exit 5) || rc=$?
[ "$rc" = 5 ] || fail "lab vm run gave exit $rc, expected 5: $out"
[[ $out == "from guest: "*-amd64 ]] || fail "lab vm run printed '$out'"
"$ctl" lab vm --dir "$SSDK_LAB_VM_DIR" status >/dev/null || fail "lab vm status: not running"
rc=0
"$ctl" --json lab vm --dir "$SSDK_LAB_VM_DIR" status >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "--json with lab vm gave exit $rc, expected 2 (usage)"
rc=0
"$ctl" lab vm --dir "$SSDK_LAB_VM_DIR/none" status >/dev/null || rc=$?
[ "$rc" = 3 ] || fail "lab vm status of a missing VM gave exit $rc, expected 3"
