"""The look shared by the terminal apps (the simulation and Coda): one palette and the `.tcss`
style sheets in `styles/`.
"""
