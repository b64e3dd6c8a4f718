#!/usr/bin/env bash
# Builds the .deb with CPack from a finished build tree and checks it as a user would get it:
# the files it installs, its dependencies, that the packaged ssdkeeperctl runs, and then a real
# install, use and purge with dpkg in a throwaway lab VM (guest-install.sh).
# Usage: check-deb.sh BUILD_DIR
# Exit 77 (skip) after the checks of the extracted package when the lab VM cannot run here.
set -euo pipefail
build=$(cd "${1:?usage: check-deb.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lab_script=$here/../../scripts/lab
# In the build tree, not /tmp: the VM's guest sees this machine's files but has its own /tmp.
work=$(mktemp -d "$build/check-deb.XXXXXX")
vm_dir=$work/vm
lab() { "$lab_script" --dir "$vm_dir" "$@"; }
# The VM goes first, whatever failed (its --lifetime ends it even if this script is killed).
trap 'lab stop >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

(cd "$build" && cpack -G DEB -B "$work/out" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/out/ssdkeeper_*.deb)
echo "built $(basename "$deb") ($(du -h "$deb" | cut -f1))"

dpkg-deb -c "$deb" | awk '{print $6}' | sed 's#^\./#/#' > "$work/files"
for expected in /usr/bin/ssdkeeper /usr/bin/ssdkeeperctl \
    /usr/libexec/ssdkeeper/ssdkeeper-helper \
    /usr/libexec/ssdkeeper/ssdkeeper-cached \
    /usr/share/ssdkeeper/firmware/known-issues.json \
    /usr/share/applications/io.github.ssdkeeper.SSDKeeper.desktop \
    /usr/share/icons/hicolor/scalable/apps/io.github.ssdkeeper.SSDKeeper.svg \
    /usr/share/metainfo/io.github.ssdkeeper.SSDKeeper.metainfo.xml \
    /usr/share/polkit-1/actions/io.github.ssdkeeper.policy \
    /usr/lib/systemd/system/ssdkeeper-cache@.service \
    /usr/lib/systemd/system/ssdkeeper-cache-power.service \
    /usr/lib/systemd/system/ssdkeeper-cache-shutdown.service \
    /usr/lib/systemd/system/ssdkeeper-cache-sleep.service \
    /usr/lib/systemd/system/sleep.target.wants/ssdkeeper-cache-sleep.service \
    /usr/lib/systemd/system/multi-user.target.wants/ssdkeeper-cache-shutdown.service \
    /usr/lib/udev/rules.d/90-ssdkeeper-cache-power.rules \
    /usr/share/man/man1/ssdkeeper.1.gz /usr/share/man/man1/ssdkeeperctl.1.gz \
    /usr/share/bash-completion/completions/ssdkeeperctl \
    /usr/share/zsh/vendor-completions/_ssdkeeperctl; do
  grep -qx "$expected" "$work/files" || { echo "missing from package: $expected"; exit 1; }
done
# Documentation and completions: plain files, root's, readable by all (a completion is sourced,
# never run).
for doc in /usr/share/man/man1/ssdkeeper.1.gz /usr/share/man/man1/ssdkeeperctl.1.gz \
    /usr/share/bash-completion/completions/ssdkeeperctl \
    /usr/share/zsh/vendor-completions/_ssdkeeperctl \
    /usr/share/metainfo/io.github.ssdkeeper.SSDKeeper.metainfo.xml; do
  mode=$(dpkg-deb -c "$deb" | awk -v f=".$doc" '$6 == f {print $1, $2}')
  [[ $mode == "-rw-r--r-- root/root" ]] || { echo "$doc is '$mode', not -rw-r--r-- root/root"; exit 1; }
done

depends=$(dpkg-deb -f "$deb" Depends)
for lib in libqt6widgets6 libblkid1 libspdlog1; do
  [[ "$depends" == *"$lib"* ]] || { echo "Depends lacks $lib: $depends"; exit 1; }
done

dpkg-deb -x "$deb" "$work/root"
grep -q '/usr/libexec/ssdkeeper/ssdkeeper-helper' \
  "$work/root/usr/share/polkit-1/actions/io.github.ssdkeeper.policy" ||
  { echo "polkit policy does not name the installed helper path"; exit 1; }
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$work/root/usr/share/applications/io.github.ssdkeeper.SSDKeeper.desktop"
fi
# The packaged metainfo validates (no errors, no warnings) and the pages render without warnings.
metainfo_check=$(appstreamcli validate --no-net \
  "$work/root/usr/share/metainfo/io.github.ssdkeeper.SSDKeeper.metainfo.xml" 2>&1) ||
  { echo "appstreamcli validate: $metainfo_check"; exit 1; }
if grep -E '^(E|W):' <<<"$metainfo_check"; then echo "the packaged metainfo has errors or warnings"; exit 1; fi
for page in ssdkeeper ssdkeeperctl; do
  warnings=$(MANWIDTH=80 man -l --warnings "$work/root/usr/share/man/man1/$page.1.gz" 2>&1 >/dev/null)
  [[ -z $warnings ]] || { echo "man -l warns on $page.1.gz: $warnings"; exit 1; }
done
# The packaged bash completion completes the packaged program's commands.
completed=$(bash -c 'source "$1"; COMP_WORDS=(ssdkeeperctl op ""); COMP_CWORD=2; _ssdkeeperctl
  echo "${COMPREPLY[*]}"' _ "$work/root/usr/share/bash-completion/completions/ssdkeeperctl")
[[ $completed == "plan apply undo recover" ]] ||
  { echo "the packaged bash completion gives '$completed' for 'ssdkeeperctl op '"; exit 1; }
# The RAM cache's units: the static hooks link to the units beside them, every ExecStart names
# the packaged ssdkeeperctl, and systemd-analyze verify (in the extracted tree, with the host's
# own units for the targets they name) finds nothing to say.
units="$work/root/usr/lib/systemd/system"
for link in sleep.target.wants/ssdkeeper-cache-sleep.service \
    multi-user.target.wants/ssdkeeper-cache-shutdown.service; do
  [[ -f "$units/$link" && -L "$units/$link" ]] || { echo "$link is not a link to a unit"; exit 1; }
done
if grep -h '^Exec' "$units"/ssdkeeper-cache*.service | grep -v '=/usr/bin/ssdkeeperctl cache '; then
  echo "a unit runs something else than the packaged ssdkeeperctl"; exit 1
fi
grep -q 'systemctl --no-block start ssdkeeper-cache-power.service' \
  "$work/root/usr/lib/udev/rules.d/90-ssdkeeper-cache-power.rules" ||
  { echo "the udev rule does not start ssdkeeper-cache-power.service"; exit 1; }
if command -v systemd-analyze >/dev/null && [[ -d /lib/systemd/system ]]; then
  cp -rn /lib/systemd/system/. "$units/"
  instance='ssdkeeper-cache@dev-disk-by\x2dpartuuid-4c1d\x2d01.service'
  cp "$units/ssdkeeper-cache@.service" "$units/$instance"
  verify=$(cd "$units" && systemd-analyze --root="$work/root" verify --man=no \
    ssdkeeper-cache-power.service ssdkeeper-cache-sleep.service \
    ssdkeeper-cache-shutdown.service "$instance" 2>&1) ||
    { echo "systemd-analyze verify failed: $verify"; exit 1; }
  [[ -z "$verify" ]] || { echo "systemd-analyze verify: $verify"; exit 1; }
  echo "systemd-analyze verify: the cache units are clean"
else
  echo "systemd-analyze or /lib/systemd/system missing: units not verified"
fi
"$work/root/usr/bin/ssdkeeperctl" list >/dev/null
jq -e '.issues | length >= 5' "$work/root/usr/share/ssdkeeper/firmware/known-issues.json" \
  >/dev/null || { echo "the installed firmware catalog is not a catalog"; exit 1; }
"$work/root/usr/bin/ssdkeeperctl" --version
echo "package OK: $(wc -l < "$work/files") entries; Depends: $depends"

# Install it for real, never on this machine: the lab VM's root is this machine's root under a
# tmpfs overlay, so dpkg installs, the programs run and the purge happens there only.
version=$(dpkg-deb -f "$deb" Version)
rc=0
lab start --lifetime 900 || rc=$?
if [[ $rc == 77 ]]; then
  echo "SKIP: the lab VM cannot run here, the .deb was not installed"; exit 77
fi
[[ $rc == 0 ]] || { echo "the lab VM did not start"; exit 1; }
lab run --timeout 420 sh "$here/guest-install.sh" "$deb" "$version" ||
  { echo "installing, running or purging the .deb in the lab VM failed"; exit 1; }
