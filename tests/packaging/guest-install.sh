# shellcheck shell=sh
# Run by check-deb.sh inside a throwaway lab VM (scripts/lab) with /bin/sh (dash):
#   sh guest-install.sh DEB VERSION
# Installs the .deb with dpkg as a user would, checks the installed system, purges it and checks
# that the package left nothing behind. The guest's root is this machine's root under a tmpfs
# overlay: dpkg really installs there, and nothing reaches the host.
set -eu
deb=$1
version=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
helper=/usr/libexec/ssdkeeper/ssdkeeper-helper
policy=/usr/share/polkit-1/actions/io.github.ssdkeeper.policy
# What the project keeps outside the package (this machine's own, seen through the overlay).
state() { ls -lAR /var/lib/ssdkeeper /etc/ssdkeeper 2>&1 || true; }
state_before=$(state)

dpkg -s ssdkeeper >/dev/null 2>&1 && fail "ssdkeeper is installed before the test"
# dpkg, not apt: a dependency the system lacks fails the install instead of being fetched.
dpkg -i "$deb" || fail "dpkg -i $deb"
[ "$(dpkg-query -W -f '${Status} ${Version}' ssdkeeper)" = "install ok installed $version" ] ||
    fail "dpkg does not list ssdkeeper $version as installed"

# The programs run from PATH, the helper is root's and nobody else may change it.
[ "$(command -v ssdkeeperctl)" = /usr/bin/ssdkeeperctl ] || fail "ssdkeeperctl is not on PATH"
[ "$(ssdkeeperctl --version)" = "$version" ] || fail "ssdkeeperctl --version is not $version"
ssdkeeperctl list >/dev/null || fail "ssdkeeperctl list"
for path in /usr/libexec/ssdkeeper "$helper" /usr/libexec/ssdkeeper/ssdkeeper-cached; do
    [ "$(stat -c '%a %U:%G' "$path")" = "755 root:root" ] ||
        fail "$path is $(stat -c '%a %U:%G' "$path"), not 755 root:root"
done
# As root ssdkeeperctl starts the helper without pkexec: from /usr/bin it must find the one in
# /usr/libexec, and that helper the packaged cache daemon.
status=$(env -u SSDK_HELPER ssdkeeperctl cache status --json) || fail "ssdkeeperctl cache status"
echo "$status" | grep -q '"name": "engine"' || fail "cache status lists no engine: $status"
echo "$status" | grep -q 'ssdkeeper-cached' && fail "the installed helper does not find ssdkeeper-cached: $status"

# polkit: the action that lets a user run the installed helper through pkexec.
[ "$(stat -c '%a %U:%G' "$policy")" = "644 root:root" ] || fail "$policy is not 644 root:root"
grep -q "<annotate key=\"org.freedesktop.policykit.exec.path\">$helper</annotate>" "$policy" ||
    fail "$policy does not name $helper as the program pkexec runs"
if command -v xmllint >/dev/null; then
    xmllint --noout "$policy" || fail "$policy is not well-formed XML"
fi

# The installed units, next to the system's own, are clean for systemd-analyze.
cd /usr/lib/systemd/system
verify=$(systemd-analyze verify --man=no ssdkeeper-cache-power.service \
    ssdkeeper-cache-sleep.service ssdkeeper-cache-shutdown.service \
    'ssdkeeper-cache@dev-disk-by\x2dpartuuid-4c1d\x2d01.service' 2>&1) ||
    fail "systemd-analyze verify: $verify"
[ -z "$verify" ] || fail "systemd-analyze verify: $verify"
cd /

# Purge: every file the package installed is gone, so are its own directories, dpkg forgets
# it, and the state directories are as they were before.
files=$(dpkg -L ssdkeeper)
dpkg --purge ssdkeeper || fail "dpkg --purge ssdkeeper"
dpkg -s ssdkeeper >/dev/null 2>&1 && fail "dpkg still knows ssdkeeper after the purge"
left=
for path in $files; do
    if [ -L "$path" ] || { [ -e "$path" ] && [ ! -d "$path" ]; }; then
        left="$left $path"
    fi
done
for dir in /usr/libexec/ssdkeeper /usr/share/ssdkeeper; do
    [ ! -e "$dir" ] || left="$left $dir"
done
ls /var/lib/dpkg/info/ssdkeeper.* >/dev/null 2>&1 && left="$left /var/lib/dpkg/info/ssdkeeper.*"
[ -z "$left" ] || fail "left after dpkg --purge:$left"
state_after=$(state)
[ "$state_after" = "$state_before" ] ||
    fail "the purge left state behind: before the install
$state_before
after the purge
$state_after"
echo "installed, ran and purged ssdkeeper $version: $(echo "$files" | wc -l) paths, none left"
