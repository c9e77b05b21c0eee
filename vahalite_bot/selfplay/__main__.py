import sys

from vahalite_bot.selfplay.cli import main

sys.exit(main())
