"""The folders that do not outlive a reboot are listed twice, for two languages: in the firmware
(`run` and `run --check-config` refuse them) and in `install.sh` (which refuses them before any
venv exists). This keeps the two lists the same."""

import re

from firmware.service.state_dir import VOLATILE

from ..paths import REPO


def test_install_sh_refuses_exactly_the_folders_the_firmware_refuses() -> None:
    script = (REPO / "systemd" / "install.sh").read_text(encoding="utf-8")
    [pattern] = re.findall(r"^\s*(/tmp \|[^)]*)\)", script, flags=re.M)
    alternatives = {alternative.strip() for alternative in pattern.split("|")}
    folders = {alternative for alternative in alternatives if not alternative.endswith("/*")}
    assert folders == {str(folder) for folder in VOLATILE}
    assert alternatives == folders | {f"{folder}/*" for folder in folders}  # and what is below
