#!/usr/bin/env bash
# check-platform-headers.sh SOURCE_DIR: fails naming each source file of the programs and core
# libraries that includes a Linux-only header outside a platform/linux/ directory (DESIGN.md,
# "Platforms": OS code lives only under the platform/<os>/ of the area that needs it), and each
# file of core/base that includes a POSIX header outside core/base/platform/, and each file under
# a platform/replay/ directory that includes anything but standard C++ and the project's headers.
# The allowlist below names the files not moved yet; it can only shrink: a listed file that
# no longer includes such a header fails too, until its line is deleted.
set -euo pipefail
cd "$1"

# Headers only Linux has (kernel UAPI, Linux system calls, Linux-only libraries).
linux_only='linux/|scsi/|sys/ioctl\.h|sys/mount\.h|sys/sysmacros\.h|sys/inotify\.h|sys/epoll\.h'
linux_only+='|sys/prctl\.h|sys/fsuid\.h|sys/eventfd\.h|sys/signalfd\.h|sys/timerfd\.h'
linux_only+='|sys/fanotify\.h|sys/sysinfo\.h|sys/vfs\.h|sys/sendfile\.h|mntent\.h'
linux_only+='|libnvme\.h|nvme/|blkid\.h|blkid/|libfdisk\.h|libfdisk/|libmount\.h|libmount/'
linux_only+='|atasmart\.h|libudev\.h|fwupd\.h'
include_re="^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($linux_only)"

# path <TAB> why it is still here and what removes it
allowlist="$(cat <<'LIST'
LIST
)"

dirs=()
for dir in core app cli helper daemon monitor; do
    [ -d "$dir" ] && dirs+=("$dir")
done
[ ${#dirs[@]} -gt 0 ] || { echo "no source directories found in $1"; exit 1; }

mapfile -t offenders < <(
    find "${dirs[@]}" -type f \( -name '*.cpp' -o -name '*.h' -o -name '*.hpp' -o -name '*.cc' \
        -o -name '*.c' -o -name '*.mm' \) -not -path '*/platform/linux/*' -print0 |
        xargs -0 -r grep -lE "$include_re" | sort || true)

declare -A allowed=()
while IFS=$'\t' read -r path _; do
    [ -n "$path" ] && allowed["$path"]=1
done <<<"$allowlist"

status=0
declare -A found=()
for file in "${offenders[@]}"; do
    found["$file"]=1
    if [ -z "${allowed[$file]:-}" ]; then
        echo "$file includes a Linux-only header outside platform/linux/:"
        grep -nE "$include_re" "$file" | sed 's/^/    /'
        status=1
    fi
done
for path in "${!allowed[@]}"; do
    if [ -z "${found[$path]:-}" ]; then
        echo "$path is on the allowlist of $0 but includes no Linux-only header (any more):"
        echo "    delete its line there"
        status=1
    fi
done

# core/base is what every platform builds first: not even POSIX headers outside its platform/
# (a Windows build gives core/base a platform/windows/ of its own).
posix_re='^[[:space:]]*#[[:space:]]*include[[:space:]]*<(unistd|fcntl|dirent|poll|pwd|grp|spawn|dlfcn|pthread|termios|sys/[a-z_]+)\.h>'
mapfile -t posix < <(find core/base -type f \( -name '*.cpp' -o -name '*.h' \) \
    -not -path 'core/base/platform/*' -print0 | xargs -0 -r grep -lE "$posix_re" | sort || true)
for file in "${posix[@]}"; do
    echo "$file includes a POSIX header outside core/base/platform/:"
    grep -nE "$posix_re" "$file" | sed 's/^/    /'
    status=1
done

# The replay platform (core/platform/replay/, docs/architecture.md) is standard C++ alone: its
# files under platform/replay/ include the standard library's headers (<name>, no extension or
# directory), fmt, spdlog, nlohmann/json and the project's own, never a POSIX or Linux one.
replay_re='^[[:space:]]*#[[:space:]]*include[[:space:]]*<'
replay_ok='#[[:space:]]*include[[:space:]]*<([a-z_]+|fmt/[a-z_/]+\.h|spdlog/[a-z_/]+\.h|nlohmann/[a-z_/]+\.hpp)>'
mapfile -t replay < <(find core -type f \( -name '*.cpp' -o -name '*.h' \) -path '*/platform/replay/*' \
    -print0 | xargs -0 -r grep -lE "$replay_re" | sort || true)
for file in "${replay[@]}"; do
    if grep -E "$replay_re" "$file" | grep -vqE "$replay_ok"; then
        echo "$file includes a header that is not standard C++ under platform/replay/:"
        grep -nE "$replay_re" "$file" | grep -vE "$replay_ok" | sed 's/^/    /'
        status=1
    fi
done

if [ $status -eq 0 ]; then
    echo "no Linux-only header outside platform/linux/ (${#allowed[@]} allowlisted files)," \
        "no POSIX header in core/base outside its platform/, only standard C++ under platform/replay/"
fi
exit $status
