"""The table application: the game loop that turns input events into play, and what it needs
above the drivers (the store of saved games, the menu, the sand timer, the screens and their
texts, fonts and translations, the LED key's pattern and the key itself, the config, and the
devices and the table wired from it). No GPIO, bus or Textual here.
"""
