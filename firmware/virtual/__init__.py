"""Virtual twins of the table's hardware, at the lowest boundary: pins, I2C bus, pixel strip.

The drivers above them are the same code that runs on the Pi; tests and the desktop simulation
use these in place of the real circuit.
"""
