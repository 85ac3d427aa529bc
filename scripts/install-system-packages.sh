#!/usr/bin/env bash
# Installs the Debian packages LeadFlow needs, only those missing. Usage:
#   scripts/install-system-packages.sh run    # what the product needs (OCR)
#   scripts/install-system-packages.sh test   # plus what the suite needs (a browser, PostgreSQL and Redis)
#   scripts/install-system-packages.sh up     # plus PostgreSQL and Redis for `make up`
set -euo pipefail

packages=(tesseract-ocr tesseract-ocr-deu tesseract-ocr-eng poppler-utils)
case "${1:-run}" in
  test) packages+=(chromium postgresql redis-server) ;;  # the suite starts `make up`'s servers too
  up) packages+=(postgresql redis-server) ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO=sudo; else
    echo "Missing Debian packages: ${missing[*]}. Install them as root: apt-get install ${missing[*]}" >&2
    exit 1
  fi
else
  SUDO=
fi
echo "Installing Debian packages: ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
