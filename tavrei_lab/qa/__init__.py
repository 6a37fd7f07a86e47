"""Quality checks that run the whole package: the self-play soak (``qa.soak``).

These are harnesses, not parts of the engine: they drive games, agents,
records and hashes together and report what broke, so they sit above the
parts they check and below the command line that runs them
(``tavrei-lab soak``).
"""
