# the GUI runs in the guest (Qt offscreen) and lists the emulated drives
# shellcheck disable=SC2016 # $(...) in single quotes expands in the guest
gui=$SSDK_BIN_DIR/ssdkeeper
[ -x "$gui" ] || fail "$gui is not built (SSDK_BUILD_GUI=OFF?)"
# --select makes the screenshot fail (exit 1) when that drive does not appear in the list.
lab_run "'$gui' --select nvme0n1 --page Overview --screenshot /tmp/lab-gui.png" ||
    fail "ssdkeeper --screenshot failed in the guest"
lab_run 'test "$(head -c 8 /tmp/lab-gui.png | od -An -tx1 | tr -d " ")" = 89504e470d0a1a0a &&
         test "$(stat -c %s /tmp/lab-gui.png)" -gt 10000' || fail "no PNG screenshot"
