"""The drivers: the switch matrix, the console, the OLED (SSD1306 protocol and link), the LED
strip and the key's picture on it, the pin map, the clock and the input events. They know the
hardware and no game: nothing here imports the table application, the service, the command line
or the virtual twins (those are handed in, as the real hardware is).
"""
