"""``python -m vahalite_bot``: the ``vahalite`` command (``vahalite_bot.cli``)."""

from vahalite_bot.cli import main

main()
