#!/usr/bin/env bash
# Builds the .deb with CPack from a finished build tree and checks it as a user would get it:
# the files it installs, its dependencies, and that the packaged ssdkeeperctl runs.
# Usage: check-deb.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?usage: check-deb.sh BUILD_DIR}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

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
    /usr/share/polkit-1/actions/io.github.ssdkeeper.policy; do
  grep -qx "$expected" "$work/files" || { echo "missing from package: $expected"; exit 1; }
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
"$work/root/usr/bin/ssdkeeperctl" list >/dev/null
jq -e '.issues | length >= 5' "$work/root/usr/share/ssdkeeper/firmware/known-issues.json" \
  >/dev/null || { echo "the installed firmware catalog is not a catalog"; exit 1; }
"$work/root/usr/bin/ssdkeeperctl" --version
echo "package OK: $(wc -l < "$work/files") entries; Depends: $depends"
