"""Tests of `firmware.drivers`, on gpiozero's mock pins and the fake I2C bus."""
