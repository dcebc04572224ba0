"""The fleet: a table reports to a café's MQTT broker (`publisher`), in messages of a versioned
JSON schema (`messages`) that never carry the key.

Off by default: only a config with `[fleet]` imports `paho-mqtt`, through `attach` (and
through `check`, the staff's `selftest --fleet`).
"""
