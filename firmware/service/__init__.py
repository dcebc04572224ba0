"""The service on the Raspberry Pi: `run` (the real hardware, or the virtual one with the real
clock), systemd's notify protocol and watchdog, the self-test and the state folder's rules.
"""
