"""The drivers: the switch matrix, the console, the OLED (SSD1306 protocol and link), the LED
strip, the pin map, the clock and the input events. They know the hardware and no game: nothing
here imports the table application, the service or the command line.
"""
