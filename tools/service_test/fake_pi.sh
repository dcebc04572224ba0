#!/bin/sh
# Run COMMAND... where /proc/device-tree/model names a Raspberry Pi: how `make service-test`
# lets systemd/install.sh accept its container, which has no device tree. It only lives in a
# private mount namespace (run it under `unshare --mount --propagation private`): there /proc
# becomes a tmpfs of links to the real procfs, plus the fake model. install.sh itself is
# unchanged, and nothing outside this namespace sees the fake.
set -eu
real=/run/service-test-proc
mkdir -p "$real"
mount --rbind /proc "$real"
mount -t tmpfs -o mode=0555 service-test-proc /proc
for entry in "$real"/* "$real"/.[!.]*; do
    if [ -e "$entry" ] || [ -L "$entry" ]; then
        ln -s "$entry" "/proc/${entry##*/}"
    fi
done
mkdir /proc/device-tree
printf 'Raspberry Pi 4 Model B Rev 1.5\000' >/proc/device-tree/model
exec "$@"
