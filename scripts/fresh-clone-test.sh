#!/usr/bin/env bash
# A new user's first run, as the README tells it: `npm ci && npm test` in a clean clone of the committed
# tree (HEAD), on a machine without PocketSphinx and without a system Chromium or Chrome (hidden from
# PATH; CHROMIUM_PATH=packaged also passes over the usual places and Playwright's own, so the end-to-end
# tests run on the Chromium packaged in @sparticuz/chromium, as on a machine with Node alone), and with
# REQUIRE_OPTIONAL_PROGRAMS unset. Passes when the run passes on that browser and ends its unit tests
# with the line listing the PocketSphinx skips.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/fresh-clone-XXXXXX")"
# Run as root, embedded PostgreSQL runs its binaries as a `postgres` user, who must reach them in the clone.
chmod 755 "$work"
log="$work/npm-test.log"
started=$SECONDS

fail() {
  echo "fresh-clone-test: FAILED: $*" >&2
  echo "fresh-clone-test: the clone and the log stay in $work" >&2
  exit 1
}

git clone --quiet "$repo" "$work/repo"
echo "fresh-clone-test: cloned $(git -C "$work/repo" rev-parse --short HEAD) into $work/repo"

# Each PATH directory holding one of these becomes a directory of links to everything else in it (on
# Debian that is /usr/bin, and /bin, which points to it).
hidden=(pocketsphinx_continuous chromium chromium-browser google-chrome google-chrome-stable)
is_hidden() {
  local name
  for name in "${hidden[@]}"; do [ "$1" = "$name" ] && return 0; done
  return 1
}
path_without=""
index=0
IFS=: read -ra dirs <<<"$PATH"
for dir in "${dirs[@]}"; do
  [ -n "$dir" ] || continue
  holds=""
  for program in "${hidden[@]}"; do [ -e "$dir/$program" ] && holds=yes; done
  if [ -n "$holds" ]; then
    copy="$work/path-$index"
    mkdir -p "$copy"
    for file in "$dir"/*; do
      is_hidden "$(basename "$file")" || ln -s "$file" "$copy/"
    done
    dir="$copy"
  fi
  path_without="${path_without:+$path_without:}$dir"
  index=$((index + 1))
done
for program in "${hidden[@]}"; do
  if PATH="$path_without" command -v "$program" >/dev/null; then fail "$program is still on the PATH"; fi
done
echo "fresh-clone-test: ${hidden[*]} hidden from PATH"

cd "$work/repo"
run() { env -u REQUIRE_OPTIONAL_PROGRAMS PATH="$path_without" CHROMIUM_PATH=packaged "$@"; }
run npm ci --no-audit --no-fund || fail "npm ci refused the lock file"
git diff --quiet -- package-lock.json || fail "npm ci changed package-lock.json"
run npm test 2>&1 | tee "$log" || fail "npm test failed"

grep -aq 'end-to-end tests will use .* (packaged)' "$log" || fail "the tests did not run on the packaged Chromium"
summary="$(grep -a 'for want of optional programs: PocketSphinx is not installed' "$log" || true)"
[ -n "$summary" ] || fail "no summary line listing the PocketSphinx skips"
for file in transcribe-job.test.ts analyze-job.test.ts media-chain.test.ts; do
  [[ "$summary" == *"$file"* ]] || fail "the summary line does not list $file"
done

echo "fresh-clone-test: passed in $(((SECONDS - started) / 60)) min $(((SECONDS - started) % 60)) s"
echo "fresh-clone-test: $summary"
rm -rf "$work"
