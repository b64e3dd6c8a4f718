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
# The package has man pages: man-db's dpkg trigger would rebuild the index of every page on the
# machine at the install and at the purge, minutes each under TCG. man finds the pages without
# it (checked below); the overlay forgets this switch with the rest of the guest.
rm -f /var/lib/man-db/auto-update
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

# Manual pages: man finds them by name and renders them; the completions are where bash-completion
# and zsh look for them.
for page in ssdkeeper ssdkeeperctl; do
    [ "$(stat -c '%a %U:%G' /usr/share/man/man1/$page.1.gz)" = "644 root:root" ] ||
        fail "/usr/share/man/man1/$page.1.gz is not 644 root:root"
    if command -v man >/dev/null; then
        [ "$(man -w "$page")" = "/usr/share/man/man1/$page.1.gz" ] || fail "man -w $page: $(man -w "$page" 2>&1)"
        MANWIDTH=80 man "$page" 2>/dev/null | grep -q "^SYNOPSIS" || fail "man $page renders no SYNOPSIS"
    else
        gzip -t "/usr/share/man/man1/$page.1.gz" || fail "$page.1.gz is not gzip"
    fi
done
MANWIDTH=80 man ssdkeeperctl 2>/dev/null | grep -q "lab create" || fail "man ssdkeeperctl does not describe lab create"
for completion in /usr/share/bash-completion/completions/ssdkeeperctl \
    /usr/share/zsh/vendor-completions/_ssdkeeperctl; do
    [ "$(stat -c '%a %U:%G' "$completion")" = "644 root:root" ] || fail "$completion is not 644 root:root"
done
[ "$(bash -c '. /usr/share/bash-completion/completions/ssdkeeperctl; COMP_WORDS=(ssdkeeperctl o)
    COMP_CWORD=1; _ssdkeeperctl; echo "${COMPREPLY[*]}"')" = op ] ||
    fail "the installed bash completion does not complete 'ssdkeeperctl o' to op"

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
