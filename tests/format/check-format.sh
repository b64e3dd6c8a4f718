#!/usr/bin/env bash
# check-format.sh SOURCE_DIR: fails naming each tracked .cpp/.h file clang-format would change
# (fix with `clang-format -i FILE`). Skips (77) outside a git checkout or without clang-format.
set -euo pipefail
cd "$1"
command -v clang-format >/dev/null || { echo "SKIPPED: clang-format is not installed (scripts/setup installs it)"; exit 77; }
git rev-parse --git-dir >/dev/null 2>&1 || { echo "SKIPPED: $1 is not a git checkout"; exit 77; }
mapfile -t files < <(git ls-files '*.cpp' '*.h')
[ ${#files[@]} -gt 0 ] || { echo "no C++ files found in $1"; exit 1; }
# One clang-format process for all files (one per file took a minute, mostly its start-up);
# each change it would make is an "error:" line naming the file.
report=$(printf '%s\0' "${files[@]}" | xargs -0 clang-format --dry-run --Werror 2>&1) || true
mapfile -t bad < <(grep -E '^[^:]+:[0-9]+:[0-9]+: error:' <<<"$report" | cut -d: -f1 | sort -u)
if [ ${#bad[@]} -gt 0 ]; then
    printf 'clang-format would change: %s\n' "${bad[@]}"
    exit 1
fi
if grep -qv '^$' <<<"$report"; then
    # clang-format failed without naming a change (an unreadable .clang-format, say).
    printf '%s\n' "$report" | head -n 20
    exit 1
fi
echo "${#files[@]} files formatted as .clang-format says"
